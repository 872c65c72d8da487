/* coll/op.h — reduction operations: the predefined ones on every type the standard allows, and
 * user operations (MPI_Op_create). The collectives apply them through loom__op_apply only. */
#ifndef LOOM_COLL_OP_H
#define LOOM_COLL_OP_H
#include <stdatomic.h>
#include <stddef.h>
#include "mpi.h"
#include "core/object.h"

struct loom_datatype;

struct loom_op {
    struct loom_object obj;      /* LOOM_MAGIC_OP */
    _Atomic int refs;            /* user handle + collectives in flight (not for predefined) */
    int predefined;              /* 1 for MPI_SUM etc. */
    int kind;                    /* which predefined operation (op.c's enum), -1 for user ops */
    int commutative;
    MPI_User_function *user_fn;  /* user operations (MPI_Op_create) */
    MPI_User_function_c *user_fn_c; /* or (MPI_Op_create_c) */
    /* or a Fortran procedure (api/fortran_callbacks.h): every argument by reference, the
     * datatype as its Fortran handle. Exactly one of the four is set for a user op. */
    void (*fortran_fn)(void *in, void *inout, MPI_Fint *len, MPI_Fint *datatype);
    void (*fortran_fn_c)(void *in, void *inout, MPI_Count *len, MPI_Fint *datatype);
    const char *name;            /* "MPI_SUM", ..., "user operation" */
};

/* 1 if op is a live operation handle. */
static inline int loom__op_valid(MPI_Op op)
{
    return loom__object_is(op, LOOM_MAGIC_OP);
}
/* 0 if op may be applied to type (a predefined op on a type it is defined on, possibly a
 * derived type made of one such basic type; any type for user ops), else LOOM_ERR_OP and
 * *reason = "MPI_LAND is not defined on MPI_FLOAT_INT" (a static or thread-local string). */
int loom__op_check(const struct loom_op *op, const struct loom_datatype *type,
                   const char **reason);
/* inout[i] = in[i] op inout[i] for `count` elements of `type` laid out as the type says (the
 * standard's invec / inoutvec order: for non-commutative ops, `in` comes from the lower rank).
 * The op has been checked against the type. Any thread; the op is only read. */
void loom__op_apply(const struct loom_op *op, const void *in, void *inout, size_t count,
                    const struct loom_datatype *type);
/* A collective in flight keeps a user op alive. */
void loom__op_retain(struct loom_op *op);
void loom__op_release(struct loom_op *op);

/* ---- added by the operations owner (op.c, op_kernels.c); the contract above is unchanged ---- */

/* Which predefined operation an op is (struct loom_op.kind), in mpi.h's
 * LOOM_FOREACH_PREDEFINED_OP order; -1 for user operations. */
enum loom_op_kind {
    LOOM_OP_MAX = 0,
    LOOM_OP_MIN,
    LOOM_OP_SUM,
    LOOM_OP_PROD,
    LOOM_OP_LAND,
    LOOM_OP_BAND,
    LOOM_OP_LOR,
    LOOM_OP_BOR,
    LOOM_OP_LXOR,
    LOOM_OP_BXOR,
    LOOM_OP_MINLOC,
    LOOM_OP_MAXLOC,
    LOOM_OP_REPLACE,
    LOOM_OP_NO_OP,
    LOOM_OP_NKINDS
};
/* 1 for MPI_REPLACE and MPI_NO_OP: operations of one-sided accumulates only, not valid in a
 * reduction (MPI 4.1, section 12.3.4): the reduction calls report MPI_ERR_OP for them. */
static inline int loom__op_accumulate_only(const struct loom_op *op)
{
    return op->predefined && (op->kind == LOOM_OP_REPLACE || op->kind == LOOM_OP_NO_OP);
}

/* A new user operation with refs = 1 (the user's handle) in *out; 0 or LOOM_ERR_NOMEM.
 * user_fn is not NULL (the API layer checks it). loom__op_apply calls it with an int length,
 * in pieces of at most INT_MAX elements. */
int loom__op_create(MPI_User_function *user_fn, int commutative, struct loom_op **out);
/* The same with a big-count function (MPI_Op_create_c): called once with the whole length,
 * an MPI_Count. */
int loom__op_create_c(MPI_User_function_c *user_fn_c, int commutative, struct loom_op **out);
/* The same with a Fortran procedure (one of f, f_c; the other NULL): loom__op_apply passes it
 * the datatype's Fortran handle, an int length in pieces as for loom__op_create (f) or the
 * whole MPI_Count length (f_c). */
int loom__op_create_fortran(void (*f)(void *, void *, MPI_Fint *, MPI_Fint *),
                            void (*f_c)(void *, void *, MPI_Count *, MPI_Fint *),
                            int commutative, struct loom_op **out);
/* MPI_Op_free of a user operation: marks the handle freed (later checks of it fail) and drops
 * the user's reference; collectives in flight keep the object until they release it. */
void loom__op_free(struct loom_op *op);

/* The loop of one predefined operation on n consecutive elements of one predefined type:
 * inout[i] = in[i] op inout[i]. Basic types ignore stride and boff. For the pair types of
 * MINLOC/MAXLOC, element i lies at i * stride bytes and its index at boff bytes inside it
 * (loads and stores go through memcpy, so pairs may be unaligned). in and inout do not
 * partially overlap (they may be equal). */
typedef void loom_op_kernel(const void *in, void *inout, size_t n, size_t stride, size_t boff);

/* What op_kernels.c knows of one predefined type an operation can work on. */
struct loom_op_elem {
    const struct loom_datatype *type; /* MPI_INT, ..., MPI_DOUBLE_INT */
    int pair;                         /* 1 for the MINLOC/MAXLOC pair types */
    size_t boff;                      /* pairs: offset of the index in memory (C struct) */
    size_t isize;                     /* pairs: bytes of the index (an int, or for the
                                         Fortran pairs a value of the pair's type) */
    loom_op_kernel *kernel[LOOM_OP_MINLOC + 2]; /* by kind, MAX..MAXLOC; NULL: not defined */
};

/* The entry of predefined type t (basic or pair), NULL for a type no kernel knows (MPI_PACKED
 * is known, with no kernel). Any thread. */
const struct loom_op_elem *loom__op_elem(const struct loom_datatype *t);
/* The predefined type every element of t is made of (t itself when predefined; MPI_2INT for
 * a vector of MPI_2INT), NULL when t mixes several (a struct of an int and a double). */
const struct loom_datatype *loom__op_elem_type(const struct loom_datatype *t);
#endif
