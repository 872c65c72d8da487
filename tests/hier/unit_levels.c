/* unit_levels.c — the levels of topo/hier.c on the synthetic machines of the hierarchy tests:
 * names, counts and nesting as docs/hierarchy.md describes them (NUMA nodes placed where
 * their CPU set sits and named before the Package/Group/L3 they fold with). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "topo/topo.h"

#define CHECK_STR(got, want)                                                                   \
    do {                                                                                       \
        const char *g_ = (got), *w_ = (want);                                                  \
        if (!g_ || strcmp(g_, w_) != 0) {                                                      \
            fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #got, \
                    g_ ? g_ : "(null)", w_);                                                   \
            _exit(99);                                                                         \
        }                                                                                      \
    } while (0)

/* Walk from the root down the first child, checking the name and child count of each level. */
static void chain(const char *spec, int n, const char *const *names, const int *nchildren)
{
    struct loom_topo *t;
    char err[256];
    if (loom__topo_load(spec, &t, err, sizeof err) != 0) {
        fprintf(stderr, "load %s: %s\n", spec, err);
        _exit(99);
    }
    struct loom_hier *h;
    CHECK_INT(loom__topo_hier_new(t, &h), 0);
    if (getenv("HIER_PRINT"))
        loom__topo_hier_print(h, stdout);
    int lv = 0;
    for (int i = 0; i < n; i++) {
        CHECK_STR(loom__topo_hier_type(h, lv), names[i]);
        CHECK_INT(loom__topo_hier_nchildren(h, lv), nchildren[i]);
        if (nchildren[i] == 0)
            break;
        /* the first child: the level holding the machine's first PU */
        struct loom_cpuset *s = loom__cpuset_new();
        CHECK(s && loom__cpuset_only(s, 0) == 0);
        int c = loom__topo_hier_child(h, lv, s);
        CHECK(c > 0);
        CHECK_INT(loom__topo_hier_parent(h, c), lv);
        CHECK_INT(loom__topo_hier_pos(h, c), 0);
        loom__cpuset_free(s);
        lv = c;
    }
    CHECK_INT(loom__topo_hier_nchildren(h, lv), 0);
    loom__topo_hier_free(h);
    loom__topo_destroy(t);
}

/* find(): the deepest level holding a set, by name. */
static void find(const char *spec, const char *set, const char *want)
{
    struct loom_topo *t;
    char err[256];
    CHECK_INT(loom__topo_load(spec, &t, err, sizeof err), 0);
    struct loom_hier *h;
    CHECK_INT(loom__topo_hier_new(t, &h), 0);
    struct loom_cpuset *s = loom__cpuset_new();
    CHECK(s && loom__cpuset_parse(s, set) == 0);
    int lv = loom__topo_hier_find(h, s);
    if (want == NULL) {
        CHECK_INT(lv, -1);
    } else {
        CHECK(lv >= 0);
        CHECK_STR(loom__topo_hier_type(h, lv), want);
    }
    loom__cpuset_free(s);
    loom__topo_hier_free(h);
    loom__topo_destroy(t);
}

static void resource(const char *spec, const char *type, const char *set, int want)
{
    struct loom_topo *t;
    char err[256];
    CHECK_INT(loom__topo_load(spec, &t, err, sizeof err), 0);
    struct loom_cpuset *s = loom__cpuset_new();
    CHECK(s && loom__cpuset_parse(s, set) == 0);
    int got = loom__topo_resource_of(t, type, s);
    if (got != want) {
        fprintf(stderr, "%s: resource_of(%s, %s) is %d, expected %d\n", spec, type, set, got,
                want);
        _exit(99);
    }
    loom__cpuset_free(s);
    loom__topo_destroy(t);
}

int main(int argc, char **argv)
{
    const char *fig1 = "package:2 numa:1 l3:1 l2:2 core:2 pu:1";
    chain(fig1, 4, (const char *[]){"Machine", "NUMANode", "L2Cache", "Core"},
          (const int[]){2, 2, 2, 0});
    const char *knl = "package:1 numa:4 l2:8 core:2 pu:4";
    chain(knl, 5, (const char *[]){"Machine", "NUMANode", "L2Cache", "Core", "PU"},
          (const int[]){4, 8, 2, 4, 0});
    const char *two = "package:2 numa:1 l3:1 core:24 pu:2";
    chain(two, 4, (const char *[]){"Machine", "NUMANode", "Core", "PU"},
          (const int[]){2, 24, 2, 0});
    /* No NUMA level in the description: hwloc puts one node on the Machine. */
    chain("package:2 core:2 pu:2", 4, (const char *[]){"Machine", "Package", "Core", "PU"},
          (const int[]){2, 2, 2, 0});

    find(fig1, "0-1", "L2Cache");
    find(fig1, "0,2", "NUMANode");
    find(fig1, "0-7", "Machine");
    find(fig1, "3,4", "Machine");
    find(fig1, "5", "Core");
    find(fig1, "8", NULL); /* not in the machine */
    find(knl, "0-3", "Core");
    find(knl, "0-7", "L2Cache");
    find(knl, "0-8", "NUMANode");
    find(knl, "17", "PU");

    resource(fig1, "NUMANode", "4-7", 1);
    resource(fig1, "numanode", "4-5", 1);
    resource(fig1, "L3Cache", "4-5", 1);
    resource(fig1, "L3Cache", "3-4", -1);
    resource(fig1, "L2Cache", "2-3", 1);
    resource(fig1, "Core", "6", 6);
    resource(fig1, "PU", "6", 6);
    resource(fig1, "Machine", "0-7", 0);
    resource(fig1, "L1Cache", "0", -1); /* no L1 in the description */
    resource(fig1, "Socket", "0", -1);  /* not a type loom knows */
    resource(knl, "Group", "8-15", 0);
    resource(knl, "Group", "64-67", 1);
    resource(knl, "NUMANode", "255", 3);
    resource(two, "PU", "0-1", -1);
    /* An XML machine (numa_split.xml): Package + L3 holding two Groups with a NUMA node each,
     * plus a NUMA node on the Machine (hwloc gives it the Machine's set). The Machine-wide
     * node folds into the Machine level, each Group-level node names its level. */
    if (argc > 1) {
        const char *xml = argv[1];
        chain(xml, 3, (const char *[]){"Machine", "NUMANode", "Core"}, (const int[]){2, 2, 0});
        find(xml, "0-1", "NUMANode");
        find(xml, "1-2", "Machine");
        resource(xml, "NUMANode", "2-3", 1);
        resource(xml, "NUMANode", "1-2", 2); /* only the machine-wide node holds both */
        resource(xml, "L3Cache", "1-2", 0);
    }
    CHECK(loom__topo_resource_name("l2cache") != NULL);
    CHECK(loom__topo_resource_name("mpi_shared_memory") == NULL);
    printf("levels ok\n");
    return 0;
}
