/* MPI_Reduce_local on predefined types (MPI_SUM on MPI_INT, MPI_DOUBLE and MPI_CHAR, MAXLOC
 * on MPI_DOUBLE_INT), on a derived type (a vector of ints), with user operations (commutative
 * and not: inoutbuf = inbuf op inoutbuf), and MPI_Op_create / MPI_Op_commutative /
 * MPI_Op_free. Every rank runs it at once, sharing the user functions. */
#include <mpi.h>
#include "comm_check.h"

/* inout = 10*in + inout: not commutative */
static void shift_add(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
    CHECK(*datatype == MPI_INT);
    int *a = invec, *b = inoutvec;
    for (int i = 0; i < *len; i++)
        b[i] = 10 * a[i] + b[i];
}

static void max_abs(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
    CHECK(*datatype == MPI_DOUBLE);
    double *a = invec, *b = inoutvec;
    for (int i = 0; i < *len; i++) {
        double x = a[i] < 0 ? -a[i] : a[i], y = b[i] < 0 ? -b[i] : b[i];
        b[i] = x > y ? x : y;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = world_rank();

    int a[4] = {1, -2, rank, 2147483647}, b[4] = {10, 20, 30, 1};
    OK(MPI_Reduce_local(a, b, 4, MPI_INT, MPI_SUM));
    CHECK_INT(b[0], 11);
    CHECK_INT(b[1], 18);
    CHECK_INT(b[2], 30 + rank);
    CHECK_INT(b[3], -2147483647 - 1); /* wraps, no trap */

    double da[3] = {0.5, -1.5, 2.0}, db[3] = {1.0, 1.0, -4.0};
    OK(MPI_Reduce_local(da, db, 3, MPI_DOUBLE, MPI_PROD));
    CHECK(db[0] == 0.5 && db[1] == -1.5 && db[2] == -8.0);

    char ca[3] = {1, 2, 3}, cb[3] = {4, 5, 6};
    OK(MPI_Reduce_local(ca, cb, 3, MPI_CHAR, MPI_SUM));
    CHECK_INT(cb[0], 5);
    CHECK_INT(cb[2], 9);

    struct {
        double v;
        int i;
    } pa[2] = {{1.0, 3}, {2.0, 5}}, pb[2] = {{1.0, 1}, {3.0, 0}};
    OK(MPI_Reduce_local(pa, pb, 2, MPI_DOUBLE_INT, MPI_MAXLOC));
    CHECK(pb[0].v == 1.0 && pb[0].i == 1 && pb[1].v == 3.0 && pb[1].i == 0);

    /* a vector: ints 0, 2, 4 */
    MPI_Datatype vec;
    OK(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
    OK(MPI_Type_commit(&vec));
    int va[5] = {1, 1, 1, 1, 1}, vb[5] = {5, 5, 5, 5, 5};
    OK(MPI_Reduce_local(va, vb, 1, vec, MPI_BAND));
    CHECK(vb[0] == 1 && vb[1] == 5 && vb[2] == 1 && vb[3] == 5 && vb[4] == 1);
    OK(MPI_Type_free(&vec));

    /* count 0 with NULL buffers is fine */
    OK(MPI_Reduce_local(NULL, NULL, 0, MPI_INT, MPI_SUM));

    /* user operations */
    MPI_Op nc, cm;
    int commute = -1;
    OK(MPI_Op_create(shift_add, 0, &nc));
    OK(MPI_Op_create(max_abs, 1, &cm));
    OK(MPI_Op_commutative(nc, &commute));
    CHECK_INT(commute, 0);
    OK(MPI_Op_commutative(cm, &commute));
    CHECK_INT(commute, 1);
    OK(MPI_Op_commutative(MPI_SUM, &commute));
    CHECK_INT(commute, 1);
    int ua[3] = {1, 2, 3}, ub[3] = {4, 5, 6};
    OK(MPI_Reduce_local(ua, ub, 3, MPI_INT, nc));
    CHECK(ub[0] == 14 && ub[1] == 25 && ub[2] == 36);
    double xa[2] = {-3.0, 1.0}, xb[2] = {2.0, -7.0};
    OK(MPI_Reduce_local(xa, xb, 2, MPI_DOUBLE, cm));
    CHECK(xb[0] == 3.0 && xb[1] == 7.0);
    OK(MPI_Op_free(&nc));
    CHECK(nc == MPI_OP_NULL);
    OK(MPI_Op_free(&cm));
    CHECK(cm == MPI_OP_NULL);

    MPI_Finalize();
    return 0;
}
