/* core/rank.h — the job (this process) and its ranks (one thread each).
 *
 * The job is built once by loom_run() before any rank starts and torn down after they have
 * all been joined; while ranks run, its fields are read-only except where a field says
 * otherwise. Each rank's struct is written by its own thread, except the fields marked
 * atomic, which other ranks read (and, for `event`, notify). */
#ifndef LOOM_CORE_RANK_H
#define LOOM_CORE_RANK_H
#include <pthread.h>
#include <stdatomic.h>
#include "core/event.h"
#include "core/tls.h"
#include "task/task.h"

struct loom_topo;
struct loom_cpuset;
struct loom_comm;

/* A rank's life. Moves forward only; other ranks read it with acquire loads. */
enum loom_rank_state {
    LOOM_RANK_STARTED = 0,  /* thread running the user's main, MPI not yet initialized */
    LOOM_RANK_INITIALIZED,  /* MPI_Init done */
    LOOM_RANK_FINALIZING,   /* inside MPI_Finalize, waiting for the other ranks */
    LOOM_RANK_FINALIZED,    /* MPI_Finalize returned */
    LOOM_RANK_DONE,         /* the user's main returned (or the rank exited) */
};

struct loom_request;

struct loom_rank {
    int world_rank;                /* read-only */
    pthread_t thread;              /* written by the starter; read only by it (join) */
    pthread_t init_thread;         /* the thread that called MPI_Init (MPI_Is_thread_main) */
    struct loom_cpuset *cpuset;    /* where the rank runs; read-only */
    char *view;                    /* where its privatized variables are: an address in its
                                      thread's static TLS block (core/privatize.h); written by
                                      its thread before the rank's main, then read-only */
    int argc;                      /* the rank's own copy of the arguments */
    char **argv;
    void *argv_block;              /* what loom frees (the rank may rewrite argv) */
    _Atomic int state;             /* enum loom_rank_state; written by the rank, release */
    int exit_code;                 /* written by the rank before state = DONE */
    int thread_level;              /* MPI_Init_thread's provided level; own thread */
    /* The rank's models (MPI 4.1 chapter 11): `state` says whether the rank's layers are up
     * (the first of MPI_Init and MPI_Session_init brings them up); these say who uses them.
     * Written by the rank's threads under life_lock, read without it by any thread of the
     * rank (relaxed: MPI_Initialized, exit()). api/init.c and api/session.c. */
    pthread_mutex_t life_lock;     /* the rank's init/finalize transitions; outermost lock */
    _Atomic int world_model;       /* 0 before MPI_Init, 1 initialized, 2 MPI_Finalize done */
    _Atomic int sessions;          /* sessions of the rank not finalized yet */
    struct loom_event event        /* the rank's doorbell: notified whenever something a wait
                                      of this rank may be waiting for has happened; on a line
                                      of its own (the next field starts a new one: the
                                      alignment of the event alone left the fields after it on
                                      its line), since every sender reads it and the rank
                                      writes its other fields (its worker, its request cache)
                                      as it waits */
        __attribute__((aligned(64)));
    /* Per-rank state of the upper layers, set at MPI_Init by those layers; own thread. */
    struct loom_comm *world        /* this rank's MPI_COMM_WORLD */
        __attribute__((aligned(64)));
    struct loom_comm *self;        /* this rank's MPI_COMM_SELF */
    void *_Atomic p2p;             /* the rank's buffer owner, struct loom_bsend
                                      (p2p/bsend.c): installed once by a compare-and-swap
                                      (release), read with acquire; its fields under the
                                      owner's lock */
    struct loom_task_worker worker; /* the rank thread as a task worker (own thread) */
    /* Freed requests kept for the rank thread's next ones (p2p/request.c): touched only by
     * the rank's own thread (loom__on_rank_thread), so without a lock; emptied at job end. */
    struct loom_request *req_cache;
    unsigned req_cached;
    /* How many waits the rank's own thread is inside, asleep or not (p2p/inbox.c,
     * loom__inbox_tend; they drain its rings of cells): written by that thread only, with
     * plain relaxed stores, read by senders that find a ring to the rank full (a hint). On a
     * line of its own, away from `event`, which every sender reads. */
    _Atomic int ring_waiting __attribute__((aligned(64)));
    int home_queue;                /* its home queue: where tasks working for it go */
    struct loom_progress *progress; /* its progress threads (core/progress.c), or NULL */
    /* The workers of the threads this rank created (core/thread_worker.c): the list only
     * grows while the rank runs; `in_use` says which thread holds one. Under helpers_lock;
     * read without it only after every thread of the job has ended (statistics, freeing). */
    pthread_mutex_t helpers_lock;
    struct loom_thread_worker *helpers;
    /* Destructors of the rank's C++ objects (core/privatize_objects.c): a lock-free stack,
     * pushed by any thread of the rank (release CAS), emptied by the rank thread when its
     * main returns (acquire exchange). */
    struct loom_priv_dtor *_Atomic priv_dtors;
} __attribute__((aligned(64))); /* no line shared by two ranks */

