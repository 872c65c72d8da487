/* coll/alg_hier_tree.c — the hardware tree of a communicator (alg_hier.h): built from the
 * members' CPU sets and the topology's levels (topo/hier.c), cached per thread and
 * communicator, and the LOOM_COLL_HIER decision (docs/hierarchy.md, "Using the hierarchy").
 *
 * Why every rank builds the whole tree: the inputs are read-only and visible to all (as for
 * comm/split_hw.c's colours), so the members agree without exchanging anything, and a
 * collective can be built by each rank alone, as every schedule builder must (coll.h).
 *
 * Why a cache: building costs an hwloc walk (O(objects)) plus O(members) per level; a
 * collective costs microseconds. The cache is per thread (no lock, nothing shared): a few
 * entries keyed by the communicator's context id (unique in the job, never reused) and the
 * topology; a thread's entries are freed when it exits (pthread key destructor). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "coll/alg_hier.h"
#include "comm/comm.h"
#include "core/config.h"
#include "core/error.h"
#include "core/rank.h"
#include "topo/topo.h"

enum { HIER_AUTO = 0, HIER_ON = 1, HIER_OFF = 2 }; /* LOOM_COLL_HIER's words, in order */

/* ---- building ---------------------------------------------------------------------------- */

struct bld {
    struct loom_htree *t;
    struct loom_hier *h;
    const struct loom_cpuset *const *sets;
    const struct loom_cpuset *machine;
    int *key, *gid, *tmp; /* [n] scratch of one split (not kept across the recursion) */
    int nkids_used;
};

static const struct loom_cpuset *set_of(const struct bld *b, int r)
{
    return b->sets && b->sets[r] ? b->sets[r] : b->machine;
}

/* Node for memb[first .. first + k) under parent (its child number kidx) and everything below
 * it; its height (0 for a leaf), or -1 on ENOMEM. */
static int build(struct bld *b, int parent, int kidx, int first, int k)
{
    struct loom_htree *t = b->t;
    int me = t->nnodes++;
    t->parent[me] = parent;
    t->first[me] = first;
    t->size[me] = k;
    t->kidx[me] = kidx;
    t->nkids[me] = 0;
    t->kfirst[me] = 0;
    int *m = t->memb + first;
    if (k == 1) {
        t->leaf[m[0]] = me;
        return 0;
    }
    if (m[k - 1] - m[0] != k - 1)
        t->contiguous = 0;
    /* the deepest level holding every member, and the child of it that holds each one */
    struct loom_cpuset *all = loom__cpuset_new();
    if (!all)
        return -1;
    for (int i = 0; i < k; i++)
        loom__cpuset_or(all, set_of(b, m[i]));
    int top = loom__topo_hier_find(b->h, all);
    loom__cpuset_free(all);
    int maxkey = -1;
    for (int i = 0; i < k; i++) {
        int c = top >= 0 ? loom__topo_hier_child(b->h, top, set_of(b, m[i])) : -1;
        b->key[i] = c >= 0 ? c : -(i + 1); /* spanning: a child of its own */
        if (c > maxkey)
            maxkey = c;
    }
    /* Groups in order of their lowest member (members are ascending), through a table of
     * child numbers: linear in the members, where comparing every pair made a job of
     * thousands of ranks on a few cores (every rank builds the tree) take seconds to start. */
    int *group_of = malloc((size_t)(maxkey + 1) * sizeof *group_of); /* freed below */
    if (!group_of)
        return -1;
    for (int c = 0; c <= maxkey; c++)
        group_of[c] = -1;
    int ng = 0;
    for (int i = 0; i < k; i++) {
        int c = b->key[i];
        if (c < 0)
            b->gid[i] = ng++;
        else
            b->gid[i] = group_of[c] >= 0 ? group_of[c] : (group_of[c] = ng++);
    }
    free(group_of);
    if (ng == 1) { /* cannot happen for a level that holds them all; never loop on it */
        for (int i = 0; i < k; i++)
            b->gid[i] = i;
        ng = k;
    }
    int *start = malloc((size_t)(ng + 1) * sizeof *start); /* freed below */
    if (!start)
        return -1;
    /* members by group, in member order within each: a counting sort */
    for (int g = 0; g <= ng; g++)
        start[g] = 0;
    for (int i = 0; i < k; i++)
        start[b->gid[i] + 1]++;
    for (int g = 0; g < ng; g++)
        start[g + 1] += start[g];
    for (int i = 0; i < k; i++)
        b->tmp[start[b->gid[i]]++] = m[i];
    for (int g = ng; g > 0; g--) /* each start was moved to its group's end: shift back */
        start[g] = start[g - 1];
    start[0] = 0;
    memcpy(m, b->tmp, (size_t)k * sizeof *m);
    t->kfirst[me] = b->nkids_used;
    t->nkids[me] = ng;
    b->nkids_used += ng;
    int height = 0;
    for (int g = 0; g < ng; g++) {
        t->kids[t->kfirst[me] + g] = t->nnodes;
        int hg = build(b, me, g, first + start[g], start[g + 1] - start[g]);
        if (hg < 0) {
            free(start);
            return -1;
        }
        if (hg > height)
            height = hg;
    }
    free(start);
    return height + 1;
}

