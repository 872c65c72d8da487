/* api/rma_sync.c — synchronization of one-sided communication (MPI 4.1 section 12.5):
 * MPI_Win_fence; MPI_Win_post, _start, _complete, _wait, _test; MPI_Win_lock, _unlock,
 * _lock_all, _unlock_all; MPI_Win_flush, _flush_all, _flush_local, _flush_local_all;
 * MPI_Win_sync.
 *
 * Each call checks its arguments, then whether it fits the epochs the calling origin has open
 * (MPI_ERR_RMA_SYNC otherwise, naming what is open or missing), then does the work (rma/).
 * How epochs combine: a fence's epoch in which no operation was issued ends when another kind
 * starts (as MPICH and Open MPI allow: a fence cannot know whether it will be followed by
 * operations); one access epoch of one kind at a time (lock_all, start, or locks on distinct
 * targets); an exposure epoch (post) beside any of them.
 *
 * Completion: an operation's data has moved when its call returns, or when its chunk tasks
 * have landed (large puts and gets); flush, flush_local, unlock, complete and fence wait for
 * those, so local and remote completion are the same event here. */
#include <stdlib.h>
#include "api/win.h"
#include "core/event.h"
#include "comm/comm.h"

enum {
    ANY_ASSERT = MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE |
                 MPI_MODE_NOSUCCEED
};

/* The window and its assert argument; NULL after reporting. Bits that are no MPI_MODE_* are
 * MPI_ERR_ASSERT; a known bit a call does not use is ignored (it is only a hint). */
static struct loom_win *win_assert(const char *fn, MPI_Win win, int assert, int *rc)
{
    struct loom_win *w = loom__win_arg(fn, win, rc);
    if (w != NULL && (assert & ~ANY_ASSERT) != 0) {
        *rc = loom__win_error(w, fn, MPI_ERR_ASSERT,
                              "assert %#x has bits that are no MPI_MODE_* assertion", assert);
        return NULL;
    }
    return w;
}

/* What forbids a new access epoch (lock, lock_all, start) now, or NULL. */
static const char *access_open(struct loom_win *w)
{
    int a = atomic_load_explicit(&w->access, memory_order_relaxed);
    if (a & LOOM_RMA_LOCK_ALL)
        return "MPI_Win_lock_all's epoch is open";
    if (a & LOOM_RMA_START)
        return "MPI_Win_start's access epoch is open";
    if (loom__rma_any_held(w))
        return "a target is locked";
    return NULL;
}

/* After fn waited for this origin's operations: MPI_ERR_RMA_RANGE for the first of them that
 * a target's node process refused (a dynamic window over several node processes, whose
 * target memory is checked there: rma/net_target.c), else MPI_SUCCESS. */
static int refusal(struct loom_win *w, const char *fn)
{
    int target;
    uint64_t addr;
    if (__builtin_expect(!loom__rma_net_refusal(w, &target, &addr), 1))
        return MPI_SUCCESS;
    return loom__win_error(w, fn, MPI_ERR_RMA_RANGE, "an operation on target %d at address "
                           "%#llx was not carried out: it is not inside a region target %d "
                           "attached", target, (unsigned long long)addr, target);
}

int loom__mpi_win_fence(int assert, MPI_Win win)
{
    static const char fn[] = "MPI_Win_fence";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = win_assert(fn, win, assert, &rc);
    if (w == NULL)
        return rc;
    const char *why = access_open(w);
    if (why == NULL && atomic_load_explicit(&w->exposing, memory_order_relaxed))
        why = "MPI_Win_post's exposure epoch is open";
    if (why != NULL)
        return loom__win_error(w, fn, MPI_ERR_RMA_SYNC, "%s", why);
    rc = loom__rma_fence(w, assert);
    return rc ? loom__win_error_code(w, fn, rc) : refusal(w, fn);
}

/* The window ranks of group's members, ascending, in *out (malloc'd) and their number; NULL
 * after reporting MPI_ERR_GROUP (a member that is not one of the window's). */
