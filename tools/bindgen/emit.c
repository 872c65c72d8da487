/* emit.c — generated text: built in memory, wrapped like loom's hand-written code, and
 * written only when it changed (so that a new comment in a .api file rebuilds nothing). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bindgen.h"

void bg_emit(struct out *o, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(o->buf ? o->buf + o->len : NULL, o->buf ? o->cap - o->len : 0, fmt,
                          ap);
        va_end(ap);
        if (n < 0)
            bg_die("(output)", 0, "formatting failed");
        if (o->buf && o->len + (size_t)n < o->cap) {
            o->len += (size_t)n;
            return;
        }
        o->cap = (o->cap + (size_t)n + 1) * 2;
        o->buf = realloc(o->buf, o->cap);
        if (!o->buf)
            bg_die("(output)", 0, "out of memory");
    }
}

void bg_emit_decl(struct out *o, const char *prefix, const char *name, const char *params,
                  const char *end)
{
    char head[256];
    snprintf(head, sizeof head, "%s%s(", prefix, name);
    size_t indent = strlen(head), col = indent;
    bg_emit(o, "%s", head);
    for (const char *p = params; *p;) {
        /* the next parameter, with its comma when it is not the last */
        const char *q = p;
        int depth = 0;
        while (*q && !(*q == ',' && depth == 0)) {
            depth += (*q == '(' || *q == '[') - (*q == ')' || *q == ']');
            q++;
        }
        size_t n = (size_t)(q - p) + (*q ? 1 : 0);
        size_t need = n + (*q ? 0 : strlen(end) + 1) + (col > indent);
        if (col > indent && col + need > 100) {
            bg_emit(o, "\n%*s", (int)indent, "");
            col = indent;
        } else if (col > indent) {
            bg_emit(o, " ");
            col++;
        }
        bg_emit(o, "%.*s", (int)n, p);
        col += n;
        p = q + (*q ? 1 : 0);
        while (*p == ' ')
            p++;
    }
    bg_emit(o, ")%s\n", end);
}

void bg_write_if_changed(const char *path, const struct out *o)
{
    FILE *f = fopen(path, "rb");
    if (f) {
        char *old = malloc(o->len + 1);
        size_t n = old ? fread(old, 1, o->len + 1, f) : 0;
        int same = old && n == o->len && memcmp(old, o->buf, o->len) == 0;
        free(old);
        fclose(f);
        if (same)
            return;
    }
    f = fopen(path, "wb");
    if (!f || fwrite(o->buf, 1, o->len, f) != o->len || fclose(f) != 0)
        bg_die(path, 0, "cannot write");
}
