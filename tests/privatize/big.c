/* tests/privatize/big.c — a 64 MB global array, per rank: every rank gets a zeroed copy and
 * keeps its own values (memory is 64 MB per rank; start-up must stay quick, which the test
 * reports but does not assert), and still has a usual stack besides it (glibc takes a thread's
 * TLS out of its stack); so does a thread the rank starts with default attributes, which reads
 * the rank's copy, and whose own copy of the array loom gives back to the system. */
#include <mpi.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
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

/* Resident memory of the process, in bytes. */
static long resident(void)
{
    long pages = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
            rss = 0;
        fclose(f);
    }
    return rss * sysconf(_SC_PAGESIZE);
}

struct helping {
    int rank;
    long before, grown; /* resident memory before the helper started, and its growth */
};

static void *helper(void *arg)
{
    struct helping *h = arg;
    h->grown = resident() - h->before;
    CHECK_INT(deep(5), 10);
    CHECK(big[N / 2] == h->rank);
    return NULL;
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
    /* One rank at a time (the others wait in a barrier), a thread of the rank starts: glibc
     * fills its own copy of the 64 MB, which loom gives back, so the process grows by far
     * less than 64 MB. */
    for (int r = 0; r < size; r++) {
        if (r == rank) {
            struct helping h = {rank, resident(), 0};
            pthread_t th;
            CHECK_INT(pthread_create(&th, NULL, helper, &h), 0);
            CHECK_INT(pthread_join(th, NULL), 0);
            if (h.grown > 16L << 20) {
                fprintf(stderr, "rank %d: a thread it started grew the process by %ld MB\n",
                        rank, h.grown >> 20);
                CHECK(h.grown <= 16L << 20);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    double t = MPI_Wtime() - t0, tmax;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("big: %d ranks with 64 MB each; slowest rank from its start to here: %.3f s\n",
               size, tmax);
    MPI_Finalize();
    return 0;
}
