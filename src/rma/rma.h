/* rma/rma.h — one-sided communication: windows, epochs and operations (private header of
 * rma/; docs/rma.md).
 *
 * Every rank of a job lives in one address space, so a window is nothing but the members'
 * memory and a little shared state: a put is a copy from the origin's buffer into the
 * target's memory, made by the origin (or, when large, by whoever claims its pieces); a get
 * the reverse; an accumulate the operation's loop run by the origin under locks striped by
 * address; a passive-target lock a word in the target's state that the origin takes itself.
 * No target ever has to be inside MPI for an operation on its memory to advance or complete.
 *
 * A window has two halves, like a communicator:
 *  - struct loom_win_shared: what all members share, one segment per member (its memory, its
 *    lock, its exposure epoch, the regions attached to a dynamic window). Made by the
 *    member of rank 0 during the collective creation, freed by the last member's
 *    MPI_Win_free (refs).
 *  - struct loom_win: the handle one rank holds: its error handler, attributes, name, hints,
 *    and its epochs as an origin. Touched by the threads of that rank only.
 *
 * Memory model (MPI_WIN_UNIFIED). Data moves with plain stores and loads; what makes one rank's
 * store visible to another rank's load is a release/acquire pair on the synchronization that
 * orders them, written beside each: the barrier of MPI_Win_fence, the completion counter of
 * MPI_Win_complete/MPI_Win_wait, the lock word of MPI_Win_unlock/MPI_Win_lock, the pending
 * counter of a flush (a chunk task's release, the flusher's acquire). Accumulate-family
 * operations hold locks striped by address while they update the target's elements, so
 * concurrent ones never tear an element. */
#ifndef LOOM_RMA_RMA_H
#define LOOM_RMA_RMA_H
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "mpi.h"
#include "core/error.h"
#include "core/lock.h"
#include "core/object.h"

struct loom_comm;
struct loom_group;
struct loom_info;
struct loom_datatype;
struct loom_op;
struct loom_request;
struct loom_errhandler;
struct loom_attr_list;
struct loom_event;

/* ---- passive-target locks (lock.c) ---------------------------------------------------- */

/* The lock of one target's window memory. `word` holds LOOM_RMA_EXCLUSIVE while an origin
 * holds it exclusively, else the number of shared holders; origins change it with
 * compare-and-swap (seq_cst), never the target. An origin that cannot take it waits on its own
 * rank's event, listed in `waiters` (under `wl`, a leaf lock); a releaser that sees `nwaiters`
 * nonzero after its release wakes them all. Why no lost wake-up: the waiter counts itself in
 * nwaiters (seq_cst) before it tries the word (seq_cst), the releaser releases the word
 * (seq_cst) before it reads nwaiters (seq_cst): one of the two sees the other. */
#define LOOM_RMA_EXCLUSIVE 0x80000000u
struct loom_rma_waiter {
    struct loom_event *event;
    struct loom_rma_waiter *next;
};
struct loom_rma_rwaiter; /* an origin of another node process (rma/net_target.c) */
struct loom_rma_lock {
    _Atomic uint32_t word;
    _Atomic int nwaiters;            /* local waiters and remote ones */
    struct loom_lock wl;             /* protects waiters and rwaiters */
    struct loom_rma_waiter *waiters; /* nodes on the waiting threads' stacks */
    struct loom_rma_rwaiter *rwaiters; /* origins of other node processes to grant it to,
                                          oldest first (malloc'd; rma/net_target.c) */
};
/* Take l, exclusively or shared, waiting (and running tasks, like every wait) until it is
 * free. Never needs the target's cooperation. */
void loom__rma_lock_acquire(struct loom_rma_lock *l, int exclusive);
void loom__rma_lock_release(struct loom_rma_lock *l, int exclusive);
/* One try, never waiting: 1 if the lock was taken (what the network's poller does for an
 * origin of another node process). */
int loom__rma_lock_try(struct loom_rma_lock *l, int exclusive);

/* ---- the shared half ---------------------------------------------------------------- */

/* A region of a dynamic window (MPI_Win_attach). */
struct loom_rma_region {
    char *base;
    size_t size;
};

/* One member's part of a window, on a cache line of its own. base/size/disp_unit are written
 * at creation, before the shared half is published, and read-only after. Over several node
 * processes (rma/win_net.c) every node process has its own shared half with a part for every
 * member: a member of another node process (`remote`) has its base as an address of that
 * process (never dereferenced here), its lock, epochs and regions unused but for `rposts`. */
