/* tests/privatize/own_address.h — every rank's copy of a privatized variable is its own: the
 * ranks gather the address they see and check that no two are equal. Collective over
 * MPI_COMM_WORLD (at most 64 ranks). */
#ifndef LOOM_TEST_PRIVATIZE_OWN_ADDRESS_H
#define LOOM_TEST_PRIVATIZE_OWN_ADDRESS_H
#include <mpi.h>
#include <stdint.h>
#include "check.h"

static inline void check_own_address(const void *p)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 64);
    uintptr_t mine = (uintptr_t)p, all[64];
    MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE,
                  MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        for (int j = 0; j < i; j++)
            CHECK(all[i] != all[j]);
}
#endif
