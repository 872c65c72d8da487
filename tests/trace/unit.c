/* The recorder, the writers and the stats report without a real job: a fake job of 2 ranks
 * whose threads pass trace points by hand.
 *  - rank 0's thread nests MPI call > wait > task until its buffer is full: its trace is
 *    truncated, and both files still parse and say so;
 *  - rank 1 has its thread and a progress thread (another task worker) that idles and runs a
 *    task for rank 0;
 *  - the stats lines come one per rank, in order, with the counts given, and the progress
 *    thread's tasks added to its rank's;
 *  - with LOOM_TRACE and LOOM_STATS unset, nothing is recorded or written. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "core/config.h"
#include "core/rank.h"
#include "core/stats.h"
#include "core/trace.h"
#include "trace_check.h"

static void task(int owner)
{
    LOOM_TRACE_TASK_SCOPE(owner);
}

static void wait_with_task(int owner)
{
    LOOM_TRACE_WAIT_SCOPE();
    task(owner);
}

static void empty_wait(void)
{
    LOOM_TRACE_WAIT_SCOPE();
}

static void mpi_call(const char *fn, int owner)
{
    LOOM_TRACE_API_SCOPE(fn);
    if (owner >= 0)
        wait_with_task(owner);
    else
        empty_wait();
}

static void nested_mpi_call(void)
{
    LOOM_TRACE_API_SCOPE("MPI_Outer");
    mpi_call("MPI_Inner", -1); /* counted as part of MPI_Outer */
}

static struct loom_task_worker progress_worker;

static void *rank1_thread(void *unused)
{
    (void)unused;
    loom__self = &loom__job.ranks[1];
    loom__task_self = &loom__job.ranks[1].worker;
    for (int i = 0; i < 10; i++)
        mpi_call("MPI_Other", -1);
    nested_mpi_call();
    return NULL;
}

static void *progress_thread(void *unused)
{
    (void)unused;
    loom__self = &loom__job.ranks[1];
    progress_worker.dedicated = 1; /* what tells a progress thread's worker apart */
    loom__task_self = &progress_worker;
    LOOM_TRACE_WAIT_SCOPE(); /* as progress threads live: inside a wait */
    for (int i = 0; i < 3; i++)
        task(0);
    progress_worker.stats.ran_other_numa = 5;
    return NULL;
}

/* Run loom__trace_job_fini with stderr going to path. */
static void fini_to(const char *path)
{
    fflush(stderr);
    int saved = dup(2);
    FILE *f = fopen(path, "w");
    CHECK(saved >= 0 && f);
    dup2(fileno(f), 2);
    loom__trace_job_fini();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(f);
}

static void expect_line(const char *text, const char *want)
{
    if (!strstr(text, want)) {
        fprintf(stderr, "expected a line with \"%s\" in:\n%s\n", want, text);
        exit(99);
    }
}