struct loom_win_seg {
    char *base;
    size_t size;
    ptrdiff_t disp_unit;
    int remote;                     /* 1: the member runs in node process `node` */
    int node;
    struct loom_rma_lock lock;      /* passive target */
    /* Exposure epoch (MPI_Win_post .. MPI_Win_wait), pscw.c. Under expo_lock: expo_open,
     * nexpo, expo_ranks, expo_started (written by the target; expo_started[i] set by origin
     * expo_ranks[i] when its MPI_Win_start takes this epoch). expo_done: origins of the open
     * epoch that called MPI_Win_complete, added to with release by them, read with acquire
     * by the target. */
    struct loom_lock expo_lock;
    int expo_open, nexpo;
    int *expo_ranks;                /* [nexpo] window ranks of the origins, ascending */
    uint8_t *expo_started;          /* [nexpo] */
    _Atomic int expo_done;
    /* A member of another node process (remote): the ranks of this node process whose
     * MPI_Win_start may take its epoch, as its posts arrived (rma/net_target.c), under
     * expo_lock. */
    int *rposts;
    int nrposts, caprposts;
    /* Dynamic windows (dynamic.c): the attached regions, under regions_lock (readers: every
     * origin's range check; writer: the member attaching or detaching). */
    pthread_rwlock_t regions_lock;
    struct loom_rma_region *regions;
    int nregions, cap;
} __attribute__((aligned(64)));

/* What the fast paths of the operations read of one target (loom__rma_target_fast): its
 * part of a static window when that part is memory of this node process, else all zero (a
 * dynamic window, a member of another node process), which no range of one byte or more
 * fits. A copy of the segment's three fields in a table of 32-byte entries, two to a line,
 * where the segments take three lines each: an operation reads one line of it. */
struct loom_win_fast {
    char *base;
    size_t size;
    ptrdiff_t disp_unit;
    size_t unused;                  /* the entry's size a power of two: an index is a shift */
};

struct loom_win_shared {
    _Atomic int refs;               /* member handles alive; the last MPI_Win_free frees */
    int size;
    int flavor;                     /* MPI_WIN_FLAVOR_* */
    struct loom_win_seg *seg;       /* [size] */
    /* [size] (zeroed): an entry is written, by loom__win_fast_fill, before the creation's
     * last rendezvous of the members (build_shared in win.c; in rma/win_net.c the member's
     * own entry, under the registry's lock, before the exchange of the parts), and read-only
     * after it. */
    struct loom_win_fast *fast;
    int *world_of;                  /* [size] world rank of each window rank */
    int *win_of_world;              /* [job ranks] window rank of each world rank, or -1 */
    void *shared_block;             /* MPI_Win_allocate_shared's memory (one block), or NULL */
    /* Over several node processes (rma/win_net.c): the window's id in the job (its private
     * communicator's context id), 0 for a window of one node process; read-only. */
    uint64_t net_id;
};

/* ---- the handle ----------------------------------------------------------------------- */

/* Access-epoch bits of struct loom_win.access. */
enum {
    LOOM_RMA_FENCE = 1,    /* a fence opened an epoch (the last fence lacked NOSUCCEED) */
    LOOM_RMA_START = 2,    /* MPI_Win_start .. MPI_Win_complete */
    LOOM_RMA_LOCK_ALL = 4, /* MPI_Win_lock_all .. MPI_Win_unlock_all */
};
/* What struct loom_win.held says of one target. */
enum { LOOM_RMA_HELD_SHARED = 1, LOOM_RMA_HELD_EXCLUSIVE = 2, LOOM_RMA_HELD_NOCHECK = 4 };

