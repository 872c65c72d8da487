/* Persistent collectives with the rest of the request machinery (under MPI_ERRORS_RETURN):
 * MPI_Startall of three persistent collectives and a persistent send/receive pair, completed
 * by Waitall, a Waitsome loop, a Testany loop and a Testsome loop in turn, values checked on
 * every start; arrays of null, inactive and active requests (Testall, Testsome, Waitsome,
 * Testany, Waitany: only the active ones are reported, MPI_UNDEFINED when none is active);
 * MPI_Request_free of inactive persistent collectives (never started, or after starts) and
 * MPI_ERR_REQUEST for an active one or a second start; the communicator still works after. */
#include "coll_check.h"

#define ITERS 8
#define NREQ 5

static int comm_rank(void)
{
    int r;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &r));
    return r;
}

static int comm_size(void)
{
    int n;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    return n;
}

/* Complete every request of r[0..n) in one of four ways; returns how many completions were
 * reported (each active request exactly once). */
static int complete_all(MPI_Request r[], int n, int how)
{
    int reported = 0, done[NREQ] = {0};
    MPI_Request keep[NREQ];
    memcpy(keep, r, (size_t)n * sizeof *r);
    if (how == 0) {
        OK(MPI_Waitall(n, r, MPI_STATUSES_IGNORE));
        return n;
    }
    for (;;) {
        int out = 0, idx[NREQ], flag = 0, one;
        if (how == 1) {
            OK(MPI_Waitsome(n, r, &out, idx, MPI_STATUSES_IGNORE));
        } else if (how == 2) {
            OK(MPI_Testany(n, r, &one, &flag, MPI_STATUS_IGNORE));
            CHECK(flag || one == MPI_UNDEFINED);
            out = flag && one != MPI_UNDEFINED ? 1 : flag ? MPI_UNDEFINED : 0;
            idx[0] = one;
        } else {
            OK(MPI_Testsome(n, r, &out, idx, MPI_STATUSES_IGNORE));
        }
        if (out == MPI_UNDEFINED) /* every request inactive: all reported */
            break;
        for (int k = 0; k < out; k++) {
            CHECK(idx[k] >= 0 && idx[k] < n);
            CHECK_INT(done[idx[k]], 0); /* reported once */
            done[idx[k]] = 1;
            reported++;
        }
    }
    for (int i = 0; i < n; i++)
        CHECK(r[i] == keep[i]); /* persistent: the handles stay */
    return reported;
}

static void startall_mix(void)
{
    int rank = comm_rank(), size = comm_size();
    int peer = (rank ^ 1) < size ? rank ^ 1 : rank;
    int sum_in, sum_out, bc[3], *ag = malloc(sizeof(int) * (size_t)size), sv, rv, ag_in;
    CHECK(ag != NULL);
    MPI_Request r[NREQ];
    OK(MPI_Allreduce_init(&sum_in, &sum_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                          MPI_INFO_NULL, &r[0]));
    OK(MPI_Recv_init(&rv, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &r[1]));
    OK(MPI_Bcast_init(bc, 3, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]));
    OK(MPI_Send_init(&sv, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &r[3]));
    OK(MPI_Allgather_init(&ag_in, 1, MPI_INT, ag, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                          &r[4]));
    for (int it = 0; it < ITERS; it++) {
        sum_in = rank + it;
        sv = rank * 100 + it;
        rv = -1;
        for (int i = 0; i < 3; i++)
            bc[i] = rank == 0 ? it * 10 + i : -1;
        ag_in = rank * 1000 + it;
        OK(MPI_Startall(NREQ, r));
        CHECK_INT(complete_all(r, NREQ, it % 4), NREQ);
        CHECK_INT(sum_out, size * (size - 1) / 2 + size * it);
        CHECK_INT(rv, peer * 100 + it);
        for (int i = 0; i < 3; i++)
            CHECK_INT(bc[i], it * 10 + i);
        for (int q = 0; q < size; q++)
            CHECK_INT(ag[q], q * 1000 + it);
    }
    for (int i = 0; i < NREQ; i++) {
        OK(MPI_Request_free(&r[i]));
        CHECK(r[i] == MPI_REQUEST_NULL);
    }
    free(ag);
}

