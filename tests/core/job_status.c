/* The job's status: 0 if every rank returns 0, else the status of the lowest rank with a
 * nonzero one. argv[1] lists "rank=code" pairs; other ranks return 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, code = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 1; i < argc; i++) {
        int r, c;
        if (sscanf(argv[i], "%d=%d", &r, &c) == 2 && r == rank)
            code = c;
    }
    MPI_Finalize();
    return code;
}
