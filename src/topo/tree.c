/* topo/tree.c — the scheduling tree of topo.h: nested CPU sets the task engine hangs its
 * queues on. Built from hwloc's objects by CPU set alone, so NUMA nodes (memory children in
 * hwloc 2) take their place between the objects they cover; sets that are equal keep only the
 * highest object, as PIOMan's hierarchy has one queue per distinct scope. */
#include <stdlib.h>
#include "topo/hw.h"

/* The kinds of objects kept, highest first (their order breaks ties between equal sets). */
static const struct {
    hwloc_obj_type_t type;
    const char *name;
} kinds[] = {
    {HWLOC_OBJ_MACHINE, "Machine"}, {HWLOC_OBJ_PACKAGE, "Package"},
    {HWLOC_OBJ_NUMANODE, "NUMANode"}, {HWLOC_OBJ_GROUP, "Group"},
    {HWLOC_OBJ_L3CACHE, "L3Cache"}, {HWLOC_OBJ_L2CACHE, "L2Cache"},
    {HWLOC_OBJ_L1CACHE, "L1Cache"}, {HWLOC_OBJ_CORE, "Core"},
};

struct cand {
    hwloc_const_cpuset_t set;
    const char *name;
    int rank; /* index in kinds[] */
    int weight;
};

/* Larger sets first; among equal sets, the higher kind first. */
static int by_scope(const void *a, const void *b)
{
    const struct cand *x = a, *y = b;
    if (x->weight != y->weight)
        return y->weight - x->weight;
    return x->rank - y->rank;
}

int loom__topo_build_tree(struct loom_topo *t)
{
    int n = 0, cap = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        cap += hwloc_get_nbobjs_by_type(t->hw, kinds[k].type);
    struct cand *c = calloc((size_t)cap + 1, sizeof *c);
    if (!c)
        return -1;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        int m = hwloc_get_nbobjs_by_type(t->hw, kinds[k].type);
        for (int i = 0; i < m; i++) {
            hwloc_obj_t o = hwloc_get_obj_by_type(t->hw, kinds[k].type, (unsigned)i);
            if (!o->cpuset || hwloc_bitmap_iszero(o->cpuset))
                continue;
            c[n++] = (struct cand){o->cpuset, kinds[k].name, (int)k, hwloc_bitmap_weight(o->cpuset)};
        }
    }
    qsort(c, (size_t)n, sizeof *c, by_scope);
    t->tree = calloc((size_t)n, sizeof *t->tree);
    t->tree_sets = calloc((size_t)n, sizeof *t->tree_sets);
    if (!t->tree || !t->tree_sets) {
        free(c);
        return -1;
    }
    int kept = 0;
    for (int i = 0; i < n; i++) {
        /* parent: the smallest kept set containing this one (the last one, since kept sets
         * are in decreasing size); drop this one if it equals that set. */
        int parent = -1;
        for (int j = kept - 1; j >= 0; j--) {
            if (hwloc_bitmap_isincluded(c[i].set, t->tree_sets[j].bits)) {
                parent = j;
                break;
            }
        }
        if (parent >= 0 && hwloc_bitmap_isequal(c[i].set, t->tree_sets[parent].bits))
            continue;
        if (parent < 0 && kept > 0)
            continue; /* not inside the machine: cannot happen with a loaded topology */
        t->tree_sets[kept].bits = hwloc_bitmap_dup(c[i].set);
        if (!t->tree_sets[kept].bits) {
            free(c);
            return -1;
        }
        struct loom_topo_node *node = &t->tree[kept];
        node->type = c[i].name;
        node->set = &t->tree_sets[kept];
        node->parent = parent;
        node->depth = parent < 0 ? 0 : t->tree[parent].depth + 1;
        node->numa = loom__topo_numa_of(t, node->set);
        kept++;
    }
    t->ntree = kept;
    free(c);
    return 0;
}

void loom__topo_free_tree(struct loom_topo *t)
{
    for (int i = 0; t->tree_sets && i < t->ntree; i++)
        hwloc_bitmap_free(t->tree_sets[i].bits);
    free(t->tree_sets);
    free(t->tree);
    t->tree = NULL;
    t->tree_sets = NULL;
    t->ntree = 0;
}

int loom__topo_tree(const struct loom_topo *t, const struct loom_topo_node **nodes)
{
    *nodes = t->tree;
    return t->ntree;
}

int loom__topo_tree_find(const struct loom_topo *t, const struct loom_cpuset *s)
{
    int best = 0;
    if (!s || hwloc_bitmap_iszero(s->bits))
        return 0;
    /* Parents come first, so the last containing node is the deepest. */
    for (int i = 1; i < t->ntree; i++)
        if (t->tree[i].depth > t->tree[best].depth && hwloc_bitmap_isincluded(s->bits, t->tree_sets[i].bits))
            best = i;
    return best;
}
