/* tests/privatize/fortran_shim.c — the few MPI calls the Fortran privatization test needs,
 * in C (loom's Fortran bindings are not part of this test): the Fortran program calls these
 * through bind(C) interfaces. Addresses come as integers (gfortran's loc()). */
#include <mpi.h>
#include <stdint.h>
#include "check.h"
#include "own_address.h"

void fshim_init(int *rank, int *size)
{
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
}

void fshim_barrier(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Every rank sees its own copy: no two ranks gave the same address. */
void fshim_distinct(intptr_t address)
{
    check_own_address((const void *)address);
}

/* One copy for all: every rank gave the same address. */
void fshim_same(intptr_t address)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 64);
    intptr_t all[64];
    MPI_Allgather(&address, (int)sizeof address, MPI_BYTE, all, (int)sizeof address, MPI_BYTE,
                  MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        CHECK(all[i] == address);
}

/* A failed check in Fortran: say where, end the job with status 99. */
void fshim_fail(int line)
{
    fprintf(stderr, "fortran.F90:%d: check failed\n", line);
    fflush(NULL);
    _exit(99);
}

void fshim_finalize(void)
{
    MPI_Finalize();
}
