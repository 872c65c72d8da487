/* tests/harness/persist_allreduce.c — a persistent allreduce made once (MPI_Allreduce_init)
 * and started 100 times with new input each time, as an iterative solver does; then two
 * persistent collectives started together with MPI_Startall, several times. */
#include "mtest_lite.h"

#define N 17
#define ITERS 100

int main(int argc, char **argv)
{
    int errs = 0, size, rank;
    MTest_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int in[N], out[N];
    MPI_Request req;
    MPI_Allreduce_init(in, out, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req);
    int ranksum = size * (size - 1) / 2;
    for (int it = 0; it < ITERS; it++) {
        for (int j = 0; j < N; j++) {
            in[j] = rank + it * j;
            out[j] = -1;
        }
        MPI_Start(&req);
        MPI_Status st;
        MPI_Wait(&req, &st);
        MTEST_CHECK(errs, req != MPI_REQUEST_NULL); /* persistent: inactive, not freed */
        int bad = 0;
        for (int j = 0; j < N; j++)
            bad += out[j] != ranksum + size * it * j;
        MTEST_CHECK(errs, bad == 0);
    }
    MPI_Request_free(&req);
    MTEST_CHECK(errs, req == MPI_REQUEST_NULL);

    /* A broadcast from the last rank and a maximum, started together. */
    double x[4], mx[2], mxout[2];
    MPI_Request reqs[2];
    MPI_Bcast_init(x, 4, MPI_DOUBLE, size - 1, comm, MPI_INFO_NULL, &reqs[0]);
    MPI_Allreduce_init(mx, mxout, 2, MPI_DOUBLE, MPI_MAX, comm, MPI_INFO_NULL, &reqs[1]);
    for (int it = 0; it < 10; it++) {
        for (int k = 0; k < 4; k++)
            x[k] = rank == size - 1 ? it * 10.0 + k : -1.0;
        mx[0] = rank + it;
        mx[1] = -rank - it;
        mxout[0] = mxout[1] = -1e9;
        MPI_Startall(2, reqs);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
        for (int k = 0; k < 4; k++)
            MTEST_CHECK(errs, x[k] == it * 10.0 + k);
        MTEST_CHECK(errs, mxout[0] == size - 1 + it && mxout[1] == -it);
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    MPI_Comm_free(&comm);
    MTest_Finalize(errs);
    return MTestReturnValue(errs);
}
