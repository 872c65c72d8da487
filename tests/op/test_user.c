/* tests/op/test_user.c — user operations through loom__op_apply: called once with the
 * standard's (invec, inoutvec, &len, &datatype), the user's own datatype and count, in pieces
 * of at most INT_MAX elements; a non-commutative operation sees `in` as invec; the
 * commutative flag; and the life of an op: MPI_Op_free's mark, references held by collectives
 * in flight, release. */
#include <limits.h>
#include "op_check.h"

static int calls;
static long long lens[4];
static MPI_Datatype seen_type;
static void *seen_in, *seen_inout;

/* inout = 2*in - inout: not commutative, so the order of the arguments shows. */
static void affine(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
    if (calls < 4)
        lens[calls] = *len;
    calls++;
    seen_type = *datatype;
    seen_in = invec;
    seen_inout = inoutvec;
    if (*datatype == (MPI_Datatype)&loom_mpi_int) {
        int *a = invec, *b = inoutvec;
        for (int i = 0; i < *len; i++)
            b[i] = 2 * a[i] - b[i];
    }
    *len = -1; /* a careless user function: loom must not trust len afterwards */
}

static void plain_calls(void)
{
    struct loom_op *op = NULL;
    CHECK_INT(loom__op_create(affine, 0, &op), 0);
    CHECK(op && loom__op_valid(op) && !op->predefined && op->kind == -1);
    CHECK_INT(op->commutative, 0);
    /* a user op is defined on every type */
    CHECK_INT(loom__op_check(op, &loom_mpi_double_int, NULL), 0);

    int a[5] = {1, 2, 3, 4, 5}, b[5] = {10, 20, 30, 40, 50};
    calls = 0;
    loom__op_apply(op, a, b, 5, &loom_mpi_int);
    CHECK_INT(calls, 1);
    CHECK_INT(lens[0], 5);
    CHECK(seen_type == (MPI_Datatype)&loom_mpi_int);
    CHECK(seen_in == (void *)a && seen_inout == (void *)b);
    for (int i = 0; i < 5; i++)
        CHECK_INT(b[i], 2 * a[i] - (i + 1) * 10);

    /* count 0: not called */
    calls = 0;
    loom__op_apply(op, a, b, 0, &loom_mpi_int);
    CHECK_INT(calls, 0);

    /* a derived type: the user's type and count as given, the buffer address as given */
    struct loom_datatype *v = mk_hvector(2, 1, 16, &loom_mpi_int);
    calls = 0;
    loom__op_apply(op, a, b, 1, v);
    CHECK_INT(calls, 1);
    CHECK_INT(lens[0], 1);
    CHECK(seen_type == (MPI_Datatype)v);
    CHECK(seen_in == (void *)a);
    loom__dt_free(v);

    /* more than INT_MAX elements: pieces of INT_MAX; a type of extent 0 keeps it cheap */
    struct loom_datatype *empty = mk_contig(0, &loom_mpi_int);
    calls = 0;
    loom__op_apply(op, a, b, (size_t)INT_MAX * 2 + 3, empty);
    CHECK_INT(calls, 3);
    CHECK_INT(lens[0], INT_MAX);
    CHECK_INT(lens[1], INT_MAX);
    CHECK_INT(lens[2], 3);
    loom__dt_free(empty);

    loom__op_free(op);
}

static void noop_fn(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
    (void)invec;
    (void)inoutvec;
    (void)len;
    (void)datatype;
    calls++;
}

/* MPI_Op_free while a collective holds the op: the handle is dead, the op still applies. */
static void life(void)
{
    struct loom_op *op = NULL;
    CHECK_INT(loom__op_create(noop_fn, 7, &op), 0);
    CHECK_INT(op->commutative, 1);
    loom__op_retain(op); /* a collective in flight */
    loom__op_retain(op); /* and another */
    loom__op_free(op);
    CHECK(!loom__op_valid(op));
    int x = 0, y = 0;
    calls = 0;
    loom__op_apply(op, &x, &y, 1, &loom_mpi_int);
    CHECK_INT(calls, 1);
    CHECK_INT(atomic_load(&op->refs), 2);
    loom__op_release(op);
    loom__op_apply(op, &x, &y, 1, &loom_mpi_int);
    CHECK_INT(calls, 2);
    loom__op_release(op); /* last: to the quarantine, memory kept, magic FREED */
    CHECK(!loom__op_valid(op));

    /* predefined ops are never counted */
    loom__op_retain(&loom_mpi_sum);
    loom__op_release(&loom_mpi_sum);
    loom__op_release(&loom_mpi_sum);
    CHECK(loom__op_valid(&loom_mpi_sum));
    CHECK(loom_mpi_sum.commutative && !loom_mpi_replace.commutative);
}

int main(void)
{
    plain_calls();
    life();
    return op_result();
}
