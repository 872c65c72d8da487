/* coll/sched.h — a collective as a schedule of rounds (libNBC's model), private to coll/.
 *
 * A collective call builds, for the calling rank, a list of rounds. A round holds operations
 * that may run at once: local ones (copy, reduction) and point-to-point ones (send, receive)
 * on the communicator's hidden collective context with the collective's tag. When a round
 * starts, its local operations run first, in the order they were added, then its sends and
 * receives are started; round i+1 starts when every send and receive of round i is complete.
 * So a builder puts a reduction of received data at the start of the round after the receive.
 *
 * Tree builders tag rounds with their tree level (numbered from the leaves, 1..H) and their
 * direction (up: towards the root, reduce/gather; down: from the root, bcast/scatter), which
 * is what split-tree (coll/split.c) cuts on:
 *   rounds [0, call_end)        run inside the MPI_I* call (up levels <= S),
 *   rounds [call_end, task_end) run by the schedule's task (communication cores),
 *   rounds [task_end, nrounds)  run by the rank in its wait (down levels <= S).
 *
 * Life: built and owned by the calling rank (not shared until started). A blocking call runs
 * it to the end in the calling thread and frees it. A nonblocking call hands it to the task
 * engine (coll/run.c): from then on the fields marked "under busy" are touched only by the
 * thread holding `busy` (a try-lock: acquire on take, release on drop); the build fields are
 * read-only. The memory is freed through the core quarantine once the user's request is gone
 * and both tasks are idle.
 *
 * Persistent (MPI_<Coll>_init): built once at init, with its requests, tasks and scratch, and
 * rerun by every MPI_Start (loom__sched_restart): the progress state is reset by the owner
 * while the request is inactive (nobody else touches the schedule then: its tasks are idle,
 * its requests complete), nothing is allocated. Its scratch stays with it between starts and
 * its memory goes to the quarantine when the user frees the inactive request.
 *
 * A nonblocking or persistent schedule holds a reference on its communicator's shared half
 * (its contexts) from the moment it gets its request until the request is gone, so it
 * completes, or may be started, after MPI_Comm_free. */
#ifndef LOOM_COLL_SCHED_H
#define LOOM_COLL_SCHED_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "mpi.h"
#include "core/object.h"
#include "p2p/request.h"
#include "task/task.h"

struct loom_comm;
struct loom_datatype;
struct loom_op;
struct loom_rank;

enum loom_sop_kind { LOOM_SOP_SEND = 1, LOOM_SOP_RECV, LOOM_SOP_COPY, LOOM_SOP_REDUCE,
                     LOOM_SOP_CALL };

/* One operation. buf/count/type: the send or receive buffer, or the destination of a copy
 * (the inout of a reduction); src/scount/stype: the source of a copy (the in of a
 * reduction, whose count and type are those of buf). */
struct loom_sop {
    uint8_t kind;
    int peer;
    void *buf;
    size_t count;
    struct loom_datatype *type;
    const void *src;
    size_t scount;
    struct loom_datatype *stype;
    void (*fn)(void *arg);   /* LOOM_SOP_CALL: fn(buf) */
    struct loom_request req; /* sends and receives: initialized when the schedule is run or
                                started (owned by the rank that built it), filled and started
                                with its round */
};

/* Round tags: direction and tree level (0 = not part of a tree). */
enum { LOOM_ROUND_NONE = 0, LOOM_ROUND_UP, LOOM_ROUND_DOWN };

struct loom_sched {
    struct loom_object obj;      /* magic 0: not a user handle (kept for the quarantine) */
    /* build state; read-only once started */
    struct loom_sop *ops;
    int nops, capops;
    int *rend;                   /* [nrounds] round r is ops [rend[r-1] (0 for r=0), rend[r]) */
    uint8_t *rdir;               /* [nrounds] LOOM_ROUND_* */
    uint8_t *rlevel;             /* [nrounds] tree level, 1..H, 0 for none */
    int nrounds, caprounds;
    int pending_round;           /* the next op opens a new round */
    uint8_t next_dir, next_level;
    void **tmps;                 /* scratch buffers, freed with the schedule */
    int ntmps, captmps;
    struct loom_datatype **types; /* retained types, released with the schedule */
    int ntypes, captypes;
    struct loom_op *op;          /* retained operation (reductions), or NULL */
    int nomem;                   /* an allocation failed while building */
    uint8_t persistent;          /* made by an *_init call: rerun by MPI_Start, kept until freed */
    /* where it runs */
    struct loom_p2p_ctx *ctx;
    struct loom_comm_shared *shared; /* the shared half ctx belongs to; once the schedule
                                        has its request, a reference, dropped when the
                                        request is gone (run.c) */
    MPI_Comm comm;               /* the user's handle, for errors */
    int me, size, tag;
    struct loom_rank *owner;
    int call_end, task_end;      /* split-tree boundaries (see the top of this file) */
    /* progress state */
    _Atomic int busy;            /* try-lock of the thread advancing it */
    _Atomic int waiting;         /* owner threads waiting in MPI_Wait (run.c, drive) */
    _Atomic int cur;             /* round in progress; written under busy, read as a hint */
    _Atomic int started;         /* its ops are started; written under busy, read as a hint */
    _Atomic int done;            /* every round complete (release, after the data is in place) */
    int err;                     /* first MPI error class met (truncation); under busy */
    unsigned idle_runs;          /* task runs without progress in a row; under busy */
    struct loom_request *req;    /* the user's request (nonblocking), else NULL */
    struct loom_task task;       /* advances [call_end, task_end) */
    struct loom_task leaf;       /* advances [task_end, nrounds) at the rank's keypoints */
};

