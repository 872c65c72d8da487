/* core/stats.c — LOOM_STATS: the per-rank message counters and the report at job end.
 *
 * Why at job end, from the main thread: the task counts of a rank are spread over its own
 * worker and its progress threads' workers, which are final only once those threads have
 * stopped; at job end every thread has been joined, so one thread can read everything
 * without locks and print the lines in rank order (deterministic output). */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include "core/atomic.h"
#include "core/rank.h"
#include "core/stats.h"
#include "core/trace_thread.h"

int loom__stats_enabled;
_Atomic int loom__stats_counting;

/* One rank's counters, alone on its cache line(s): written with relaxed adds by any thread
 * (see stats.h), read at job end after the joins, or at any time by MPI_T (relaxed). */
struct counters {
    _Atomic uint64_t sent, sent_bytes;
    _Atomic uint64_t recv, recv_bytes;
    _Atomic uint64_t tasks[3]; /* LOOM_STATS_TASK_*: for MPI_T (the report uses the workers') */
} __attribute__((aligned(64)));

/* [nranks]; allocated at job start, freed at job end, both by the main thread while no rank
 * thread runs, so readers during the job need no lock. */
static struct counters *counters;
static int ncounters;

int loom__stats_job_init(int nranks, int report)
{
    struct counters *c = NULL;
    if (posix_memalign((void **)&c, 64, sizeof *c * (size_t)nranks) != 0)
        return -1;
    for (int i = 0; i < nranks; i++) {
        atomic_init(&c[i].sent, 0);
        atomic_init(&c[i].sent_bytes, 0);
        atomic_init(&c[i].recv, 0);
        atomic_init(&c[i].recv_bytes, 0);
        for (int k = 0; k < 3; k++)
            atomic_init(&c[i].tasks[k], 0);
    }
    counters = c;
    ncounters = nranks;
    loom__stats_enabled = report;
    loom__store_relaxed(&loom__stats_counting, report); /* no rank runs yet */
    return 0;
}

void loom__stats_count_on(void)
{
    loom__fetch_add_relaxed(&loom__stats_counting, 1); /* a hint: see stats.h */
}

void loom__stats_count_off(void)
{
    /* Never below 0: a handle started in a job that has ended (its reasons were dropped by
     * loom__stats_job_fini) may be stopped later. */
    int n = loom__load_relaxed(&loom__stats_counting);
    while (n > 0 && !loom__cas_acq_rel(&loom__stats_counting, &n, n - 1)) {
    }
}

void loom__stats_count_task(int rank, int kind)
{
    if (counters != NULL && rank >= 0 && rank < ncounters && kind >= 0 && kind < 3)
        loom__fetch_add_relaxed(&counters[rank].tasks[kind], 1); /* relaxed: stats.h */
}

int loom__stats_totals(int rank, uint64_t out[LOOM_STATS_NTOTALS])
{
    if (counters == NULL || rank < 0 || rank >= ncounters) {
        for (int k = 0; k < LOOM_STATS_NTOTALS; k++)
            out[k] = 0;
        return -1;
    }
    const struct counters *c = &counters[rank];
    /* relaxed: running totals, any recent value will do (stats.h) */
    out[0] = loom__load_relaxed(&c->sent);
    out[1] = loom__load_relaxed(&c->sent_bytes);
    out[2] = loom__load_relaxed(&c->recv);
    out[3] = loom__load_relaxed(&c->recv_bytes);
    for (int k = 0; k < 3; k++)
        out[4 + k] = loom__load_relaxed(&c->tasks[k]);
    return 0;
}

void loom__stats_job_fini(void)
{
    loom__stats_enabled = 0;
    loom__store_relaxed(&loom__stats_counting, 0); /* every thread joined */
    free(counters); /* allocated by loom__stats_job_init */
    counters = NULL;
    ncounters = 0;
}

static struct counters *of(const struct loom_rank *r)
{
    if (r == NULL || counters == NULL || r->world_rank < 0 || r->world_rank >= ncounters)
        return NULL;
    return &counters[r->world_rank];
}

void loom__stats_count_sent(const struct loom_rank *r, size_t bytes)
{
    struct counters *c = of(r);
    if (c) {
        /* relaxed: read only after the joins at job end */
        loom__fetch_add_relaxed(&c->sent, 1);
        loom__fetch_add_relaxed(&c->sent_bytes, bytes);
    }
}

void loom__stats_count_received(const struct loom_rank *r, size_t bytes)
{
    struct counters *c = of(r);
    if (c) {
        /* relaxed: read only after the joins at job end */
        loom__fetch_add_relaxed(&c->recv, 1);
        loom__fetch_add_relaxed(&c->recv_bytes, bytes);
    }
}

void loom__stats_report(struct loom_trace_thread *const *th, int n)
{
    if (!loom__stats_enabled)
        return;
    for (int i = 0; i < ncounters && i < loom__job.nranks; i++) {
        const struct loom_rank *r = &loom__job.ranks[i];
        const struct counters *c = &counters[i];
        struct loom_task_stats ts = r->worker.stats;
        loom__thread_workers_stats(r, &ts);
        uint64_t mpi_ns = 0, wait_ns = 0;
        for (int k = 0; k < n; k++) {
            const struct loom_trace_thread *t = th[k];
            if (t->rank != i)
                continue;
            if (t->kind == LOOM_TRACE_RANK_THREAD) {
                mpi_ns += loom__load_relaxed(&t->mpi_ns);
                wait_ns += loom__load_relaxed(&t->wait_ns);
            } else if (t->kind == LOOM_TRACE_PROGRESS_THREAD && t->worker) {
                ts.ran_own += t->worker->stats.ran_own;
                ts.ran_same_numa += t->worker->stats.ran_same_numa;
                ts.ran_other_numa += t->worker->stats.ran_other_numa;
            }
        }
        loom__log("rank %d: stats: sent=%llu sent_bytes=%llu recv=%llu recv_bytes=%llu "
                  "tasks_own=%llu tasks_same_numa=%llu tasks_other_numa=%llu "
                  "mpi_ms=%.3f wait_ms=%.3f",
                  i, (unsigned long long)loom__load_relaxed(&c->sent),
                  (unsigned long long)loom__load_relaxed(&c->sent_bytes),
                  (unsigned long long)loom__load_relaxed(&c->recv),
                  (unsigned long long)loom__load_relaxed(&c->recv_bytes), ts.ran_own,
                  ts.ran_same_numa, ts.ran_other_numa, (double)mpi_ns / 1e6,
                  (double)wait_ns / 1e6);
    }
}
