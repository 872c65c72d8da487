/* rma_threads [ITERS] — passive-target RMA from several threads of each rank
 * (MPI_THREAD_MULTIPLE; threads created inside a rank act for it).
 *
 * Part 1: the rank's main thread opens one MPI_Win_lock_all epoch; NT threads then issue, at
 * once, ITERS rounds each of: a put to the thread's own slot at a target that rotates with the
 * round, MPI_Win_flush(target), a get of that slot (must return what was put), an
 * MPI_Accumulate(MPI_SUM) to a counter on the same target, an MPI_Fetch_and_op(MPI_SUM, 1) on
 * a ticket counter at rank 0 completed by MPI_Win_flush_local(0), and now and then an
 * MPI_Win_flush_all. The main thread joins them, closes the epoch; after a barrier every
 * owner checks its window against what the schedule implies, computed independently: each
 * slot holds the last value its thread put there, each counter the sum sent to it; rank 0's
 * tickets, gathered, are exactly 0 .. total-1, and each thread's rise.
 * Part 2: min(NT, size) threads of each rank lock different targets (thread t: rank+t mod
 * size, itself for t = 0) concurrently, ITERS times: exclusive locks around a read-modify-
 * write of a counter (get, flush, yield, get again: unchanged, put) by turns with shared
 * locks around an accumulate to another. Every counter must be exact (a lost update means
 * two exclusive holders at once).
 * ITERS (default 50) comes from argv[1]: passive.cmake runs a small count under
 * ThreadSanitizer. Ranks are threads of one process under loom: no writable globals. */
#include <pthread.h>
#include <sched.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define OK(call) CHECK_INT((call), MPI_SUCCESS)

#define NT 3
#define FLUSH_ALL_EVERY 7

struct shared {
    MPI_Win win;
    int64_t *base;
    int rank, size, iters;
    /* offsets in the window, in elements */
    MPI_Aint slots, cnt, tick, lcnt, lacc;
};

struct worker {
    const struct shared *s;
    int t;
    int64_t *tickets; /* ITERS, part 1 */
};

static int64_t tagval(int origin, int thread, int round)
{
    return ((int64_t)(origin + 1) << 40) + ((int64_t)(thread + 1) << 32) + round + 1;
}

/* Part 1 target of thread t of `origin` in round i. */
static int target_of(const struct shared *s, int origin, int t, int i)
{
    return (origin + i + t) % s->size;
}

static void *part1(void *p)
{
    struct worker *w = p;
    const struct shared *s = w->s;
    int64_t add = s->rank + 1, one = 1;
    MPI_Aint slot = s->slots + (MPI_Aint)s->rank * NT + w->t;
    for (int i = 0; i < s->iters; i++) {
        int x = target_of(s, s->rank, w->t, i);
        int64_t v = tagval(s->rank, w->t, i), got = -1, ticket = -1;
        OK(MPI_Put(&v, 1, MPI_INT64_T, x, slot, 1, MPI_INT64_T, s->win));
        OK(MPI_Accumulate(&add, 1, MPI_INT64_T, x, s->cnt, 1, MPI_INT64_T, MPI_SUM, s->win));
        OK(MPI_Win_flush(x, s->win));
        OK(MPI_Get(&got, 1, MPI_INT64_T, x, slot, 1, MPI_INT64_T, s->win));
        OK(MPI_Win_flush(x, s->win));
        CHECK_INT(got, v);
        OK(MPI_Fetch_and_op(&one, &ticket, MPI_INT64_T, 0, s->tick, MPI_SUM, s->win));
        OK(MPI_Win_flush_local(0, s->win)); /* the result is here after a local flush */
        CHECK(ticket >= 0);
        w->tickets[i] = ticket;
        if (i % FLUSH_ALL_EVERY == FLUSH_ALL_EVERY - 1)
            OK(MPI_Win_flush_all(s->win));
    }
    return NULL;
}

static void *part2(void *p)
{
    struct worker *w = p;
    const struct shared *s = w->s;
    int x = (s->rank + w->t) % s->size;
    int64_t one = 1;
    for (int i = 0; i < s->iters; i++) {
        if (i % 2 == 0) {
            int64_t v = -1, again = -2;
            OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, x, 0, s->win));
            OK(MPI_Get(&v, 1, MPI_INT64_T, x, s->lcnt, 1, MPI_INT64_T, s->win));
            OK(MPI_Win_flush(x, s->win));
            CHECK(v >= 0);
            sched_yield(); /* another holder, if there were one, would get in here */
            OK(MPI_Get(&again, 1, MPI_INT64_T, x, s->lcnt, 1, MPI_INT64_T, s->win));
            OK(MPI_Win_flush(x, s->win));
            CHECK_INT(again, v); /* nobody else changes it while the lock is held */
            v++;
            OK(MPI_Put(&v, 1, MPI_INT64_T, x, s->lcnt, 1, MPI_INT64_T, s->win));
            OK(MPI_Win_unlock(x, s->win));
        } else {
            OK(MPI_Win_lock(MPI_LOCK_SHARED, x, 0, s->win));
            OK(MPI_Accumulate(&one, 1, MPI_INT64_T, x, s->lacc, 1, MPI_INT64_T, MPI_SUM,
                              s->win));
            OK(MPI_Win_unlock(x, s->win));
        }
    }
    return NULL;
}

