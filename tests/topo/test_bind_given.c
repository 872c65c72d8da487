/* tests/topo/test_bind_given.c — the CPUs a process is given are the machine: bound by its
 * launcher (taskset, numactl, a resource manager) to one PU, it loads a topology of that PU
 * alone, and every placement policy puts every rank there. Before, loom read the whole
 * machine and bound rank 1 to a CPU outside the process's set. The PU chosen is the highest
 * one allowed, so that a placement that ignores the binding (which starts at PU 0) fails
 * whenever the machine has two PUs or more. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include "topo_check.h"

int main(void)
{
    cpu_set_t mask;
    CHECK_INT(sched_getaffinity(0, sizeof mask, &mask), 0);
    int pu = -1;
    for (int i = 0; i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &mask))
            pu = i;
    CHECK(pu >= 0);
    CPU_ZERO(&mask);
    CPU_SET(pu, &mask);
    CHECK_INT(sched_setaffinity(0, sizeof mask, &mask), 0);

    struct loom_topo *t;
    char err[512];
    CHECK_INT(loom__topo_load(NULL, &t, err, sizeof(err)), 0);
    struct loom_cpuset *given = loom__cpuset_new();
    CHECK_INT(loom__cpuset_only(given, pu), 0);
    CHECK_INT(loom__topo_ncores(t), 1);
    CHECK(loom__cpuset_equal(loom__topo_core_set(t, 0), given));

    const char *policies[] = {"spread", "compact", "scatter", "none"};
    for (size_t p = 0; p < sizeof policies / sizeof policies[0]; p++) {
        struct loom_cpuset *sets[4];
        CHECK_INT(loom__topo_place(t, policies[p], 4, sets, err, sizeof(err)), 0);
        for (int r = 0; r < 4; r++) {
            if (!loom__cpuset_equal(sets[r], given)) {
                fprintf(stderr, "%s: rank %d placed on PUs %s, outside the given PU %d\n",
                        policies[p], r, topo_text(sets[r]), pu);
                topo_failures++;
            }
            loom__cpuset_free(sets[r]);
        }
    }
    loom__cpuset_free(given);
    loom__topo_destroy(t);
    return topo_check_result();
}