/* 1 if the union of the sets spans more than one NUMA node or more than one package. */
static int spans_numa(const struct loom_topo *topo, const struct bld *b, int n)
{
    struct loom_cpuset *all = loom__cpuset_new(), *pu = loom__cpuset_new();
    int spans = 0;
    if (all && pu) {
        for (int r = 0; r < n; r++)
            loom__cpuset_or(all, set_of(b, r));
        if (loom__topo_nnuma(topo) > 1 && loom__topo_numa_of(topo, all) < 0)
            spans = 1;
        /* packages: only where the machine has them (a synthetic "core:4" has none) */
        if (loom__cpuset_only(pu, loom__cpuset_first(b->machine)) == 0 &&
            loom__topo_resource_of(topo, "Package", pu) >= 0 &&
            loom__topo_resource_of(topo, "Package", all) < 0)
            spans = 1;
    }
    loom__cpuset_free(all);
    loom__cpuset_free(pu);
    return spans;
}

void loom__hier_tree_free(struct loom_htree *t)
{
    if (!t)
        return;
    free(t->parent);
    free(t->first);
    free(t->size);
    free(t->kfirst);
    free(t->nkids);
    free(t->kids);
    free(t->kidx);
    free(t->memb);
    free(t->pos);
    free(t->leaf);
    free(t);
}

struct loom_htree *loom__hier_tree_alloc(int n)
{
    struct loom_htree *t = calloc(1, sizeof *t); /* freed by loom__hier_tree_free */
    int cap = 2 * n; /* at most n leaves and n - 1 internal nodes */
    if (!t || n < 1) {
        free(t);
        return NULL;
    }
    t->n = n;
    t->contiguous = 1;
    t->parent = malloc((size_t)cap * sizeof(int));
    t->first = malloc((size_t)cap * sizeof(int));
    t->size = malloc((size_t)cap * sizeof(int));
    t->kfirst = malloc((size_t)cap * sizeof(int));
    t->nkids = malloc((size_t)cap * sizeof(int));
    t->kids = malloc((size_t)cap * sizeof(int));
    t->kidx = malloc((size_t)cap * sizeof(int));
    t->memb = malloc((size_t)n * sizeof(int));
    t->pos = malloc((size_t)n * sizeof(int));
    t->leaf = malloc((size_t)n * sizeof(int));
    if (!t->parent || !t->first || !t->size || !t->kfirst || !t->nkids || !t->kids ||
        !t->kidx || !t->memb || !t->pos || !t->leaf) {
        loom__hier_tree_free(t);
        return NULL;
    }
    for (int r = 0; r < n; r++)
        t->memb[r] = r;
    return t;
}

int loom__hier_tree_new(const struct loom_topo *topo, int n,
                        const struct loom_cpuset *const *sets, struct loom_htree **out)
{
    *out = NULL;
    struct loom_htree *t = loom__hier_tree_alloc(n);
    struct bld b = {.t = t, .sets = sets, .machine = loom__topo_machine_set(topo)};
    int rc = LOOM_ERR_NOMEM;
    if (!t)
        goto out;
    b.key = malloc((size_t)n * sizeof(int));
    b.gid = malloc((size_t)n * sizeof(int));
    b.tmp = malloc((size_t)n * sizeof(int));
    if (!b.key || !b.gid || !b.tmp || loom__topo_hier_new(topo, &b.h) != 0)
        goto out;
    int height = build(&b, -1, 0, 0, n);
    if (height < 0)
        goto out;
    t->height = height;
    for (int i = 0; i < n; i++)
        t->pos[t->memb[i]] = i;
    t->spans_numa = spans_numa(topo, &b, n);
    *out = t;
    t = NULL;
    rc = 0;
out:
    loom__topo_hier_free(b.h);
    free(b.key);
    free(b.gid);
    free(b.tmp);
    loom__hier_tree_free(t);
    return rc;
}

/* ---- queries ----------------------------------------------------------------------------- */

static int holds(const struct loom_htree *t, int node, int r)
{
    int p = t->pos[r];
    return p >= t->first[node] && p < t->first[node] + t->size[node];
}

int loom__hier_tree_child_of(const struct loom_htree *t, int node, int r)
{
    if (node < 0 || node >= t->nnodes || r < 0 || r >= t->n || !holds(t, node, r))
        return -1;
    for (int g = 0; g < t->nkids[node]; g++) {
        int c = t->kids[t->kfirst[node] + g];
        if (holds(t, c, r))
            return c;
    }
    return -1;
}

int loom__hier_tree_leader(const struct loom_htree *t, int node, int root)
{
    return holds(t, node, root) ? root : t->memb[t->first[node]];
}

