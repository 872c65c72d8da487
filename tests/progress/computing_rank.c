/* A rank that computes never has to enter loom for its work to be done: with a progress
 * thread (MPIX_Start_progress_thread), an async poll function runs while the rank spins on a
 * flag without calling MPI; and a large message to a rank that posted its receive and then
 * computes arrives while it computes (its progress thread, or the sender's wait, copies it). */
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "check.h"

static int set_flag(MPIX_Async_thing thing)
{
    atomic_int *flag = MPIX_Async_get_state(thing);
    atomic_store(flag, 1);
    return MPIX_ASYNC_DONE;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPIX_Start_progress_thread(MPIX_STREAM_NULL);
    atomic_int flag = 0;
    MPIX_Async_start(set_flag, &flag, MPIX_STREAM_NULL);
    while (!atomic_load(&flag)) /* computing: no MPI call */
        sched_yield();

    /* rank 0 sends 4 MB to rank 1, which has posted its receive and computes */
    enum { N = 1 << 20 };
    if (size >= 2 && rank < 2) {
        int *buf = malloc(N * sizeof(int));
        if (rank == 0) {
            for (int i = 0; i < N; i++)
                buf[i] = i ^ 0x5a5a;
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Send(buf, N, MPI_INT, 1, 3, MPI_COMM_WORLD);
        } else {
            MPI_Request req;
            memset(buf, 0, N * sizeof(int));
            MPI_Irecv(buf, N, MPI_INT, 0, 3, MPI_COMM_WORLD, &req);
            MPI_Barrier(MPI_COMM_WORLD);
            /* compute until the message is there; never enter MPI's progress:
             * MPIX_Request_is_complete only reads the request's state (acquire) */
            while (!MPIX_Request_is_complete(req))
                sched_yield();
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            for (int i = 0; i < N; i++)
                if (buf[i] != (i ^ 0x5a5a))
                    CHECK_INT(buf[i], i ^ 0x5a5a);
        }
        free(buf);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPIX_Stop_progress_thread(MPIX_STREAM_NULL);
    MPI_Finalize();
    return 0;
}
