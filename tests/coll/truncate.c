/* A collective whose receiving side has less room than the data (an erroneous program, as
 * the type signatures differ) reports MPI_ERR_TRUNCATE to the rank whose buffer was too
 * small, fills what fits, and leaves the communicator usable: gather (the root's blocks are
 * too small: every other rank's block is cut) and bcast (one non-root expects less), under
 * errors-return, followed by a correct allreduce. Run with the default algorithms (shm for
 * blocking calls) and forced schedules (variant). */
#include "coll_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int s[2] = {10 * me + 1, 10 * me + 2}, r[64];
    for (int i = 0; i < 64; i++)
        r[i] = -1;
    /* gather: 2 ints from everyone, the root makes room for 1 per rank */
    int rc = MPI_Gather(s, 2, MPI_INT, r, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (me == 0) {
        /* every block is cut, the root's own one too (so also on 1 rank) */
        expect_class(rc, MPI_ERR_TRUNCATE, "MPI_Gather at the root", me);
        if (r[0] != 1) { /* the root's own block: its first int fits */
            fprintf(stderr, "rank 0: MPI_Gather: block 0 is %d, expected 1\n", r[0]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    /* bcast: rank n-1 (when not the root) expects 1 int, the others 2 */
    int b[2] = {me == 0 ? 7 : -1, me == 0 ? 8 : -1};
    int count = me == n - 1 && n > 1 ? 1 : 2;
    rc = MPI_Bcast(b, count, MPI_INT, 0, MPI_COMM_WORLD);
    if (me == n - 1 && n > 1)
        expect_class(rc, MPI_ERR_TRUNCATE, "MPI_Bcast on the short rank", me);
    else
        expect_class(rc, MPI_SUCCESS, "MPI_Bcast", me);
    if (b[0] != 7 || (count == 2 && b[1] != 8)) {
        fprintf(stderr, "rank %d: MPI_Bcast got %d %d, expected 7 8\n", me, b[0], b[1]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* the communicator still works */
    int one = 1, sum = 0;
    OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    if (sum != n) {
        fprintf(stderr, "rank %d: MPI_Allreduce after the errors: %d, expected %d\n", me, sum,
                n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (me == 0)
        printf("ok: truncation reported on %d ranks\n", n);
    MPI_Finalize();
    return 0;
}
