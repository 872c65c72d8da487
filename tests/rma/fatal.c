/* The default error handler of a window (MPI_ERRORS_ARE_FATAL) on bad one-sided calls: one
 * line `loom: rank R: MPI_Xxx: <reason>` on stderr and the job ends with status 1, even though
 * the other ranks wait in a barrier. argv[1] picks the mistake; the last rank makes it. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, v = 1, old;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *what = argc > 1 ? argv[1] : "put";
    int *mem;
    MPI_Win win;
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    if (rank == size - 1) {
        if (!strcmp(what, "put")) /* no epoch */
            MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        else if (!strcmp(what, "range")) {
            MPI_Win_lock_all(0, win);
            MPI_Get(&v, 1, MPI_INT, 0, 4, 1, MPI_INT, win); /* one past the end */
        } else if (!strcmp(what, "lock"))
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, size, 0, win);
        else if (!strcmp(what, "free")) {
            MPI_Win_lock_all(0, win);
            MPI_Win_free(&win);
        } else if (!strcmp(what, "acc"))
            MPI_Accumulate(&v, 1, MPI_INT, 0, 0, 1, MPI_DOUBLE, MPI_SUM, win);
        else if (!strcmp(what, "fop")) {
            MPI_Win_lock_all(0, win);
            MPI_Fetch_and_op(&v, &old, MPI_INT, 0, 0, MPI_OP_NULL, win);
        } else if (!strcmp(what, "unlock"))
            MPI_Win_unlock(0, win);
        else if (!strcmp(what, "wait"))
            MPI_Win_wait(win);
        else if (!strcmp(what, "win"))
            MPI_Win_fence(0, MPI_WIN_NULL);
        fprintf(stderr, "fatal.c: the bad call (%s) returned\n", what);
        return 3;
    }
    MPI_Barrier(MPI_COMM_WORLD); /* never completes: the last rank never comes */
    fprintf(stderr, "fatal.c: the barrier completed\n");
    return 4;
}
