/* topo/hier.c — the hardware hierarchy that hierarchical communicators split along (issue 6;
 * the 2018 paper's Algorithms 1 and 2, MPI-4's MPI_COMM_TYPE_HW_UNGUIDED / HW_GUIDED).
 *
 * Why not loom__topo_tree: the scheduling tree stops at cores and names a level after its
 * highest hwloc object (Package before NUMANode); the communicator hierarchy goes down to PUs
 * and names levels the way the paper's worked examples do. So it is built here, from hwloc's
 * own tree, as "levels": distinct CPU sets nested by inclusion.
 *
 *  - Every normal object (Machine, Package, Die, Group, caches, Core, PU) with a non-empty set
 *    is a level. Objects whose set equals their parent's fold into one level.
 *  - NUMA nodes (memory children in hwloc 2, outside the main tree) are placed where their CPU
 *    set sits: a node whose set equals a level folds into that level; a node covering only
 *    some children of the object it hangs on becomes a level between that object and those
 *    children. A node whose set cuts across a child (neither holds the other), and CPU-less
 *    nodes, are left out.
 *  - A level's name is the name of the object of its fold that ranks first in: Machine,
 *    NUMANode, then the others from the top of hwloc's tree down. On the paper's Fig. 1
 *    (package:2 numa:1 l3:1 l2:2 core:2 pu:1) the level under the Machine is "NUMANode", as
 *    Section 5 prints it, then "L2Cache", then "Core" (Core and its single PU fold).
 *
 * A struct loom_hier is a snapshot built on demand (O(objects)); it borrows the topology's
 * CPU sets, so it must be freed before the topology. Read-only once built: any thread may
 * query it; one owner frees it. Guided queries (loom__topo_resource_*) read the topology
 * directly. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "topo/hw.h"

struct level {
    hwloc_const_cpuset_t set; /* borrowed from an hwloc object of t */
    const char *name;
    int prio;                 /* rank of `name` (see prio()); lower wins a fold */
    int parent;               /* -1 for the root */
    int first_child, last_child, next_sibling; /* -1 when none */
    int nchildren;
    int pos;                  /* position among the parent's children (0-based) */
};

struct loom_hier {
    int n, cap;
    struct level *lv;         /* [n]; index 0 is the root (the Machine) */
};

/* Accepted hardware resource types, in the spelling loom reports. */
static const struct {
    const char *name;
    hwloc_obj_type_t type;
} kinds[] = {
    {"Machine", HWLOC_OBJ_MACHINE},   {"Package", HWLOC_OBJ_PACKAGE},
#if HWLOC_API_VERSION >= 0x00020100
    {"Die", HWLOC_OBJ_DIE},
#endif
    {"NUMANode", HWLOC_OBJ_NUMANODE}, {"Group", HWLOC_OBJ_GROUP},
    {"L5Cache", HWLOC_OBJ_L5CACHE},   {"L4Cache", HWLOC_OBJ_L4CACHE},
    {"L3Cache", HWLOC_OBJ_L3CACHE},   {"L2Cache", HWLOC_OBJ_L2CACHE},
    {"L1Cache", HWLOC_OBJ_L1CACHE},   {"Core", HWLOC_OBJ_CORE},
    {"PU", HWLOC_OBJ_PU},
};

static const char *type_name(hwloc_obj_type_t type)
{
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (kinds[k].type == type)
            return kinds[k].name;
    return hwloc_obj_type_string(type);
}

/* Which name a folded level keeps: Machine, then NUMANode, then the highest object. */
static int prio(hwloc_obj_type_t type)
{
    return type == HWLOC_OBJ_MACHINE ? 0 : type == HWLOC_OBJ_NUMANODE ? 1 : 2;
}

/* Append a level under parent; its index, or -1 on ENOMEM. */
static int add(struct loom_hier *h, int parent, hwloc_const_cpuset_t set, hwloc_obj_type_t type)
{
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 64;
        struct level *lv = realloc(h->lv, (size_t)cap * sizeof *lv);
        if (!lv)
            return -1;
        h->lv = lv;
        h->cap = cap;
    }
    int i = h->n++;
    h->lv[i] = (struct level){set, type_name(type), prio(type), parent, -1, -1, -1, 0, 0};
    if (parent >= 0) {
        struct level *p = &h->lv[parent];
        h->lv[i].pos = p->nchildren++;
        if (p->last_child >= 0)
            h->lv[p->last_child].next_sibling = i;
        else
            p->first_child = i;
        p->last_child = i;
    }
    return i;
}

/* Fold an object of `type` into level i (same set): keep the better name. */
static void fold(struct loom_hier *h, int i, hwloc_obj_type_t type)
{
    if (prio(type) < h->lv[i].prio) {
        h->lv[i].name = type_name(type);
        h->lv[i].prio = prio(type);
    }
}

/* The NUMA nodes among o's memory children (through memory-side caches), at most max. */
static int numa_children(hwloc_obj_t o, hwloc_obj_t *out, int n, int max)
{
    for (hwloc_obj_t m = o->memory_first_child; m; m = m->next_sibling) {
        if (m->type == HWLOC_OBJ_NUMANODE) {
            if (n < max)
                out[n++] = m;
        } else {
            n = numa_children(m, out, n, max);
        }
    }
    return n;
}

