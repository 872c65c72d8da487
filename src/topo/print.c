/* topo/print.c — loom-info's views of a topology: the object tree and a placement table.
 * The format is loom's own (one object per line, "Type L#i  cpus <list>") so that it reads
 * the same for this machine, synthetic and XML topologies, and tests can match it. */
#include <stdlib.h>

#include "topo/hw.h"

/* Room for a set written as a list; longer lists are cut (the length is still right). */
#define SETTEXT 512

static void line(FILE *f, hwloc_obj_t o, int depth)
{
    char text[SETTEXT];
    struct loom_cpuset s = {o->cpuset};
    if (o->cpuset)
        loom__cpuset_format(&s, text, sizeof(text));
    else
        text[0] = '\0';
    fprintf(f, "%*s%s L#%u  cpus %s\n", 2 * depth, "", hwloc_obj_type_string(o->type),
            o->logical_index, text);
}

static void walk(FILE *f, hwloc_obj_t o, int depth)
{
    line(f, o, depth);
    for (hwloc_obj_t m = o->memory_first_child; m; m = m->next_sibling)
        walk(f, m, depth + 1);
    for (hwloc_obj_t c = o->first_child; c; c = c->next_sibling)
        walk(f, c, depth + 1);
}

void loom__topo_print_tree(const struct loom_topo *t, FILE *f)
{
    fprintf(f, "topology: %s (%d NUMA nodes, %d cores, %d PUs)\n", t->source, t->nnuma,
            t->ncores, t->npus);
    walk(f, hwloc_get_root_obj(t->hw), 0);
}

int loom__topo_print_placement(const struct loom_topo *t, const char *policy, int nranks,
                               FILE *f, char *err, size_t errlen)
{
    struct loom_cpuset **sets = calloc(nranks > 0 ? (size_t)nranks : 1, sizeof(*sets));
    if (!sets) {
        loom__topo_seterr(err, errlen, "cannot place %d ranks: out of memory", nranks);
        return -1;
    }
    if (loom__topo_place(t, policy, nranks, sets, err, errlen) < 0) {
        free(sets);
        return -1;
    }
    fprintf(f, "%-6s %-20s %-6s %s\n", "rank", "cpuset", "core", "numa");
    for (int r = 0; r < nranks; r++) {
        char text[SETTEXT], c[16] = "-", n[16] = "-";
        loom__cpuset_format(sets[r], text, sizeof(text));
        int core = loom__topo_core_of(t, sets[r]), numa = loom__topo_numa_of(t, sets[r]);
        if (core >= 0)
            snprintf(c, sizeof(c), "%d", core);
        if (numa >= 0)
            snprintf(n, sizeof(n), "%d", numa);
        fprintf(f, "%-6d %-20s %-6s %s\n", r, text, c, n);
        loom__cpuset_free(sets[r]);
    }
    free(sets);
    return 0;
}
