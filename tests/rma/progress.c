/* A large put progresses while its origin computes: rank 0 starts an MPI_Rput of 4 MiB to rank
 * 1 (its chunks become tasks under the collaborative and thread policies) and then makes no
 * MPI call at all, only polls MPIX_Request_is_complete (which runs nothing) between bursts of
 * computation. The request completes because someone else copies the chunks: rank 1 and the
 * others, waiting in MPI_Barrier, under LOOM_PROGRESS=collaborative; progress threads under
 * thread; the call itself under inline. Then rank 1 checks every word. A policy that left the
 * copy to the origin would hang here (the test's timeout), so the test fails without an
 * assertion on time. */
#include <mpi.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include "check.h"

enum { WORDS = (4 << 20) / 8 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2);
    uint64_t *mem;
    MPI_Win win;
    MPI_Win_allocate(rank == 1 ? WORDS * 8 : 0, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    if (rank == 0) {
        uint64_t *src = malloc(WORDS * 8);
        CHECK(src != NULL);
        for (size_t i = 0; i < WORDS; i++)
            src[i] = i * 2654435761u + 7;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Request req;
        CHECK_INT(MPI_Rput(src, WORDS, MPI_UINT64_T, 1, 0, WORDS, MPI_UINT64_T, win, &req),
                  MPI_SUCCESS);
        /* compute, never entering MPI, until somebody has moved the data */
        volatile double x = 1.0;
        while (!MPIX_Request_is_complete(req)) {
            for (int i = 0; i < 1000; i++)
                x = x * 1.000001 + 1e-9;
            sched_yield(); /* more ranks than cores: let the others run */
        }
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Win_unlock(1, win);
        free(src);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the others wait here while rank 0 computes */
    if (rank == 1)
        for (size_t i = 0; i < WORDS; i++)
            if (mem[i] != i * 2654435761u + 7)
                CHECK_INT(mem[i], i * 2654435761u + 7);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