/* 1 if every normal child of o is inside set or outside it. */
static int laminar(hwloc_obj_t o, hwloc_const_cpuset_t set)
{
    for (unsigned c = 0; c < o->arity; c++) {
        hwloc_const_cpuset_t cs = o->children[c]->cpuset;
        if (cs && hwloc_bitmap_intersects(cs, set) && !hwloc_bitmap_isincluded(cs, set))
            return 0;
    }
    return 1;
}

#define MAX_NUMA_PER_OBJ 64

/* Add o (and what lies below it) under level `parent` (-1 for the root); inh[0..ninh-1] are
 * NUMA nodes handed down from ancestors with o's set (see below). 0 or -1 (ENOMEM). */
static int visit(struct loom_hier *h, hwloc_obj_t o, int parent, hwloc_obj_t *inh, int ninh)
{
    if (!o->cpuset || hwloc_bitmap_iszero(o->cpuset))
        return 0;
    int me = parent;
    if (parent >= 0 && hwloc_bitmap_isequal(o->cpuset, h->lv[parent].set))
        fold(h, parent, o->type);
    else if ((me = add(h, parent, o->cpuset, o->type)) < 0)
        return -1;

    /* NUMA nodes hanging on o: fold the ones equal to o's level; the smaller ones become
     * levels of their own, nested by inclusion (largest first), over o's children. */
    hwloc_obj_t numa[MAX_NUMA_PER_OBJ];
    int nn = ninh < MAX_NUMA_PER_OBJ ? ninh : MAX_NUMA_PER_OBJ;
    if (nn > 0)
        memcpy(numa, inh, (size_t)nn * sizeof *numa);
    nn = numa_children(o, numa, nn, MAX_NUMA_PER_OBJ);
    int sub[MAX_NUMA_PER_OBJ], ns = 0; /* levels made for NUMA nodes smaller than o */
    for (int k = 0; k < nn; k++)
        if (numa[k]->cpuset && hwloc_bitmap_isequal(numa[k]->cpuset, h->lv[me].set))
            fold(h, me, HWLOC_OBJ_NUMANODE);
    /* A child with o's own set folds into this level too: the smaller NUMA nodes are placed
     * over its children instead (a node on a Package may cover half of the Package's only
     * L3), so hand them down. */
    for (unsigned c = 0; c < o->arity; c++) {
        hwloc_obj_t ch = o->children[c];
        if (!ch->cpuset || !hwloc_bitmap_isequal(ch->cpuset, o->cpuset))
            continue;
        for (unsigned d = 0; d < o->arity; d++)
            if (d != c && visit(h, o->children[d], me, NULL, 0) < 0)
                return -1;
        return visit(h, ch, me, numa, nn);
    }
    /* The smaller NUMA nodes, largest first, each under the smallest level made so far that
     * holds it (o's level or a larger NUMA node). Equal sets share one level. */
    int done[MAX_NUMA_PER_OBJ] = {0};
    for (;;) {
        int best = -1, bestw = 0;
        for (int k = 0; k < nn; k++) {
            hwloc_const_cpuset_t s = numa[k]->cpuset;
            if (done[k] || !s || hwloc_bitmap_iszero(s) || hwloc_bitmap_isequal(s, h->lv[me].set) ||
                !hwloc_bitmap_isincluded(s, h->lv[me].set) || !laminar(o, s)) {
                done[k] = 1;
                continue;
            }
            int w = hwloc_bitmap_weight(s);
            if (best < 0 || w > bestw) {
                best = k;
                bestw = w;
            }
        }
        if (best < 0)
            break;
        done[best] = 1;
        hwloc_const_cpuset_t s = numa[best]->cpuset;
        int holder = me, same = -1;
        for (int j = 0; j < ns; j++) {
            if (hwloc_bitmap_isequal(s, h->lv[sub[j]].set))
                same = sub[j];
            else if (hwloc_bitmap_isincluded(s, h->lv[sub[j]].set))
                holder = sub[j]; /* later ones are smaller, so the last match is the smallest */
        }
        if (same >= 0)
            continue;
        int l = add(h, holder, s, HWLOC_OBJ_NUMANODE);
        if (l < 0)
            return -1;
        sub[ns++] = l;
    }

    for (unsigned c = 0; c < o->arity; c++) {
        hwloc_obj_t ch = o->children[c];
        int holder = me;
        if (ch->cpuset)
            for (int j = 0; j < ns; j++)
                if (hwloc_bitmap_isincluded(ch->cpuset, h->lv[sub[j]].set))
                    holder = sub[j];
        if (visit(h, ch, holder, NULL, 0) < 0)
            return -1;
    }
    return 0;
}

int loom__topo_hier_new(const struct loom_topo *t, struct loom_hier **out)
{
    *out = NULL;
    struct loom_hier *h = calloc(1, sizeof *h);
    if (!h)
        return -1;
    if (visit(h, hwloc_get_root_obj(t->hw), -1, NULL, 0) < 0 || h->n == 0) {
        loom__topo_hier_free(h);
        return -1;
    }
    *out = h;
    return 0;
}

