/* Several nonblocking collectives outstanding on one communicator (and one on a duplicate),
 * interleaved with user point-to-point traffic on the same communicator, completed in every
 * order: Waitall, Wait in reverse order, a Testall loop, Waitany, Waitsome, and a request
 * freed by MPI_Request_free. Collectives match in the order they were started whatever the
 * order of completion, and never match user messages. */
#include "coll_check.h"

static _Thread_local int rank, size; /* ranks are threads: globals are shared */
#define N 7
#define CNT 5000

struct round {
    int bc[CNT], ar_s[CNT], ar_d[CNT], sc_s[CNT], sc_d[CNT], bc2[CNT];
    int *ga; /* gather at the last rank */
    int p2p_out[CNT], p2p_in[CNT];
    MPI_Request req[N];
};

static void start(struct round *x, MPI_Comm dup, int seed)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    for (int i = 0; i < CNT; i++) {
        x->bc[i] = rank == 0 ? val(seed, i) : -1;
        x->bc2[i] = rank == size - 1 ? val(seed + 1, i) : -1;
        x->ar_s[i] = val(rank, i + seed);
        x->sc_s[i] = val(rank, i + seed);
        x->p2p_out[i] = val(rank, i * 7 + seed);
    }
    /* the user's receive first, with a tag a collective would use if they shared a context */
    OK(MPI_Irecv(x->p2p_in, CNT, MPI_INT, left, 0, MPI_COMM_WORLD, &x->req[0]));
    OK(MPI_Ibcast(x->bc, CNT, MPI_INT, 0, MPI_COMM_WORLD, &x->req[1]));
    OK(MPI_Iallreduce(x->ar_s, x->ar_d, CNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &x->req[2]));
    OK(MPI_Isend(x->p2p_out, CNT, MPI_INT, right, 0, MPI_COMM_WORLD, &x->req[3]));
    OK(MPI_Iscan(x->sc_s, x->sc_d, CNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &x->req[4]));
    OK(MPI_Ibcast(x->bc2, CNT, MPI_INT, size - 1, dup, &x->req[5]));
    OK(MPI_Igather(x->ar_s, CNT, MPI_INT, x->ga, CNT, MPI_INT, size - 1, MPI_COMM_WORLD,
                   &x->req[6]));
}

static void check(struct round *x, int seed, const char *how)
{
    int left = (rank - 1 + size) % size;
    for (int i = 0; i < CNT; i++) {
        int sum = 0, pre = 0;
        for (int r = 0; r < size; r++) {
            sum += val(r, i + seed);
            if (r <= rank)
                pre += val(r, i + seed);
        }
        if (x->bc[i] != val(seed, i) || x->bc2[i] != val(seed + 1, i) || x->ar_d[i] != sum ||
            x->sc_d[i] != pre || x->p2p_in[i] != val(left, i * 7 + seed)) {
            fprintf(stderr, "%s: rank %d of %d: element %d: bcast %d/%d bcast2 %d/%d allreduce "
                    "%d/%d scan %d/%d p2p %d/%d\n", how, rank, size, i, x->bc[i], val(seed, i),
                    x->bc2[i], val(seed + 1, i), x->ar_d[i], sum, x->sc_d[i], pre,
                    x->p2p_in[i], val(left, i * 7 + seed));
            fflush(NULL);
            _exit(99);
        }
    }
    if (rank == size - 1)
        for (int r = 0; r < size; r++)
            for (int i = 0; i < CNT; i++)
                CHECK_INT(x->ga[r * CNT + i], val(r, i + seed));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm dup;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    struct round *x = calloc(1, sizeof *x), *y = calloc(1, sizeof *y);
    CHECK(x && y);
    x->ga = malloc((size_t)size * CNT * sizeof(int));
    y->ga = malloc((size_t)size * CNT * sizeof(int));
    CHECK(x->ga && y->ga);
    for (int how = 0; how < 5; how++) {
        /* two rounds outstanding at once: 14 requests, 10 of them collectives */
        start(x, dup, 10 * how);
        start(y, dup, 10 * how + 5);
        MPI_Request all[2 * N];
        memcpy(all, x->req, sizeof x->req);
        memcpy(all + N, y->req, sizeof y->req);
        const char *name = "?";
        if (how == 0) {
            name = "waitall";
            OK(MPI_Waitall(2 * N, all, MPI_STATUSES_IGNORE));
        } else if (how == 1) {
            name = "reverse wait";
            for (int i = 2 * N - 1; i >= 0; i--)
                OK(MPI_Wait(&all[i], MPI_STATUS_IGNORE));
        } else if (how == 2) {
            name = "testall";
            int flag = 0;
            while (!flag)
                OK(MPI_Testall(2 * N, all, &flag, MPI_STATUSES_IGNORE));
        } else if (how == 3) {
            name = "waitany";
            for (int k = 0; k < 2 * N; k++) {
                int idx;
                OK(MPI_Waitany(2 * N, all, &idx, MPI_STATUS_IGNORE));
                CHECK(idx >= 0 && idx < 2 * N);
            }
        } else {
            name = "waitsome";
            int done = 0, idx[2 * N], outc;
            while (done < 2 * N) {
                OK(MPI_Waitsome(2 * N, all, &outc, idx, MPI_STATUSES_IGNORE));
                CHECK(outc != MPI_UNDEFINED);
                done += outc;
            }
        }
        for (int i = 0; i < 2 * N; i++)
            CHECK(all[i] == MPI_REQUEST_NULL);
        check(x, 10 * how, name);
        check(y, 10 * how + 5, name);
    }
    /* a collective request let go of: the barrier still runs to its end (the standard gives
     * no way to see when; the collectives after it must still match, and MPI_Finalize waits
     * for it: under ASan, a leak otherwise) */
    MPI_Request r;
    OK(MPI_Ibarrier(MPI_COMM_WORLD, &r));
    OK(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL);
    int v = rank, w = 0;
    OK(MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_INT(w, size * (size - 1) / 2);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    free(x->ga);
    free(y->ga);
    free(x);
    free(y);
    OK(MPI_Comm_free(&dup));
    MPI_Finalize();
    return 0;
}
