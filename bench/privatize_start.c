/* bench/privatize_start.c — what a large privatized global costs at start: a program with a
 * 64 MiB global array (8 Mi doubles) and nothing else. Each rank writes its rank into its
 * copy, optionally starts T threads that read it back (the OpenMP workers of a hybrid code),
 * meets the others at a barrier and ends. bench/run_privatize.py times whole jobs of it and
 * reads their peak memory.
 *
 *   loomrun -n 8 ./priv_start [T]      mpiexec.mpich -n 8 ./priv_start [T]
 * Exit status 1 if a thread read another rank's value. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef GLOBAL
#define GLOBAL
#endif

#define N (8 << 20)

GLOBAL double big[N];

/* Returns non-NULL if the thread does not see its rank's value (a global counter would not
 * do: with per-thread globals the rank would read its own copy of it). */
static void *reader(void *arg)
{
    int rank = *(int *)arg;
    return big[N / 2] != rank ? arg : NULL;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nthreads = argc > 1 ? atoi(argv[1]) : 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    big[N / 2] = rank;
    pthread_t th[64];
    if (nthreads > 64)
        nthreads = 64;
    for (int t = 0; t < nthreads; t++)
        if (pthread_create(&th[t], NULL, reader, &rank) != 0)
            return 1;
    int wrong = 0, all = 0;
    for (int t = 0; t < nthreads; t++) {
        void *r;
        pthread_join(th[t], &r);
        wrong += r != NULL;
    }
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("privatize_start: %d threads per rank, %d wrong reads\n", nthreads, all);
    MPI_Finalize();
    return all != 0;
}