static void run_threads(struct worker *w, int nt, void *(*fn)(void *))
{
    pthread_t th[NT];
    for (int t = 0; t < nt; t++)
        CHECK_INT(pthread_create(&th[t], NULL, fn, &w[t]), 0);
    for (int t = 0; t < nt; t++)
        CHECK_INT(pthread_join(th[t], NULL), 0);
}

/* The owner's window after part 1, against the schedule. */
static void check_part1(const struct shared *s)
{
    int n = s->size, me = s->rank;
    int64_t want_cnt = 0;
    for (int o = 0; o < n; o++)
        for (int t = 0; t < NT; t++) {
            int64_t want = 0; /* untouched if no round of (o, t) came here */
            for (int i = 0; i < s->iters; i++)
                if (target_of(s, o, t, i) == me) {
                    want = tagval(o, t, i);
                    want_cnt += o + 1;
                }
            CHECK_INT(s->base[s->slots + (MPI_Aint)o * NT + t], want);
        }
    CHECK_INT(s->base[s->cnt], want_cnt);
    if (me == 0)
        CHECK_INT(s->base[s->tick], (int64_t)n * NT * s->iters);
}

static void check_tickets(const struct shared *s, const struct worker *w)
{
    int per = NT * s->iters, n = s->size;
    int64_t *mine = malloc(sizeof(int64_t) * (size_t)per), *all = NULL;
    CHECK(mine != NULL);
    for (int t = 0; t < NT; t++)
        for (int i = 0; i < s->iters; i++) {
            if (i > 0)
                CHECK(w[t].tickets[i] > w[t].tickets[i - 1]); /* asked one after another */
            mine[t * s->iters + i] = w[t].tickets[i];
        }
    if (s->rank == 0) {
        all = malloc(sizeof(int64_t) * (size_t)per * (size_t)n);
        CHECK(all != NULL);
    }
    OK(MPI_Gather(mine, per, MPI_INT64_T, all, per, MPI_INT64_T, 0, MPI_COMM_WORLD));
    if (s->rank == 0) {
        int64_t total = (int64_t)per * n;
        char *mark = calloc((size_t)total, 1);
        CHECK(mark != NULL);
        for (int64_t k = 0; k < total; k++) {
            if (all[k] < 0 || all[k] >= total || mark[all[k]]) {
                fprintf(stderr, "threads: rank %d thread %d got ticket %lld: out of range or "
                        "given twice\n", (int)(k / per), (int)(k % per / s->iters),
                        (long long)all[k]);
                CHECK(0);
            }
            mark[all[k]] = 1;
        }
        free(mark);
        free(all);
    }
    free(mine);
}

int main(int argc, char **argv)
{
    int provided = -1;
    OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    struct shared s;
    memset(&s, 0, sizeof s);
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &s.rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &s.size));
    s.iters = argc > 1 ? atoi(argv[1]) : 50;
    CHECK(s.iters > 0);
    s.slots = 0;
    s.cnt = s.slots + (MPI_Aint)s.size * NT;
    s.tick = s.cnt + 1;
    s.lcnt = s.tick + 1;
    s.lacc = s.lcnt + 1;
    MPI_Aint elems = (s.lacc + 2) / 2 * 2; /* a multiple of 16 bytes (see lock_all.c) */
    OK(MPI_Win_allocate(elems * (MPI_Aint)sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL,
                        MPI_COMM_WORLD, &s.base, &s.win));
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, s.rank, 0, s.win));
    memset(s.base, 0, (size_t)elems * sizeof(int64_t));
    OK(MPI_Win_unlock(s.rank, s.win));
    OK(MPI_Barrier(MPI_COMM_WORLD));

    struct worker w[NT];
    for (int t = 0; t < NT; t++) {
        w[t] = (struct worker){&s, t, malloc(sizeof(int64_t) * (size_t)s.iters)};
        CHECK(w[t].tickets != NULL);
    }

    /* part 1: one lock_all epoch of the main thread, used by all threads */
    OK(MPI_Win_lock_all(0, s.win));
    run_threads(w, NT, part1);
    OK(MPI_Win_unlock_all(s.win));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, s.rank, 0, s.win));
    check_part1(&s);
    OK(MPI_Win_unlock(s.rank, s.win));
    check_tickets(&s, w);
    OK(MPI_Barrier(MPI_COMM_WORLD));

    /* part 2: each thread locks its own target; no two threads of a rank share one */
    int nl = s.size < NT ? s.size : NT;
    run_threads(w, nl, part2);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, s.rank, 0, s.win));
    /* one origin per thread index t < nl picks me: nl lockers of this window */
    CHECK_INT(s.base[s.lcnt], (int64_t)nl * ((s.iters + 1) / 2));
    CHECK_INT(s.base[s.lacc], (int64_t)nl * (s.iters / 2));
    OK(MPI_Win_unlock(s.rank, s.win));

    OK(MPI_Win_free(&s.win));
    for (int t = 0; t < NT; t++)
        free(w[t].tickets);
    if (s.rank == 0)
        printf("rma_threads: %d ranks, %d threads, %d iterations: ok\n", s.size, NT, s.iters);
    OK(MPI_Finalize());
    return 0;
}