struct loom_win {
    struct loom_object obj;         /* LOOM_MAGIC_WIN */
    struct loom_win_shared *sh;     /* set before the handle is returned; read-only */
    struct loom_rank *owner;        /* the rank that made it */
    int rank, size;                 /* this rank's rank in the window, members */
    const struct loom_win_fast *fast; /* sh->fast, one load nearer; read-only */
    struct loom_comm *comm;         /* a private communicator of the members: the barriers of
                                       MPI_Win_fence and MPI_Win_free (no user collective on
                                       the creation communicator can interleave with them) */
    struct loom_group *group;       /* the members (the communicator's group); read-only */
    /* Attributes, name, hints and error handler: threads of the owning rank may use one
     * handle at once. attr_lock protects attrs, info, name and errh (and refused_target and
     * refused_addr below); a leaf lock (then an info's lock), never held while a user
     * callback runs. */
    pthread_mutex_t attr_lock;
    struct loom_errhandler *errh;   /* never NULL; a reference */
    struct loom_attr_list *attrs;
    struct loom_info *info;         /* the hints in effect (rma/hints.c), never NULL */
    char name[MPI_MAX_OBJECT_NAME];
    /* The predefined attributes' values (pointers to these are handed out); read-only. */
    void *base_attr;
    MPI_Aint size_attr;
    int disp_unit_attr, flavor_attr, model_attr;
    /* Epochs as an origin. The program orders its synchronization calls with the operations
     * they govern (MPI 4.1 section 12.5), so the rank's threads read these relaxed: an
     * operation reads `access` (and `held`/`start_set` behind it), a synchronization call
     * changes them. held: one entry per target, made at the first MPI_Win_lock and installed
     * with a release compare-and-swap (two threads of the rank may lock different targets at
     * once; why one entry per target: the check of an operation is one load, and a window
     * that is never locked target by target never pays for it). */
    _Atomic int access;             /* LOOM_RMA_FENCE | LOOM_RMA_START | LOOM_RMA_LOCK_ALL */
    _Atomic int fence_ops;          /* 1 once an operation was issued since the last fence */
    _Atomic(_Atomic uint8_t *) held; /* [size] LOOM_RMA_HELD_* per target, or NULL */
    int lock_all_nocheck;           /* lock_all was MPI_MODE_NOCHECK: no lock word taken;
                                       written by MPI_Win_lock_all before LOOM_RMA_LOCK_ALL is
                                       set, read by MPI_Win_unlock_all (the program orders
                                       the two, on any thread of the rank) */
    uint8_t *start_set;             /* [size] 1 for the targets of the access epoch of
                                       MPI_Win_start, written before LOOM_RMA_START is set
                                       (release) and freed after it is cleared */
    int *start_ranks, nstart;       /* the same targets, ascending */
    _Atomic int exposing;           /* 1 between MPI_Win_post and the MPI_Win_wait/_test
                                       that closes the exposure epoch */
    /* Operations of this origin still moving as tasks (xfer.c): incremented by the issuing
     * thread, decremented (release) by the task that lands the last chunk; a flush waits for
     * 0 (acquire). */
    _Atomic long pending;
    /* Of those, accumulates that a target's node process reads before it applies them
     * (rma/net_origin.c by_read): a later accumulate of this origin waits for 0 (acquire), so
     * that accumulates stay in order. Same protocol as pending. */
    _Atomic long acc_reads;
    void *alloc;                    /* this rank's memory from MPI_Win_allocate, or NULL;
                                       written at creation, freed by MPI_Win_free */
    int net;                        /* 1 when members run in several node processes: a flush
                                       or MPI_Win_sync is then a keypoint (polls the network),
                                       so that a rank that spins on them answers the others;
                                       written at creation */
    /* A dynamic window over several node processes: the first operation of this origin that
     * its target's node process refused (not inside a region attached there), kept for the
     * next synchronization call to report. Written by the polling thread that gets the
     * refusal, under attr_lock, before the operation leaves `pending` (release); read and
     * cleared under attr_lock by the origin once its wait saw `pending` reach 0 (acquire);
     * `refused` alone is also read without the lock (relaxed) as the common case's check. */
    _Atomic int refused;
    int refused_target;
    uint64_t refused_addr;
};

/* 1 if w is a live window handle. */
static inline int loom__win_valid(MPI_Win w)
{
    return loom__object_is(w, LOOM_MAGIC_WIN);
}

/* ---- windows (win.c) ------------------------------------------------------------------ */

/* Collective over comm (an intracommunicator): a window of `flavor` with this rank's memory
 * at base (MPI_WIN_FLAVOR_CREATE), allocated here (ALLOCATE, SHARED: *base receives it) or
 * none (DYNAMIC). info's hints are kept (rma/hints.c). The error handler is
 * MPI_ERRORS_ARE_FATAL. 0 or LOOM_ERR_NOMEM (on every member when any member lacks memory). */
int loom__win_create(struct loom_comm *comm, int flavor, void **base, size_t size,
                     ptrdiff_t disp_unit, struct loom_info *info, struct loom_win **out);
