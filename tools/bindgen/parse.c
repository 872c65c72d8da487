/* parse.c — reads the description of the calls: files of C prototypes, one per chapter.
 *     # comment line
 *     @section point-to-point
 *     int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
 *                  MPI_Comm comm);
 *     @walk set dest=MPI_PROC_NULL
 * A prototype may span lines; it ends at its ';'. A parameter list may end with `...`
 * (variadic calls: the entry points pass on only the named arguments). `@walk` lines belong
 * to the prototype before them (walk.c says what they mean). Anything else stops the build
 * with the file and line: the input is loom's own and must be exact. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bindgen.h"

struct call bg_calls[MAX_CALLS];
int bg_ncalls;
static char *sections[MAX_CALLS], *files[MAX_CALLS];
static int nsections, nfiles;
static char section_skip[256]; /* `@walk skip` of the section being read, "" if none */
static char section_fskip[192]; /* `@fortran skip` of the section being read, "" if none */

void bg_die(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "loom-bindgen: %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

static int is_ident(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_';
}

/* Split one parameter "const int ranks[]" into its name (ranks) and type (const int []):
 * the name is the last identifier outside brackets. 0 if there is no name ("void"). */
static int split_param(const char *p, struct param *out)
{
    const char *end = p + strlen(p);
    const char *lb = strchr(p, '[');
    if (lb)
        end = lb;
    while (end > p && isspace((unsigned char)end[-1]))
        end--;
    const char *start = end;
    while (start > p && is_ident(start[-1]))
        start--;
    size_t n = (size_t)(end - start);
    if (n == 0 || n >= sizeof out->name || start == p)
        return 0;
    memcpy(out->name, start, n);
    out->name[n] = '\0';
    /* the type: everything but the name, runs of spaces made one */
    char type[sizeof out->type];
    snprintf(type, sizeof type, "%.*s %s", (int)(start - p), p, lb ? lb : "");
    size_t k = 0;
    for (const char *q = type; *q && k + 1 < sizeof out->type; q++)
        if (!isspace((unsigned char)*q) || (k > 0 && out->type[k - 1] != ' '))
            out->type[k++] = isspace((unsigned char)*q) ? ' ' : *q;
    while (k > 0 && out->type[k - 1] == ' ')
        k--;
    out->type[k] = '\0';
    return 1;
}

/* Fill c->param and c->args from c->params: split at top-level commas. */
static void parse_params(struct call *c)
{
    char list[MAX_TEXT];
    snprintf(list, sizeof list, "%s", c->params);
    if (strcmp(trim(list), "void") == 0)
        return;
    int depth = 0;
    char *p = list;
    for (char *q = list;; q++) {
        if (*q == '(' || *q == '[')
            depth++;
        else if (*q == ')' || *q == ']')
            depth--;
        if ((*q == ',' && depth == 0) || *q == '\0') {
            int last = *q == '\0';
            *q = '\0';
            if (strcmp(trim(p), "...") == 0) {
                /* A variadic call (MPI_Pcontrol): the declarations keep the `...`, but the
                 * entry points pass on only the named arguments, since C cannot forward a
                 * variable argument list (docs/bindings.md). */
                if (!last || c->nparams == 0)
                    bg_die(c->file, c->line, "%s: `...` must follow the last named parameter",
                           c->name);
                c->variadic = 1;
                break;
            }
            if (c->nparams == MAX_PARAMS)
                bg_die(c->file, c->line, "%s: too many parameters", c->name);
            struct param *pa = &c->param[c->nparams++];
            if (!split_param(trim(p), pa))
                bg_die(c->file, c->line, "%s: a parameter without a name: '%s'", c->name,
                       trim(p));
            char name[sizeof pa->name]; /* a copy: GCC cannot tell pa->name from c->args */
            memcpy(name, pa->name, sizeof name);
            size_t len = strlen(c->args);
            snprintf(c->args + len, sizeof c->args - len, "%s%s", len ? ", " : "", name);
            if (last)
                break;
            p = q + 1;
        }
    }
}

/* One prototype, whitespace already collapsed: "RET NAME(PARAMS);". */
static void add_call(const char *text, const char *section, const char *file, int line)
{
    if (bg_ncalls == MAX_CALLS)
        bg_die(file, line, "more than %d calls", MAX_CALLS);
    if (!section)
        bg_die(file, line, "a prototype before any @section");
    struct call *c = &bg_calls[bg_ncalls];
    c->file = file;
    c->line = line;
    const char *lp = strchr(text, '(');
    const char *rp = strrchr(text, ')');
    if (!lp || !rp || rp < lp || strcmp(rp, ");") != 0)
        bg_die(file, line, "not a prototype 'TYPE NAME(PARAMS);': %s", text);
    const char *name_end = lp;
    while (name_end > text && isspace((unsigned char)name_end[-1]))
        name_end--;
    const char *name = name_end;
    while (name > text && is_ident(name[-1]))
        name--;
    size_t nlen = (size_t)(name_end - name), rlen = (size_t)(name - text);
    if (nlen == 0 || nlen >= sizeof c->name || rlen == 0 || rlen >= sizeof c->ret ||
        strncmp(name, "MPI_", 4) != 0)
        bg_die(file, line, "no MPI_ name in: %s", text);
    memcpy(c->name, name, nlen);
    c->name[nlen] = '\0';
    char ret[sizeof c->ret];
    memcpy(ret, text, rlen);
    ret[rlen] = '\0';
    snprintf(c->ret, sizeof c->ret, "%s", trim(ret));
    size_t plen = (size_t)(rp - lp - 1);
    if (plen >= sizeof c->params)
        bg_die(file, line, "%s: parameter list too long", c->name);
    memcpy(c->params, lp + 1, plen);
    c->params[plen] = '\0';
    for (int i = 0; i < bg_ncalls; i++)
        if (strcmp(bg_calls[i].name, c->name) == 0)
            bg_die(file, line, "%s described twice", c->name);
    c->section = section;
    snprintf(c->walk_skip, sizeof c->walk_skip, "%s", section_skip);
    snprintf(c->fortran_skip, sizeof c->fortran_skip, "%s", section_fskip);
    parse_params(c);
    bg_ncalls++;
}

/* `@walk skip REASON`, `@walk set NAME=EXPR`, `@walk bad NAME=EXPR:CLASS`,
 * `@walk nobad NAME`, for the call just read; `@walk skip REASON` before the first prototype
 * of a section, for all its calls. */
static void add_walk_note(char *s, const char *section, const char *file, int line)
{
    if (bg_ncalls == 0 || bg_calls[bg_ncalls - 1].section != section) {
        /* before the first prototype of its section: for every call of the section */
        if (strncmp(s, "skip ", 5) != 0)
            bg_die(file, line, "only `@walk skip` may stand before a section's prototypes");
        snprintf(section_skip, sizeof section_skip, "%s", trim(s + 5));
        return;
    }
    struct call *c = &bg_calls[bg_ncalls - 1];
    if (strncmp(s, "skip ", 5) == 0) {
        snprintf(c->walk_skip, sizeof c->walk_skip, "%s", trim(s + 5));
        return;
    }
    if (c->nnotes == MAX_NOTES)
        bg_die(file, line, "%s: too many @walk notes", c->name);
    struct walk_note *n = &c->notes[c->nnotes];
    char *sp = strchr(s, ' ');
    if (!sp)
        bg_die(file, line, "@walk what? %s", s);
    *sp = '\0';
    char *rest = trim(sp + 1);
    if (strcmp(s, "set") != 0 && strcmp(s, "bad") != 0 && strcmp(s, "nobad") != 0)
        bg_die(file, line, "@walk %s: not skip, set, bad or nobad", s);
    snprintf(n->kind, sizeof n->kind, "%s", s);
    char *eq = strchr(rest, '=');
    if ((eq == NULL) != (strcmp(s, "nobad") == 0))
        bg_die(file, line, "@walk %s %s: expected %s", s, rest,
               strcmp(s, "nobad") == 0 ? "NAME" : "NAME=...");
    if (eq) {
        *eq = '\0';
        snprintf(n->expr, sizeof n->expr, "%s", trim(eq + 1));
    }
    snprintf(n->name, sizeof n->name, "%s", trim(rest));
    int known = 0;
    for (int i = 0; i < c->nparams; i++)
        known |= strcmp(c->param[i].name, n->name) == 0;
    if (!known)
        bg_die(file, line, "@walk: %s has no parameter %s", c->name, n->name);
    c->nnotes++;
}

/* `@fortran skip REASON`, `@fortran hand REASON`, `@fortran logical NAME`,
 * `@fortran drop NAME=EXPR`, `@fortran len NAME=EXPR`, `@fortran index NAME=EXPR` for the
 * call just read; `@fortran skip REASON` before the first prototype of a section, for all its
 * calls (fortran_types.c says what each means). */
static void add_fortran_note(char *s, const char *section, const char *file, int line)
{
    if (bg_ncalls == 0 || bg_calls[bg_ncalls - 1].section != section) {
        if (strncmp(s, "skip ", 5) != 0)
            bg_die(file, line, "only `@fortran skip` may stand before a section's prototypes");
        snprintf(section_fskip, sizeof section_fskip, "%s", trim(s + 5));
        return;
    }
    struct call *c = &bg_calls[bg_ncalls - 1];
    if (strncmp(s, "skip ", 5) == 0 || strncmp(s, "hand ", 5) == 0) {
        c->fortran_hand = s[0] == 'h';
        snprintf(c->fortran_skip, sizeof c->fortran_skip, "%s", trim(s + 5));
        return;
    }
    if (c->nfnotes == MAX_NOTES)
        bg_die(file, line, "%s: too many @fortran notes", c->name);
    struct fortran_note *n = &c->fnotes[c->nfnotes];
    char *sp = strchr(s, ' ');
    if (!sp)
        bg_die(file, line, "@fortran what? %s", s);
    *sp = '\0';
    char *rest = trim(sp + 1);
    /* an index array needs the count of its entries; a scalar index, LOGICAL nothing */
    int want_expr = strcmp(s, "drop") == 0 || strcmp(s, "len") == 0;
    if (strcmp(s, "logical") != 0 && strcmp(s, "drop") != 0 && strcmp(s, "len") != 0 &&
        strcmp(s, "index") != 0)
        bg_die(file, line, "@fortran %s: not skip, hand, logical, drop, len or index", s);
    snprintf(n->kind, sizeof n->kind, "%s", s);
    char *eq = strchr(rest, '=');
    if (want_expr && !eq)
        bg_die(file, line, "@fortran %s %s: expected NAME=EXPR", s, rest);
    if (!eq != (strcmp(s, "logical") == 0) && strcmp(s, "index") != 0)
        bg_die(file, line, "@fortran %s %s: expected NAME", s, rest);
    if (eq) {
        *eq = '\0';
        snprintf(n->expr, sizeof n->expr, "%s", trim(eq + 1));
    }
    snprintf(n->name, sizeof n->name, "%s", trim(rest));
    int known = 0;
    for (int i = 0; i < c->nparams; i++)
        known |= strcmp(c->param[i].name, n->name) == 0;
    if (!known)
        bg_die(file, line, "@fortran: %s has no parameter %s", c->name, n->name);
    c->nfnotes++;
}

void bg_read_api(const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f)
        bg_die(file, 0, "cannot open");
    file = files[nfiles++] = strdup(file);
    char line[MAX_TEXT], text[MAX_TEXT * 2] = "";
    const char *section = NULL;
    int lineno = 0, start = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *s = trim(line);
        if (*s == '\0' || *s == '#')
            continue;
        if (*s == '@') {
            if (text[0])
                bg_die(file, lineno, "a directive inside a prototype: %s", s);
            if (strncmp(s, "@section ", 9) == 0) {
                section = sections[nsections++] = strdup(trim(s + 9));
                section_skip[0] = '\0';
                section_fskip[0] = '\0';
            }
            else if (strncmp(s, "@walk ", 6) == 0)
                add_walk_note(trim(s + 6), section, file, lineno);
            else if (strncmp(s, "@fortran ", 9) == 0)
                add_fortran_note(trim(s + 9), section, file, lineno);
            else
                bg_die(file, lineno, "unknown directive: %s", s);
            continue;
        }
        if (!text[0])
            start = lineno;
        if (strlen(text) + strlen(s) + 2 >= sizeof text)
            bg_die(file, start, "prototype too long");
        if (text[0] && text[strlen(text) - 1] != '(')
            strcat(text, " ");
        strcat(text, s);
        if (text[strlen(text) - 1] == ';') {
            add_call(text, section, file, start);
            text[0] = '\0';
        }
    }
    if (text[0])
        bg_die(file, start, "prototype without its ';'");
    fclose(f);
}

void bg_free(void)
{
    for (int k = 0; k < nsections; k++)
        free(sections[k]);
    for (int k = 0; k < nfiles; k++)
        free(files[k]);
}

const char *bg_impl_name(const struct call *c)
{
    static char buf[128];
    if (c->shares)
        c = c->shares;
    snprintf(buf, sizeof buf, "loom__mpi_%s", c->name + 4);
    for (char *p = buf + 10; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return buf;
}
