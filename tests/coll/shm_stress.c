/* Many shm collectives back to back (the slot of each communicator reused thousands of
 * times), every kind in turn with moving roots, on MPI_COMM_WORLD, a duplicate and the halves
 * of a split used alternately, each result checked. Meant for 8 ranks on 2 cores too: waits
 * must yield and sleep, not spin forever. A rank that ran ahead into the next collective must
 * never change what a slower one still reads. */
#include "coll_check.h"

static _Thread_local int rank, size; /* ranks are threads: globals are shared */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define ITERS 300
#else
#define ITERS 3000
#endif
#define CNT 6

static void one(MPI_Comm comm, int it)
{
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    int root = it % n;
    int s[CNT], d[CNT * 8 * 2], w[CNT * 8 * 2];
    for (int i = 0; i < CNT; i++)
        s[i] = val(me, i + it);
    char what[96];
    snprintf(what, sizeof what, "iteration %d kind %d rank %d of %d", it, it % 9, me, n);
    switch (it % 9) {
    case 0:
        OK(MPI_Barrier(comm));
        return;
    case 1:
        for (int i = 0; i < CNT; i++) {
            d[i] = me == root ? val(root, i + it) : -1;
            w[i] = val(root, i + it);
        }
        OK(MPI_Bcast(d, CNT, MPI_INT, root, comm));
        CHECK_INTS(d, w, CNT, what);
        return;
    case 2:
    case 3:
        for (int i = 0; i < CNT; i++) {
            w[i] = 0;
            for (int r = 0; r < n; r++)
                w[i] += val(r, i + it);
        }
        if (it % 9 == 2) {
            OK(MPI_Reduce(s, d, CNT, MPI_INT, MPI_SUM, root, comm));
            if (me == root)
                CHECK_INTS(d, w, CNT, what);
        } else {
            for (int i = 0; i < CNT; i++)
                d[i] = s[i];
            OK(MPI_Allreduce(MPI_IN_PLACE, d, CNT, MPI_INT, MPI_SUM, comm));
            CHECK_INTS(d, w, CNT, what);
        }
        return;
    case 4:
        OK(MPI_Gather(s, CNT, MPI_INT, d, CNT, MPI_INT, root, comm));
        if (me == root) {
            for (int r = 0; r < n; r++)
                for (int i = 0; i < CNT; i++)
                    w[r * CNT + i] = val(r, i + it);
            CHECK_INTS(d, w, n * CNT, what);
        }
        return;
    case 5:
        for (int i = 0; i < n * CNT; i++)
            w[i] = val(root, i + it);
        OK(MPI_Scatter(w, CNT, MPI_INT, d, CNT, MPI_INT, root, comm));
        CHECK_INTS(d, w + me * CNT, CNT, what);
        return;
    case 6:
        OK(MPI_Allgather(s, CNT, MPI_INT, d, CNT, MPI_INT, comm));
        for (int r = 0; r < n; r++)
            for (int i = 0; i < CNT; i++)
                w[r * CNT + i] = val(r, i + it);
        CHECK_INTS(d, w, n * CNT, what);
        return;
    case 7:
        for (int i = 0; i < n * 2; i++)
            d[i] = val(me, i + it);
        OK(MPI_Alltoall(MPI_IN_PLACE, 2, MPI_INT, d, 2, MPI_INT, comm));
        for (int r = 0; r < n; r++)
            for (int i = 0; i < 2; i++)
                w[r * 2 + i] = val(r, me * 2 + i + it);
        CHECK_INTS(d, w, n * 2, what);
        return;
    default:
        OK(MPI_Scan(s, d, CNT, MPI_INT, MPI_SUM, comm));
        for (int i = 0; i < CNT; i++) {
            w[i] = 0;
            for (int r = 0; r <= me; r++)
                w[i] += val(r, i + it);
        }
        CHECK_INTS(d, w, CNT, what);
        return;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 8);
    MPI_Comm dup, half;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    OK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    for (int it = 0; it < ITERS; it++) {
        int which = (it / 9) % 3; /* every kind on every communicator */
        one(which == 0 ? MPI_COMM_WORLD : which == 1 ? dup : half, it);
    }
    OK(MPI_Comm_free(&half));
    OK(MPI_Comm_free(&dup));
    MPI_Finalize();
    return 0;
}
