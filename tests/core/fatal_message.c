/* The default handler: a bad call prints "loom: rank R: MPI_Xxx: <reason>" and the job ends
 * with a nonzero status. The last rank makes the bad call; the others wait in Finalize. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == size - 1)
        MPI_Comm_size(MPI_COMM_NULL, &size);
    MPI_Finalize();
    return 0;
}
