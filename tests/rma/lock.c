/* rma_lock [ITERS] — MPI_Win_lock / MPI_Win_unlock (MPI 4.1 section 12.5.3).
 *
 * - Mutual exclusion: every rank does ITERS read-modify-writes (get, flush, yield, get again:
 *   unchanged, increment, put, unlock) of one counter under MPI_LOCK_EXCLUSIVE; the owner of
 *   the counter increments it by load/store under an exclusive lock on itself on every other
 *   turn. The counter must end
 *   at size*ITERS and the values the ranks read must be exactly 0 .. size*ITERS-1, each once:
 *   a lost update or two holders at once shows as a repeated value.
 * - Exclusive epochs are whole: under the exclusive lock each origin adds k*(j+1) to element
 *   j of a vector and reads it back after a flush; the vector must always be a multiple of
 *   (1, 2, 3, ...) with one factor, which an accumulate of another origin applied halfway
 *   would break.
 * - Shared locks coexist: every rank holds a shared lock on every target at once (locked in
 *   a rotated order: several targets per origin), puts into its own slot and adds to a
 *   counter, flushes (so the lock is granted), then waits in a barrier while holding them all;
 *   if a shared lock excluded another the barrier would never complete. After the barrier
 *   every rank reads everybody's slots and the counter in the same epochs.
 * - Several exclusive locks held at once by one origin: each origin locks every target
 *   exclusively in ascending rank order (no deadlock), increments a counter on each, unlocks
 *   them in reverse order.
 * - MPI_MODE_NOCHECK where the program guarantees no conflicting lock: in phase k rank r
 *   alone locks target (r+k) mod size exclusively; then every rank takes shared NOCHECK locks
 *   on rank 0 while no one takes an exclusive lock. Plain locks must work as before after
 *   NOCHECK epochs (last: MPICH 4.0.2 hangs there, see after_nocheck).
 * - Lock on self: puts and gets to one's own window, and local loads and stores, under a lock
 *   on oneself; what another rank put is read by loads after a lock on oneself (the public
 *   copy reaches the private one at MPI_Win_lock at the latest).
 * At 1 rank every target is the rank itself. The window is MPI_Win_create'd over malloc'd
 * memory. Ranks are threads of one process under loom: no writable globals. */
#include <sched.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define OK(call) CHECK_INT((call), MPI_SUCCESS)

#define VEC 8 /* elements of the vector of the whole-epoch check */
#define VEC_REPS 5

/* Layout of each rank's window, in int64 elements; the per-origin slots follow. */
enum {
    X_COUNTER,      /* exclusive read-modify-write counter */
    X_MULTI,        /* counter of the several-exclusive-locks phase */
    X_AFTER,        /* counter of the plain locks after the NOCHECK epochs */
    X_SHSUM,        /* accumulated under shared locks */
    X_NCSUM,        /* accumulated under shared NOCHECK locks */
    X_SELF_A,       /* self lock: stored locally */
    X_SELF_B,       /* self lock: put by the rank to itself */
    X_VEC,          /* VEC elements */
    X_SLOTS = X_VEC + VEC /* size elements: slot o written by origin o; then size elements
                           * for the NOCHECK phases (element k written in phase k) */
};
#define X_NOCHECK(c) (X_SLOTS + (c)->size)

struct ctx {
    MPI_Win win;
    int64_t *base; /* this rank's window memory */
    int rank, size, iters;
};

/* A value that names (origin, target, round): never 0, different for each triple. */
static int64_t tagval(int origin, int target, int round)
{
    return (int64_t)1000000 * (origin + 1) + (int64_t)1000 * (target + 1) + round + 1;
}

/* Element idx of one's own window, read by a load under a shared lock on oneself (which
 * makes what others put there visible to loads). */
static int64_t read_own(const struct ctx *c, int idx)
{
    OK(MPI_Win_lock(MPI_LOCK_SHARED, c->rank, 0, c->win));
    int64_t v = c->base[idx];
    OK(MPI_Win_unlock(c->rank, c->win));
    return v;
}

