/* loom-bindgen — makes loom's MPI bindings from one description of the calls.
 *
 * Input: files of C prototypes (src/api/calls/<chapter>.api), one per chapter of the standard:
 *     # comment line
 *     @section point-to-point
 *     int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
 *                  MPI_Comm comm);
 * A prototype may span lines; it ends at its ';'.
 *
 * Output, for every call MPI_Xxx (docs/bindings.md says why this shape):
 *   --proto FILE     the public declarations of MPI_Xxx and PMPI_Xxx (included by mpi.h);
 *   --impl FILE      the declaration of loom__mpi_xxx, loom's implementation of the call
 *                    (hand-written in src/api/, compiled against this header so that the
 *                    description and the code cannot disagree);
 *   --bindings FILE  the definitions of PMPI_Xxx and of a weak MPI_Xxx, each a direct call of
 *                    loom__mpi_xxx: a tool's MPI_Xxx replaces the weak one and calls PMPI_Xxx;
 *   --list FILE      the names of the calls, one per line (for tests and tools).
 * Files are rewritten only when their content changes, so that a new comment in a .api file
 * rebuilds nothing.
 *
 * A build tool: it runs on the build machine, reads trusted input, and stops with a message
 * naming the file and line on anything it does not understand. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_CALLS = 2048, MAX_PARAMS = 24, MAX_TEXT = 1024 };

struct call {
    char ret[64];                    /* return type: "int", "double", "MPI_Aint" */
    char name[96];                   /* MPI_Xxx */
    char params[MAX_TEXT];           /* the parameter list as written, "void" when empty */
    char args[MAX_TEXT];             /* the parameter names, comma-separated, for a call */
    const char *section;             /* the @section it is in (owned by sections[]) */
};

static struct call calls[MAX_CALLS];
static int ncalls;
static char *sections[MAX_CALLS];
static int nsections;

static void die(const char *file, int line, const char *fmt, ...)
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

/* The name a parameter declares: the last identifier outside brackets ("const int ranks[]"
 * -> ranks, "int ranges[][3]" -> ranges). 0 if there is none. */
static int param_name(const char *p, char *out, size_t outlen)
{
    const char *end = p + strlen(p);
    const char *lb = strchr(p, '[');
    if (lb)
        end = lb;
    while (end > p && isspace((unsigned char)end[-1]))
        end--;
    const char *start = end;
    while (start > p && (isalnum((unsigned char)start[-1]) || start[-1] == '_'))
        start--;
    size_t n = (size_t)(end - start);
    if (n == 0 || n >= outlen || start == p)
        return 0; /* no name, or a type alone ("void") */
    memcpy(out, start, n);
    out[n] = '\0';
    return 1;
}

/* Fill c->args from c->params: split at top-level commas. */
static void parse_params(struct call *c, const char *file, int line)
{
    char list[MAX_TEXT];
    snprintf(list, sizeof list, "%s", c->params);
    c->args[0] = '\0';
    if (strcmp(trim(list), "void") == 0)
        return;
    int depth = 0, nparams = 0;
    char *p = list;
    for (char *q = list;; q++) {
        if (*q == '(' || *q == '[')
            depth++;
        else if (*q == ')' || *q == ']')
            depth--;
        if ((*q == ',' && depth == 0) || *q == '\0') {
            int last = *q == '\0';
            *q = '\0';
            char name[96];
            if (!param_name(trim(p), name, sizeof name))
                die(file, line, "%s: a parameter without a name: '%s'", c->name, trim(p));
            if (++nparams > MAX_PARAMS)
                die(file, line, "%s: too many parameters", c->name);
            if (c->args[0])
                strcat(c->args, ", ");
            strcat(c->args, name);
            if (last)
                break;
            p = q + 1;
        }
    }
}

