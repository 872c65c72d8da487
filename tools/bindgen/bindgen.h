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

/* An `@fortran` line after a prototype: what its C prototype cannot tell the Fortran bindings
 * (fortran_types.c says what each means). */
struct fortran_note {
    char kind[12];  /* "logical", "drop", "len", "index" */
    char name[64];  /* the parameter */
    char expr[192]; /* drop: the C value; len: the array's length; index: the count of entries */
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
    /* `@fortran skip REASON` (no Fortran binding in MPI 4.1) or `@fortran hand REASON`
     * (written by hand in src/fortran/): generated Fortran bindings leave the call out */
    char fortran_skip[192];
    int fortran_hand;
    struct fortran_note fnotes[MAX_NOTES];
    int nfnotes;
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
/* fortran_types.c: how each parameter crosses from Fortran to C (docs/fortran.md) */
enum fkind {
    FK_VAL,         /* int, MPI_Aint, MPI_Count by value: Fortran passes its address */
    FK_LOGICAL,     /* an int by value that Fortran declares LOGICAL */
    FK_PTR,         /* int, MPI_Aint, MPI_Count results or arrays: the same memory */
    FK_LOGICAL_PTR, /* an int result (or array) that Fortran declares LOGICAL */
    FK_INDEX,       /* an index result (or array of them): 0-based in C, 1-based in Fortran */
    FK_HANDLE,      /* a handle by value: MPI_Fint -> C */
    FK_HANDLE_PTR,  /* a handle through a pointer: in, out or both */
    FK_HANDLE_ARR,  /* an array of handles, its length in `expr` */
    FK_STATUS,      /* MPI_Status *: MPI_F_STATUS_SIZE integers, or MPI_STATUS_IGNORE */
    FK_STATUS_IN,   /* const MPI_Status * */
    FK_STATUSES,    /* an array of statuses (length in `expr`), or MPI_STATUSES_IGNORE */
    FK_BUF,         /* a choice buffer: MPI_BOTTOM and MPI_IN_PLACE recognised */
    FK_STR_IN,      /* CHARACTER in: blanks trimmed, NUL added */
    FK_STR_OUT,     /* CHARACTER out: copied back, padded with blanks */
    FK_DROP,        /* not in the Fortran binding: C gets `expr` */
};
struct fparam {
    enum fkind kind;
    const struct param *p;
    const char *ctype;  /* the entry point's element type: MPI_Fint, MPI_Aint, MPI_Count */
    int is_const;       /* the C parameter is const (an input array or string) */
    int array;          /* 0: a scalar, 1: an array, 3: an array of int[3] (ranges) */
    const char *handle; /* handle kinds: the type after MPI_ (Comm, Datatype...) */
    const char *conv;   /* handle kinds: the name in loom__mpi_X_f2c (comm, type...) */
    const char *expr;   /* FK_DROP: the value; arrays of handles or statuses, FK_INDEX
                         * arrays: the length, a C expression on the entry point's
                         * parameters (pointers: `*count`) */
};
/* 1 if loom-bindgen writes the call's Fortran bindings (not skipped, not hand-written) */
int bg_fortran_generated(const struct call *c);
/* Classify c's parameters into f (c->nparams entries); stops on a type without a rule. */
void bg_fortran_params(const struct call *c, struct fparam *f);
/* The Fortran declaration of a parameter's type, without its name: f08 selects the mpi_f08
 * types (TYPE(MPI_Comm), TYPE(MPI_Status)); `dims` gets "", "(*)", "(3,*)"... */
const char *bg_fortran_type(const struct fparam *f, int f08, const char **dims);
/* lower-case copy of a name (mpi_send), in a static buffer */
const char *bg_lower(const char *name);

/* fortran_c.c: the Fortran entry points mpi_xxx_ and pmpi_xxx_ (docs/fortran.md) */
void bg_gen_fortran_c(struct out *o);
void bg_gen_fortran_list(struct out *o);
/* fortran_mod.c: interfaces of module mpi, procedures of module mpi_f08 */
void bg_gen_fortran_mpi(struct out *o);
void bg_gen_fortran_f08(struct out *o);

extern const char bg_generated[];
#endif
