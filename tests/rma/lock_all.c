/* rma_lock_all — MPI_Win_lock_all / MPI_Win_unlock_all and the flushes (MPI 4.1 sections
 * 12.5.3 and 12.5.4), with MPI_Win_sync for loads and stores of one's own window.
 *
 * - MPI_Win_flush(target): a put is complete at the target: a get issued after the flush
 *   returns it (each round writes new values, so a stale one shows).
 * - MPI_Win_flush_all: puts to every target, one flush_all, gets of all of them; then after
 *   a barrier every rank reads every origin's slot at every target.
 * - MPI_Win_flush_local / MPI_Win_flush_local_all: afterwards the origin buffer may be
 *   reused: it is overwritten at once, and the target must still get the old contents
 *   (a large put, so an implementation that read the buffer later would be caught); a get
 *   is complete at the origin after flush_local: its buffer holds the data.
 * - MPI_Win_sync with a barrier: the owner's stores to its window become visible to others'
 *   gets; others' flushed puts become visible to the owner's loads.
 * - MPI_Win_unlock_all completes everything without a flush: checked in the next epoch.
 * - MPI_MODE_NOCHECK on lock_all (valid: no exclusive lock on this window is held or asked
 *   for while those epochs are open; the only one is each rank's lock on itself that zeroes
 *   its window before the first barrier).
 * At 1 rank the only target is the rank itself. The window is MPI_Win_allocate'd. Ranks are
 * threads of one process under loom: no writable globals. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define OK(call) CHECK_INT((call), MPI_SUCCESS)

#define ROUNDS 4
#define BIG 1024   /* elements of each origin's flush_local area */
#define OWN_N 16   /* elements the owner writes by stores */

struct ctx {
    MPI_Win win;
    int64_t *base;
    int rank, size;
    /* offsets (in elements) of the areas of every window */
    MPI_Aint slot, inbox, unl, own, flocal;
};

static int64_t tagval(int origin, int target, int round, int k)
{
    return ((int64_t)(origin + 1) << 40) + ((int64_t)(target + 1) << 24) +
           ((int64_t)(round + 1) << 16) + k;
}

/* flush(t) makes a put visible to a get issued after it; flush_all likewise for all. */
static void flush_then_get(const struct ctx *c)
{
    int n = c->size;
    int64_t *vals = malloc(sizeof(int64_t) * (size_t)n), *got = malloc(sizeof(int64_t) * (size_t)n);
    CHECK(vals && got);
    OK(MPI_Win_lock_all(0, c->win));
    for (int r = 0; r < ROUNDS; r++) {
        /* one target at a time */
        for (int k = 0; k < n; k++) {
            int t = (c->rank + k) % n;
            int64_t v = tagval(c->rank, t, r, 1), g = -1;
            OK(MPI_Put(&v, 1, MPI_INT64_T, t, c->slot + c->rank, 1, MPI_INT64_T, c->win));
            OK(MPI_Win_flush(t, c->win));
            OK(MPI_Get(&g, 1, MPI_INT64_T, t, c->slot + c->rank, 1, MPI_INT64_T, c->win));
            OK(MPI_Win_flush(t, c->win));
            CHECK_INT(g, v);
        }
        /* all targets, one flush_all each way */
        for (int t = 0; t < n; t++) {
            vals[t] = tagval(c->rank, t, r, 2);
            got[t] = -1;
            OK(MPI_Put(&vals[t], 1, MPI_INT64_T, t, c->slot + c->rank, 1, MPI_INT64_T, c->win));
        }
        OK(MPI_Win_flush_all(c->win));
        for (int t = 0; t < n; t++)
            OK(MPI_Get(&got[t], 1, MPI_INT64_T, t, c->slot + c->rank, 1, MPI_INT64_T, c->win));
        OK(MPI_Win_flush_all(c->win));
        for (int t = 0; t < n; t++)
            CHECK_INT(got[t], vals[t]);
        /* everyone's flushed puts are visible to everyone after a barrier */
        OK(MPI_Barrier(MPI_COMM_WORLD));
        for (int k = 0; k < n; k++) {
            int t = (c->rank + k) % n;
            OK(MPI_Get(got, n, MPI_INT64_T, t, c->slot, n, MPI_INT64_T, c->win));
            OK(MPI_Win_flush(t, c->win));
            for (int o = 0; o < n; o++)
                CHECK_INT(got[o], tagval(o, t, r, 2));
        }
        OK(MPI_Barrier(MPI_COMM_WORLD)); /* read before the next round writes */
    }
    OK(MPI_Win_unlock_all(c->win));
    free(vals);
    free(got);
}

