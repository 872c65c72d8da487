/* Threads a rank starts act for that rank: MPI_Comm_rank from them gives the creator's rank,
 * and MPI_Is_thread_main is false there. 4 threads per rank, each checks, totals after join. */
#include <pthread.h>
#include <mpi.h>
#include "check.h"

static _Thread_local int my_rank;

static void *worker(void *arg)
{
    int *seen = arg, rank, flag;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Is_thread_main(&flag);
    *seen = flag ? -1 : rank;
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    pthread_t t[4];
    int seen[4];
    for (int i = 0; i < 4; i++)
        CHECK_INT(pthread_create(&t[i], NULL, worker, &seen[i]), 0);
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        CHECK_INT(seen[i], my_rank);
    }
    MPI_Finalize();
    return 0;
}
