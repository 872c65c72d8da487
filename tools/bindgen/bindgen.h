/* bindgen.h — loom-bindgen's model of the MPI calls and its output helpers.
 * loom-bindgen reads src/api/calls/<chapter>.api (parse.c) and writes the bindings
 * (bindings.c) and the bad-argument walk (walk.c); main.c says which files. */
#ifndef LOOM_BINDGEN_H
#define LOOM_BINDGEN_H
#include <stddef.h>

enum { MAX_CALLS = 2048, MAX_PARAMS = 24, MAX_TEXT = 1024, MAX_NOTES = 8 };

struct param {
    char type[128]; /* the declaration without its name, spaces collapsed: "const int []" */
    char name[64];
};

/* An `@walk` line after a prototype: how the bad-argument walk treats this call. */
struct walk_note {
    char kind[8];       /* "set", "bad", "nobad" */
    char name[64];      /* the parameter */
    char expr[256];     /* set: the valid value; bad: "EXPR:CLASS" */
};

struct call {
    char ret[64];            /* return type: "int", "double", "MPI_Aint" */
    char name[96];           /* MPI_Xxx */
    char params[MAX_TEXT];   /* the parameter list as written, "void" when empty */
    char args[MAX_TEXT];     /* the parameter names, comma-separated, for a call */
    struct param param[MAX_PARAMS];
    int nparams;
    int variadic;            /* the list ends with `...`: not in param or args (parse.c) */
    const char *section;     /* the @section it is in */
    const char *file;        /* where it is described, for messages */
    int line;
    char walk_skip[256];     /* `@walk skip REASON`: not walked, and why */
    struct walk_note notes[MAX_NOTES];
    int nnotes;
    /* the big-count call MPI_Xxx_c whose implementation this int call shares (its arguments
     * only widen: bigcount.c), NULL when it has its own */
    const struct call *shares;
    /* set on that MPI_Xxx_c: its implementation takes first the name of the call that
     * reached it (`const char *fn`), for its error messages and traces */
    int named;
};

extern struct call bg_calls[MAX_CALLS];
extern int bg_ncalls;

/* parse.c */
void bg_read_api(const char *file);
void bg_free(void);
/* loom__mpi_ and the name after MPI_, lower case: MPI_Type_size -> loom__mpi_type_size; the
 * implementation of the call it shares, if any. */
const char *bg_impl_name(const struct call *c);
void bg_die(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));

/* bigcount.c: set `shares` of each int call whose _c twin can take its arguments as they are. */
void bg_pair_bigcount(void);

/* emit.c: text being generated, written at the end only if it changed. */
struct out {
    char *buf;
    size_t len, cap;
};
void bg_emit(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "PREFIX NAME(params)END" wrapped at 100 columns, continuation lines aligned after '('. */
void bg_emit_decl(struct out *o, const char *prefix, const char *name, const char *params,
                  const char *end);
void bg_write_if_changed(const char *path, const struct out *o);

/* bindings.c */
void bg_gen_proto(struct out *o);
void bg_gen_impl(struct out *o);
void bg_gen_bindings(struct out *o);
void bg_gen_list(struct out *o);
/* the parameter list of a call's implementation (with `const char *fn` first when shared) */
const char *bg_impl_params(const struct call *c);
/* walk.c */
void bg_gen_walk(struct out *o);

extern const char bg_generated[];
#endif