static int *group_ranks(struct loom_win *w, const char *fn, MPI_Group group, int *n, int *rc)
{
    const char *why = loom__group_invalid_reason(group);
    if (why != NULL) {
        *rc = loom__win_error(w, fn, MPI_ERR_GROUP, "%s", why);
        return NULL;
    }
    int *ranks = malloc((size_t)(group->size ? group->size : 1) * sizeof *ranks);
    if (ranks == NULL) {
        *rc = loom__win_error_code(w, fn, LOOM_ERR_NOMEM);
        return NULL;
    }
    /* counting sort by window rank: O(members + window size), no comparison sort */
    uint8_t *in = calloc((size_t)w->size, 1);
    if (in == NULL) {
        free(ranks);
        *rc = loom__win_error_code(w, fn, LOOM_ERR_NOMEM);
        return NULL;
    }
    for (int i = 0; i < group->size; i++) {
        int r = w->sh->win_of_world[group->world[i]];
        if (r < 0) {
            free(in);
            free(ranks);
            *rc = loom__win_error(w, fn, MPI_ERR_GROUP, "member %d of the group (world rank "
                                  "%d) is not a member of the window", i, group->world[i]);
            return NULL;
        }
        in[r] = 1;
    }
    int k = 0;
    for (int r = 0; r < w->size; r++)
        if (in[r])
            ranks[k++] = r;
    free(in);
    *n = k;
    return ranks;
}

/* MPI_Win_start (post = 0) and MPI_Win_post (post = 1): the same arguments, checks and work,
 * but the epoch each may not open beside (another access epoch, another exposure epoch). */
static int group_epoch(const char *fn, MPI_Group group, int assert, MPI_Win win, int post)
{
    int rc;
    struct loom_win *w = win_assert(fn, win, assert, &rc);
    if (w == NULL)
        return rc;
    const char *why = loom__group_invalid_reason(group);
    if (why != NULL)
        return loom__win_error(w, fn, MPI_ERR_GROUP, "%s", why);
    if (!post)
        why = access_open(w);
    else if (atomic_load_explicit(&w->exposing, memory_order_relaxed))
        why = "an exposure epoch of MPI_Win_post is open already (MPI_Win_wait or MPI_Win_test "
              "ends it)";
    if (why != NULL || (why = loom__rma_leave_fence(w)) != NULL)
        return loom__win_error(w, fn, MPI_ERR_RMA_SYNC, "%s", why);
    int n, *ranks = group_ranks(w, fn, group, &n, &rc);
    if (ranks == NULL)
        return rc;
    rc = post ? loom__rma_post(w, ranks, n) : loom__rma_start(w, ranks, n);
    return rc ? loom__win_error_code(w, fn, rc) : MPI_SUCCESS;
}

int loom__mpi_win_start(MPI_Group group, int assert, MPI_Win win)
{
    LOOM_API_ENTER("MPI_Win_start");
    return group_epoch("MPI_Win_start", group, assert, win, 0);
}

/* MPI_Win_complete and MPI_Win_unlock_all: end the access epoch `bit` (missing: `what`) with
 * `end`. */
static int end_access(const char *fn, MPI_Win win, int bit, const char *what,
                      void (*end)(struct loom_win *w))
{
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if (!(atomic_load_explicit(&w->access, memory_order_relaxed) & bit))
        return loom__win_error(w, fn, MPI_ERR_RMA_SYNC, "no %s is open", what);
    end(w);
    return refusal(w, fn);
}

int loom__mpi_win_complete(MPI_Win win)
{
    LOOM_API_ENTER("MPI_Win_complete");
    return end_access("MPI_Win_complete", win, LOOM_RMA_START,
                      "access epoch of MPI_Win_start", loom__rma_complete);
}

int loom__mpi_win_post(MPI_Group group, int assert, MPI_Win win)
{
    LOOM_API_ENTER("MPI_Win_post");
    return group_epoch("MPI_Win_post", group, assert, win, 1);
}

static int end_exposure(const char *fn, MPI_Win win, int *flag, int block)
{
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if (!block && flag == NULL)
        return loom__win_error(w, fn, MPI_ERR_ARG, "flag is NULL");
    if (!atomic_load_explicit(&w->exposing, memory_order_relaxed))
        return loom__win_error(w, fn, MPI_ERR_RMA_SYNC, "no exposure epoch of MPI_Win_post "
                               "is open");
    /* a test is a keypoint like MPI_Test's (api/p2p_wait.c): a program that only tests must
     * still see the origins' completions, which may need this node process to poll */
    if (!block && loom__wait_progress)
        loom__wait_progress();
    int done = loom__rma_wait(w, block);
    if (flag)
        *flag = done;
    return MPI_SUCCESS;
}

int loom__mpi_win_wait(MPI_Win win)
{
    static const char fn[] = "MPI_Win_wait";
    LOOM_API_ENTER(fn);
    return end_exposure(fn, win, NULL, 1);
}

int loom__mpi_win_test(MPI_Win win, int *flag)
{
    static const char fn[] = "MPI_Win_test";
    LOOM_API_ENTER(fn);
    return end_exposure(fn, win, flag, 0);
}