/* MPI_Win_free after the checks: wait for this origin's operations, delete the attributes
 * (their callbacks run here; an error code one returns stops the free and is returned, a
 * positive value), meet every member, release everything. 0 or that code. */
int loom__win_free(struct loom_win *w);
/* The event of window rank r's rank thread (where its waits sleep). */
struct loom_event *loom__win_event(const struct loom_win *w, int r);

/* A shared half for the members of c, parts zeroed but for who runs where (remote, node),
 * refs 0; freed by loom__win_shared_free. 0 or LOOM_ERR_NOMEM. */
int loom__win_shared_new(struct loom_comm *c, int flavor, struct loom_win_shared **out);
void loom__win_shared_free(struct loom_win_shared *sh);
/* Target i's entry of sh->fast from its segment (see struct loom_win_fast). */
void loom__win_fast_fill(struct loom_win_shared *sh, int i);

/* ---- over several node processes (win_net.c, net_origin.c, net_target.c, runs.c) --------
 * docs/multinode.md "One-sided communication": each node process has its own shared half of
 * a window that spans node processes, registered under the window's id; an operation on a
 * member of another node process goes as messages that the target node process's poller
 * carries out on the member's memory, and answers. */

/* Collective over c (spans node processes): this member's part (its memory at base, err its
 * own failure or 0) joins its node process's shared half of the window, and the parts of all
 * members are exchanged. 0 with *out, or the first member's failure on every member. */
int loom__win_net_join(struct loom_comm *c, int flavor, void *base, size_t size,
                       ptrdiff_t disp_unit, int err, struct loom_win_shared **out);
/* MPI_Win_free's end for such a window (after its barrier): the last member of this node
 * process frees the shared half. */
void loom__win_net_leave(struct loom_win_shared *sh);
/* The shared half of window `id` in this node process, with the registry's lock held until
 * loom__win_net_exit (so it is not freed meanwhile); NULL (lock held) when there is none. */
struct loom_win_shared *loom__win_net_enter(uint64_t id);
void loom__win_net_exit(void);

/* Operations on a target r of another node process, after the checks (net_origin.c); each is
 * counted in w->pending until the target's answers are in (a flush waits for them); req, if
 * any, completes then. 0 or LOOM_ERR_NOMEM / LOOM_ERR_TYPE. */
int loom__rma_net_xfer(struct loom_win *w, int r, int get, void *oaddr, size_t ocount,
                       struct loom_datatype *ot, char *taddr, size_t tcount,
                       struct loom_datatype *tt, struct loom_request *req);
int loom__rma_net_acc(struct loom_win *w, int r, const void *oaddr, size_t ocount,
                      struct loom_datatype *ot, void *raddr, size_t rcount,
                      struct loom_datatype *rt, char *taddr, size_t tcount,
                      struct loom_datatype *tt, struct loom_op *op, struct loom_request *req);
int loom__rma_net_cas(struct loom_win *w, int r, const void *origin, const void *compare,
                      void *result, struct loom_datatype *t, char *taddr);
/* After a wait for this origin's operations (a flush, an unlock, a fence, a complete): 1 and
 * the target and address of the first operation that a target's node process refused since
 * the last such call (a dynamic window's memory not attached there), forgetting it; else 0. */
int loom__rma_net_refusal(struct loom_win *w, int *target, uint64_t *addr);
/* Passive and generalized active target with a member of another node process: a lock
 * request waited for until granted (lock_all: of every such member, shared), an unlock, the
 * post of w->rank's epoch to origin r, the completion of this origin's epoch at target r. */
void loom__rma_net_lock(struct loom_win *w, int r, int exclusive);
void loom__rma_net_lock_all(struct loom_win *w);
void loom__rma_net_unlock(struct loom_win *w, int r, int exclusive);
void loom__rma_net_post(struct loom_win *w, int r);
void loom__rma_net_complete(struct loom_win *w, int r);
/* A release of l found waiters: grant l to the origins of other node processes waiting for
 * it, oldest first, as long as it can be taken for them (net_target.c). */
void loom__rma_net_grant(struct loom_rma_lock *l);

/* The target layout of an operation as runs of units (runs.c): n units at addr, the next
 * unit `step` bytes after the last; a unit is `unit` bytes of the packed stream. */
