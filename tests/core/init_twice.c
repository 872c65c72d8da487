/* MPI_Init twice is an error (MPI_ERR_OTHER), returned under MPI_ERRORS_RETURN. */
#include <mpi.h>
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_INT(MPI_Init(&argc, &argv), MPI_ERR_OTHER);
    MPI_Finalize();
    return 0;
}