/* The window of a call naming one target (lock, unlock, flush...): rank checked. */
static struct loom_win *win_rank(const char *fn, MPI_Win win, int rank, int *rc)
{
    struct loom_win *w = loom__win_arg(fn, win, rc);
    if (w != NULL && (rank < 0 || rank >= w->size)) {
        *rc = loom__win_error(w, fn, MPI_ERR_RANK, "rank %d out of range (the window has %d "
                              "members)", rank, w->size);
        return NULL;
    }
    return w;
}

/* MPI_Win_lock and MPI_Win_unlock with every check, out of line. */
static __attribute__((noinline)) int lock_checked(int lock_type, int rank, int assert,
                                                  MPI_Win win)
{
    static const char fn[] = "MPI_Win_lock";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = win_assert(fn, win, assert, &rc);
    if (w == NULL)
        return rc;
    if (lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED)
        return loom__win_error(w, fn, MPI_ERR_LOCKTYPE, "lock_type %d is neither "
                               "MPI_LOCK_EXCLUSIVE nor MPI_LOCK_SHARED", lock_type);
    if (win_rank(fn, win, rank, &rc) == NULL)
        return rc;
    int a = atomic_load_explicit(&w->access, memory_order_relaxed);
    const char *why = NULL;
    if (a & LOOM_RMA_LOCK_ALL)
        why = "MPI_Win_lock_all's epoch is open";
    else if (a & LOOM_RMA_START)
        why = "MPI_Win_start's access epoch is open";
    else if (loom__rma_held(w, rank))
        why = "this origin holds a lock on the target already";
    else
        why = loom__rma_leave_fence(w);
    if (why != NULL)
        return loom__win_error(w, fn, MPI_ERR_RMA_SYNC, "%s (target %d)", why, rank);
    rc = loom__rma_lock(w, rank, lock_type == MPI_LOCK_EXCLUSIVE,
                        (assert & MPI_MODE_NOCHECK) != 0);
    return rc ? loom__win_error_code(w, fn, rc) : MPI_SUCCESS;
}

static __attribute__((noinline)) int unlock_checked(int rank, MPI_Win win)
{
    static const char fn[] = "MPI_Win_unlock";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = win_rank(fn, win, rank, &rc);
    if (w == NULL)
        return rc;
    if (!loom__rma_held(w, rank))
        return loom__win_error(w, fn, MPI_ERR_RMA_SYNC, "this origin holds no lock on target "
                               "%d (MPI_Win_lock first)", rank);
    loom__rma_unlock(w, rank);
    return refusal(w, fn);
}

/* The common lock: this origin's window, a lock type, no assertion but MPI_MODE_NOCHECK, a
 * target in range, no other access epoch open (no fence's either), no lock held on it; then
 * the lock is taken (0 only when memory for the per-target record ran out: the full path
 * reports it). */
static inline __attribute__((always_inline)) int lock_fast(int lock_type, int rank, int assert,
                                                           MPI_Win win)
{
    return loom__win_valid(win) && win->owner == loom__self &&
           (assert & ~MPI_MODE_NOCHECK) == 0 &&
           (lock_type == MPI_LOCK_EXCLUSIVE || lock_type == MPI_LOCK_SHARED) &&
           (unsigned)rank < (unsigned)win->size &&
           !(atomic_load_explicit(&win->access, memory_order_relaxed) &
             (LOOM_RMA_LOCK_ALL | LOOM_RMA_START | LOOM_RMA_FENCE)) &&
           !loom__rma_held(win, rank) &&
           loom__rma_lock(win, rank, lock_type == MPI_LOCK_EXCLUSIVE,
                          (assert & MPI_MODE_NOCHECK) != 0) == 0;
}

/* Inlined into MPI_Win_lock, MPI_Win_unlock and their PMPI_ twins under link-time
 * optimization (api.h, loom__api_fast_ok), as the flushes below. */
__attribute__((always_inline)) inline int loom__mpi_win_lock(int lock_type, int rank,
                                                             int assert, MPI_Win win)
{
    if (__builtin_expect(loom__api_fast_ok() && lock_fast(lock_type, rank, assert, win), 1))
        return MPI_SUCCESS;
    return lock_checked(lock_type, rank, assert, win);
}

__attribute__((always_inline)) inline int loom__mpi_win_unlock(int rank, MPI_Win win)
{
    if (__builtin_expect(loom__api_fast_ok() && loom__win_valid(win) &&
                             win->owner == loom__self && !win->net &&
                             (unsigned)rank < (unsigned)win->size &&
                             loom__rma_held(win, rank),
                         1)) {
        loom__rma_unlock(win, rank);
        return MPI_SUCCESS;
    }
    return unlock_checked(rank, win);
}

