/* A topology query on a communicator without a topology, under the default handler: the job
 * ends with status 1 and the one-line message (CMakeLists.txt checks both). */
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int src, dst;
    MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &src, &dst);
    MPI_Finalize();
    return 0;
}
