/* core/trace_thread.h — the per-thread records behind core/trace.h, shared by the recorder
 * (trace.c), the file writers (trace_write.c) and the LOOM_STATS report (stats.c).
 *
 * Who touches what: a record is created and linked into the registry by its own thread under
 * the registry lock; every other field is then written by that thread only (no lock, no
 * atomic, but for the two time totals that MPI_T may read meanwhile). The job's main thread
 * reads and frees the records at job end, after joining every thread that may own one (the
 * joins order the owners' writes before those reads). */
#ifndef LOOM_CORE_TRACE_THREAD_H
#define LOOM_CORE_TRACE_THREAD_H
#include <stdint.h>
#include <stdio.h>

struct loom_task_worker;

/* What a thread is, for the trace (the order is the order of the threads in the files). */
enum loom_trace_kind {
    LOOM_TRACE_RANK_THREAD = 0, /* the rank's own thread (runs its main) */
    LOOM_TRACE_PROGRESS_THREAD, /* a progress thread of the rank (another task worker) */
    LOOM_TRACE_USER_THREAD,     /* a thread the rank created that calls MPI */
};

/* Event types: each opens a state on the thread's state stack, or closes the innermost one. */
enum { LOOM_TRACE_EV_API = 0, LOOM_TRACE_EV_WAIT, LOOM_TRACE_EV_TASK, LOOM_TRACE_EV_POP };

struct loom_trace_event {
    uint64_t t;       /* ns since the job's start */
    const char *name; /* EV_API: the MPI function (a string literal), else NULL */
    int32_t arg;      /* EV_TASK: the rank the task works for (-1: nobody) */
    int16_t type;     /* LOOM_TRACE_EV_* */
    int16_t cpu;      /* the core the thread was on (sched_getcpu), -1 if unknown */
};

struct loom_trace_thread {
    struct loom_trace_thread *next; /* registry list; under the registry lock */
    int rank;                       /* world rank it acts for */
    int kind;                       /* enum loom_trace_kind */
    int seq;                        /* registration order (for a stable order in files) */
    int cpu;                        /* where it was when it registered */
    struct loom_task_worker *worker; /* its task worker (stats of progress threads), or NULL */
    uint64_t t_start;               /* registration time (ns since job start) */
    /* owner thread only, from here on */
    int api_depth, wait_depth;      /* nesting of MPI calls / waits */
    uint64_t api_since, wait_since; /* when the outermost one began (LOOM_STATS) */
    _Atomic uint64_t mpi_ns, wait_ns; /* totals (LOOM_STATS; rank threads are reported);
                                         the owner adds, relaxed; MPI_T reads them, relaxed,
                                         under the registry lock (loom__trace_rank_times) */
    struct loom_trace_event *ev;    /* [LOOM_TRACE_EVENTS] when LOOM_TRACE is on, else NULL */
    uint32_t nev;
    int truncated;                  /* 1 once an event did not fit; recording stopped */
    uint64_t t_truncated;           /* time of the first event that did not fit */
};

/* Now, in ns since the job's start (CLOCK_MONOTONIC). Any thread. */
uint64_t loom__trace_now(void);

/* Write <prefix>.trace (Pajé) and <prefix>.json (Chrome trace events) from the records th[n],
 * sorted by rank, kind and registration order; t_end is the job's end. 0, or -1 after saying
 * why on stderr. Main thread, at job end. */
int loom__trace_write(const char *prefix, struct loom_trace_thread *const *th, int n,
                      int nranks, uint64_t t_end);

/* The LOOM_STATS lines on stderr, one per rank in rank order, from the job's counters, each
 * rank thread's worker and times, and the workers of progress threads in th[n]. Main thread,
 * at job end. */
void loom__stats_report(struct loom_trace_thread *const *th, int n);
#endif
