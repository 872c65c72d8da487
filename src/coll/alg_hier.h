/* coll/alg_hier.h — the hardware tree that LOOM_COLL_HIER runs collectives through (issue 6,
 * "Using the hierarchy"; docs/hierarchy.md), and the network tree of a communicator that
 * spans node processes (issue 16; docs/multinode.md); private to coll/.
 *
 * The tree of a communicator groups its ranks the way repeated MPI_COMM_TYPE_HW_UNGUIDED
 * splits do (topo/hier.c's levels, comm/split_hw.c's rule), computed by every member alone
 * from what every member can read (the members' CPU sets and the topology), so all members
 * build the same tree without talking:
 *  - a node is a set of ranks; the root node holds every rank of the communicator;
 *  - a node of one rank is a leaf; a larger node is split at the deepest hardware level
 *    holding all its members' CPU sets: members inside one child of that level form a child
 *    node, and a member whose set spans several children (or a level without children: ranks
 *    piled on one PU) is a child node of its own;
 *  - children are ordered by their lowest rank, and each node's members are listed in rank
 *    order, so a node's members are contiguous in `memb`.
 * A collective runs, at every internal node, the flat algorithm among the leaders of the
 * node's children (a child's leader: the collective's root when the child holds it, else its
 * lowest rank): the paper's "roots" communicators, one per node (its Algorithm 2).
 *
 * Life: built by loom__hier_tree_new, read-only after, freed by loom__hier_tree_free. The
 * per-communicator cache (loom__hier_tree_for) is per thread. */
#ifndef LOOM_COLL_ALG_HIER_H
#define LOOM_COLL_ALG_HIER_H
#include "coll/coll.h"

struct loom_topo;
struct loom_cpuset;
struct loom_comm;

struct loom_htree {
    int n;            /* ranks */
    int nnodes;       /* node 0 is the root */
    int *parent;      /* [nnodes] parent node, -1 for the root */
    int *first;       /* [nnodes] node i's members are memb[first[i] .. first[i] + size[i]) */
    int *size;        /* [nnodes] */
    int *kfirst;      /* [nnodes] node i's children are kids[kfirst[i] .. + nkids[i]) */
    int *nkids;       /* [nnodes] 0 for a leaf */
    int *kids;        /* [nnodes - 1] */
    int *kidx;        /* [nnodes] position among the parent's children (0 for the root) */
    int *memb;        /* [n] ranks, every node's contiguous and ascending */
    int *pos;         /* [n] where rank r sits in memb */
    int *leaf;        /* [n] the leaf node of rank r */
    int height;       /* internal levels: 1 = flat (the root's children are all leaves) */
    int contiguous;   /* every node holds consecutive ranks (rank order survives) */
    int spans_numa;   /* the ranks' sets span more than one NUMA node or package */
};

/* The tree of n ranks whose CPU sets are sets[0..n-1] (NULL: the whole machine) on t.
 * 0, or LOOM_ERR_NOMEM. */
int loom__hier_tree_new(const struct loom_topo *t, int n, const struct loom_cpuset *const *sets,
                        struct loom_htree **out);
/* The tree of n ranks of a communicator spanning node processes, node[r] being rank r's node
 * process (alg_hier_net.c): the node processes under the root, ordered by their lowest rank,
 * each holding its ranks as leaves. 0, or LOOM_ERR_NOMEM. */
int loom__hier_tree_net_new(int n, const int *node, struct loom_htree **out);
/* A tree of n ranks with its arrays allocated (room for 2n nodes), memb the identity,
 * contiguous set, nothing else; NULL on ENOMEM. For the two builders above. */
struct loom_htree *loom__hier_tree_alloc(int n);
void loom__hier_tree_free(struct loom_htree *t);
/* The node of t just below `node` on rank r's path (the child of node holding r), or -1 when
 * r is not in node or node is a leaf. */
int loom__hier_tree_child_of(const struct loom_htree *t, int node, int r);
/* The leader of node for a collective rooted at root: root when node holds it, else the
 * node's lowest rank. */
int loom__hier_tree_leader(const struct loom_htree *t, int node, int root);
/* r's parent in the tree of leaders of a collective rooted at root: the leader of the lowest
 * node that r does not lead (where r's data goes up to, and comes down from, with the
 * linear algorithm at every level); -1 for the root. The shape hier_tree_shape checks. */
int loom__hier_tree_parent_rank(const struct loom_htree *t, int r, int root);

/* The tree of communicator c when LOOM_COLL_HIER says collectives on c go through the
 * hierarchy (on: the tree has more than one level; auto: and c spans more than one NUMA node
 * or package, or node processes; off: never), else NULL. A communicator that spans node
 * processes gets the network tree (loom__hier_tree_net_new), any other the hardware one.
 * Borrowed from the calling thread's cache: valid until this thread's next call. */
const struct loom_htree *loom__hier_tree_for(struct loom_comm *c);
#endif
