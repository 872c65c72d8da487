/* tests/harness/pmpi_program.c — a program linked with the counting tool pmpi_tool.c: each
 * rank makes its own number of MPI_Send/MPI_Recv calls and three MPI_Bcast, then checks that
 * the tool counted exactly its calls (its counters are its own, not the job's), and that the
 * calls the tool does not wrap, and loom's work inside them, were not counted. */
#include "mtest_lite.h"
#include "pmpi_tool.h"

static int sends_of(int rank)
{
    return rank % 3 + 1;
}

int main(int argc, char **argv)
{
    int errs = 0, size, rank;
    MTest_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    struct pmpi_tool_counts c;
    pmpi_tool_counts(&c);
    MTEST_CHECK(errs, c.send == 0 && c.recv == 0 && c.bcast == 0 && c.finalize == 0);

    int nsend = 0, nrecv = 0;
    if (size > 1) {
        /* A ring: even ranks send first. */
        int right = (rank + 1) % size, left = (rank - 1 + size) % size;
        int v;
        for (int pass = 0; pass < 2; pass++) {
            if ((rank % 2 == 0) == (pass == 0)) {
                for (int i = 0; i < sends_of(rank); i++) {
                    v = rank * 10 + i;
                    MPI_Send(&v, 1, MPI_INT, right, i, MPI_COMM_WORLD);
                }
            } else {
                for (int i = 0; i < sends_of(left); i++) {
                    MPI_Recv(&v, 1, MPI_INT, left, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MTEST_CHECK(errs, v == left * 10 + i);
                }
            }
        }
        nsend = sends_of(rank);
        nrecv = sends_of(left);
    }
    for (int root = 0; root < 3; root++) {
        int v = rank == root % size ? 42 + root : -1;
        MPI_Bcast(&v, 1, MPI_INT, root % size, MPI_COMM_WORLD);
        MTEST_CHECK(errs, v == 42 + root);
    }
    pmpi_tool_counts(&c);
    MTEST_CHECK(errs, c.send == nsend && c.recv == nrecv && c.bcast == 3 && c.finalize == 0);

    /* Calls the tool does not wrap leave its counts alone, whatever loom does inside them. */
    int x = rank, y;
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MTEST_CHECK(errs, y == size * (size - 1) / 2);
    MPI_Sendrecv(&x, 1, MPI_INT, (rank + 1) % size, 9, &y, 1, MPI_INT, (rank - 1 + size) % size,
                 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MTEST_CHECK(errs, y == (rank - 1 + size) % size);
    MPI_Request req;
    MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MTEST_CHECK(errs, x == 0);
    MPI_Barrier(MPI_COMM_WORLD);
    pmpi_tool_counts(&c);
    MTEST_CHECK(errs, c.send == nsend && c.recv == nrecv && c.bcast == 3 && c.finalize == 0);

    /* MTest_Finalize ends in MPI_Finalize: the tool's, which checks its count there. */
    MTest_Finalize(errs);
    return MTestReturnValue(errs);
}