/* One prototype, whitespace already collapsed: "RET NAME(PARAMS);". */
static void add_call(const char *text, const char *section, const char *file, int line)
{
    if (ncalls == MAX_CALLS)
        die(file, line, "more than %d calls", MAX_CALLS);
    if (!section)
        die(file, line, "a prototype before any @section");
    struct call *c = &calls[ncalls];
    const char *lp = strchr(text, '(');
    const char *rp = strrchr(text, ')');
    if (!lp || !rp || rp < lp || strcmp(rp, ");") != 0)
        die(file, line, "not a prototype 'TYPE NAME(PARAMS);': %s", text);
    const char *name_end = lp;
    while (name_end > text && isspace((unsigned char)name_end[-1]))
        name_end--;
    const char *name = name_end;
    while (name > text && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
        name--;
    size_t nlen = (size_t)(name_end - name), rlen = (size_t)(name - text);
    if (nlen == 0 || nlen >= sizeof c->name || rlen == 0 || rlen >= sizeof c->ret ||
        strncmp(name, "MPI_", 4) != 0)
        die(file, line, "no MPI_ name in: %s", text);
    memcpy(c->name, name, nlen);
    c->name[nlen] = '\0';
    char ret[sizeof c->ret];
    memcpy(ret, text, rlen);
    ret[rlen] = '\0';
    snprintf(c->ret, sizeof c->ret, "%s", trim(ret));
    size_t plen = (size_t)(rp - lp - 1);
    if (plen >= sizeof c->params)
        die(file, line, "%s: parameter list too long", c->name);
    memcpy(c->params, lp + 1, plen);
    c->params[plen] = '\0';
    for (int i = 0; i < ncalls; i++)
        if (strcmp(calls[i].name, c->name) == 0)
            die(file, line, "%s described twice", c->name);
    c->section = section;
    parse_params(c, file, line);
    ncalls++;
}

static void read_api(const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f)
        die(file, 0, "cannot open");
    char line[MAX_TEXT], text[MAX_TEXT * 2] = "";
    const char *section = NULL;
    int lineno = 0, start = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *s = trim(line);
        if (*s == '\0' || *s == '#')
            continue;
        if (*s == '@') {
            if (strncmp(s, "@section ", 9) != 0 || text[0])
                die(file, lineno, "unknown directive or one inside a prototype: %s", s);
            section = sections[nsections++] = strdup(trim(s + 9));
            continue;
        }
        if (!text[0])
            start = lineno;
        if (strlen(text) + strlen(s) + 2 >= sizeof text)
            die(file, start, "prototype too long");
        if (text[0] && text[strlen(text) - 1] != '(')
            strcat(text, " ");
        strcat(text, s);
        if (text[strlen(text) - 1] == ';') {
            add_call(text, section, file, start);
            text[0] = '\0';
        }
    }
    if (text[0])
        die(file, start, "prototype without its ';'");
    fclose(f);
}

/* loom__mpi_ and the name after MPI_, lower case: MPI_Type_size -> loom__mpi_type_size. */
static const char *impl_name(const struct call *c)
{
    static char buf[128];
    snprintf(buf, sizeof buf, "loom__mpi_%s", c->name + 4);
    for (char *p = buf + 10; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return buf;
}

/* Text being generated; written to its file at the end only if it changed. */
struct out {
    char *buf;
    size_t len, cap;
};

static void emit(struct out *o, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(o->buf ? o->buf + o->len : NULL, o->buf ? o->cap - o->len : 0, fmt,
                          ap);
        va_end(ap);
        if (n < 0)
            die("(output)", 0, "formatting failed");
        if (o->buf && o->len + (size_t)n < o->cap) {
            o->len += (size_t)n;
            return;
        }
        o->cap = (o->cap + (size_t)n + 1) * 2;
        o->buf = realloc(o->buf, o->cap);
        if (!o->buf)
            die("(output)", 0, "out of memory");
    }
}

/* "PREFIX NAME(params)END" wrapped at 100 columns, continuation lines aligned after '('. */
static void emit_decl(struct out *o, const char *prefix, const char *name, const char *params,
                      const char *end)
{
    char head[256];
    snprintf(head, sizeof head, "%s%s(", prefix, name);
    size_t indent = strlen(head), col = indent;
    emit(o, "%s", head);
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
            emit(o, "\n%*s", (int)indent, "");
            col = indent;
        } else if (col > indent) {
            emit(o, " ");
            col++;
        }
        emit(o, "%.*s", (int)n, p);
        col += n;
        p = q + (*q ? 1 : 0);
        while (*p == ' ')
            p++;
    }
    emit(o, ")%s\n", end);
}

static void write_if_changed(const char *path, const struct out *o)
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
        die(path, 0, "cannot write");
}

static const char generated[] = "Generated by loom-bindgen from src/api/calls/: edit those.";

