/* comm/split_hw_level.c — MPIX_Comm_get_min_hlevel's answer (the paper's Sections 3.3.2 and
 * 4.1.4): the type of the deepest hardware level holding the CPU sets of some members of a
 * communicator. Levels and their names are those of the unguided split (topo/hier.c), so for
 * two members the answer is the type of the level at which an unguided split separates them
 * (for uniform bindings, the type of the last hierarchical communicator they share); members
 * of several node processes meet at the network level. Local: reads only the members' CPU
 * sets, node processes and the topology. */
#include <stdio.h>
#include "comm/split_hw.h"
#include "core/error.h"
#include "core/rank.h"
#include "topo/topo.h"

int loom__comm_min_hlevel(struct loom_comm *c, int n, const int *ranks, char *type)
{
    int mine = 0;
    for (int i = 0; i < n && !mine; i++)
        mine = ranks[i] == c->rank;
    snprintf(type, MPI_MAX_INFO_VAL + 1, "Unknown");
    if (!mine)
        return 0;
    for (int i = 1; i < n; i++) /* ranks of several node processes meet at the network */
        if (loom__node_of(c->sh->world_of[ranks[i]]) != loom__node_of(c->sh->world_of[ranks[0]])) {
            snprintf(type, MPI_MAX_INFO_VAL + 1, "%s", LOOM_HW_NETWORK);
            return 0;
        }
    struct loom_hier *h = NULL;
    struct loom_cpuset *all = loom__cpuset_new();
    if (!all || loom__topo_hier_new(loom__job.topo, &h) != 0) {
        loom__cpuset_free(all);
        return LOOM_ERR_NOMEM;
    }
    for (int i = 0; i < n; i++) {
        const struct loom_cpuset *s = loom__job.ranks[c->sh->world_of[ranks[i]]].cpuset;
        loom__cpuset_or(all, s ? s : loom__topo_machine_set(loom__job.topo));
    }
    int lv = loom__topo_hier_find(h, all);
    if (lv >= 0)
        snprintf(type, MPI_MAX_INFO_VAL + 1, "%s", loom__topo_hier_type(h, lv));
    loom__topo_hier_free(h);
    loom__cpuset_free(all);
    return 0;
}