int loom__hier_tree_parent_rank(const struct loom_htree *t, int r, int root)
{
    int x = t->leaf[r];
    while (t->parent[x] >= 0 && loom__hier_tree_leader(t, x, root) == r)
        x = t->parent[x];
    /* x: the lowest node of r's path that r does not lead (r takes part in it, under its
     * leader), or the root node when r leads everything (r is the root) */
    int lead = loom__hier_tree_leader(t, x, root);
    return lead == r ? -1 : lead;
}

/* ---- the per-thread cache and the decision ----------------------------------------------- */

#define CACHE_SLOTS 8

struct cache {
    struct {
        uint64_t ctx;
        const struct loom_topo *topo;
        struct loom_htree *tree; /* NULL: no tree (flat, or the build failed) */
        int used;
    } e[CACHE_SLOTS];
    int next; /* the slot to replace next (round robin) */
};

static pthread_key_t cache_key;
static int cache_ok;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void cache_free(void *p)
{
    struct cache *c = p;
    for (int i = 0; i < CACHE_SLOTS; i++)
        loom__hier_tree_free(c->e[i].tree);
    free(c);
}

static void cache_init(void)
{
    cache_ok = pthread_key_create(&cache_key, cache_free) == 0;
}

/* This thread's cache, or NULL (no key, ENOMEM). */
static struct cache *my_cache(void)
{
    pthread_once(&cache_once, cache_init);
    if (!cache_ok)
        return NULL;
    struct cache *c = pthread_getspecific(cache_key);
    if (c)
        return c;
    c = calloc(1, sizeof *c); /* freed by cache_free when the thread exits */
    if (c && pthread_setspecific(cache_key, c) != 0) {
        free(c);
        c = NULL;
    }
    return c;
}

/* The hardware tree of c, whose members all run in this node process; NULL on ENOMEM. */
static struct loom_htree *hw_tree(struct loom_comm *c, const struct loom_topo *topo)
{
    int n = c->sh->size;
    const struct loom_cpuset **sets = malloc((size_t)n * sizeof *sets); /* freed below */
    struct loom_htree *t = NULL;
    if (!sets)
        return NULL;
    for (int r = 0; r < n; r++)
        sets[r] = loom__job.ranks[c->sh->world_of[r]].cpuset; /* read-only while ranks run */
    if (loom__hier_tree_new(topo, n, sets, &t) != 0)
        t = NULL;
    free(sets);
    return t;
}

/* The network tree of c, which spans node processes; NULL on ENOMEM. */
static struct loom_htree *net_tree(struct loom_comm *c)
{
    int n = c->sh->size;
    int *node = malloc((size_t)n * sizeof *node); /* freed below */
    struct loom_htree *t = NULL;
    if (!node)
        return NULL;
    for (int r = 0; r < n; r++)
        node[r] = loom__node_of(c->sh->world_of[r]);
    if (loom__hier_tree_net_new(n, node, &t) != 0)
        t = NULL;
    free(node);
    return t;
}

/* The tree of c (NULL when it cannot be built), through the cache. */
static struct loom_htree *tree_of(struct loom_comm *c)
{
    struct cache *cc = my_cache();
    if (!cc)
        return NULL;
    const struct loom_topo *topo = loom__job.topo;
    uint64_t ctx = c->sh->context_id;
    for (int i = 0; i < CACHE_SLOTS; i++)
        if (cc->e[i].used && cc->e[i].ctx == ctx && cc->e[i].topo == topo)
            return cc->e[i].tree;
    struct loom_htree *t = c->sh->spans_nodes ? net_tree(c) : hw_tree(c, topo);
    int slot = cc->next;
    cc->next = (slot + 1) % CACHE_SLOTS;
    loom__hier_tree_free(cc->e[slot].tree);
    cc->e[slot].ctx = ctx;
    cc->e[slot].topo = topo;
    cc->e[slot].tree = t;
    cc->e[slot].used = 1;
    return t;
}

const struct loom_htree *loom__hier_tree_for(struct loom_comm *c)
{
    long long mode = loom__config_int(LOOM_CFG_COLL_HIER);
    if (mode == HIER_OFF || c->sh->size < 3) /* 2 ranks: one level, nothing to go through */
        return NULL;
    /* across node processes the network is the level that matters, on any machine: the
     * tree has two levels as soon as one node process holds two members */
    if (c->sh->spans_nodes) {
        const struct loom_htree *t = tree_of(c);
        return t && t->height >= 2 ? t : NULL;
    }
    /* auto: only across real NUMA nodes or packages. On a synthetic or XML machine ranks are
     * placed but not bound, so its levels are no locality boundary: there the hierarchy only
     * adds rounds (bench/results/hier.md, 8 ranks on 2 cores: 0.2-0.9x the flat time). Checked
     * before the tree is built, so such jobs never build one. */
    if (mode == HIER_AUTO && !loom__topo_is_this_system(loom__job.topo))
        return NULL;
    const struct loom_htree *t = tree_of(c);
    if (!t || t->height < 2)
        return NULL;
    if (mode == HIER_AUTO && !t->spans_numa)
        return NULL;
    return t;
}