int main(void)
{
    char dir[] = "/tmp/loom-trace-unit-XXXXXX", prefix[256], err[512], path[300];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(prefix, sizeof prefix, "%s/run", dir);
    setenv("LOOM_TRACE", prefix, 1);
    setenv("LOOM_STATS", "1", 1);
    if (loom__config_load(NULL, err, sizeof err) != 0) {
        fprintf(stderr, "config: %s\n", err);
        return 99;
    }
    loom__job.nranks = 2;
    loom__job.ranks = calloc(2, sizeof *loom__job.ranks);
    CHECK(loom__job.ranks != NULL);
    for (int i = 0; i < 2; i++) {
        loom__job.ranks[i].world_rank = i;
        atomic_init(&loom__job.ranks[i].state, LOOM_RANK_INITIALIZED);
    }
    if (loom__trace_job_init(err, sizeof err) != 0) {
        fprintf(stderr, "trace init: %s\n", err);
        return 99;
    }
    CHECK_INT(loom__trace_enabled, LOOM_TRACE_ON_EVENTS | LOOM_TRACE_ON_TIMES);

    /* rank 0: 6 events per call, more calls than its buffer holds */
    loom__self = &loom__job.ranks[0];
    loom__task_self = &loom__job.ranks[0].worker;
    for (unsigned i = 0; i < LOOM_TRACE_EVENTS / 4; i++)
        mpi_call("MPI_Fake", 1);
    LOOM_STATS_SENT(&loom__job.ranks[0], 100);
    LOOM_STATS_SENT(&loom__job.ranks[0], 100);
    LOOM_STATS_RECEIVED(&loom__job.ranks[1], 100);
    LOOM_STATS_RECEIVED(&loom__job.ranks[1], 50);
    LOOM_STATS_RECEIVED(NULL, 50); /* counted nowhere */
    loom__job.ranks[0].worker.stats.ran_own = 3;
    loom__job.ranks[0].worker.stats.ran_same_numa = 2;
    loom__job.ranks[1].worker.stats.ran_own = 1;

    pthread_t a, b;
    CHECK(pthread_create(&a, NULL, rank1_thread, NULL) == 0);
    CHECK(pthread_create(&b, NULL, progress_thread, NULL) == 0);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    loom__self = NULL; /* the job's end runs on the main thread, outside any rank */
    loom__task_self = NULL;

    snprintf(path, sizeof path, "%s/stderr", dir);
    fini_to(path);
    char *text = tc_slurp(path);
    CHECK(text != NULL);
    expect_line(text, "loom: rank 0: stats: sent=2 sent_bytes=200 recv=0 recv_bytes=0 "
                      "tasks_own=3 tasks_same_numa=2 tasks_other_numa=0 mpi_ms=");
    expect_line(text, "loom: rank 1: stats: sent=0 sent_bytes=0 recv=2 recv_bytes=150 "
                      "tasks_own=1 tasks_same_numa=0 tasks_other_numa=5 mpi_ms=");
    expect_line(text, "truncated");
    CHECK(strstr(text, "rank 0: stats") < strstr(text, "rank 1: stats"));
    free(text);

    struct paje_summary ps;
    struct json_summary js;
    snprintf(path, sizeof path, "%s.trace", prefix);
    CHECK_INT(paje_check(path, &ps), 0);
    snprintf(path, sizeof path, "%s.json", prefix);
    CHECK_INT(json_check(path, &js), 0);
    CHECK_INT(js.truncated_threads, 1);
    CHECK_INT(js.complete, ps.set_states);
    const char *states[] = {"truncated", "MPI_Fake", "wait", "task for rank 1", "idle",
                            "task for rank 0", "MPI_Other", "MPI_Outer", "compute"};
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++) {
        if (!tc_names_has(&ps.states, states[i]) || !tc_names_has(&js.names, states[i])) {
            fprintf(stderr, "state \"%s\" missing from the trace\n", states[i]);
            return 99;
        }
    }
    /* nested calls count once; a wait with nothing in it leaves no trace */
    CHECK(!tc_names_has(&ps.states, "MPI_Inner"));
    CHECK(tc_names_has_prefix(&ps.containers, "rank 1 progress thread 0 (cpu "));
    CHECK(tc_names_has_prefix(&ps.containers, "rank 0 (cpu "));
    paje_summary_free(&ps);
    json_summary_free(&js);
    unlink(path);
    snprintf(path, sizeof path, "%s.trace", prefix);
    unlink(path);
    snprintf(path, sizeof path, "%s/stderr", dir);
    unlink(path);

    /* off: nothing recorded, nothing written */
    unsetenv("LOOM_TRACE");
    unsetenv("LOOM_STATS");
    CHECK_INT(loom__config_load(NULL, err, sizeof err), 0);
    CHECK_INT(loom__trace_job_init(err, sizeof err), 0);
    CHECK_INT(loom__trace_enabled, 0);
    CHECK_INT(loom__stats_enabled, 0);
    loom__self = &loom__job.ranks[0];
    loom__task_self = &loom__job.ranks[0].worker;
    mpi_call("MPI_Fake", 1);
    loom__self = NULL;
    loom__task_self = NULL;
    loom__trace_job_fini();
    struct stat st;
    snprintf(path, sizeof path, "%s.json", prefix);
    CHECK(stat(path, &st) != 0);

    /* the validator of LOOM_TRACE */
    CHECK_INT(loom__trace_prefix_check("", err, sizeof err), 0);
    CHECK_INT(loom__trace_prefix_check("run", err, sizeof err), 0);
    CHECK_INT(loom__trace_prefix_check(prefix, err, sizeof err), 0);
    CHECK_INT(loom__trace_prefix_check("/nonexistent-dir/x", err, sizeof err), -1);
    CHECK_INT(loom__trace_prefix_check("/tmp/", err, sizeof err), -1);

    free(loom__job.ranks);
    loom__job.ranks = NULL;
    loom__job.nranks = 0;
    rmdir(dir);
    printf("trace_unit: ok\n");
    return 0;
}
