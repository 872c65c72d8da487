/* Node processes that share a host take their own parts of its cores (topo/host_share.c).
 * Every rank reports the CPUs its thread may run on; rank 0 checks them against what the
 * job's shape calls for:
 *   host_share part   (LOOM_BIND unset) when the host has a core for every rank of the job,
 *                     ranks of different node processes share no CPU, and none runs on every
 *                     CPU; when ranks outnumber the CPUs, every rank may run on every CPU (the
 *                     operating system places them);
 *   host_share none   (LOOM_BIND=none) every rank may run on every CPU.
 * "Every CPU" is every CPU the launcher was given (the node process's parent, Hydra's proxy):
 * a launcher confined to some CPUs makes loom leave placement to the system inside them. On
 * a host with SMT (several PUs per core) a job with more ranks than cores but not than PUs
 * may get either outcome, and the check accepts both. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "abort_check.h"

struct report {
    int node;      /* world rank of the first rank of this rank's node process */
    cpu_set_t set; /* where this rank's thread may run */
};

/* 1 when the kernel says SMT is on (several PUs per core). */
static int smt_active(void)
{
    FILE *f = fopen("/sys/devices/system/cpu/smt/active", "r");
    int on = 0;
    if (f) {
        if (fscanf(f, "%d", &on) != 1)
            on = 0;
        fclose(f);
    }
    return on;
}

/* The CPUs this node process's parent (the launcher's proxy) may run on: what the user and
 * the launcher gave the job, before loom bound anything. */
static void given_cpus(cpu_set_t *given)
{
    if (sched_getaffinity(getppid(), sizeof *given, given) != 0)
        CPU_ZERO(given);
}

/* 1 when ranks of different node processes share no CPU and none may run everywhere. */
static int parted(const struct report *r, int n, int online)
{
    for (int a = 0; a < n; a++) {
        if (CPU_COUNT(&r[a].set) == 0 || CPU_COUNT(&r[a].set) >= online)
            return 0;
        for (int b = a + 1; b < n; b++) {
            cpu_set_t both;
            CPU_AND(&both, &r[a].set, &r[b].set);
            if (r[a].node != r[b].node && CPU_COUNT(&both) != 0)
                return 0;
        }
    }
    return 1;
}

/* 1 when every rank may run on every CPU it was given. */
static int everywhere(const struct report *r, int n, const cpu_set_t *given)
{
    for (int a = 0; a < n; a++)
        if (!CPU_EQUAL(&r[a].set, given))
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    CHECK_MSG(argc == 2 && (!strcmp(argv[1], "part") || !strcmp(argv[1], "none")),
              "usage: host_share part|none");
    int want_part = !strcmp(argv[1], "part");
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    struct report mine;
    memset(&mine, 0, sizeof mine);
    mine.node = me;
    MPI_Bcast(&mine.node, 1, MPI_INT, 0, node);
    CHECK_MSG(sched_getaffinity(0, sizeof mine.set, &mine.set) == 0, "sched_getaffinity failed");
    struct report *all = malloc(sizeof *all * (size_t)n);
    CHECK_MSG(all, "out of memory");
    MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0,
               MPI_COMM_WORLD);
    if (me == 0) {
        int online = (int)sysconf(_SC_NPROCESSORS_ONLN), nodes = 0;
        for (int a = 0; a < n; a++)
            nodes += all[a].node == a;
        CHECK_MSG(nodes > 1, "%d node process(es): run with loomrun -ppn on several", nodes);
        cpu_set_t given;
        given_cpus(&given);
        int ngiven = CPU_COUNT(&given), confined = ngiven < online;
        int is_part = parted(all, n, online), is_all = everywhere(all, n, &given);
        const char *got = is_part ? "part" : is_all ? "none" : "neither";
        if (!want_part)
            CHECK_MSG(is_all, "LOOM_BIND=none: a rank may not run on every CPU given (%s)", got);
        else if (confined || n > ngiven)
            CHECK_MSG(is_all, "%d ranks on %d of %d CPUs: placement is the system's, got %s", n,
                      ngiven, online, got);
        else if (!smt_active())
            CHECK_MSG(is_part, "%d ranks, %d node processes on %d cores: got %s", n, nodes,
                      online, got);
        else
            CHECK_MSG(is_part || is_all, "%d ranks on %d PUs with SMT: got %s", n, online, got);
        printf("host_share: %d ranks, %d node processes, %d CPUs: %s ok\n", n, nodes, online,
               got);
    }
    free(all);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return 0;
}
