/* unit_tree.c — the shape of the hardware tree that LOOM_COLL_HIER runs collectives through
 * (coll/alg_hier_tree.c): on the paper's Fig. 1 node with one rank per core, each rank's
 * parent in the tree of leaders for several roots, the nodes' sizes, height, contiguity and
 * the NUMA rule of `auto`; then Fig. 2's non-uniform binding, a scattered binding (groups of
 * non-consecutive ranks), no binding (flat) and a single-NUMA machine (auto says no). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "coll/alg_hier.h"
#include "topo/topo.h"

#define FIG1 "package:2 numa:1 l3:1 l2:2 core:2 pu:1"

static struct loom_htree *tree(const char *spec, const char *policy, int n,
                               struct loom_topo **tp)
{
    char err[256];
    if (loom__topo_load(spec, tp, err, sizeof err) != 0) {
        fprintf(stderr, "load %s: %s\n", spec, err);
        _exit(99);
    }
    struct loom_cpuset *sets[64];
    CHECK(n <= 64);
    if (loom__topo_place(*tp, policy, n, sets, err, sizeof err) != 0) {
        fprintf(stderr, "place %s: %s\n", policy, err);
        _exit(99);
    }
    struct loom_htree *t = NULL;
    CHECK_INT(loom__hier_tree_new(*tp, n, (const struct loom_cpuset *const *)sets, &t), 0);
    for (int r = 0; r < n; r++)
        loom__cpuset_free(sets[r]);
    return t;
}

/* parent of every rank for root, against want[] */
static void parents(const struct loom_htree *t, int root, const int *want, const char *what)
{
    for (int r = 0; r < t->n; r++) {
        int got = loom__hier_tree_parent_rank(t, r, root);
        if (got != want[r]) {
            fprintf(stderr, "%s, root %d: parent of rank %d is %d, expected %d\n", what, root,
                    r, got, want[r]);
            _exit(99);
        }
    }
}

static void done(struct loom_htree *t, struct loom_topo *topo)
{
    loom__hier_tree_free(t);
    loom__topo_destroy(topo);
}

int main(void)
{
    struct loom_topo *topo;
    /* Fig. 1, 8 ranks one per core: Machine > 2 NUMANode > 2 L2Cache > 2 Core */
    struct loom_htree *t = tree(FIG1, "compact", 8, &topo);
    CHECK_INT(t->height, 3);
    CHECK_INT(t->nnodes, 15); /* 1 + 2 + 4 internal, 8 leaves */
    CHECK_INT(t->contiguous, 1);
    CHECK_INT(t->spans_numa, 1);
    CHECK_INT(t->nkids[0], 2);
    CHECK_INT(t->size[t->kids[t->kfirst[0]]], 4);
    CHECK_INT(t->size[t->kids[t->kfirst[0] + 1]], 4);
    {
        /* root 0: 0 leads everything; 2 leads {2,3}, 4 leads {4..7} and {4,5}, 6 leads {6,7} */
        const int w0[8] = {-1, 0, 0, 2, 0, 4, 4, 6};
        parents(t, 0, w0, "Fig. 1");
        /* root 5: 5 leads {4,5}, {4..7} and the whole; 0 leads {0..3} under 5 */
        const int w5[8] = {5, 0, 0, 2, 5, -1, 5, 6};
        parents(t, 5, w5, "Fig. 1");
        const int w3[8] = {3, 0, 3, -1, 3, 4, 4, 6};
        parents(t, 3, w3, "Fig. 1");
        /* the child of the root node holding rank 6, and of that one */
        int c = loom__hier_tree_child_of(t, 0, 6);
        CHECK(c > 0);
        CHECK_INT(t->memb[t->first[c]], 4);
        CHECK_INT(loom__hier_tree_leader(t, c, 6), 6);
        CHECK_INT(loom__hier_tree_leader(t, c, 1), 4);
        int cc = loom__hier_tree_child_of(t, c, 6);
        CHECK_INT(t->size[cc], 2);
        CHECK_INT(t->memb[t->first[cc]], 6);
    }
    done(t, topo);

    /* 5 ranks on Fig. 1 (compact: cores 0-4): {0..3} and {4} under the Machine */
    t = tree(FIG1, "compact", 5, &topo);
    CHECK_INT(t->height, 3);
    {
        const int w0[5] = {-1, 0, 0, 2, 0};
        parents(t, 0, w0, "Fig. 1, 5 ranks");
        const int w4[5] = {4, 0, 0, 2, -1};
        parents(t, 4, w4, "Fig. 1, 5 ranks");
    }
    done(t, topo);

    /* Fig. 2: 0 and 1 on cores 0 and 1, 2 and 3 on L2 #1, 4..7 on NUMA node #1: {0,1} and
     * {2,3} (spanning ranks alone) under {0..3}; {4..7} is flat */
    t = tree(FIG1, "user:0,1,2-3,2-3,4-7,4-7,4-7,4-7", 8, &topo);
    CHECK_INT(t->height, 3);
    {
        const int w0[8] = {-1, 0, 0, 2, 0, 4, 4, 4};
        parents(t, 0, w0, "Fig. 2");
    }
    done(t, topo);

    /* scatter: ranks alternate between the NUMA nodes, so groups are not consecutive */
    t = tree(FIG1, "scatter", 8, &topo);
    CHECK_INT(t->contiguous, 0);
    CHECK_INT(t->height, 3);
    CHECK_INT(t->memb[t->first[t->kids[t->kfirst[0]]]], 0);
    CHECK_INT(t->memb[t->first[t->kids[t->kfirst[0]]] + 1], 2);
    done(t, topo);

    /* unbound ranks: every one spans the Machine's children: one flat level */
    t = tree(FIG1, "none", 4, &topo);
    CHECK_INT(t->height, 1);
    {
        const int w2[4] = {2, 2, -1, 2};
        parents(t, 2, w2, "none");
    }
    done(t, topo);

    /* one package, one NUMA node: a hierarchy of caches, which auto leaves alone */
    t = tree("package:1 l3:2 core:2 pu:1", "compact", 4, &topo);
    CHECK_INT(t->height, 2);
    CHECK_INT(t->spans_numa, 0);
    done(t, topo);

    /* two packages (no NUMA level): auto goes through it */
    t = tree("package:2 l3:2 core:2 pu:1", "compact", 8, &topo);
    CHECK_INT(t->height, 3);
    CHECK_INT(t->spans_numa, 1);
    done(t, topo);

    /* one rank */
    t = tree(FIG1, "compact", 1, &topo);
    CHECK_INT(t->height, 0);
    CHECK_INT(loom__hier_tree_parent_rank(t, 0, 0), -1);
    done(t, topo);
    printf("ok\n");
    return 0;
}
