/* latency_mt.c — the OSU multithreaded latency method: rank 0 runs one sender thread, rank 1
 * runs K receiving threads under MPI_THREAD_MULTIPLE. Rank 0 ping-pongs with each of rank 1's
 * threads in turn (thread t uses tag t); the half round-trip time is reported for K = 1..8
 * (or the K given with -k). A runtime whose latency stays flat as K grows handles threads
 * waiting inside it well. A plain MPI program: builds unchanged against loom, MPICH and Open
 * MPI; 2 ranks. Output: CSV "latency_mt_K<k>,<bytes>,<us>,us". */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int iters = 4000, warmup = 400, bytes = 8;

struct receiver {
    int tag;
    int rounds;
};

static void *receive_loop(void *arg)
{
    struct receiver *r = arg;
    char buf[64];
    for (int i = 0; i < r->rounds; i++) {
        MPI_Recv(buf, bytes, MPI_CHAR, 0, r->tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, bytes, MPI_CHAR, 0, r->tag, MPI_COMM_WORLD);
    }
    return NULL;
}

/* rank 0: `rounds` ping-pongs with each of k threads, round-robin; returns us per half trip */
static double ping(int k, int rounds)
{
    char buf[64];
    memset(buf, 1, sizeof buf);
    double t0 = MPI_Wtime();
    for (int i = 0; i < rounds; i++)
        for (int t = 0; t < k; t++) {
            MPI_Send(buf, bytes, MPI_CHAR, 1, t, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_CHAR, 1, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    return (MPI_Wtime() - t0) * 1e6 / (2.0 * rounds * k);
}

int main(int argc, char **argv)
{
    int provided, rank, size, kmax = 8;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            iters = 500;
            warmup = 50;
        } else if (!strcmp(argv[i], "-k") && i + 1 < argc) {
            kmax = atoi(argv[++i]);
        }
    }
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || provided != MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            fprintf(stderr, "latency_mt: needs 2 ranks and MPI_THREAD_MULTIPLE\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int k = 1; k <= kmax; k++) {
        /* fewer rounds per thread as k grows, so each k takes about as long */
        int rounds = iters / k > 50 ? iters / k : 50;
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            ping(k, warmup / k + 1);
            double us = ping(k, rounds);
            printf("latency_mt_K%d,%d,%.3f,us\n", k, bytes, us);
            fflush(stdout);
        } else {
            pthread_t th[64];
            struct receiver rc[64];
            for (int t = 0; t < k; t++) {
                rc[t] = (struct receiver){t, warmup / k + 1 + rounds};
                pthread_create(&th[t], NULL, receive_loop, &rc[t]);
            }
            for (int t = 0; t < k; t++)
                pthread_join(th[t], NULL);
        }
    }
    MPI_Finalize();
    return 0;
}
