/* core/run.c — process start: configuration, topology, placement, rank threads, job status.
 *
 * loom_run() is loom's main in all but name: it validates every LOOM_* variable before any
 * rank exists, builds the machine's topology, places one CPU set per rank, starts one thread
 * per rank running the user's main with its own copy of argc/argv, joins them and returns the
 * job's status: 0 if every rank's main returned 0, otherwise the status of the lowest rank
 * that ended with a nonzero one. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/atomic.h"
#include "core/config.h"
#include "core/event.h"
#include "core/privatize.h"
#include "core/rank.h"
#include "core/runtime.h"
#include "core/start_order.h"
#include "mpi.h"
#include "net/net.h"
#include "topo/topo.h"

static int (*user_main)(int, char **);

static void warn_config(const char *msg)
{
    loom__log("warning: %s", msg);
}

/* A deep copy of argv, so that a rank that edits its arguments edits only its own. One
 * block holds two pointer arrays and the strings: the rank gets the first array (which it may
 * rewrite), loom frees the block through the second. */
static char **copy_argv(int argc, char **argv)
{
    size_t bytes = 0;
    for (int i = 0; i < argc; i++)
        bytes += strlen(argv[i]) + 1;
    size_t ptrs = 2 * ((size_t)argc + 1) * sizeof(char *);
    char **v = malloc(ptrs + bytes);
    if (!v)
        return NULL;
    char *text = (char *)v + ptrs;
    for (int i = 0; i < argc; i++) {
        size_t n = strlen(argv[i]) + 1;
        memcpy(text, argv[i], n);
        v[i] = v[argc + 1 + i] = text;
        text += n;
    }
    v[argc] = v[2 * argc + 1] = NULL;
    return v;
}

static void *rank_thread(void *p)
{
    struct loom_rank *r = p;
    char err[256];
    loom__self = r;
    loom__on_rank_thread = 1;
    if (loom__topo_bind_thread(loom__job.topo, r->cpuset, err, sizeof err) != 0)
        loom__log("warning: cannot bind: %s", err);
    /* Privatized globals: store this rank's addresses into its own copies (core/privatize.h). */
    loom__privatize_rank_start(r);
    /* ...and construct its C++ objects, in its copies, as a process does before main. */
    loom__privatize_run_ctors();
    int code = user_main(r->argc, r->argv);
    /* Its C++ objects' destructors, on this thread while the rank's copies exist (at process
     * exit, on the main thread, they would be out of reach). */
    loom__privatize_rank_end(r);
    loom__rank_finish(r, code);
    return NULL;
}

static void free_job(void)
{
    struct loom_job *j = &loom__job;
    if (j->ranks) {
        for (int i = j->first; i < j->first + j->nlocal; i++) {
            loom__cpuset_free(j->ranks[i].cpuset);
            free(j->ranks[i].argv_block);
            loom__thread_workers_free(&j->ranks[i]);
            pthread_mutex_destroy(&j->ranks[i].helpers_lock);
            pthread_mutex_destroy(&j->ranks[i].life_lock);
        }
        free(j->ranks);
        j->ranks = NULL;
    }
    if (j->topo) {
        loom__topo_destroy(j->topo);
        j->topo = NULL;
    }
    loom__net_job_fini(); /* the last: the other node processes' ranks may still need ours */
}

int loom__job_oversubscribed(int nlocal, int node_share)
{
    cpu_set_t allowed;
    return sched_getaffinity(0, sizeof allowed, &allowed) == 0 &&
           (long)nlocal * node_share > CPU_COUNT(&allowed);
}

/* Node processes share this host (topo/host_share.c). When none of them was confined to
 * some CPUs (by a launcher's binding, taskset, a cgroup: this one may run on every online
 * CPU) and the host has a core for every rank of them all, bind this node process to its
 * part of the host's cores and see only that part from here on: LOOM_BIND then places its
 * ranks, its progress threads and its network thread inside it. 0 when done; -1 when not (a
 * confined or oversubscribed host: leave placement to the operating system, and to the
 * binding it was given). */
static int take_host_part(struct loom_job *j)
{
    cpu_set_t allowed;
    if (j->oversubscribed || !loom__topo_is_this_system(j->topo) ||
        sched_getaffinity(0, sizeof allowed, &allowed) != 0 ||
        CPU_COUNT(&allowed) != sysconf(_SC_NPROCESSORS_ONLN))
        return -1;
    struct loom_cpuset *part = loom__topo_host_part(j->topo, j->host_index, j->node_share);
    if (!part)
        return -1;
    char err[256];
    struct loom_topo *t = NULL;
    int rc = loom__topo_bind_process(j->topo, part, err, sizeof err);
    loom__cpuset_free(part);
    /* The topology of this machine is the CPUs the process may use: load it again. */
    if (rc == 0)
        rc = loom__topo_load(loom__config_str(LOOM_CFG_TOPOLOGY), &t, err, sizeof err);
    if (rc) {
        loom__log("warning: node process %d of this host: %s; placement left to the "
                  "operating system", j->host_index, err);
        return -1;
    }
    loom__topo_destroy(j->topo);
    j->topo = t;
    return 0;
}

