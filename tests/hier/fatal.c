/* fatal.c — under the default handler (MPI_ERRORS_ARE_FATAL), a duplicate rank given to
 * MPIX_Comm_get_min_hlevel ends the job with one line naming the call and the fault. */
#include "hier_check.h"

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int me = world_rank(), len;
    char t[MPI_MAX_INFO_VAL + 1];
    int ranks[2] = {me, me};
    MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, 2, ranks, t, &len);
    fprintf(stderr, "rank %d: the error did not end the job\n", me);
    return 3;
}