static int64_t get_one(const struct ctx *c, int target, int idx)
{
    int64_t v = -1;
    OK(MPI_Get(&v, 1, MPI_INT64_T, target, idx, 1, MPI_INT64_T, c->win));
    OK(MPI_Win_flush(target, c->win));
    return v;
}

/* Every rank increments X_COUNTER at target t ITERS times under an exclusive lock. */
static void exclusive_counter(const struct ctx *c, int t)
{
    int n = c->iters;
    int64_t *seen = malloc(sizeof(int64_t) * (size_t)n);
    CHECK(seen != NULL);
    for (int i = 0; i < n; i++) {
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, c->win));
        if (t == c->rank && i % 2 == 1) {
            /* the owner, by load and store: protected by its exclusive lock on itself */
            seen[i] = c->base[X_COUNTER];
            c->base[X_COUNTER] = seen[i] + 1;
        } else {
            int64_t v = get_one(c, t, X_COUNTER);
            seen[i] = v;
            sched_yield(); /* another holder, if there were one, would get in here */
            CHECK_INT(get_one(c, t, X_COUNTER), v); /* unchanged while the lock is held */
            v++;
            OK(MPI_Put(&v, 1, MPI_INT64_T, t, X_COUNTER, 1, MPI_INT64_T, c->win));
        }
        OK(MPI_Win_unlock(t, c->win));
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    int64_t total = (int64_t)c->size * n;
    int64_t *all = NULL;
    if (c->rank == t) {
        CHECK_INT(read_own(c, X_COUNTER), total);
        all = malloc(sizeof(int64_t) * (size_t)total);
        CHECK(all != NULL);
    }
    OK(MPI_Gather(seen, n, MPI_INT64_T, all, n, MPI_INT64_T, t, MPI_COMM_WORLD));
    if (c->rank == t) {
        /* each value 0 .. total-1 read exactly once */
        char *mark = calloc((size_t)total, 1);
        CHECK(mark != NULL);
        for (int64_t k = 0; k < total; k++) {
            int64_t v = all[k];
            if (v < 0 || v >= total || mark[v]) {
                fprintf(stderr, "lock: rank %d read %lld from the counter (turn %lld), "
                        "out of range or read twice\n", (int)(k / n), (long long)v,
                        (long long)(k % n));
                CHECK(0);
            }
            mark[v] = 1;
        }
        free(mark);
        free(all);
        /* back to 0 for the next round */
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, c->win));
        c->base[X_COUNTER] = 0;
        OK(MPI_Win_unlock(t, c->win));
    }
    free(seen);
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* Under an exclusive lock on rank 0, add (rank+1)*(j+1) to element j of the vector, flush,
 * read the vector back: it must be S*(1, 2, ..., VEC) for a single S. */
