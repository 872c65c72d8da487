/* unit_net_tree.c — the network tree (coll/alg_hier_net.c) that collectives on a communicator
 * spanning node processes run through: node processes under the root in order of their lowest
 * rank, their ranks as leaves; leaders and parents for several roots; contiguity when node
 * processes interleave; a node process of one rank as a leaf of its own; and every rank in
 * one node process (flat). Every node's members must be exactly the ranks given that node
 * process, which the check of every leaf's path below verifies rank by rank. */
#include <stdio.h>
#include <stdlib.h>
#include "check.h"
#include "coll/alg_hier.h"

static struct loom_htree *net(int n, const int *node)
{
    struct loom_htree *t = NULL;
    CHECK_INT(loom__hier_tree_net_new(n, node, &t), 0);
    CHECK(t != NULL);
    return t;
}

/* Every rank's leaf lies under the root's child of its node process, and the members of
 * each child are one node process's ranks, ascending. */
static void check_groups(const struct loom_htree *t, const int *node)
{
    for (int r = 0; r < t->n; r++) {
        CHECK_INT(t->memb[t->pos[r]], r);
        int x = t->leaf[r];
        CHECK_INT(t->size[x], 1);
        CHECK_INT(t->memb[t->first[x]], r);
        if (t->height == 2 && t->parent[x] != 0)
            x = t->parent[x];
        CHECK_INT(t->parent[x], 0);
        for (int i = 0; i < t->size[x]; i++) {
            int m = t->memb[t->first[x] + i];
            CHECK_INT(node[m], node[r]);
            if (i > 0)
                CHECK(m > t->memb[t->first[x] + i - 1]);
        }
    }
}

static void parents(const struct loom_htree *t, int root, const int *want)
{
    for (int r = 0; r < t->n; r++) {
        int got = loom__hier_tree_parent_rank(t, r, root);
        if (got != want[r]) {
            fprintf(stderr, "root %d: parent of rank %d is %d, expected %d\n", root, r, got,
                    want[r]);
            exit(99);
        }
    }
}

int main(void)
{
    /* 5 ranks as 2, 2, 1 (loomrun -n 5 -ppn 2) */
    int block[5] = {0, 0, 1, 1, 2};
    struct loom_htree *t = net(5, block);
    check_groups(t, block);
    CHECK_INT(t->height, 2);
    CHECK_INT(t->nkids[0], 3);
    CHECK_INT(t->contiguous, 1);
    CHECK_INT(t->nnodes, 1 + 2 + 5); /* root, two node processes of 2, five leaves */
    CHECK_INT(t->nkids[t->kids[t->kfirst[0] + 2]], 0); /* the lone rank 4: a leaf */
    int p0[5] = {-1, 0, 0, 2, 0};
    parents(t, 0, p0);
    int p3[5] = {3, 0, 3, -1, 3}; /* rank 3 leads its node process and the top */
    parents(t, 3, p3);
    int p4[5] = {4, 0, 4, 2, -1};
    parents(t, 4, p4);
    CHECK_INT(loom__hier_tree_leader(t, t->kids[t->kfirst[0] + 1], 3), 3);
    CHECK_INT(loom__hier_tree_leader(t, t->kids[t->kfirst[0] + 1], 0), 2);
    loom__hier_tree_free(t);

    /* interleaved node processes (a communicator whose ranks alternate): groups {0,2,4} and
     * {1,3}, not contiguous, so non-commutative reductions stay flat */
    int alt[5] = {7, 3, 7, 3, 7};
    t = net(5, alt);
    check_groups(t, alt);
    CHECK_INT(t->height, 2);
    CHECK_INT(t->nkids[0], 2);
    CHECK_INT(t->contiguous, 0);
    CHECK_INT(t->memb[t->first[t->kids[t->kfirst[0]]]], 0);
    CHECK_INT(t->memb[t->first[t->kids[t->kfirst[0] + 1]]], 1);
    int a1[5] = {1, -1, 0, 1, 0};
    parents(t, 1, a1);
    loom__hier_tree_free(t);

    /* one rank per node process: one level (alg_hier's callers then stay flat) */
    int each[4] = {0, 1, 2, 3};
    t = net(4, each);
    check_groups(t, each);
    CHECK_INT(t->height, 1);
    CHECK_INT(t->nnodes, 5);
    loom__hier_tree_free(t);

    /* every rank in one node process: flat as well */
    int one[3] = {5, 5, 5};
    t = net(3, one);
    check_groups(t, one);
    CHECK_INT(t->height, 1);
    CHECK_INT(t->nkids[0], 3);
    loom__hier_tree_free(t);

    /* a large job in the block layout, 3 node processes of 1000, 1000 and 48 ranks */
    int n = 2048;
    int *big = malloc((size_t)n * sizeof *big);
    CHECK(big != NULL);
    for (int r = 0; r < n; r++)
        big[r] = r / 1000;
    t = net(n, big);
    check_groups(t, big);
    CHECK_INT(t->height, 2);
    CHECK_INT(t->nkids[0], 3);
    CHECK_INT(t->contiguous, 1);
    CHECK_INT(loom__hier_tree_parent_rank(t, 1500, 0), 1000);
    CHECK_INT(loom__hier_tree_parent_rank(t, 1000, 0), 0);
    CHECK_INT(loom__hier_tree_parent_rank(t, 2047, 2047), -1);
    CHECK_INT(loom__hier_tree_parent_rank(t, 0, 2047), 2047);
    loom__hier_tree_free(t);
    free(big);
    puts("unit_net_tree: ok");
    return 0;
}
