/* api/placement.c — loom_rank_placement / loom_rank_is_bound: where a rank runs. */
#include <string.h>
#include "api/api.h"
#include "topo/topo.h"

int loom_rank_placement(int *core, int *numa, char *cpuset, int cpuset_len, const char **policy)
{
    LOOM_API_ENTER("loom_rank_placement");
    const struct loom_cpuset *set = loom__self->cpuset;
    if (core)
        *core = loom__topo_core_of(loom__job.topo, set);
    if (numa)
        *numa = loom__topo_numa_of(loom__job.topo, set);
    if (cpuset && cpuset_len > 0)
        loom__cpuset_format(set, cpuset, (size_t)cpuset_len);
    if (policy)
        *policy = loom__job.bind_policy;
    return MPI_SUCCESS;
}

int loom_rank_is_bound(void)
{
    return loom__job.topo != NULL && loom__topo_is_this_system(loom__job.topo) &&
           loom__job.bind_policy != NULL && strcmp(loom__job.bind_policy, "none") != 0;
}
