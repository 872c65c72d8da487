/* coll/alg_hier_net.c — the tree of a communicator that spans node processes (issue 16,
 * node-aware collectives; docs/multinode.md): the network is its top level. The root's
 * children are the node processes holding members, ordered by their lowest rank; each is a
 * node of its members as leaves (one member: a leaf of its own). alg_hier.c then runs bcast,
 * reduce, allreduce and barrier through it as through the hardware tree: among each node
 * process's ranks in shared memory, and one message per node process across the network.
 *
 * Why the node processes are flat inside: every member must build the same tree alone, and a
 * member sees only its own node process's CPU sets. (Only a node process's own ranks take part
 * in its subtree, so a hardware subtree there would be safe for the schedules; it is not
 * built yet.) */
#include <stdlib.h>
#include "coll/alg_hier.h"
#include "core/error.h"

int loom__hier_tree_net_new(int n, const int *node, struct loom_htree **out)
{
    *out = NULL;
    struct loom_htree *t = loom__hier_tree_alloc(n);
    int *group = malloc((size_t)n * sizeof *group); /* [n] rank -> group; freed below */
    int *gfirst = malloc((size_t)(n + 1) * sizeof *gfirst); /* [ngroups + 1]; freed below */
    int *gnode = malloc((size_t)n * sizeof *gnode); /* [ngroups] node process of a group */
    if (!t || !group || !gfirst || !gnode) {
        loom__hier_tree_free(t);
        free(group);
        free(gfirst);
        free(gnode);
        return LOOM_ERR_NOMEM;
    }
    /* Groups in order of their lowest rank. A linear scan of the groups seen so far would be
     * O(n x node processes); node numbers are small integers, but not bounded by n (a
     * communicator may hold ranks of a few of many node processes), so look them up in the
     * groups made so far from the last one back: consecutive ranks share a node process in
     * the usual block layout, so this is O(n) there. */
    int ng = 0;
    for (int r = 0; r < n; r++) {
        int g = ng - 1;
        while (g >= 0 && gnode[g] != node[r])
            g--;
        if (g < 0) {
            g = ng++;
            gnode[g] = node[r];
            gfirst[g + 1] = 0;
        }
        group[r] = g;
        gfirst[g + 1]++;
    }
    gfirst[0] = 0;
    for (int g = 0; g < ng; g++)
        gfirst[g + 1] += gfirst[g];
    /* members by group, ascending within each (a counting sort; gnode reused as cursors) */
    for (int g = 0; g < ng; g++)
        gnode[g] = gfirst[g];
    for (int r = 0; r < n; r++)
        t->memb[gnode[group[r]]++] = r;
    for (int i = 0; i < n; i++)
        t->pos[t->memb[i]] = i;

    /* node 0: the root; then each group: a leaf when it holds one rank, else an internal
     * node whose children are its members' leaves */
    t->parent[0] = -1;
    t->first[0] = 0;
    t->size[0] = n;
    t->kidx[0] = 0;
    t->kfirst[0] = 0;
    t->nkids[0] = ng > 1 ? ng : n;
    t->nnodes = 1;
    int kids_used = t->nkids[0];
    int height = 1;
    for (int g = 0; g < (ng > 1 ? ng : 1); g++) {
        int k = gfirst[g + 1] - gfirst[g];
        int parent = 0;
        if (ng > 1) {
            int me = t->nnodes++;
            t->kids[g] = me;
            t->parent[me] = 0;
            t->first[me] = gfirst[g];
            t->size[me] = k;
            t->kidx[me] = g;
            t->nkids[me] = 0;
            t->kfirst[me] = 0;
            if (k == 1) {
                t->leaf[t->memb[gfirst[g]]] = me;
                continue;
            }
            if (t->memb[gfirst[g] + k - 1] - t->memb[gfirst[g]] != k - 1)
                t->contiguous = 0;
            t->kfirst[me] = kids_used;
            t->nkids[me] = k;
            kids_used += k;
            parent = me;
            height = 2;
        }
        for (int j = 0; j < k; j++) {
            int leaf = t->nnodes++;
            int r = t->memb[gfirst[g] + j];
            t->kids[t->kfirst[parent] + j] = leaf;
            t->parent[leaf] = parent;
            t->first[leaf] = gfirst[g] + j;
            t->size[leaf] = 1;
            t->kidx[leaf] = j;
            t->nkids[leaf] = 0;
            t->kfirst[leaf] = 0;
            t->leaf[r] = leaf;
        }
    }
    t->height = height;
    t->spans_numa = ng > 1; /* node processes: farther apart than any NUMA node */
    free(group);
    free(gfirst);
    free(gnode);
    *out = t;
    return 0;
}
