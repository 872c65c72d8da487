/* rma_request — request-based RMA (MPI 4.1 section 12.3.5): MPI_Rput, MPI_Rget,
 * MPI_Raccumulate, MPI_Rget_accumulate in MPI_Win_lock_all epochs and in MPI_Win_lock epochs
 * (exclusive and shared), completed by MPI_Wait, MPI_Test loops, MPI_Waitall, MPI_Waitany,
 * MPI_Testall loops.
 *
 * - An Rput request complete means the origin buffer is free (not that the data is at the
 *   target): the buffer is overwritten at once, and after a flush the target must hold what
 *   the buffer held at the call.
 * - An Rget (or Rget_accumulate) request complete means the data is in the origin (result)
 *   buffer: checked right after the wait / the test that reports it.
 * - Raccumulate(MPI_SUM) from every rank to a counter on every target: exact sum.
 * - Rget_accumulate(MPI_SUM, 1) on a ticket counter on every target: the old values that
 *   every origin fetched from a target are exactly 0 .. n-1, each once (atomic fetch and add),
 *   and the tickets one origin got from one target rise in the order it asked (accumulates
 *   from one origin to one location are ordered by default, accumulate_ordering).
 * - After the epoch (unlock / unlock_all) the Rput data is at the target: the owner reads it
 *   by loads. A request may be completed after its epoch ended: the unlock completed the
 *   operation, so one MPI_Test reports it done. (MPI_Request_free on an RMA request is
 *   erroneous, MPI 4.1 section 12.3.5: not used.)
 * At 1 rank the only target is the rank itself. The window is MPI_Win_allocate'd. Ranks are
 * threads of one process under loom: no writable globals. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define OK(call) CHECK_INT((call), MPI_SUCCESS)

#define ROUNDS 6
#define RN 64 /* elements of each origin's Rput area */
#define MIX 5 /* requests per target in the Waitall mix */
#define PER (3 * ROUNDS) /* tickets per (origin, target): 2 per lock_all round, 1 per lock */

struct ctx {
    MPI_Win win;
    int64_t *base;
    int rank, size;
    MPI_Aint area_a, area_b, acc, tick; /* offsets in elements */
    int64_t *tickets; /* [target][k]: the k-th ticket this rank got from target (PER) */
    int nticket;      /* tickets per target so far */
};

static int64_t tagval(int origin, int target, int round, int k)
{
    return ((int64_t)(origin + 1) << 40) + ((int64_t)(target + 1) << 24) +
           ((int64_t)(round + 1) << 16) + k;
}

/* b[0 .. n) = the first n elements of (origin, target, round) */
static void fill(int64_t *b, int n, int origin, int target, int round)
{
    for (int k = 0; k < n; k++)
        b[k] = tagval(origin, target, round, k);
}

static void check_area(const int64_t *b, int k0, int n, int origin, int target, int round)
{
    for (int k = k0; k < k0 + n; k++)
        if (b[k - k0] != tagval(origin, target, round, k)) {
            fprintf(stderr, "request: element %d of origin %d's area at target %d (round %d) "
                    "is %lld, expected %lld\n", k, origin, target, round,
                    (long long)b[k - k0], (long long)tagval(origin, target, round, k));
            CHECK(0);
        }
}

static void wait_testing(MPI_Request *r)
{
    int flag = 0;
    while (!flag)
        OK(MPI_Test(r, &flag, MPI_STATUS_IGNORE));
    CHECK(*r == MPI_REQUEST_NULL);
}

