/* core/trace.c — the recorder behind the trace points of core/trace.h: the registry of
 * per-thread records, the events of LOOM_TRACE and the MPI/wait times of LOOM_STATS, and the
 * job start/end of both (which also drive core/stats.c).
 *
 * The hot path (a trace point when LOOM_TRACE or LOOM_STATS is on) touches only the calling
 * thread's own record: a thread-local pointer, a clock read, an append to a private array. The
 * registry lock is taken once per thread, when it registers. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "core/atomic.h"
#include "core/config.h"
#include "core/rank.h"
#include "core/stats.h"
#include "core/trace.h"
#include "core/trace_thread.h"

_Atomic int loom__trace_enabled;

/* The registry: every record of this job. `lock` protects head/count (appends by registering
 * threads; the main thread walks it at job end, after the joins). gen changes at each job
 * start, so a thread-local pointer left over from an earlier job (unit tests run several) is
 * never used again. t0 and prefix are set at job start, read-only while ranks run. */
static struct {
    pthread_mutex_t lock;
    struct loom_trace_thread *head;
    int count;
    unsigned gen;
    struct timespec t0;
    char *prefix; /* LOOM_TRACE, or NULL */
    int stats;    /* LOOM_STATS of this job */
    int timers;   /* started MPI_T timer handles (loom__trace_times_on/off) */
} reg = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The bits that follow from the settings and the started timers; under reg.lock. */
static int enabled_bits(void)
{
    return (reg.prefix ? LOOM_TRACE_ON_EVENTS : 0) |
           (reg.stats || reg.timers > 0 ? LOOM_TRACE_ON_TIMES : 0);
}

void loom__trace_times_on(void)
{
    pthread_mutex_lock(&reg.lock);
    reg.timers++;
    loom__store_relaxed(&loom__trace_enabled, enabled_bits());
    pthread_mutex_unlock(&reg.lock);
}

void loom__trace_times_off(void)
{
    pthread_mutex_lock(&reg.lock);
    if (reg.timers > 0) /* a handle started in a job that has ended may be stopped later */
        reg.timers--;
    loom__store_relaxed(&loom__trace_enabled, enabled_bits());
    pthread_mutex_unlock(&reg.lock);
}

void loom__trace_rank_times(int rank, uint64_t *mpi_ns, uint64_t *wait_ns)
{
    uint64_t m = 0, w = 0;
    pthread_mutex_lock(&reg.lock);
    for (struct loom_trace_thread *t = reg.head; t; t = t->next)
        if (t->rank == rank) {
            m += loom__load_relaxed(&t->mpi_ns);
            w += loom__load_relaxed(&t->wait_ns);
        }
    pthread_mutex_unlock(&reg.lock);
    *mpi_ns = m;
    *wait_ns = w;
}

static _Thread_local struct loom_trace_thread *me;
static _Thread_local unsigned me_gen;

uint64_t loom__trace_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t ns = (int64_t)(ts.tv_sec - reg.t0.tv_sec) * 1000000000 + (ts.tv_nsec - reg.t0.tv_nsec);
    return ns > 0 ? (uint64_t)ns : 0;
}

int loom__trace_prefix_check(const char *value, char *err, size_t errlen)
{
    if (value[0] == '\0')
        return 0;
    size_t n = strlen(value);
    if (value[n - 1] == '/') {
        snprintf(err, errlen, "a file prefix is needed (`dir/run` gives dir/run.trace and "
                              "dir/run.json), not a directory");
        return -1;
    }
    const char *slash = strrchr(value, '/');
    if (slash == NULL)
        return 0; /* the current directory */
    char dir[4096];
    size_t dn = slash == value ? 1 : (size_t)(slash - value);
    if (dn >= sizeof dir) {
        snprintf(err, errlen, "path too long");
        return -1;
    }
    memcpy(dir, value, dn);
    dir[dn] = '\0';
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "directory %s does not exist", dir);
        return -1;
    }
    return 0;
}