int loom__mpi_win_lock_all(int assert, MPI_Win win)
{
    static const char fn[] = "MPI_Win_lock_all";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = win_assert(fn, win, assert, &rc);
    if (w == NULL)
        return rc;
    const char *why = access_open(w);
    if (why == NULL)
        why = loom__rma_leave_fence(w);
    if (why != NULL)
        return loom__win_error(w, fn, MPI_ERR_RMA_SYNC, "%s", why);
    loom__rma_lock_all(w, (assert & MPI_MODE_NOCHECK) != 0);
    return MPI_SUCCESS;
}

int loom__mpi_win_unlock_all(MPI_Win win)
{
    LOOM_API_ENTER("MPI_Win_unlock_all");
    return end_access("MPI_Win_unlock_all", win, LOOM_RMA_LOCK_ALL, "epoch of MPI_Win_lock_all",
                      loom__rma_unlock_all);
}

/* The flushes' common case: this origin's window of one node process, nothing in flight, and
 * a lock_all epoch (or, for a flush of one target, a lock held on it). `entry` as in
 * api/rma_ops.c: in an entry point, loom__api_fast_as is checked here. */
static inline __attribute__((always_inline)) int flush_fast(int entry, MPI_Win win, int one,
                                                            int rank)
{
    return loom__win_valid(win) &&
           loom__api_owner_ok(win->owner, entry) && !win->net &&
           (one ? (unsigned)rank < (unsigned)win->size && loom__rma_passive(win, rank)
                : (atomic_load_explicit(&win->access, memory_order_relaxed) &
                   LOOM_RMA_LOCK_ALL) != 0) &&
           loom__load_acquire(&win->pending) == 0;
}

/* The flushes: in a passive-target epoch on `rank` (one) or on any target (!one), wait for
 * this origin's operations in flight; with every check, out of line. */
static __attribute__((noinline)) int flush_checked(const char *fn, MPI_Win win, int one,
                                                   int rank)
{
    LOOM_API_ENTER(fn);
    if (flush_fast(0, win, one, rank)) /* traced */
        return MPI_SUCCESS;
    int rc;
    struct loom_win *w = one ? win_rank(fn, win, rank, &rc) : loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if (one && !loom__rma_passive(w, rank))
        return loom__win_error(w, fn, MPI_ERR_RMA_SYNC, "target %d is not in a passive-target "
                               "epoch of this origin (MPI_Win_lock or MPI_Win_lock_all)",
                               rank);
    if (!one && !(atomic_load_explicit(&w->access, memory_order_relaxed) & LOOM_RMA_LOCK_ALL) &&
        !loom__rma_any_held(w))
        return loom__win_error(w, fn, MPI_ERR_RMA_SYNC, "no passive-target epoch is open "
                               "(MPI_Win_lock or MPI_Win_lock_all)");
    loom__rma_flush(w);
    return refusal(w, fn);
}

/* The entry points keep only the common case, so that link-time optimization folds each into
 * its MPI_ and PMPI_ functions (api.h, loom__api_fast_as): a latency-bound flush is a few
 * dozen instructions, and the call layers were a third of them. */
static inline __attribute__((always_inline)) int flush_entry(const char *fn, MPI_Win win,
                                                             int one, int rank)
{
    if (__builtin_expect(flush_fast(1, win, one, rank), 1))
        return MPI_SUCCESS;
    return flush_checked(fn, win, one, rank);
}

__attribute__((always_inline)) inline int loom__mpi_win_flush(int rank, MPI_Win win)
{
    return flush_entry("MPI_Win_flush", win, 1, rank);
}

__attribute__((always_inline)) inline int loom__mpi_win_flush_local(int rank, MPI_Win win)
{
    return flush_entry("MPI_Win_flush_local", win, 1, rank);
}

__attribute__((always_inline)) inline int loom__mpi_win_flush_all(MPI_Win win)
{
    return flush_entry("MPI_Win_flush_all", win, 0, 0);
}

__attribute__((always_inline)) inline int loom__mpi_win_flush_local_all(MPI_Win win)
{
    return flush_entry("MPI_Win_flush_local_all", win, 0, 0);
}

int loom__mpi_win_sync(MPI_Win win)
{
    static const char fn[] = "MPI_Win_sync";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    /* over several node processes a keypoint, like a flush (rma/xfer.c): a rank that polls its
     * window's memory with MPI_Win_sync lets the others' operations on it move */
    if (w->net && loom__wait_progress)
        loom__wait_progress();
    /* The unified model's memory barrier: this thread's earlier stores to window memory are
     * ordered before its later loads and stores (MPI 4.1 section 12.7). */
    atomic_thread_fence(memory_order_seq_cst);
    return MPI_SUCCESS;
}
