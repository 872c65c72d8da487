/* api/op.c — the MPI calls on reduction operations: MPI_Op_create(_c), MPI_Op_free,
 * MPI_Op_commutative and MPI_Reduce_local(_c) (whose int count only widens: one
 * implementation for both entry points, docs/bindings.md).
 *
 * These calls have no communicator: errors go to MPI_COMM_WORLD's handler (MPI 3.1 §8.3).
 * The operations themselves live in coll/op.c. */
#include "api/api.h"
#include "coll/op.h"
#include "dt/dt.h"

#define FAIL(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

/* MPI_SUCCESS, or the class of the error reported for the handle op. */
static int check_op(const char *fn, MPI_Op op)
{
    if (op == MPI_OP_NULL)
        return FAIL(fn, MPI_ERR_OP, "operation is MPI_OP_NULL");
    if (!loom__op_valid(op))
        return FAIL(fn, MPI_ERR_OP, "operation is not a valid operation (freed?)");
    return MPI_SUCCESS;
}

/* MPI_Op_create and MPI_Op_create_c: one of user_fn (int length) and user_fn_c (MPI_Count
 * length) is given; the op remembers which (coll/op.c calls it accordingly). */
static int op_create(const char *fn, MPI_User_function *user_fn,
                     MPI_User_function_c *user_fn_c, int commute, MPI_Op *op)
{
    if (user_fn == NULL && user_fn_c == NULL)
        return FAIL(fn, MPI_ERR_ARG, "user function is NULL");
    if (op == NULL)
        return FAIL(fn, MPI_ERR_ARG, "op pointer is NULL");
    struct loom_op *o;
    int rc = user_fn ? loom__op_create(user_fn, commute, &o)
                     : loom__op_create_c(user_fn_c, commute, &o);
    if (rc)
        return loom__api_error_code(MPI_COMM_WORLD, fn, rc);
    *op = o;
    return MPI_SUCCESS;
}

int loom__mpi_op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    LOOM_API_ENTER("MPI_Op_create");
    return op_create("MPI_Op_create", user_fn, NULL, commute, op);
}

int loom__mpi_op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    LOOM_API_ENTER("MPI_Op_create_c");
    return op_create("MPI_Op_create_c", NULL, user_fn, commute, op);
}

int loom__mpi_op_free(MPI_Op *op)
{
    LOOM_API_ENTER("MPI_Op_free");
    static const char fn[] = "MPI_Op_free";
    if (op == NULL)
        return FAIL(fn, MPI_ERR_ARG, "op pointer is NULL");
    int rc = check_op(fn, *op);
    if (rc)
        return rc;
    if ((*op)->predefined)
        return FAIL(fn, MPI_ERR_OP, "cannot free the predefined operation %s", (*op)->name);
    loom__op_free(*op);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

int loom__mpi_op_commutative(MPI_Op op, int *commute)
{
    LOOM_API_ENTER("MPI_Op_commutative");
    static const char fn[] = "MPI_Op_commutative";
    int rc = check_op(fn, op);
    if (rc)
        return rc;
    if (commute == NULL)
        return FAIL(fn, MPI_ERR_ARG, "commute pointer is NULL");
    *commute = op->commutative;
    return MPI_SUCCESS;
}

int loom__mpi_reduce_local_c(const char *fn, const void *inbuf, void *inoutbuf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Op op)
{
    LOOM_API_ENTER(fn);
    int rc = check_op(fn, op);
    if (rc)
        return rc;
    if (loom__op_accumulate_only(op))
        return FAIL(fn, MPI_ERR_OP, "%s is only for one-sided accumulate operations, not for "
                    "reductions", op->name);
    const char *why;
    if (loom__dt_check_usable(datatype, &why) != 0)
        return FAIL(fn, MPI_ERR_TYPE, "%s", why);
    if (count < 0)
        return FAIL(fn, MPI_ERR_COUNT, "count %lld is negative", count);
    if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
        return FAIL(fn, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed in MPI_Reduce_local");
    /* NULL is MPI_BOTTOM: fine with a type of absolute displacements (true_lb != 0) */
    if (count > 0 && datatype->size > 0 && datatype->true_lb == 0) {
        if (inbuf == NULL)
            return FAIL(fn, MPI_ERR_BUFFER, "inbuf is NULL with count %lld", count);
        if (inoutbuf == NULL)
            return FAIL(fn, MPI_ERR_BUFFER, "inoutbuf is NULL with count %lld", count);
    }
    if (loom__op_check(op, datatype, &why) != 0)
        return FAIL(fn, MPI_ERR_OP, "%s", why);
    loom__op_apply(op, inbuf, inoutbuf, (size_t)count, datatype);
    return MPI_SUCCESS;
}