void loom__topo_hier_free(struct loom_hier *h)
{
    if (!h)
        return;
    free(h->lv);
    free(h);
}

int loom__topo_hier_size(const struct loom_hier *h)
{
    return h->n;
}

int loom__topo_hier_find(const struct loom_hier *h, const struct loom_cpuset *s)
{
    if (!s || hwloc_bitmap_iszero(s->bits) || !hwloc_bitmap_isincluded(s->bits, h->lv[0].set))
        return -1;
    int i = 0;
    for (;;) {
        int next = -1;
        for (int c = h->lv[i].first_child; c >= 0 && next < 0; c = h->lv[c].next_sibling)
            if (hwloc_bitmap_isincluded(s->bits, h->lv[c].set))
                next = c;
        if (next < 0)
            return i;
        i = next;
    }
}

int loom__topo_hier_child(const struct loom_hier *h, int level, const struct loom_cpuset *s)
{
    if (level < 0 || level >= h->n || !s || hwloc_bitmap_iszero(s->bits))
        return -1;
    for (int c = h->lv[level].first_child; c >= 0; c = h->lv[c].next_sibling)
        if (hwloc_bitmap_isincluded(s->bits, h->lv[c].set))
            return c;
    return -1;
}

int loom__topo_hier_parent(const struct loom_hier *h, int level)
{
    return level >= 0 && level < h->n ? h->lv[level].parent : -1;
}

int loom__topo_hier_nchildren(const struct loom_hier *h, int level)
{
    return level >= 0 && level < h->n ? h->lv[level].nchildren : 0;
}

int loom__topo_hier_pos(const struct loom_hier *h, int level)
{
    return level >= 0 && level < h->n ? h->lv[level].pos : -1;
}

const char *loom__topo_hier_type(const struct loom_hier *h, int level)
{
    return level >= 0 && level < h->n ? h->lv[level].name : NULL;
}

int loom__topo_hier_format_set(const struct loom_hier *h, int level, char *buf, size_t len)
{
    if (level < 0 || level >= h->n)
        return -1;
    return hwloc_bitmap_list_snprintf(buf, len, h->lv[level].set);
}

static void print_level(const struct loom_hier *h, int i, int depth, FILE *f)
{
    char set[256];
    hwloc_bitmap_list_snprintf(set, sizeof set, h->lv[i].set);
    fprintf(f, "%*s%s #%d  cpus %s\n", 2 * depth, "", h->lv[i].name, h->lv[i].pos, set);
    for (int c = h->lv[i].first_child; c >= 0; c = h->lv[c].next_sibling)
        print_level(h, c, depth + 1, f);
}

void loom__topo_hier_print(const struct loom_hier *h, FILE *f)
{
    print_level(h, 0, 0, f);
}

/* ---- guided: one resource type ---------------------------------------------------------- */

const char *loom__topo_resource_name(const char *value)
{
    if (!value)
        return NULL;
    if (strncasecmp(value, LOOM_HW_URI_PREFIX, strlen(LOOM_HW_URI_PREFIX)) == 0)
        value += strlen(LOOM_HW_URI_PREFIX); /* MPI_Get_hw_resource_info's form */
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (strcasecmp(value, kinds[k].name) == 0)
            return kinds[k].name;
    return NULL;
}

int loom__topo_resource_of(const struct loom_topo *t, const char *type,
                           const struct loom_cpuset *s)
{
    const char *name = loom__topo_resource_name(type);
    if (!name || !s || hwloc_bitmap_iszero(s->bits) ||
        !hwloc_bitmap_isincluded(s->bits, t->machine.bits))
        return -1;
    hwloc_obj_type_t ty = HWLOC_OBJ_MACHINE;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (kinds[k].name == name)
            ty = kinds[k].type;
    if (ty == HWLOC_OBJ_NUMANODE)
        return loom__topo_numa_of(t, s);
    /* Objects of one type may sit at several depths (Groups): number them depth by depth,
     * top first, and take the smallest one holding s. */
    int depth = hwloc_topology_get_depth(t->hw), id = 0, best = -1, bestw = 0;
    for (int d = 0; d < depth; d++) {
        if (hwloc_get_depth_type(t->hw, d) != ty)
            continue;
        int m = hwloc_get_nbobjs_by_depth(t->hw, d);
        for (int i = 0; i < m; i++, id++) {
            hwloc_obj_t o = hwloc_get_obj_by_depth(t->hw, d, (unsigned)i);
            if (!o->cpuset || !hwloc_bitmap_isincluded(s->bits, o->cpuset))
                continue;
            int w = hwloc_bitmap_weight(o->cpuset);
            if (best < 0 || w < bestw) {
                best = id;
                bestw = w;
            }
        }
    }
    return best;
}

int loom__topo_resource_types(const struct loom_topo *t, const char **names, int max)
{
    int n = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0] && n < max; k++)
        if (hwloc_get_nbobjs_by_type(t->hw, kinds[k].type) != 0) /* -1: at several depths */
            names[n++] = kinds[k].name;
    return n;
}