struct loom_rma_run {
    uint64_t addr, n;
};
struct loom_rma_runs {
    struct loom_rma_run *v;
    size_t n, cap;
    size_t unit, step;
};
/* The runs of count elements of t at addr, in stream order: in bytes (atom NULL: unit and
 * step 1), or in elements of the predefined type atom (an accumulate's; unit its size, step
 * its extent). 0, LOOM_ERR_NOMEM, or LOOM_ERR_TYPE when an element is split in t's layout. */
int loom__rma_runs(struct loom_rma_runs *R, const struct loom_datatype *t, size_t count,
                   uintptr_t addr, const struct loom_datatype *atom);

/* ---- hints (hints.c) -------------------------------------------------------------------- */
/* A new info holding the hints in effect for a window made with `info` (may be NULL): every
 * key the standard defines for windows, the value given when it is valid, else the default.
 * NULL on ENOMEM. */
struct loom_info *loom__rma_hints_new(struct loom_info *info);
/* Update hints with the valid window keys of info (MPI_Win_set_info). 0 or LOOM_ERR_NOMEM. */
int loom__rma_hints_update(struct loom_info *hints, struct loom_info *info);
/* 1 if alloc_shared_noncontig is "true" in info (NULL: no). */
int loom__rma_hint_noncontig(struct loom_info *info);

/* ---- targets (target.c, dynamic.c) ------------------------------------------------------ */

/* Where `count` elements of type t at displacement disp of target r's memory are: *addr, the
 * address of element 0's origin (as a buffer address for loom__dt_copy). 0, or
 * LOOM_ERR_RMA_RANGE when some byte lies outside r's window (outside every region attached
 * to a dynamic window). */
int loom__rma_target(struct loom_win *w, int r, MPI_Aint disp, size_t count,
                     const struct loom_datatype *t, char **addr);
/* Dynamic windows: attach [base, base+size) to the calling member's part (0, or
 * LOOM_ERR_RMA_ATTACH when it overlaps an attached region, LOOM_ERR_NOMEM), detach the region
 * that starts at base (0, or LOOM_ERR_RMA_ATTACH when none does). */
int loom__rma_attach(struct loom_win *w, void *base, size_t size);
int loom__rma_detach(struct loom_win *w, const void *base);
/* The byte range [lo, hi) of count elements of t relative to their buffer address (target.c);
 * 0, or -1 on overflow. count > 0. */
int loom__rma_span(const struct loom_datatype *t, size_t count, ptrdiff_t *lo, ptrdiff_t *hi);
/* 1 if [lo, hi) lies inside one region attached to part s. */
int loom__rma_in_region(struct loom_win_seg *s, uintptr_t lo, uintptr_t hi);

/* ---- epochs (epoch.c: fence and locks; pscw.c) ----------------------------------------- */

/* loom__rma_may_access with the epoch bits `a` already read from w->access (acquire). */
static inline __attribute__((always_inline)) int loom__rma_may_access_in(struct loom_win *w,
                                                                         int r, int a)
{
    if (a & (LOOM_RMA_FENCE | LOOM_RMA_LOCK_ALL))
        return 1;
    if ((a & LOOM_RMA_START) && w->start_set[r])
        return 1;
    _Atomic uint8_t *held = atomic_load_explicit(&w->held, memory_order_acquire);
    return held != NULL && atomic_load_explicit(&held[r], memory_order_relaxed) != 0;
}
/* 1 if the calling origin may access target r now: a fence's epoch, lock_all, r in the
 * access epoch of MPI_Win_start, or a lock held on r. */
static inline __attribute__((always_inline)) int loom__rma_may_access(struct loom_win *w,
                                                                      int r)
{
    /* acquire: pairs with the release that sets START after start_set */
    return loom__rma_may_access_in(w, r, atomic_load_explicit(&w->access, memory_order_acquire));
}
/* An operation was issued in the fence's epoch that is open (MPI_Win_start/_post/_lock after
 * that fence are then MPI_ERR_RMA_SYNC). */
static inline __attribute__((always_inline)) void loom__rma_note_fence_op(struct loom_win *w)
{
    if (!atomic_load_explicit(&w->fence_ops, memory_order_relaxed))
        atomic_store_explicit(&w->fence_ops, 1, memory_order_relaxed);
}
/* An operation was issued: noted if it was in a fence's epoch. */
static inline __attribute__((always_inline)) void loom__rma_note_op(struct loom_win *w)
{
    if (atomic_load_explicit(&w->access, memory_order_relaxed) & LOOM_RMA_FENCE)
        loom__rma_note_fence_op(w);
}
/* 1 if the calling origin is in a passive-target epoch on r (lock_all, or a lock on r):
 * where the request-based operations and the flushes are allowed. */
