/* A bad collective argument under the default handler ends the job with one line naming the
 * call, the rank and what is wrong. */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size, x = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Bcast(&x, 1, MPI_INT, size, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
