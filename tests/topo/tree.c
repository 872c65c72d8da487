/* The scheduling tree: on the Fig. 1 node ("package:2 numa:1 l3:1 l2:2 core:2 pu:1") the NUMA
 * node and the L3 of each package have the package's set and are dropped, leaving
 * Machine -> 2 Packages -> 4 L2 -> 8 Cores (15 nodes); tree_find places sets at the deepest
 * node holding them. On "package:2 core:2 pu:2" cores keep both PUs and stay the leaves. */
#include <stdio.h>
#include <string.h>
#include "topo/topo.h"

static int failures;
#define EXPECT(cond)                                                                           \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);                \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)

static int count_type(const struct loom_topo_node *n, int len, const char *type)
{
    int c = 0;
    for (int i = 0; i < len; i++)
        c += strcmp(n[i].type, type) == 0;
    return c;
}

int main(void)
{
    char err[256];
    struct loom_topo *t;
    const struct loom_topo_node *n;
    if (loom__topo_load("package:2 numa:1 l3:1 l2:2 core:2 pu:1", &t, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    int len = loom__topo_tree(t, &n);
    EXPECT(len == 15);
    EXPECT(strcmp(n[0].type, "Machine") == 0 && n[0].parent == -1 && n[0].depth == 0);
    EXPECT(count_type(n, len, "Package") == 2);
    EXPECT(count_type(n, len, "NUMANode") == 0);
    EXPECT(count_type(n, len, "L3Cache") == 0);
    EXPECT(count_type(n, len, "L2Cache") == 4);
    EXPECT(count_type(n, len, "Core") == 8);
    for (int i = 1; i < len; i++) {
        EXPECT(n[i].parent >= 0 && n[i].parent < i);
        EXPECT(n[i].depth == n[n[i].parent].depth + 1);
        EXPECT(loom__cpuset_is_subset(n[i].set, n[n[i].parent].set));
        EXPECT(!loom__cpuset_equal(n[i].set, n[n[i].parent].set));
    }
    /* core 5 is in package 1, NUMA node 1; its node is a Core at depth 3 */
    int c5 = loom__topo_tree_find(t, loom__topo_core_set(t, 5));
    EXPECT(strcmp(n[c5].type, "Core") == 0 && n[c5].depth == 3 && n[c5].numa == 1);
    EXPECT(loom__cpuset_equal(n[c5].set, loom__topo_core_set(t, 5)));
    /* cores 4+5 share an L2; 4+6 share only the package; 0+7 only the machine */
    struct loom_cpuset *s = loom__cpuset_new();
    loom__cpuset_parse(s, "4-5");
    EXPECT(strcmp(n[loom__topo_tree_find(t, s)].type, "L2Cache") == 0);
    loom__cpuset_parse(s, "4+6");
    EXPECT(strcmp(n[loom__topo_tree_find(t, s)].type, "Package") == 0);
    loom__cpuset_parse(s, "0+7");
    EXPECT(loom__topo_tree_find(t, s) == 0);
    loom__cpuset_free(s);
    loom__topo_destroy(t);

    if (loom__topo_load("package:2 core:2 pu:2", &t, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    len = loom__topo_tree(t, &n);
    EXPECT(len == 7); /* Machine, 2 Packages, 4 Cores */
    EXPECT(count_type(n, len, "Core") == 4);
    int c3 = loom__topo_tree_find(t, loom__topo_core_set(t, 3));
    EXPECT(loom__cpuset_weight(n[c3].set) == 2);
    loom__topo_destroy(t);
    return failures ? 1 : 0;
}
