/* core/trace.h — seeing what happened: LOOM_TRACE (a timeline of every loom thread) and the
 * per-thread timing behind LOOM_STATS (time inside MPI calls, time waiting).
 *
 * Trace points sit in other layers' code, one line each:
 *   LOOM_TRACE_API_SCOPE(fn)    in LOOM_API_ENTER (api/api.h): the thread is inside MPI call fn
 *                               until the function returns (a cleanup variable records the
 *                               exit on every return path; nested MPI calls count once;
 *                               fn must live until the job ends: a string literal);
 *   LOOM_TRACE_WAIT_SCOPE()     at the top of loom__wait_until (core/event.c): the thread waits
 *                               (a progress thread: is idle) until the wait returns;
 *   LOOM_TRACE_TASK_SCOPE(own)  at the top of the keypoint's run() (task/keypoint.c): the thread
 *                               runs a task for rank `own` until run() returns.
 * Each costs one predictable branch on loom__trace_enabled when LOOM_TRACE and LOOM_STATS are
 * off (and one on a local variable at scope exit).
 *
 * Threads. A thread is known to the trace the first time it reaches a trace point while it acts
 * for an initialized rank (loom__self): it then registers a record of its own (under a mutex,
 * once per thread), whose kind says what it is: the rank's own thread (its task worker is the
 * rank's), a progress thread (another task worker of the rank) or a thread the rank created.
 * Afterwards the record and its event buffer are written by that thread only, with no lock and
 * no atomic: the hot path appends to a private array. Records are read, and freed, at job end
 * by loom__trace_job_fini, after every thread that may own one has been joined (pthread_join
 * orders their writes before the reads).
 *
 * Buffers hold LOOM_TRACE_EVENTS events per thread; a thread that fills its buffer stops
 * recording, and the trace shows its state "truncated" from then on (loom also says so on
 * stderr at job end). */
#ifndef LOOM_CORE_TRACE_H
#define LOOM_CORE_TRACE_H
#include <stddef.h>
#include <stdint.h>
#include "core/atomic.h"

/* Events kept per thread; beyond, the thread's trace is truncated. */
#define LOOM_TRACE_EVENTS (1u << 18)

/* Bits of loom__trace_enabled. Set at job start (loom__trace_job_init, main thread, before any
 * rank thread exists); afterwards only LOOM_TRACE_ON_TIMES changes, when MPI_T starts the first
 * or stops the last timer handle (loom__trace_times_on/off, under the registry lock). Read
 * relaxed by every trace point: a scope that saw the bit clear at its entry records nothing,
 * one that saw it set records its exit, so a change never splits a scope. */
enum { LOOM_TRACE_ON_EVENTS = 1, /* LOOM_TRACE: record events for the timeline */
       LOOM_TRACE_ON_TIMES = 2   /* LOOM_STATS: add up MPI and wait time per rank thread */ };
extern _Atomic int loom__trace_enabled;

/* Job start (main thread, before ranks run; called by api/layers.c): read LOOM_STATS and
 * LOOM_TRACE, set up the counters and the thread registry. 0, or -1 and a one-line reason. */
int loom__trace_job_init(char *err, size_t errlen);
/* Job end (main thread, after every rank thread was joined, before the task engine and the
 * progress threads' memory go away): print the LOOM_STATS lines, write the LOOM_TRACE files,
 * free every record. */
void loom__trace_job_fini(void);

/* Validator of LOOM_TRACE (config_table.h): empty (off), or a path prefix whose directory
 * exists. 0, or -1 and a reason in err. */
int loom__trace_prefix_check(const char *value, char *err, size_t errlen);

/* MPI_T's timer variables (api/mpit_pvar.c): while one of their handles is started, the MPI
 * and wait times of every rank thread are added up as under LOOM_STATS. Any thread; on and off
 * pair up (a count of reasons). */
void loom__trace_times_on(void);
void loom__trace_times_off(void);
/* The time world rank `rank`'s threads have spent inside MPI calls and waiting, in ns, over the
 * scopes that have ended while times were added up. Any thread. */
void loom__trace_rank_times(int rank, uint64_t *mpi_ns, uint64_t *wait_ns);
/* The out-of-line halves of the trace points; call them only through the macros below. Each
 * returns 1 if it counted an entry (the scope's exit must then be recorded), else 0. */
char loom__trace_api_enter(const char *fn);
void loom__trace_api_exit(void);
char loom__trace_wait_enter(void);
void loom__trace_wait_exit(void);
char loom__trace_task_enter(int owner);
void loom__trace_task_exit(void);

static inline void loom__trace_api_leave(const char *entered)
{
    if (__builtin_expect(*entered, 0))
        loom__trace_api_exit();
}
static inline void loom__trace_wait_leave(const char *entered)
{
    if (__builtin_expect(*entered, 0))
        loom__trace_wait_exit();
}
static inline void loom__trace_task_leave(const char *entered)
{
    if (__builtin_expect(*entered, 0))
        loom__trace_task_exit();
}

#define LOOM_TRACE_SCOPE_(var, leave, enter_call)                                             \
    __attribute__((cleanup(leave), unused)) const char var =                                  \
        (__builtin_expect(loom__load_relaxed(&loom__trace_enabled), 0) ? enter_call : (char)0)

#define LOOM_TRACE_API_SCOPE(fn)                                                               \
    LOOM_TRACE_SCOPE_(loom_trace_api_, loom__trace_api_leave, loom__trace_api_enter(fn))
#define LOOM_TRACE_WAIT_SCOPE()                                                                \
    LOOM_TRACE_SCOPE_(loom_trace_wait_, loom__trace_wait_leave, loom__trace_wait_enter())
#define LOOM_TRACE_TASK_SCOPE(owner)                                                           \
    LOOM_TRACE_SCOPE_(loom_trace_task_, loom__trace_task_leave, loom__trace_task_enter(owner))
#endif