/* Null, inactive persistent and active requests together. */
static void null_inactive_active(void)
{
    int x = 1, y = 0, flag = -1, out = -1, idx[4], one = -1;
    MPI_Request r[4];
    r[0] = MPI_REQUEST_NULL;
    OK(MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
    r[2] = MPI_REQUEST_NULL;
    OK(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r[3]));
    /* none active */
    OK(MPI_Testsome(4, r, &out, idx, MPI_STATUSES_IGNORE));
    CHECK_INT(out, MPI_UNDEFINED);
    out = -1;
    OK(MPI_Waitsome(4, r, &out, idx, MPI_STATUSES_IGNORE));
    CHECK_INT(out, MPI_UNDEFINED);
    OK(MPI_Testall(4, r, &flag, MPI_STATUSES_IGNORE));
    CHECK_INT(flag, 1);
    flag = -1;
    OK(MPI_Testany(4, r, &one, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 1);
    CHECK_INT(one, MPI_UNDEFINED);
    one = -1;
    OK(MPI_Waitany(4, r, &one, MPI_STATUS_IGNORE));
    CHECK_INT(one, MPI_UNDEFINED);
    OK(MPI_Waitall(4, r, MPI_STATUSES_IGNORE));
    /* one active among them: only it is reported, once */
    OK(MPI_Start(&r[3]));
    int seen = 0;
    while (!seen) {
        OK(MPI_Testsome(4, r, &out, idx, MPI_STATUSES_IGNORE));
        CHECK(out != MPI_UNDEFINED);
        CHECK(out == 0 || (out == 1 && idx[0] == 3));
        seen = out;
    }
    OK(MPI_Testsome(4, r, &out, idx, MPI_STATUSES_IGNORE));
    CHECK_INT(out, MPI_UNDEFINED); /* inactive again */
    OK(MPI_Start(&r[1]));
    OK(MPI_Waitsome(4, r, &out, idx, MPI_STATUSES_IGNORE));
    CHECK_INT(out, 1);
    CHECK_INT(idx[0], 1);
    CHECK_INT(y, comm_size());
    OK(MPI_Start(&r[3]));
    OK(MPI_Waitany(4, r, &one, MPI_STATUS_IGNORE));
    CHECK_INT(one, 3);
    OK(MPI_Request_free(&r[1]));
    OK(MPI_Request_free(&r[3]));
}

static void freeing(void)
{
    int x = 2, y = 0;
    MPI_Request never, used;
    OK(MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &never));
    OK(MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &used));
    OK(MPI_Request_free(&never)); /* never started */
    CHECK(never == MPI_REQUEST_NULL);
    OK(MPI_Start(&used));
    /* active: a second start and a free are refused, the request stays usable */
    MPI_Request keep = used;
    CHECK_INT(MPI_Start(&used), MPI_ERR_REQUEST);
    CHECK_INT(MPI_Request_free(&used), MPI_ERR_REQUEST);
    CHECK(used == keep);
    OK(MPI_Wait(&used, MPI_STATUS_IGNORE));
    CHECK_INT(y, 2);
    int flag = 0;
    OK(MPI_Request_get_status(used, &flag, MPI_STATUS_IGNORE)); /* inactive: complete */
    CHECK_INT(flag, 1);
    OK(MPI_Request_free(&used));
    CHECK(used == MPI_REQUEST_NULL);
    /* the communicator's later collectives are unaffected */
    OK(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_INT(y, 2 * comm_size());
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    startall_mix();
    null_inactive_active();
    freeing();
    OK(MPI_Finalize());
    return 0;
}
