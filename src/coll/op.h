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
    MPI_User_function *user_fn;  /* user operations */
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
#endif