/* Rounds of request-based operations to every target in one lock_all epoch. */
static void in_lock_all(struct ctx *c)
{
    int n = c->size;
    int64_t *buf = malloc(sizeof(int64_t) * RN * (size_t)n);
    int64_t *got = malloc(sizeof(int64_t) * RN * (size_t)n);
    int64_t *tk = malloc(sizeof(int64_t) * 2 * (size_t)n);
    MPI_Request *req = malloc(sizeof(MPI_Request) * MIX * (size_t)n);
    CHECK(buf && got && tk && req);
    int64_t one = 1, add = c->rank + 1;
    OK(MPI_Win_lock_all(0, c->win));
    for (int r = 0; r < ROUNDS; r++) {
        MPI_Aint mine = c->area_a + (MPI_Aint)c->rank * RN;
        /* Rput, completed by MPI_Wait: the buffer is free at once */
        for (int t = 0; t < n; t++) {
            int64_t *b = buf + (size_t)t * RN;
            fill(b, RN, c->rank, t, r);
            OK(MPI_Rput(b, RN, MPI_INT64_T, t, mine, RN, MPI_INT64_T, c->win, &req[t]));
            if (t % 2 == 0)
                OK(MPI_Wait(&req[t], MPI_STATUS_IGNORE));
            else
                wait_testing(&req[t]);
            CHECK(req[t] == MPI_REQUEST_NULL);
            memset(b, 0x77, sizeof(int64_t) * RN);
        }
        OK(MPI_Win_flush_all(c->win));
        /* Rget: the data is in the buffer when the request completes */
        for (int t = 0; t < n; t++) {
            int64_t *g = got + (size_t)t * RN;
            memset(g, 0, sizeof(int64_t) * RN);
            OK(MPI_Rget(g, RN, MPI_INT64_T, t, mine, RN, MPI_INT64_T, c->win, &req[t]));
        }
        for (int k = 0; k < n; k++) {
            int t = (c->rank + k) % n;
            if (k % 2 == 0)
                OK(MPI_Wait(&req[t], MPI_STATUS_IGNORE));
            else
                wait_testing(&req[t]);
            check_area(got + (size_t)t * RN, 0, RN, c->rank, t, r);
        }
        /* a mix completed by one MPI_Waitall: Raccumulate to the counter, two
         * Rget_accumulates on the tickets (the second must get the larger ticket), an Rput to
         * the first half of my area (round r+ROUNDS), an Rget of the second (round r) */
        for (int t = 0; t < n; t++) {
            int64_t *b = buf + (size_t)t * RN, *g = got + (size_t)t * RN;
            MPI_Request *q = req + (size_t)MIX * t;
            fill(b, RN / 2, c->rank, t, r + ROUNDS);
            memset(g, 0, sizeof(int64_t) * RN);
            tk[2 * t] = tk[2 * t + 1] = -1;
            OK(MPI_Raccumulate(&add, 1, MPI_INT64_T, t, c->acc, 1, MPI_INT64_T, MPI_SUM, c->win,
                               &q[0]));
            OK(MPI_Rget_accumulate(&one, 1, MPI_INT64_T, &tk[2 * t], 1, MPI_INT64_T, t, c->tick,
                                   1, MPI_INT64_T, MPI_SUM, c->win, &q[1]));
            OK(MPI_Rput(b, RN / 2, MPI_INT64_T, t, mine, RN / 2, MPI_INT64_T, c->win, &q[2]));
            OK(MPI_Rget(g + RN / 2, RN / 2, MPI_INT64_T, t, mine + RN / 2, RN / 2, MPI_INT64_T,
                        c->win, &q[3]));
            OK(MPI_Rget_accumulate(&one, 1, MPI_INT64_T, &tk[2 * t + 1], 1, MPI_INT64_T, t,
                                   c->tick, 1, MPI_INT64_T, MPI_SUM, c->win, &q[4]));
        }
        OK(MPI_Waitall(MIX * n, req, MPI_STATUSES_IGNORE));
        for (int t = 0; t < n; t++) {
            for (int i = 0; i < MIX; i++)
                CHECK(req[(size_t)MIX * t + (size_t)i] == MPI_REQUEST_NULL);
            check_area(got + (size_t)t * RN + RN / 2, RN / 2, RN / 2, c->rank, t, r);
            CHECK(tk[2 * t] >= 0 && tk[2 * t] < (int64_t)PER * n);
            if (tk[2 * t + 1] <= tk[2 * t]) {
                fprintf(stderr, "request: rank %d got ticket %lld from %d after ticket %lld "
                        "(accumulates of one origin to one place are ordered)\n", c->rank,
                        (long long)tk[2 * t + 1], t, (long long)tk[2 * t]);
                CHECK(0);
            }
            c->tickets[(size_t)t * PER + (size_t)c->nticket] = tk[2 * t];
            c->tickets[(size_t)t * PER + (size_t)c->nticket + 1] = tk[2 * t + 1];
        }
        c->nticket += 2;
        OK(MPI_Win_flush_all(c->win));
        for (int t = 0; t < n; t++) {
            int64_t *g = got + (size_t)t * RN;
            OK(MPI_Rget(g, RN / 2, MPI_INT64_T, t, mine, RN / 2, MPI_INT64_T, c->win, &req[t]));
        }
        /* MPI_Waitany until all are done; each is checked as it completes */
        for (int done = 0; done < n; done++) {
            int idx = -1;
            OK(MPI_Waitany(n, req, &idx, MPI_STATUS_IGNORE));
            CHECK(idx >= 0 && idx < n);
            CHECK(req[idx] == MPI_REQUEST_NULL);
            check_area(got + (size_t)idx * RN, 0, RN / 2, c->rank, idx, r + ROUNDS);
        }
        int idx = 0;
        OK(MPI_Waitany(n, req, &idx, MPI_STATUS_IGNORE));
        CHECK_INT(idx, MPI_UNDEFINED);
        OK(MPI_Win_flush_all(c->win)); /* these gets before the next round's puts */
    }
    /* a request completed after its epoch: the unlock completed the operation */
    int64_t late = -1;
    OK(MPI_Rget(&late, 1, MPI_INT64_T, c->rank, c->area_a + (MPI_Aint)c->rank * RN, 1,
                MPI_INT64_T, c->win, &req[0]));
    OK(MPI_Win_unlock_all(c->win));
    OK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    CHECK_INT(late, tagval(c->rank, c->rank, 2 * ROUNDS - 1, 0));
    free(buf);
    free(got);
    free(tk);
    free(req);
}

