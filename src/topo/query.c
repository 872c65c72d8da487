/* topo/query.c — questions about a loaded topology: counts, the cached sets of the machine,
 * cores and NUMA nodes, where a set lies, and the deepest object shared by several sets (the
 * level that a hierarchical communicator would split at). Read-only, so callable from any
 * thread. */
#include <stdlib.h>

#include "topo/hw.h"

int loom__topo_is_this_system(const struct loom_topo *t)
{
    return t->this_system;
}

const char *loom__topo_source(const struct loom_topo *t)
{
    return t->source;
}

int loom__topo_ncores(const struct loom_topo *t)
{
    return t->ncores;
}

int loom__topo_npus(const struct loom_topo *t)
{
    return t->npus;
}

int loom__topo_nnuma(const struct loom_topo *t)
{
    return t->nnuma;
}

const struct loom_cpuset *loom__topo_machine_set(const struct loom_topo *t)
{
    return &t->machine;
}

const struct loom_cpuset *loom__topo_core_set(const struct loom_topo *t, int core)
{
    return core >= 0 && core < t->ncores ? &t->cores[core] : NULL;
}

const struct loom_cpuset *loom__topo_numa_set(const struct loom_topo *t, int numa)
{
    return numa >= 0 && numa < t->nnuma ? &t->numas[numa] : NULL;
}

/* The first of sets[0..n-1] that holds all of s, -1 if none or s is empty. */
static int holder(const struct loom_cpuset *sets, int n, const struct loom_cpuset *s)
{
    if (hwloc_bitmap_iszero(s->bits))
        return -1;
    for (int i = 0; i < n; i++)
        if (hwloc_bitmap_isincluded(s->bits, sets[i].bits))
            return i;
    return -1;
}

int loom__topo_core_of(const struct loom_topo *t, const struct loom_cpuset *s)
{
    return holder(t->cores, t->ncores, s);
}

/* NUMA nodes may nest (a node of high-bandwidth or CXL memory local to the whole machine
 * besides one per package), so the node of a set is the smallest one holding it. */
int loom__topo_numa_of(const struct loom_topo *t, const struct loom_cpuset *s)
{
    int best = -1, bestw = 0;
    if (hwloc_bitmap_iszero(s->bits))
        return -1;
    for (int k = 0; k < t->nnuma; k++) {
        int w = hwloc_bitmap_weight(t->numas[k].bits);
        if (hwloc_bitmap_isincluded(s->bits, t->numas[k].bits) && (best < 0 || w < bestw)) {
            best = k;
            bestw = w;
        }
    }
    return best;
}

const char *loom__topo_common_ancestor_type(const struct loom_topo *t,
                                            struct loom_cpuset *const *sets, int n)
{
    if (n <= 0)
        return NULL;
    hwloc_bitmap_t u = hwloc_bitmap_alloc();
    if (!u)
        return NULL;
    for (int i = 0; i < n; i++)
        hwloc_bitmap_or(u, u, sets[i]->bits);
    const char *name = NULL;
    hwloc_obj_t c = NULL;
    if (!hwloc_bitmap_iszero(u) && hwloc_bitmap_isincluded(u, t->machine.bits))
        c = hwloc_get_obj_covering_cpuset(t->hw, u);
    if (c) {
        name = hwloc_obj_type_string(c->type);
        /* A NUMA node hanging on c (possibly below a memory-side cache) that holds the union
         * is one step deeper than c; one hanging higher up is shallower than c. */
        hwloc_obj_t m = NULL;
        while ((m = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_NUMANODE, m)) != NULL) {
            hwloc_obj_t p = m->parent;
            while (p && hwloc_obj_type_is_memory(p->type))
                p = p->parent;
            if (p == c && m->cpuset && hwloc_bitmap_isincluded(u, m->cpuset)) {
                name = hwloc_obj_type_string(m->type);
                break;
            }
        }
    }
    hwloc_bitmap_free(u);
    return name;
}

struct loom_cpuset *loom__topo_free_cores(const struct loom_topo *t, int numa,
                                          struct loom_cpuset *const *sets, int nranks)
{
    struct loom_cpuset *f = loom__cpuset_new();
    if (!f || numa < 0 || numa >= t->nnuma)
        return f;
    for (int c = 0; c < t->ncores; c++) {
        if (t->core_numa[c] != numa)
            continue;
        int used = 0;
        for (int r = 0; r < nranks && !used; r++)
            used = sets[r] && hwloc_bitmap_intersects(sets[r]->bits, t->cores[c].bits);
        if (!used)
            hwloc_bitmap_or(f->bits, f->bits, t->cores[c].bits);
    }
    return f;
}