static void exclusive_vector(const struct ctx *c)
{
    int64_t add[VEC], got[VEC];
    for (int j = 0; j < VEC; j++)
        add[j] = (int64_t)(c->rank + 1) * (j + 1);
    for (int r = 0; r < VEC_REPS; r++) {
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, c->win));
        OK(MPI_Accumulate(add, VEC, MPI_INT64_T, 0, X_VEC, VEC, MPI_INT64_T, MPI_SUM, c->win));
        OK(MPI_Win_flush(0, c->win));
        OK(MPI_Get(got, VEC, MPI_INT64_T, 0, X_VEC, VEC, MPI_INT64_T, c->win));
        OK(MPI_Win_unlock(0, c->win));
        CHECK(got[0] >= (int64_t)(c->rank + 1) * (r + 1));
        for (int j = 1; j < VEC; j++)
            CHECK_INT(got[j], got[0] * (j + 1));
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    if (c->rank == 0) {
        int64_t s = (int64_t)c->size * (c->size + 1) / 2 * VEC_REPS;
        for (int j = 0; j < VEC; j++)
            CHECK_INT(read_own(c, X_VEC + j), s * (j + 1));
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* Shared locks on every target at once, held across a barrier. */
static void shared_all_at_once(const struct ctx *c, int round)
{
    int n = c->size;
    int64_t one = c->rank + 1;
    int64_t *vals = malloc(sizeof(int64_t) * (size_t)n);
    int64_t *got = malloc(sizeof(int64_t) * (size_t)n);
    CHECK(vals && got);
    for (int k = 0; k < n; k++) {
        int t = (c->rank + k) % n;
        vals[t] = tagval(c->rank, t, round);
        OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, c->win));
        OK(MPI_Put(&vals[t], 1, MPI_INT64_T, t, X_SLOTS + c->rank, 1, MPI_INT64_T, c->win));
        OK(MPI_Accumulate(&one, 1, MPI_INT64_T, t, X_SHSUM, 1, MPI_INT64_T, MPI_SUM, c->win));
    }
    /* complete everything at every target: each shared lock is granted by now */
    for (int t = 0; t < n; t++)
        OK(MPI_Win_flush(t, c->win));
    OK(MPI_Barrier(MPI_COMM_WORLD)); /* all ranks hold shared locks on all targets */
    for (int k = 0; k < n; k++) {
        int t = (c->rank + n - k) % n;
        OK(MPI_Get(got, n, MPI_INT64_T, t, X_SLOTS, n, MPI_INT64_T, c->win));
        int64_t sum = get_one(c, t, X_SHSUM);
        for (int o = 0; o < n; o++)
            CHECK_INT(got[o], tagval(o, t, round));
        CHECK_INT(sum, (int64_t)n * (n + 1) / 2 * (round + 1));
    }
    OK(MPI_Barrier(MPI_COMM_WORLD)); /* no one writes the next round before all have read */
    for (int k = n - 1; k >= 0; k--) /* unlocked in the reverse order */
        OK(MPI_Win_unlock((c->rank + k) % n, c->win));
    free(vals);
    free(got);
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* Exclusive locks on all targets held at once (taken in ascending order). */
static void exclusive_all_at_once(const struct ctx *c, int reps)
{
    for (int r = 0; r < reps; r++) {
        for (int t = 0; t < c->size; t++)
            OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, c->win));
        for (int t = 0; t < c->size; t++) {
            int64_t v = get_one(c, t, X_MULTI) + 1;
            OK(MPI_Put(&v, 1, MPI_INT64_T, t, X_MULTI, 1, MPI_INT64_T, c->win));
        }
        for (int t = c->size - 1; t >= 0; t--)
            OK(MPI_Win_unlock(t, c->win));
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_INT(read_own(c, X_MULTI), (int64_t)c->size * reps);
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* MPI_MODE_NOCHECK: in phase k rank r alone locks target (r+k) mod size exclusively and
 * writes element k of the NOCHECK area; then every rank adds to rank 0 under shared NOCHECK
 * locks while no one asks for an exclusive lock; each owner checks its elements under a
 * shared NOCHECK lock on itself (no conflicting lock is held or asked for by then). */