/* ---- building (sched.c) ---- */
/* A new schedule of the calling rank on communicator c (user handle h), with the next
 * collective tag of c. NULL on ENOMEM. */
struct loom_sched *loom__sched_new(struct loom_comm *c, MPI_Comm h);
/* Free a schedule that is not running (never started, blocking, or finished and idle). */
void loom__sched_free(struct loom_sched *s);
/* Start a new round: the next operation goes into a new round tagged dir/level. */
void loom__sched_round(struct loom_sched *s, int dir, int level);
void loom__sched_send(struct loom_sched *s, const void *buf, size_t count,
                      struct loom_datatype *type, int peer);
void loom__sched_recv(struct loom_sched *s, void *buf, size_t count, struct loom_datatype *type,
                      int peer);
/* dst <- src (stream sizes must agree; the smaller is copied). No-op when src == dst and the
 * layouts are the same. */
void loom__sched_copy(struct loom_sched *s, const void *src, size_t scount,
                      struct loom_datatype *stype, void *dst, size_t dcount,
                      struct loom_datatype *dtype);
/* fn(arg), as a local step of the current round: on whichever thread runs the round (so fn
 * must be thread-safe and call no user code). */
void loom__sched_call(struct loom_sched *s, void (*fn)(void *arg), void *arg);
/* inout <- in op inout (in comes from the lower ranks for non-commutative ops). */
void loom__sched_reduce(struct loom_sched *s, const void *in, void *inout, size_t count,
                        struct loom_datatype *type);
/* Scratch room for count elements of type (the address to pass as the buffer), or raw bytes.
 * Never NULL: on ENOMEM the schedule is marked and a dummy address is returned. */
void *loom__sched_scratch(struct loom_sched *s, size_t count, const struct loom_datatype *type);
void *loom__sched_bytes(struct loom_sched *s, size_t n);
/* Keep type alive (and release it with the schedule); keep op alive likewise. */
void loom__sched_keep_type(struct loom_sched *s, struct loom_datatype *type);
void loom__sched_keep_op(struct loom_sched *s, struct loom_op *op);
/* Merge a round made only of sends into the round before it when that one receives nothing
 * and both lie on the same side of the split boundaries (sends read final data, so starting
 * them together changes no result). */
void loom__sched_merge_sends(struct loom_sched *s);

/* ---- running (run.c) ---- */
/* Run rounds [cur, limit) in the calling thread (the owner rank), waiting on its event when
 * a round is pending. The schedule is private to the caller. */
void loom__sched_run_blocking(struct loom_sched *s, int limit);
/* Blocking collective: run everything, free the schedule. 0 or a negative loom code; an MPI
 * error class met on the way (truncation) goes to *mpi_err. */
int loom__sched_run(struct loom_sched *s, int *mpi_err);
/* Nonblocking collective: run the call's part, hand the rest to the task engine and return
 * the request in *out. The schedule belongs to the request from then on. 0 or a negative
 * loom code (then the schedule has been freed). */
int loom__sched_start(struct loom_sched *s, MPI_Request *out);
/* Persistent collective (*_init): wrap the built schedule in an inactive persistent request,
 * returned in *out. 0 or a negative loom code (then the schedule has been freed). */
int loom__sched_persist(struct loom_sched *s, MPI_Request *out);
/* MPI_Start of an inactive persistent collective request: reset its schedule and run it again
 * as loom__sched_start does, without allocating. Owner's threads only. */
void loom__sched_restart(struct loom_request *r);
/* Allocations the collectives layer made for schedules and their requests in the calling
 * thread (a counter per thread, for tests: a persistent start must not move it). */
unsigned long loom__coll_allocs_here(void);
void loom__coll_note_alloc(void); /* count one (sched.c, run.c) */
/* Job start (before any rank runs; 0 or -1 on ENOMEM) and end (after all stopped): the
 * per-rank counts of live nonblocking collectives and the scratch caches. */
int loom__coll_job_init(int nranks);
void loom__coll_job_fini(void);
/* MPI_Finalize of the calling rank, before its progress threads stop: wait until every
 * nonblocking collective it started has ended (those whose request was freed included). */
void loom__coll_rank_fini(void);
#endif