static void gen_proto(struct out *o)
{
    emit(o, "/* mpi_proto.h — every MPI call loom has and its PMPI_ twin.\n * %s */\n", generated);
    emit(o, "#ifndef LOOM_MPI_PROTO_H\n#define LOOM_MPI_PROTO_H\n");
    const char *section = NULL;
    for (int i = 0; i < ncalls; i++) {
        if (calls[i].section != section) {
            section = calls[i].section;
            emit(o, "\n/* ---- %s ---- */\n", section);
        }
        char prefix[96];
        snprintf(prefix, sizeof prefix, "LOOM_API %.60s ", calls[i].ret);
        emit_decl(o, prefix, calls[i].name, calls[i].params, ";");
    }
    emit(o, "\n/* ---- the profiling interface: PMPI_Xxx does what MPI_Xxx does ---- */\n");
    for (int i = 0; i < ncalls; i++) {
        char prefix[96], name[112];
        snprintf(prefix, sizeof prefix, "LOOM_API %.60s ", calls[i].ret);
        snprintf(name, sizeof name, "P%.100s", calls[i].name);
        emit_decl(o, prefix, name, calls[i].params, ";");
    }
    emit(o, "\n#endif\n");
}

static void gen_impl(struct out *o)
{
    emit(o, "/* mpi_impl.h — loom's implementation of each MPI call, defined in src/api/.\n"
            " * %s */\n", generated);
    emit(o, "#ifndef LOOM_MPI_IMPL_H\n#define LOOM_MPI_IMPL_H\n#include \"mpi.h\"\n\n");
    for (int i = 0; i < ncalls; i++) {
        char prefix[96];
        snprintf(prefix, sizeof prefix, "%.60s ", calls[i].ret);
        emit_decl(o, prefix, impl_name(&calls[i]), calls[i].params, ";");
    }
    emit(o, "\n#endif\n");
}

static void gen_bindings(struct out *o)
{
    emit(o, "/* mpi_bindings.c — the MPI_ and PMPI_ entry points.\n * %s\n"
            " * MPI_Xxx is weak so that a profiling tool's MPI_Xxx, linked into the program or\n"
            " * preloaded, replaces it and reaches loom through PMPI_Xxx. */\n", generated);
    emit(o, "#include \"mpi_impl.h\"\n");
    for (int i = 0; i < ncalls; i++) {
        const struct call *c = &calls[i];
        char prefix[96], name[112];
        snprintf(prefix, sizeof prefix, "%.60s ", c->ret);
        snprintf(name, sizeof name, "P%.100s", c->name);
        emit(o, "\n");
        emit_decl(o, prefix, name, c->params, "");
        emit(o, "{\n    return %s(%s);\n}\n", impl_name(c), c->args);
        snprintf(prefix, sizeof prefix, "__attribute__((weak)) %.60s ", c->ret);
        emit_decl(o, prefix, c->name, c->params, "");
        emit(o, "{\n    return %s(%s);\n}\n", impl_name(c), c->args);
    }
}

static void gen_list(struct out *o)
{
    for (int i = 0; i < ncalls; i++)
        emit(o, "%s\n", calls[i].name);
}

int main(int argc, char **argv)
{
    const char *proto = NULL, *impl = NULL, *bindings = NULL, *list = NULL;
    int i = 1;
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (strcmp(argv[i], "--proto") == 0)
            proto = argv[i + 1];
        else if (strcmp(argv[i], "--impl") == 0)
            impl = argv[i + 1];
        else if (strcmp(argv[i], "--bindings") == 0)
            bindings = argv[i + 1];
        else if (strcmp(argv[i], "--list") == 0)
            list = argv[i + 1];
        else
            break;
    }
    if (i >= argc || (argv[i][0] == '-')) {
        fprintf(stderr, "usage: loom-bindgen [--proto H] [--impl H] [--bindings C] [--list F] "
                        "FILE.api...\n");
        return 2;
    }
    for (; i < argc; i++)
        read_api(argv[i]);
    struct {
        const char *path;
        void (*gen)(struct out *);
    } outputs[] = {{proto, gen_proto}, {impl, gen_impl}, {bindings, gen_bindings},
                   {list, gen_list}};
    for (size_t k = 0; k < sizeof outputs / sizeof outputs[0]; k++) {
        if (!outputs[k].path)
            continue;
        struct out o = {0};
        outputs[k].gen(&o);
        write_if_changed(outputs[k].path, &o);
        free(o.buf);
    }
    for (int k = 0; k < nsections; k++)
        free(sections[k]);
    return 0;
}