/* MPI_Win_lock epochs, one target at a time, exclusive or shared by turns; the requests
 * completed with a Testall loop. Writes area B. */
static void in_lock(struct ctx *c)
{
    int n = c->size;
    int64_t buf[RN], got[RN], tk = -1, add = c->rank + 1, one = 1;
    MPI_Request req[4];
    MPI_Aint mine = c->area_b + (MPI_Aint)c->rank * RN;
    for (int r = 0; r < ROUNDS; r++)
        for (int k = 0; k < n; k++) {
            int t = (c->rank + k) % n;
            int type = (r + k) % 2 ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED;
            OK(MPI_Win_lock(type, t, 0, c->win));
            fill(buf, RN, c->rank, t, r);
            OK(MPI_Rput(buf, RN, MPI_INT64_T, t, mine, RN, MPI_INT64_T, c->win, &req[0]));
            OK(MPI_Raccumulate(&add, 1, MPI_INT64_T, t, c->acc, 1, MPI_INT64_T, MPI_SUM, c->win,
                               &req[1]));
            OK(MPI_Rget_accumulate(&one, 1, MPI_INT64_T, &tk, 1, MPI_INT64_T, t, c->tick, 1,
                                   MPI_INT64_T, MPI_SUM, c->win, &req[2]));
            int flag = 0;
            while (!flag)
                OK(MPI_Testall(3, req, &flag, MPI_STATUSES_IGNORE));
            for (int i = 0; i < 3; i++)
                CHECK(req[i] == MPI_REQUEST_NULL);
            memset(buf, 0x33, sizeof buf); /* free since the Rput completed */
            CHECK(tk >= 0 && tk < (int64_t)PER * n);
            c->tickets[(size_t)t * PER + (size_t)c->nticket + (size_t)r] = tk;
            OK(MPI_Win_flush(t, c->win));
            memset(got, 0, sizeof got);
            OK(MPI_Rget(got, RN, MPI_INT64_T, t, mine, RN, MPI_INT64_T, c->win, &req[3]));
            OK(MPI_Wait(&req[3], MPI_STATUS_IGNORE));
            check_area(got, 0, RN, c->rank, t, r);
            /* last round: an Rput whose request is completed only after the unlock, which
             * completed the put (the wait then completes locally) */
            if (r == ROUNDS - 1) {
                OK(MPI_Win_flush(t, c->win)); /* the get above before the put below */
                fill(buf, RN, c->rank, t, r + ROUNDS);
                OK(MPI_Rput(buf, RN, MPI_INT64_T, t, mine, RN, MPI_INT64_T, c->win, &req[0]));
            }
            OK(MPI_Win_unlock(t, c->win));
            if (r == ROUNDS - 1) {
                int done = 0;
                OK(MPI_Test(&req[0], &done, MPI_STATUS_IGNORE));
                CHECK_INT(done, 1); /* the unlock completed it */
                CHECK(req[0] == MPI_REQUEST_NULL);
            }
        }
    c->nticket += ROUNDS;
}

