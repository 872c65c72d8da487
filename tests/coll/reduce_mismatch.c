/* A small reduce whose members disagree on the count (an erroneous program: MPI asks every
 * member for the same count and type). The short member's input goes through its inline
 * buffer and it returns at once, so the root cannot read its buffer instead: the root reports
 * MPI_ERR_TRUNCATE (under errors-return) rather than read past what was handed over, and the
 * communicator stays usable. Run with the shm algorithm forced (the schedules take over for
 * rooted collectives when ranks outnumber cores). */
#include "coll_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int s[2] = {me + 1, me + 1}, r[2] = {-1, -1};
    int count = me == n - 1 && n > 1 ? 1 : 2; /* the last rank, never the root, is short */
    int rc = MPI_Reduce(s, r, count, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    expect_class(rc, me == 0 && n > 1 ? MPI_ERR_TRUNCATE : MPI_SUCCESS, "MPI_Reduce", me);
    int one = 1, sum = 0;
    OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    if (sum != n) {
        fprintf(stderr, "rank %d: MPI_Allreduce after the error: %d, expected %d\n", me, sum, n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (me == 0)
        printf("ok: mismatched reduce reported on %d ranks\n", n);
    MPI_Finalize();
    return 0;
}