static inline int loom__rma_passive(struct loom_win *w, int r)
{
    if (atomic_load_explicit(&w->access, memory_order_relaxed) & LOOM_RMA_LOCK_ALL)
        return 1;
    _Atomic uint8_t *held = atomic_load_explicit(&w->held, memory_order_acquire);
    return held != NULL && atomic_load_explicit(&held[r], memory_order_relaxed) != 0;
}
/* The fast paths' target check (api/rma_ops.c, api/rma_acc.c): 1 with *at the address of
 * `bytes` contiguous bytes at displacement disp of target r of a static window, when rank r
 * runs in this node process, all of them lie in r's part and the origin may access r now; 0
 * otherwise (the caller then takes its full path, which reports why or sends the operation
 * to r's node process). An operation in a fence's epoch is noted here (loom__rma_note_op):
 * the caller completes it. */
static inline __attribute__((always_inline)) int loom__rma_target_fast(struct loom_win *w,
                                                                       int r, MPI_Aint disp,
                                                                       size_t bytes, char **at)
{
    if ((unsigned)r >= (unsigned)w->size)
        return 0;
    const struct loom_win_fast *f = &w->fast[(unsigned)r];
    ptrdiff_t off;
    /* disp >= 0 and disp_unit > 0 (or the entry all zero): off >= 0 */
    if ((size_t)disp > f->size || __builtin_mul_overflow((ptrdiff_t)disp, f->disp_unit, &off) ||
        (size_t)off + bytes > f->size)
        return 0;
    int a = atomic_load_explicit(&w->access, memory_order_acquire); /* as loom__rma_may_access */
    if (!(a & LOOM_RMA_LOCK_ALL)) { /* the usual epoch of latency-bound programs, tested alone */
        if (!loom__rma_may_access_in(w, r, a))
            return 0;
        if (a & LOOM_RMA_FENCE)
            loom__rma_note_fence_op(w);
    }
    *at = f->base + off;
    return 1;
}

/* A fence's epoch in which no operation was issued ends when another kind of epoch starts;
 * one in which operations were issued must end with a fence: NULL, or why not. */
const char *loom__rma_leave_fence(struct loom_win *w);
/* MPI_Win_fence: complete this origin's operations, meet every member, open the next epoch
 * unless `assert` has MPI_MODE_NOSUCCEED. 0 or a negative loom code. */
int loom__rma_fence(struct loom_win *w, int assert);
/* MPI_Win_lock / MPI_Win_unlock of target r; _all of every target. The caller has checked the
 * epochs. */
int loom__rma_lock(struct loom_win *w, int r, int exclusive, int nocheck);
void loom__rma_unlock(struct loom_win *w, int r);
void loom__rma_lock_all(struct loom_win *w, int nocheck);
void loom__rma_unlock_all(struct loom_win *w);
/* The lock the calling origin holds on r (LOOM_RMA_HELD_*), 0 if none. */
int loom__rma_held(struct loom_win *w, int r);
/* 1 if the calling origin holds a lock on some target: a scan of `held`, for the checks of
 * fence, start, flush_all and free (no count is kept: two atomic read-modify-writes per lock
 * and unlock cost more than these rare scans). */
int loom__rma_any_held(struct loom_win *w);

/* Post-start-complete-wait (pscw.c). ranks: window ranks, ascending, n of them; the caller
 * checked the epochs. post and start take ownership of `ranks` (malloc'd); 0 or
 * LOOM_ERR_NOMEM. */
int loom__rma_post(struct loom_win *w, int *ranks, int n);
int loom__rma_start(struct loom_win *w, int *ranks, int n);
void loom__rma_complete(struct loom_win *w);
/* Wait for (block) or test (!block) the end of the exposure epoch: 1 when it ended (then it
 * is closed), 0 if not yet. */
int loom__rma_wait(struct loom_win *w, int block);

/* ---- operations (xfer.c, acc.c, atomic.c) ----------------------------------------------- */

/* Put / get count elements between the origin's buffer and target r's memory (at taddr, from
 * loom__rma_target). Small transfers are copied here; larger ones (LOOM_COPY_CHUNK) become
 * chunk tasks on the origin's queue and are counted in w->pending until they land. req: NULL,
 * or a request (MPI_Rput/MPI_Rget) completed when the data has moved. 0 or LOOM_ERR_NOMEM. */