/* The owner's view after all epochs: area B holds every origin's last Rput, the counter
 * the sum, and the tickets each target handed out are a permutation. */
static void check_owner(struct ctx *c)
{
    int n = c->size, per = PER;
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, c->rank, 0, c->win));
    for (int o = 0; o < n; o++) {
        const int64_t *a = c->base + c->area_a + (MPI_Aint)o * RN;
        check_area(c->base + c->area_b + (MPI_Aint)o * RN, 0, RN, o, c->rank, 2 * ROUNDS - 1);
        check_area(a, 0, RN / 2, o, c->rank, 2 * ROUNDS - 1);
        check_area(a + RN / 2, RN / 2, RN / 2, o, c->rank, ROUNDS - 1);
    }
    CHECK_INT(c->base[c->acc], (int64_t)2 * ROUNDS * n * (n + 1) / 2);
    CHECK_INT(c->base[c->tick], (int64_t)per * n);
    OK(MPI_Win_unlock(c->rank, c->win));
    /* tickets: mine to each target rise; all of a target's form 0 .. per*n-1 */
    CHECK_INT(c->nticket, PER);
    for (int t = 0; t < n; t++) /* asked one after another: each larger than the last */
        for (int k = 1; k < PER; k++)
            CHECK(c->tickets[(size_t)t * per + k] > c->tickets[(size_t)t * per + k - 1]);
    int64_t *all = malloc(sizeof(int64_t) * (size_t)per * (size_t)n);
    char *mark = calloc((size_t)per * (size_t)n, 1);
    CHECK(all && mark);
    OK(MPI_Alltoall(c->tickets, per, MPI_INT64_T, all, per, MPI_INT64_T, MPI_COMM_WORLD));
    for (int i = 0; i < per * n; i++) {
        int64_t v = all[i];
        if (v < 0 || v >= (int64_t)per * n || mark[v]) {
            fprintf(stderr, "request: target %d handed ticket %lld to origin %d twice or out "
                    "of range\n", c->rank, (long long)v, i / per);
            CHECK(0);
        }
        mark[v] = 1;
    }
    free(all);
    free(mark);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    struct ctx c;
    memset(&c, 0, sizeof c);
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &c.rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &c.size));
    c.area_a = 0;
    c.area_b = c.area_a + (MPI_Aint)c.size * RN;
    c.acc = c.area_b + (MPI_Aint)c.size * RN;
    c.tick = c.acc + 1;
    MPI_Aint elems = c.tick + 1; /* even: a multiple of 16 bytes (see lock_all.c) */
    c.tickets = malloc(sizeof(int64_t) * PER * (size_t)c.size);
    CHECK(c.tickets != NULL);
    OK(MPI_Win_allocate(elems * (MPI_Aint)sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL,
                        MPI_COMM_WORLD, &c.base, &c.win));
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, c.rank, 0, c.win));
    memset(c.base, 0, (size_t)elems * sizeof(int64_t));
    OK(MPI_Win_unlock(c.rank, c.win));
    OK(MPI_Barrier(MPI_COMM_WORLD));

    in_lock_all(&c);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    in_lock(&c);
    check_owner(&c);

    OK(MPI_Win_free(&c.win));
    free(c.tickets);
    if (c.rank == 0)
        printf("rma_request: %d ranks: ok\n", c.size);
    OK(MPI_Finalize());
    return 0;
}