int loom__trace_job_init(char *err, size_t errlen)
{
    const char *prefix = loom__config_str(LOOM_CFG_TRACE);
    int stats = (int)loom__config_int(LOOM_CFG_STATS);
    clock_gettime(CLOCK_MONOTONIC, &reg.t0);
    char *copy = NULL;
    if (prefix && prefix[0]) {
        copy = strdup(prefix); /* freed by loom__trace_job_fini */
        if (!copy) {
            snprintf(err, errlen, "out of memory reading LOOM_TRACE");
            return -1;
        }
    }
    pthread_mutex_lock(&reg.lock);
    reg.gen++;
    free(reg.prefix);
    reg.prefix = copy;
    reg.stats = stats != 0;
    reg.timers = 0;
    pthread_mutex_unlock(&reg.lock);
    /* The counters always exist: MPI_T's message variables count into them too. */
    if (loom__stats_job_init(loom__job.nranks, stats) != 0) {
        snprintf(err, errlen, "out of memory for the message counters (LOOM_STATS, MPI_T)");
        return -1;
    }
    pthread_mutex_lock(&reg.lock);
    loom__store_relaxed(&loom__trace_enabled, enabled_bits()); /* no rank runs yet */
    pthread_mutex_unlock(&reg.lock);
    return 0;
}

