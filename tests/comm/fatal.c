/* Under the default handler (MPI_ERRORS_ARE_FATAL) a bad call prints one line naming the
 * rank, the call and the reason, and the job ends with a nonzero status. */
#include "comm_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm c;
    if (world_rank() == world_size() - 1)
        MPI_Comm_dup(MPI_COMM_NULL, &c);
    else
        MPI_Barrier(MPI_COMM_WORLD); /* never completes: the job ends first */
    fprintf(stderr, "fatal.c: the bad call returned\n");
    MPI_Finalize();
    return 0;
}
