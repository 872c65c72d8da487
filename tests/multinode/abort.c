/* abort.c — MPI_Abort across node processes: the last rank (in the last node process) aborts
 * with code 7 while every other rank waits in a receive that never comes; the launcher must
 * end every node process and the job's status must be 7 (tests/multinode/CMakeLists.txt
 * checks it under Hydra, Open MPI's mpirun and srun). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, x = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD); /* every node process is up before the abort */
    if (rank == size - 1) {
        fprintf(stderr, "abort: rank %d aborts the job with code 7\n", rank);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 7);
    }
    MPI_Recv(&x, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("abort: rank %d received what nobody sent\n", rank);
    MPI_Finalize();
    return 0;
}
