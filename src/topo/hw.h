/* topo/hw.h — what the files of src/topo/ share: the layouts of struct loom_cpuset and
 * struct loom_topo, which hold hwloc types. Included only by the .c files of src/topo/;
 * every other layer sees these types as opaque through topo.h. */
#ifndef LOOM_TOPO_HW_H
#define LOOM_TOPO_HW_H

#include <hwloc.h>

#include "topo/topo.h"

struct loom_cpuset {
    hwloc_bitmap_t bits;
};

/* Filled once by loom__topo_load and read-only afterwards, so queries need no lock. */
struct loom_topo {
    hwloc_topology_t hw;
    int this_system;             /* 1: loaded from the running machine, binding allowed */
    char *source;                /* "this machine", "synthetic: ...", "xml: ..." */
    int npus;
    int ncores;                  /* Core objects, or PUs when there are none */
    int nnuma;                   /* NUMA nodes, memory-only ones included; >= 1 */
    struct loom_cpuset machine;  /* every PU */
    struct loom_cpuset *cores;   /* [ncores], logical order */
    struct loom_cpuset *numas;   /* [nnuma], logical order */
    int *core_numa;              /* [ncores]: the NUMA node holding each core, -1 if none */
    struct loom_topo_node *tree; /* [ntree] the scheduling tree (tree.c), parents first */
    struct loom_cpuset *tree_sets; /* [ntree] their CPU sets */
    int ntree;
};

/* Build t->tree from the loaded topology (tree.c); -1 on ENOMEM. */
int loom__topo_build_tree(struct loom_topo *t);
void loom__topo_free_tree(struct loom_topo *t);

/* Write a printf-style one-line message into err (NULL or errlen 0: nothing). */
void loom__topo_seterr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* LOOM_TOPO_HW_H */
