/* Each rank gets its own copy of argc/argv: a rank that edits its arguments edits only its
 * own. Run with one argument "abc". */
#include <string.h>
#include <mpi.h>
#include "check.h"

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_INT(argc, 2);
    CHECK(strcmp(argv[1], "abc") == 0);
    MPI_Barrier(MPI_COMM_WORLD);
    argv[1][0] = (char)('A' + rank % 26);
    argv[1] = "gone";
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(strcmp(argv[1], "gone") == 0);
    MPI_Finalize();
    return 0;
}
