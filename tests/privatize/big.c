/* tests/privatize/big.c — a 64 MB global array, per rank: every rank gets a zeroed copy and
 * keeps its own values (memory is 64 MB per rank; start-up must stay quick, which the test
 * reports but does not assert), and still has a usual stack besides it (glibc takes a thread's
 * TLS out of its stack). */
#include <mpi.h>
#include <string.h>
#include "check.h"

#define N (8 * 1024 * 1024) /* 64 MB of doubles */
static double big[N];

/* Uses 1 MB of stack. */
__attribute__((noinline)) static int deep(int v)
{
    volatile char frame[1 << 20];
    memset((char *)frame, v, sizeof frame);
    return frame[v * 1000] + frame[sizeof frame - 1];
}

int main(int argc, char **argv)
{
    double t0 = MPI_Wtime();
    CHECK(big[0] == 0.0 && big[N / 2] == 0.0 && big[N - 1] == 0.0);
    MPI_Init(&argc, &argv);
    CHECK_INT(deep(3), 6);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* One element per page of the first and last 4 MB, and the ends. */
    for (long i = 0; i < (1L << 19); i += 512) {
        big[i] = rank;
        big[N - 1 - i] = rank;
    }
    big[N / 2] = rank;
    MPI_Barrier(MPI_COMM_WORLD);
    for (long i = 0; i < (1L << 19); i += 512) {
        CHECK(big[i] == rank);
        CHECK(big[N - 1 - i] == rank);
    }
    CHECK(big[N / 2] == rank);
    double t = MPI_Wtime() - t0, tmax;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("big: %d ranks with 64 MB each; slowest rank from its start to here: %.3f s\n",
               size, tmax);
    MPI_Finalize();
    return 0;
}