int loom__rma_put(struct loom_win *w, int r, const void *oaddr, size_t ocount,
                  struct loom_datatype *ot, char *taddr, size_t tcount,
                  struct loom_datatype *tt, struct loom_request *req);
int loom__rma_get(struct loom_win *w, int r, void *oaddr, size_t ocount,
                  struct loom_datatype *ot, const char *taddr, size_t tcount,
                  struct loom_datatype *tt, struct loom_request *req);
/* Wait until this origin's operations in flight have landed (every flush, unlock, complete,
 * fence and free). */
void loom__rma_flush(struct loom_win *w);

/* The accumulate family, done here by the origin: the target's elements are updated under
 * the locks of the stripes they lie in (atomic.c), a page of them at a time with the
 * operation's own loop, so concurrent accumulates on one element never tear it.
 * origin (oaddr, ocount, ot) may be absent (NULL type) for MPI_NO_OP; result (raddr, rcount, rt)
 * absent (NULL type) for MPI_Accumulate. 0 or LOOM_ERR_TYPE (no kernel for the type). */
int loom__rma_accumulate(const void *oaddr, size_t ocount, const struct loom_datatype *ot,
                         void *raddr, size_t rcount, const struct loom_datatype *rt,
                         char *taddr, size_t tcount, const struct loom_datatype *tt,
                         const struct loom_op *op);

/* The element type of an accumulate (acc.c fills it, atomic.c uses it): the predefined
 * operation's kind (enum loom_op_kind) and kernel; the element's size in the packed stream,
 * its bytes in memory from its first (its data and the holes between: 8 for MPI_SHORT_INT),
 * where a pair's int index lies in memory, its alignment. */
#define LOOM_RMA_MAX_ELEM 64 /* the largest element in memory: long double complex (32) */
struct loom_rma_elem {
    int kind;
    size_t size, foot, boff, align;
    int pair;
    void (*kernel)(const void *in, void *inout, size_t n, size_t stride, size_t boff);
};

/* The accumulate of n elements of predefined type t, contiguous on every side (in: the
 * origin's, NULL for MPI_NO_OP; out: where the old values go, or NULL) at p: the fast path of
 * fetch-and-op and small accumulates. 0, or -1 when t has no kernel for op or holes (then the
 * caller takes loom__rma_accumulate). */
int loom__rma_acc_contig(const struct loom_datatype *t, const struct loom_op *op, char *p,
                         const void *in, void *out, size_t n);

/* The stripes (atomic.c): a spin lock per 4 KiB page of addresses, modulo their number. */
#define LOOM_RMA_STRIPES 1024
#define LOOM_RMA_PAGE 4096
struct loom_rma_stripe {
    struct loom_lock l;
} __attribute__((aligned(64)));
extern struct loom_rma_stripe loom__rma_stripes[LOOM_RMA_STRIPES];
static inline unsigned loom__rma_stripe_of(const void *p)
{
    return (unsigned)(((uintptr_t)p / LOOM_RMA_PAGE) % LOOM_RMA_STRIPES);
}

/* The stripes a thread holds (atomic.c): none, or stripes a <= b (a == b: one). */
struct loom_rma_held {
    unsigned a, b;
    int n;
};
/* Hold the stripes of [p, p + n): kept if h holds them already, else h's are given back
 * first. */
void loom__rma_stripes_take(struct loom_rma_held *h, const char *p, size_t n);
void loom__rma_stripes_give(struct loom_rma_held *h);
/* Under the stripes of its elements: n consecutive elements at p (laid out as in the packed
 * stream: no holes) become p op in. */
void loom__rma_apply(const struct loom_rma_elem *e, char *p, const void *in, size_t n);
/* One element at p, taking its stripes: `old` (foot bytes, never NULL) gets its value, then it
 * becomes old op in (in: the element's memory layout, foot bytes, aligned). */
void loom__rma_elem_update(const struct loom_rma_elem *e, char *p, const void *in, void *old);
/* MPI_Compare_and_swap on one element of predefined type t at p: *result = old value; the
 * element becomes *origin when old equals *compare. */
void loom__rma_compare_swap(char *p, const struct loom_datatype *t, const void *origin,
                            const void *compare, void *result);
#endif