static void fill(int64_t *b, int n, int origin, int target, int round)
{
    for (int k = 0; k < n; k++)
        b[k] = tagval(origin, target, round, k);
}

static void check_area(const int64_t *b, int n, int origin, int target, int round)
{
    for (int k = 0; k < n; k++)
        if (b[k] != tagval(origin, target, round, k)) {
            fprintf(stderr, "lock_all: element %d of origin %d's area at target %d (round %d) "
                    "is %lld, expected %lld\n", k, origin, target, round, (long long)b[k],
                    (long long)tagval(origin, target, round, k));
            CHECK(0);
        }
}

/* After flush_local(t) / flush_local_all the origin buffer is free: overwrite it at once;
 * the target must have what the buffer held at the put. */
static void flush_local(const struct ctx *c)
{
    int n = c->size;
    int64_t *buf = malloc(sizeof(int64_t) * BIG * (size_t)n);
    int64_t *back = malloc(sizeof(int64_t) * BIG);
    CHECK(buf && back);
    MPI_Aint mine = c->flocal + (MPI_Aint)c->rank * BIG;
    OK(MPI_Win_lock_all(0, c->win));
    for (int r = 0; r < ROUNDS; r++) {
        /* flush_local per target, one reused buffer */
        for (int k = 0; k < n; k++) {
            int t = (c->rank + k) % n;
            fill(buf, BIG, c->rank, t, 2 * r);
            OK(MPI_Put(buf, BIG, MPI_INT64_T, t, mine, BIG, MPI_INT64_T, c->win));
            OK(MPI_Win_flush_local(t, c->win));
            memset(buf, 0xa5, sizeof(int64_t) * BIG); /* reused at once */
            /* a get is complete at the origin after flush_local: the data is there */
            back[0] = -1;
            OK(MPI_Get(back, 1, MPI_INT64_T, t, c->slot + c->rank, 1, MPI_INT64_T, c->win));
            OK(MPI_Win_flush_local(t, c->win));
            CHECK_INT(back[0], tagval(c->rank, t, ROUNDS - 1, 2)); /* left by flush_then_get */
        }
        OK(MPI_Win_flush_all(c->win));
        for (int k = 0; k < n; k++) {
            int t = (c->rank + k) % n;
            OK(MPI_Get(back, BIG, MPI_INT64_T, t, mine, BIG, MPI_INT64_T, c->win));
            OK(MPI_Win_flush(t, c->win));
            check_area(back, BIG, c->rank, t, 2 * r);
        }
        /* flush_local_all, one buffer per target */
        for (int t = 0; t < n; t++) {
            fill(buf + (size_t)t * BIG, BIG, c->rank, t, 2 * r + 1);
            OK(MPI_Put(buf + (size_t)t * BIG, BIG, MPI_INT64_T, t, mine, BIG, MPI_INT64_T,
                       c->win));
        }
        OK(MPI_Win_flush_local_all(c->win));
        memset(buf, 0x5a, sizeof(int64_t) * BIG * (size_t)n);
        OK(MPI_Win_flush_all(c->win));
        for (int t = 0; t < n; t++) {
            OK(MPI_Get(back, BIG, MPI_INT64_T, t, mine, BIG, MPI_INT64_T, c->win));
            OK(MPI_Win_flush(t, c->win));
            check_area(back, BIG, c->rank, t, 2 * r + 1);
        }
    }
    OK(MPI_Win_unlock_all(c->win));
    free(buf);
    free(back);
}

/* MPI_Win_sync + barrier: stores by the owner reach others' gets; flushed puts by others
 * reach the owner's loads. */