/* A worker for one of the threads a rank created, while it calls MPI. */
struct loom_thread_worker {
    struct loom_task_worker worker; /* its thread's only, while in_use */
    struct loom_rank *rank;         /* read-only */
    int in_use;                     /* under rank->helpers_lock */
    struct loom_thread_worker *next; /* rank->helpers, under rank->helpers_lock */
};

/* A job is one node process (started alone) or several (started by a PMI launcher, net/):
 * world ranks [first, first + nlocal) are this process's threads; the others run in other
 * node processes. `ranks` has an entry for every world rank so that everything indexed by
 * world rank stays valid; a remote rank's entry is never started: only its world_rank and
 * its event (notified by no one who matters, waited on by no one) are set. */
struct loom_job {
    int nranks;                    /* ranks of the whole job (the world's size); read-only */
    struct loom_rank *ranks;       /* [nranks] */
    int first, nlocal;             /* this node process's world ranks; read-only */
    int node, nnodes;              /* this node process's number and their count (0 and 1 when
                                      started alone); read-only */
    int *node_first;               /* [nnodes + 1]: node process n runs world ranks
                                      [node_first[n], node_first[n + 1]); read-only */
    int node_share;                /* node processes on this one's host (1 alone); read-only */
    int host_index;                /* this one's index among them, 0 .. node_share - 1 (its
                                      part of the host's cores); read-only */
    struct loom_topo *topo;        /* the machine (real, synthetic or XML) */
    const char *bind_policy;       /* text of LOOM_BIND in effect */
    pthread_t main_thread;         /* the thread that called loom_run */
    _Atomic int finalizing;        /* ranks that entered MPI_Finalize */
    _Atomic int ending;            /* 1 once the job is being torn down (exit/abort) */
    int progress_mode;             /* LOOM_PROGRESS: LOOM_PROGRESS_INLINE, ... */
    int oversubscribed;            /* 1 if ranks outnumber the cores the process may use */
    struct loom_cpuset **progress_sets; /* [nranks] where each rank's progress threads run
                                           (thread mode), else NULL */
};

extern struct loom_job loom__job;

/* 1 if nlocal ranks in each of node_share node processes of this host outnumber the cores this
 * process may run on (what loom__job.oversubscribed records once the job is laid out). */
int loom__job_oversubscribed(int nlocal, int node_share);

/* 1 if world rank w runs in this node process. */
static inline int loom__rank_is_local(int w)
{
    return (unsigned)(w - loom__job.first) < (unsigned)loom__job.nlocal;
}
/* The node process that runs world rank w (0 <= w < nranks). */
static inline int loom__node_of(int w)
{
    int lo = 0, hi = loom__job.nnodes - 1;
    while (lo < hi) { /* the last node whose first rank is <= w */
        int mid = (lo + hi + 1) / 2;
        if (loom__job.node_first[mid] <= w)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* LOOM_PROGRESS values, in the order of the configuration table. */
enum { LOOM_PROGRESS_INLINE = 0, LOOM_PROGRESS_COLLABORATIVE, LOOM_PROGRESS_THREAD };

/* The rank the calling thread belongs to; NULL outside rank threads. Progress threads of a
 * later issue act for a rank by setting it. */
extern LOOM_TLS_FAST struct loom_rank *loom__self;
/* 1 on a rank's own thread (the one that runs its main), 0 on every other thread: set by
 * core/run.c before the rank's main. The rank's worker (`worker`) is this thread's, whichever
 * thread of the rank brought the rank's layers up (a session may come from any thread). */
extern LOOM_TLS_FAST int loom__on_rank_thread;

/* Every thread that calls MPI for a rank runs that rank's tasks at its keypoints
 * (core/thread_worker.c). Init: main thread, before any rank runs; 0 or -1. Stats: add the
 * rank's thread workers' counts to *sum; free: give their memory back. Both after every thread
 * of the job has ended. */
int loom__thread_workers_init(void);
void loom__thread_workers_stats(const struct loom_rank *r, struct loom_task_stats *sum);
void loom__thread_workers_free(struct loom_rank *r);

/* The calling rank's world rank, or -1 outside a rank thread (for messages). */
int loom__self_rank(void);
/* Print "loom: rank R: <msg>" (or "loom: <msg>" outside a rank) on stderr, one line. */
void loom__log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* End the whole job now with `code`: flush stdio and leave the process, whatever other ranks
 * are doing (MPI_Abort, fatal errors, exit before MPI_Finalize). */
_Noreturn void loom__job_abort(int code);
#endif