/* Config, topology and placement; 0 or -1 with the reason already printed. */
static int setup(int argc, char **argv)
{
    struct loom_job *j = &loom__job;
    char err[512];
    if (loom__config_load(warn_config, err, sizeof err) != 0) {
        loom__log("%s", err);
        return -1;
    }
    loom__wait_spin = (unsigned)loom__config_int(LOOM_CFG_SPIN);
    loom__wait_yield = (unsigned)loom__config_int(LOOM_CFG_YIELD);
    /* The job's ranks: this process's LOOM_NP, or, started by a PMI launcher, the node
     * processes' together (net/net.h: endpoint, address exchange, layout). */
    if (loom__net_bootstrap((int)loom__config_int(LOOM_CFG_NP),
                            (int)loom__config_int(LOOM_CFG_JOB_NP), err, sizeof err) != 0) {
        loom__log("%s", err);
        return -1;
    }
    /* More ranks than the cores we may run on: a waiter that spins only holds the core that
     * the rank it waits for needs, and a futex sleep costs a wake-up of tens of microseconds,
     * so (unless set) wait with few polls and many yields. Measured with bench/coll.c on 4
     * ranks and 2 cores: 2.5-3x faster small collectives (docs/collectives.md). */
    j->oversubscribed = loom__job_oversubscribed(j->nlocal, j->node_share);
    if (j->oversubscribed) {
        if (!loom__config_is_set(LOOM_CFG_SPIN))
            loom__wait_spin = 16;
        if (!loom__config_is_set(LOOM_CFG_YIELD))
            loom__wait_yield = 1000;
    }
    /* Every rank has a core: what takes it during a yield is not a rank (core/event.c). */
    loom__wait_yield_cut = !j->oversubscribed;
    j->bind_policy = loom__config_str(LOOM_CFG_BIND);
    j->main_thread = pthread_self();
    if (loom__topo_load(loom__config_str(LOOM_CFG_TOPOLOGY), &j->topo, err, sizeof err) != 0) {
        loom__log("LOOM_TOPOLOGY: %s", err);
        return -1;
    }
    /* Node processes that share a host would each place their ranks from the first core:
     * unless told otherwise, each takes its part of the host, or, where it cannot, leaves
     * placement to the operating system. */
    if (j->node_share > 1 && !loom__config_is_set(LOOM_CFG_BIND) && take_host_part(j) != 0)
        j->bind_policy = "none";
    struct loom_cpuset **sets = calloc((size_t)j->nlocal, sizeof *sets);
    /* aligned as struct loom_rank asks (calloc gives 16 bytes) */
    j->ranks = aligned_alloc(_Alignof(struct loom_rank), sizeof *j->ranks * (size_t)j->nranks);
    if (j->ranks)
        memset(j->ranks, 0, sizeof *j->ranks * (size_t)j->nranks);
    if (!sets || !j->ranks) {
        free(sets);
        loom__log("out of memory starting %d ranks", j->nranks);
        return -1;
    }
    if (loom__topo_place(j->topo, j->bind_policy, j->nlocal, sets, err, sizeof err) != 0) {
        free(sets);
        loom__log("LOOM_BIND: %s", err);
        return -1;
    }
    for (int i = 0; i < j->nranks; i++) { /* another node process's ranks: a stub each */
        j->ranks[i].world_rank = i;
        loom__event_init(&j->ranks[i].event);
    }
    for (int i = j->first; i < j->first + j->nlocal; i++) {
        struct loom_rank *r = &j->ranks[i];
        r->cpuset = sets[i - j->first];
        r->argc = argc;
        r->argv = r->argv_block = copy_argv(argc, argv);
        atomic_init(&r->state, LOOM_RANK_STARTED);
        pthread_mutex_init(&r->helpers_lock, NULL);
        pthread_mutex_init(&r->life_lock, NULL);
        if (!r->argv) {
            free(sets);
            loom__log("out of memory copying arguments");
            return -1;
        }
    }
    free(sets);
    if (loom__layers_job_init(err, sizeof err) != 0) {
        loom__log("%s", err);
        return -1;
    }
    return 0;
}

int loom_run(int argc, char **argv, int (*rank_main)(int argc, char **argv))
{
    struct loom_job *j = &loom__job;
    static char *no_args[] = {"loom", NULL};
    if (argc < 1 || argv == NULL) {
        argc = 1;
        argv = no_args;
    }
    if (j->ranks != NULL) {
        loom__log("loom_run: called twice");
        return 1;
    }
    user_main = rank_main;
    if (setup(argc, argv) != 0) {
        free_job();
        return 1;
    }
    /* This thread's copies of large zero globals, untouched, can be zero pages again. */
    loom__privatize_main_start();
    /* Large privatized globals live in every thread's TLS, carved out of its stack: the
     * threads loom starts (ranks, progress threads) and those the program starts with a
     * default stack (OpenMP workers, pthreads) get the usual room besides them: the process's
     * default stack size becomes that (core/privatize.h). */
    size_t stack;
    if (loom__privatize_stack_size(&stack)) {
        pthread_attr_t def;
        int ok = pthread_getattr_default_np(&def) == 0;
        if (ok) {
            ok = pthread_attr_setstacksize(&def, stack) == 0 &&
                 pthread_setattr_default_np(&def) == 0;
            pthread_attr_destroy(&def);
        }
        if (!ok)
            loom__log("warning: cannot make the default thread stack %zu bytes", stack);
    }
    int started = j->first;
    for (; started < j->first + j->nlocal; started++) {
        struct loom_rank *r = &j->ranks[started];
        /* Start order: one rank at a time until its MPI_Init, getopt reset for each
         * (core/start_order.h). */
        loom__start_order_before(r);
        if (pthread_create(&r->thread, NULL, rank_thread, r) != 0) {
            loom__log("cannot start rank thread %d of %d", started, j->nranks);
            loom__job_abort(1);
        }
        loom__start_order_wait(r);
    }
    for (int i = j->first; i < started; i++)
        pthread_join(j->ranks[i].thread, NULL);
    int status = 0;
    for (int i = j->first; i < j->first + j->nlocal && status == 0; i++)
        status = j->ranks[i].exit_code;
    loom__layers_job_fini();
    free_job();
    return status;
}