static void sync_visibility(const struct ctx *c)
{
    int n = c->size;
    int64_t *got = malloc(sizeof(int64_t) * (size_t)(n > OWN_N ? n : OWN_N));
    CHECK(got != NULL);
    OK(MPI_Win_lock_all(0, c->win));
    for (int r = 0; r < ROUNDS; r++) {
        /* (a) the owner stores, syncs; the others read after the barrier */
        for (int k = 0; k < OWN_N; k++)
            c->base[c->own + k] = tagval(c->rank, c->rank, r, k);
        OK(MPI_Win_sync(c->win));
        OK(MPI_Barrier(MPI_COMM_WORLD));
        for (int k = 0; k < n; k++) {
            int t = (c->rank + k) % n;
            OK(MPI_Get(got, OWN_N, MPI_INT64_T, t, c->own, OWN_N, MPI_INT64_T, c->win));
            OK(MPI_Win_flush(t, c->win));
            check_area(got, OWN_N, t, t, r);
        }
        /* (b) everybody puts into everybody's inbox, flushes; the owner syncs, loads */
        for (int t = 0; t < n; t++) {
            got[t] = tagval(c->rank, t, r, 7);
            OK(MPI_Put(&got[t], 1, MPI_INT64_T, t, c->inbox + c->rank, 1, MPI_INT64_T,
                       c->win));
        }
        OK(MPI_Win_flush_all(c->win));
        OK(MPI_Barrier(MPI_COMM_WORLD));
        OK(MPI_Win_sync(c->win));
        for (int o = 0; o < n; o++)
            CHECK_INT(c->base[c->inbox + o], tagval(o, c->rank, r, 7));
        OK(MPI_Barrier(MPI_COMM_WORLD)); /* all read before the next round's stores */
    }
    OK(MPI_Win_unlock_all(c->win));
    free(got);
}

/* Puts without a flush in a NOCHECK lock_all epoch: MPI_Win_unlock_all completes them. */
static void unlock_all_completes(const struct ctx *c)
{
    int n = c->size;
    int64_t *vals = malloc(sizeof(int64_t) * (size_t)n), *got = malloc(sizeof(int64_t) * (size_t)n);
    CHECK(vals && got);
    for (int r = 0; r < ROUNDS; r++) {
        OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, c->win));
        for (int t = 0; t < n; t++) {
            vals[t] = tagval(c->rank, t, r, 9);
            OK(MPI_Put(&vals[t], 1, MPI_INT64_T, t, c->unl + c->rank, 1, MPI_INT64_T, c->win));
        }
        OK(MPI_Win_unlock_all(c->win));
        OK(MPI_Barrier(MPI_COMM_WORLD));
        OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, c->win));
        for (int k = 0; k < n; k++) {
            int t = (c->rank + k) % n;
            OK(MPI_Get(got, n, MPI_INT64_T, t, c->unl, n, MPI_INT64_T, c->win));
            OK(MPI_Win_flush(t, c->win));
            for (int o = 0; o < n; o++)
                CHECK_INT(got[o], tagval(o, t, r, 9));
        }
        /* and the owner's loads (lock_all is a lock on oneself too) */
        OK(MPI_Win_sync(c->win));
        for (int o = 0; o < n; o++)
            CHECK_INT(c->base[c->unl + o], tagval(o, c->rank, r, 9));
        OK(MPI_Win_unlock_all(c->win));
        OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    free(vals);
    free(got);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    struct ctx c = {MPI_WIN_NULL, NULL, 0, 0, 0, 0, 0, 0, 0};
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &c.rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &c.size));
    c.slot = 0;
    c.inbox = c.slot + c.size;
    c.unl = c.inbox + c.size;
    c.own = c.unl + c.size;
    c.flocal = c.own + OWN_N;
    /* a multiple of 16 bytes: MPICH 4.0.2 misplaces the windows of MPI_Win_allocate whose
     * sizes are not, which the validation of this program against MPICH would trip on */
    MPI_Aint elems = (c.flocal + (MPI_Aint)c.size * BIG + 1) / 2 * 2;
    OK(MPI_Win_allocate(elems * (MPI_Aint)sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL,
                        MPI_COMM_WORLD, &c.base, &c.win));
    /* the window starts zeroed (stores under a lock on oneself, then a barrier) */
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, c.rank, 0, c.win));
    memset(c.base, 0, (size_t)elems * sizeof(int64_t));
    OK(MPI_Win_unlock(c.rank, c.win));
    OK(MPI_Barrier(MPI_COMM_WORLD));

    flush_then_get(&c);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    flush_local(&c);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    sync_visibility(&c);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    unlock_all_completes(&c);

    OK(MPI_Win_free(&c.win));
    if (c.rank == 0)
        printf("rma_lock_all: %d ranks: ok\n", c.size);
    OK(MPI_Finalize());
    return 0;
}
