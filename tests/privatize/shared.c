/* tests/privatize/shared.c — what is shared stays shared. Every rank adds one to `counter`
 * and to `mine`, meets the others, and reads them back. Built two ways:
 *   with privatization: counter is LOOM_SHARED (one for all: size), mine is per rank (1);
 *   with -fno-privatize (SHARE_ALL): both are shared by all ranks (size). */
#include <mpi.h>
#include <stdint.h>
#include "check.h"

LOOM_SHARED int counter;
int mine;

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    __atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&mine, 1, __ATOMIC_SEQ_CST);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_INT(__atomic_load_n(&counter, __ATOMIC_SEQ_CST), size);
#ifdef SHARE_ALL
    CHECK_INT(__atomic_load_n(&mine, __ATOMIC_SEQ_CST), size);
#else
    CHECK_INT(__atomic_load_n(&mine, __ATOMIC_SEQ_CST), 1);
#endif
    /* The shared one has one address, seen by every rank. */
    uintptr_t a = (uintptr_t)&counter, all[64];
    CHECK(size <= 64);
    MPI_Allgather(&a, (int)sizeof a, MPI_BYTE, all, (int)sizeof a, MPI_BYTE, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        CHECK(all[i] == a);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("shared: counter %d, mine %d\n", counter, mine);
    MPI_Finalize();
    return 0;
}