static int by_rank_kind_seq(const void *a, const void *b)
{
    const struct loom_trace_thread *x = *(struct loom_trace_thread *const *)a;
    const struct loom_trace_thread *y = *(struct loom_trace_thread *const *)b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void loom__trace_job_fini(void)
{
    uint64_t t_end = loom__trace_now();
    pthread_mutex_lock(&reg.lock);
    int n = reg.count;
    struct loom_trace_thread *head = reg.head;
    reg.head = NULL;
    reg.count = 0;
    reg.gen++; /* records of this job are gone: no thread may use its pointer again */
    reg.timers = 0;
    pthread_mutex_unlock(&reg.lock);
    struct loom_trace_thread **th = calloc((size_t)n + 1, sizeof *th);
    int k = 0;
    for (struct loom_trace_thread *t = head; t && th; t = t->next)
        th[k++] = t;
    if (th)
        qsort(th, (size_t)k, sizeof *th, by_rank_kind_seq);
    else
        loom__log("warning: out of memory at job end: no LOOM_STATS/LOOM_TRACE output");
    if (th && loom__stats_enabled)
        loom__stats_report(th, k);
    if (th && reg.prefix) {
        int truncated = 0;
        for (int i = 0; i < k; i++)
            truncated += th[i]->truncated;
        if (truncated)
            loom__log("warning: LOOM_TRACE: %d thread(s) filled their %u-event buffer; their "
                      "trace is truncated (state \"truncated\")",
                      truncated, LOOM_TRACE_EVENTS);
        loom__trace_write(reg.prefix, th, k, loom__job.nranks, t_end);
    }
    free(th);
    while (head) {
        struct loom_trace_thread *next = head->next;
        free(head->ev); /* allocated at registration */
        free(head);
        head = next;
    }
    loom__stats_job_fini();
    pthread_mutex_lock(&reg.lock);
    free(reg.prefix);
    reg.prefix = NULL;
    reg.stats = 0;
    loom__store_relaxed(&loom__trace_enabled, 0);
    pthread_mutex_unlock(&reg.lock);
}

/* The calling thread's record, registering it on first use; NULL when the thread acts for no
 * initialized rank (or out of memory: it is then simply not traced). */
static struct loom_trace_thread *self_record(void)
{
    if (__builtin_expect(me != NULL && me_gen == reg.gen, 1))
        return me;
    struct loom_rank *r = loom__self;
    if (r == NULL || loom__task_self == NULL) {
        /* Not a task worker: count it only once its rank is initialized (a thread the rank
         * created, calling MPI). */
        if (r == NULL || loom__load_acquire(&r->state) < LOOM_RANK_INITIALIZED)
            return NULL;
    }
    struct loom_trace_thread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (loom__load_relaxed(&loom__trace_enabled) & LOOM_TRACE_ON_EVENTS) {
        /* Pages are touched only as events come, so a quiet thread costs little memory. */
        t->ev = malloc(sizeof *t->ev * LOOM_TRACE_EVENTS);
        if (!t->ev) {
            free(t);
            return NULL;
        }
    }
    t->rank = r->world_rank;
    struct loom_task_worker *w = loom__task_self;
    if (w == &r->worker)
        t->kind = LOOM_TRACE_RANK_THREAD;
    else if (w != NULL && w->dedicated)
        t->kind = LOOM_TRACE_PROGRESS_THREAD;
    else
        t->kind = LOOM_TRACE_USER_THREAD; /* its worker, if any, is counted with its rank's */
    t->worker = w;
    t->cpu = sched_getcpu();
    t->t_start = loom__trace_now();
    pthread_mutex_lock(&reg.lock);
    t->seq = reg.count++;
    t->next = reg.head;
    reg.head = t;
    me_gen = reg.gen;
    pthread_mutex_unlock(&reg.lock);
    me = t;
    return t;
}

/* The calling thread's record if it registered during this job, else NULL. */
static struct loom_trace_thread *current(void)
{
    return me_gen == reg.gen ? me : NULL;
}

static void record(struct loom_trace_thread *t, int type, const char *name, int arg, uint64_t now)
{
    if (t->ev == NULL || t->truncated)
        return;
    if (t->nev == LOOM_TRACE_EVENTS) {
        t->truncated = 1;
        t->t_truncated = now;
        return;
    }
    struct loom_trace_event *e = &t->ev[t->nev++];
    e->t = now;
    e->name = name;
    e->arg = arg;
    e->type = (int16_t)type;
    e->cpu = (int16_t)sched_getcpu();
}

char loom__trace_api_enter(const char *fn)
{
    struct loom_trace_thread *t = self_record();
    if (t == NULL)
        return 0;
    if (t->api_depth++ == 0) { /* a nested MPI call is part of the outer one */
        uint64_t now = loom__trace_now();
        t->api_since = now;
        record(t, LOOM_TRACE_EV_API, fn, -1, now);
    }
    return 1;
}

void loom__trace_api_exit(void)
{
    struct loom_trace_thread *t = current(); /* registered by the matching enter */
    if (t == NULL || t->api_depth == 0)
        return;
    if (--t->api_depth == 0) {
        uint64_t now = loom__trace_now();
        loom__store_relaxed(&t->mpi_ns, loom__load_relaxed(&t->mpi_ns) + (now - t->api_since));
        record(t, LOOM_TRACE_EV_POP, NULL, -1, now);
    }
}

char loom__trace_wait_enter(void)
{
    struct loom_trace_thread *t = self_record();
    if (t == NULL)
        return 0;
    if (t->wait_depth++ == 0) {
        uint64_t now = loom__trace_now();
        t->wait_since = now;
        record(t, LOOM_TRACE_EV_WAIT, NULL, -1, now);
    }
    return 1;
}

void loom__trace_wait_exit(void)
{
    struct loom_trace_thread *t = current();
    if (t == NULL || t->wait_depth == 0)
        return;
    if (--t->wait_depth == 0) {
        uint64_t now = loom__trace_now();
        loom__store_relaxed(&t->wait_ns,
                            loom__load_relaxed(&t->wait_ns) + (now - t->wait_since));
        /* A wait whose condition held at once, with nothing run inside, leaves no trace:
         * most waits of a busy program are such, and they would fill the buffer. */
        if (t->ev && !t->truncated && t->nev > 0 &&
            t->ev[t->nev - 1].type == LOOM_TRACE_EV_WAIT && now - t->ev[t->nev - 1].t < 1000)
            t->nev--;
        else
            record(t, LOOM_TRACE_EV_POP, NULL, -1, now);
    }
}

char loom__trace_task_enter(int owner)
{
    if (!(loom__load_relaxed(&loom__trace_enabled) & LOOM_TRACE_ON_EVENTS))
        return 0; /* LOOM_STATS counts tasks in the engine; only the timeline wants this */
    struct loom_trace_thread *t = self_record();
    if (t == NULL)
        return 0;
    record(t, LOOM_TRACE_EV_TASK, NULL, owner, loom__trace_now());
    return 1;
}

void loom__trace_task_exit(void)
{
    struct loom_trace_thread *t = current();
    if (t)
        record(t, LOOM_TRACE_EV_POP, NULL, -1, loom__trace_now());
}