static void nocheck(const struct ctx *c)
{
    int n = c->size;
    for (int k = 0; k < n; k++) {
        int t = (c->rank + k) % n;
        int64_t v = tagval(c->rank, t, k);
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, MPI_MODE_NOCHECK, c->win));
        OK(MPI_Put(&v, 1, MPI_INT64_T, t, X_NOCHECK(c) + k, 1, MPI_INT64_T, c->win));
        OK(MPI_Win_flush(t, c->win));
        CHECK_INT(get_one(c, t, X_NOCHECK(c) + k), v);
        OK(MPI_Win_unlock(t, c->win));
        OK(MPI_Barrier(MPI_COMM_WORLD)); /* the next phase's origin comes after this one */
    }
    int64_t add = 2 * c->rank + 1; /* the sum over ranks is size^2 */
    for (int r = 0; r < 3; r++) {
        OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, MPI_MODE_NOCHECK, c->win));
        OK(MPI_Accumulate(&add, 1, MPI_INT64_T, 0, X_NCSUM, 1, MPI_INT64_T, MPI_SUM, c->win));
        OK(MPI_Win_unlock(0, c->win));
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, c->rank, MPI_MODE_NOCHECK, c->win));
    for (int k = 0; k < n; k++)
        CHECK_INT(c->base[X_NOCHECK(c) + k], tagval((c->rank - k + n) % n, c->rank, k));
    if (c->rank == 0)
        CHECK_INT(c->base[X_NCSUM], (int64_t)3 * n * n);
    OK(MPI_Win_unlock(c->rank, c->win));
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* Plain locks after NOCHECK epochs: a NOCHECK epoch must leave no trace in the lock state
 * (an unlock that releases a lock NOCHECK never took would let two exclusive holders in, or
 * none). Every rank increments a counter on every target under exclusive locks; the owners
 * read it under a plain shared lock on themselves. (MPICH 4.0.2 fails here: after a NOCHECK
 * epoch from an origin to a target, that origin's next plain lock on the target leaves the
 * target's lock state broken and a later exclusive lock waits forever.) */
static void after_nocheck(const struct ctx *c)
{
    for (int k = 0; k < c->size; k++) {
        int t = (c->rank + k) % c->size;
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, c->win));
        int64_t v = get_one(c, t, X_AFTER) + 1;
        OK(MPI_Put(&v, 1, MPI_INT64_T, t, X_AFTER, 1, MPI_INT64_T, c->win));
        OK(MPI_Win_unlock(t, c->win));
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_INT(read_own(c, X_AFTER), c->size);
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* Locks on oneself: RMA to one's own window and loads and stores. */
static void self_lock(const struct ctx *c)
{
    int64_t a = tagval(c->rank, c->rank, 50), b = tagval(c->rank, c->rank, 51), got = 0;
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, c->rank, 0, c->win));
    c->base[X_SELF_A] = a; /* a store to one location, a put to another */
    OK(MPI_Put(&b, 1, MPI_INT64_T, c->rank, X_SELF_B, 1, MPI_INT64_T, c->win));
    OK(MPI_Win_unlock(c->rank, c->win));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, c->rank, 0, c->win));
    OK(MPI_Get(&got, 1, MPI_INT64_T, c->rank, X_SELF_A, 1, MPI_INT64_T, c->win));
    OK(MPI_Win_flush(c->rank, c->win));
    CHECK_INT(got, a);
    CHECK_INT(c->base[X_SELF_B], b);
    OK(MPI_Win_unlock(c->rank, c->win));
    /* an accumulate to oneself under an exclusive lock, then a load under the same lock
     * after the flush */
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, c->rank, 0, c->win));
    OK(MPI_Accumulate(&a, 1, MPI_INT64_T, c->rank, X_SELF_B, 1, MPI_INT64_T, MPI_SUM, c->win));
    OK(MPI_Win_flush(c->rank, c->win));
    CHECK_INT(c->base[X_SELF_B], a + b);
    OK(MPI_Win_unlock(c->rank, c->win));
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    struct ctx c = {MPI_WIN_NULL, NULL, 0, 0, 20};
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &c.rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &c.size));
    if (argc > 1)
        c.iters = atoi(argv[1]);
    CHECK(c.iters > 0);
    size_t elems = (size_t)X_SLOTS + 2 * (size_t)c.size;
    c.base = calloc(elems, sizeof(int64_t));
    CHECK(c.base != NULL);
    OK(MPI_Win_create(c.base, (MPI_Aint)(elems * sizeof(int64_t)), sizeof(int64_t),
                      MPI_INFO_NULL, MPI_COMM_WORLD, &c.win));

    exclusive_counter(&c, 0);
    exclusive_counter(&c, c.size - 1);
    exclusive_vector(&c);
    for (int round = 0; round < 3; round++)
        shared_all_at_once(&c, round);
    exclusive_all_at_once(&c, 4);
    self_lock(&c);
    nocheck(&c);
    after_nocheck(&c);

    OK(MPI_Win_free(&c.win));
    free(c.base);
    if (c.rank == 0)
        printf("rma_lock: %d ranks, %d iterations: ok\n", c.size, c.iters);
    OK(MPI_Finalize());
    return 0;
}
