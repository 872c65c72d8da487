/* ranks [STATUS [NAME]]: every rank prints "wrapped R of N"; the last rank returns STATUS (so
 * the job's exit status is STATUS), and rank 0 prints NAME=<value of $NAME> when NAME is given.
 * Built by the tests with mpicc and run with mpiexec (tests/wrappers/run.sh). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("wrapped %d of %d\n", rank, size);
    if (rank == 0 && argc > 2) {
        const char *v = getenv(argv[2]);
        printf("%s=%s\n", argv[2], v ? v : "(unset)");
    }
    fflush(stdout);
    MPI_Finalize();
    return argc > 1 && rank == size - 1 ? atoi(argv[1]) : 0;
}
