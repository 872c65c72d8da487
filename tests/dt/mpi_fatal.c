/* Under the default handler (MPI_ERRORS_ARE_FATAL) a bad datatype call prints
 * "loom: rank 0: MPI_Type_commit: <reason>" and the job ends with status 1. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Datatype t = MPI_DATATYPE_NULL;
        MPI_Type_commit(&t);
    }
    MPI_Finalize();
    return 0;
}
