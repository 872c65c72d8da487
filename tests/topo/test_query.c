/* tests/topo/test_query.c — where sets lie: core_of, numa_of, free_cores and
 * common_ancestor_type on the Fig. 1 node, KNL SNC-4 and the 2-socket 48-core node. */
#include "topo_check.h"

static struct loom_cpuset *set(const char *text)
{
    struct loom_cpuset *s = loom__cpuset_new();
    if (loom__cpuset_parse(s, text) < 0) {
        fprintf(stderr, "test bug: bad set %s\n", text);
        exit(1);
    }
    return s;
}

static void core_numa_of(const struct loom_topo *t, const char *text, int core, int numa)
{
    struct loom_cpuset *s = set(text);
    int c = loom__topo_core_of(t, s), n = loom__topo_numa_of(t, s);
    if (c != core || n != numa) {
        fprintf(stderr, "set %s: got core %d numa %d, expected core %d numa %d\n", text, c, n,
                core, numa);
        topo_failures++;
    }
    loom__cpuset_free(s);
}

/* the common ancestor type of a '/'-separated list of sets, e.g. "0/2-3" */
static void ancestor(const struct loom_topo *t, const char *list, const char *want)
{
    struct loom_cpuset *sets[16];
    int n = 0;
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", list);
    for (char *save = NULL, *p = strtok_r(buf, "/", &save); p; p = strtok_r(NULL, "/", &save))
        sets[n++] = set(p);
    const char *got = loom__topo_common_ancestor_type(t, sets, n);
    if (!got || strcmp(got, want) != 0) {
        fprintf(stderr, "common ancestor of %s: got %s, expected %s\n", list,
                got ? got : "(null)", want);
        topo_failures++;
    }
    for (int i = 0; i < n; i++)
        loom__cpuset_free(sets[i]);
}

static void free_cores(const struct loom_topo *t, const char *policy, int nranks, int numa,
                       const char *want)
{
    struct loom_cpuset *sets[128];
    char err[512];
    CHECK_INT(loom__topo_place(t, policy, nranks, sets, err, sizeof(err)), 0);
    struct loom_cpuset *f = loom__topo_free_cores(t, numa, sets, nranks);
    const char *got = topo_text(f);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "free cores of NUMA %d, %s %d ranks: got PUs \"%s\", expected \"%s\"\n",
                numa, policy, nranks, got, want);
        topo_failures++;
    }
    loom__cpuset_free(f);
    for (int i = 0; i < nranks; i++)
        loom__cpuset_free(sets[i]);
}

int main(void)
{
    /* Fig. 1: Package > (NUMANode, L3 > L2 > Core > PU), 1 PU per core */
    struct loom_topo *t = topo_must_load("package:2 numa:1 l3:1 l2:2 core:2 pu:1");
    core_numa_of(t, "3", 3, 0);
    core_numa_of(t, "4", 4, 1);
    core_numa_of(t, "2-3", -1, 0);
    core_numa_of(t, "3-4", -1, -1);
    core_numa_of(t, "0-7", -1, -1);
    struct loom_cpuset *empty = loom__cpuset_new();
    CHECK_INT(loom__topo_core_of(t, empty), -1);
    CHECK_INT(loom__topo_numa_of(t, empty), -1);

    ancestor(t, "0", "PU"); /* Core and PU have the same set; PU is deeper */
    ancestor(t, "0/1", "L2Cache");
    ancestor(t, "0/2", "L3Cache"); /* the NUMA node hangs on the Package, above the L3 */
    ancestor(t, "1/3", "L3Cache");
    ancestor(t, "3/4", "Machine");
    ancestor(t, "0/2-3/1", "L3Cache");
    ancestor(t, "5", "PU");
    CHECK(loom__topo_common_ancestor_type(t, NULL, 0) == NULL);
    CHECK(loom__topo_common_ancestor_type(t, &empty, 1) == NULL);
    struct loom_cpuset *outside = set("8");
    CHECK(loom__topo_common_ancestor_type(t, &outside, 1) == NULL);
    loom__cpuset_free(outside);

    /* spread 6 ranks: cores 3 and 7 are free; 4 ranks: 1,3 and 5,7 */
    free_cores(t, "spread", 6, 0, "3");
    free_cores(t, "spread", 6, 1, "7");
    free_cores(t, "spread", 4, 0, "1,3");
    free_cores(t, "spread", 4, 1, "5,7");
    free_cores(t, "spread", 8, 0, "");
    free_cores(t, "compact", 4, 1, "4-7");
    free_cores(t, "compact", 4, 0, "");
    free_cores(t, "none", 2, 0, "");
    free_cores(t, "spread", 2, 2, ""); /* no NUMA node 2 */
    struct loom_cpuset *f = loom__topo_free_cores(t, 0, NULL, 0);
    CHECK_STR(topo_text(f), "0-3");
    loom__cpuset_free(f);
    loom__cpuset_free(empty);
    loom__topo_destroy(t);

    /* KNL SNC-4: Package > Group0 (NUMANode, L2 > Core > 4 PUs) x4; core c = PUs 4c..4c+3 */
    t = topo_must_load("package:1 numa:4 l2:8 core:2 pu:4");
    core_numa_of(t, "68-71", 17, 1);
    core_numa_of(t, "69", 17, 1);
    core_numa_of(t, "64-71", -1, 1);
    core_numa_of(t, "60-67", -1, -1);
    ancestor(t, "0", "PU");
    ancestor(t, "0-3", "Core");
    ancestor(t, "0/3", "Core");
    ancestor(t, "0/4", "L2Cache");
    ancestor(t, "0/8", "NUMANode"); /* the NUMA node hangs on the Group, below it */
    ancestor(t, "0-63", "NUMANode");
    ancestor(t, "0/64", "Package");
    ancestor(t, "0-255", "Package"); /* Machine and Package alike: Package is deeper */
    /* spread 62: NUMA 2 keeps core 47 free, NUMA 3 core 63 */
    free_cores(t, "spread", 62, 2, "188-191");
    free_cores(t, "spread", 62, 3, "252-255");
    free_cores(t, "spread", 62, 0, "");
    /* spread 32: odd cores free, NUMA 1 = cores 17,19,...,31 */
    free_cores(t, "spread", 32, 1, "68-71,76-79,84-87,92-95,100-103,108-111,116-119,124-127");
    loom__topo_destroy(t);

    /* 2 sockets x 24 cores x 2 PUs: Package > (NUMANode, L3 > Core > 2 PUs) */
    t = topo_must_load("package:2 numa:1 l3:1 core:24 pu:2");
    core_numa_of(t, "94-95", 47, 1);
    core_numa_of(t, "46-49", -1, -1);
    core_numa_of(t, "0-47", -1, 0);
    ancestor(t, "0-1", "Core");
    ancestor(t, "0/2", "L3Cache");
    ancestor(t, "0/95", "Machine");
    free_cores(t, "spread", 47, 1, "94-95");
    free_cores(t, "spread", 47, 0, "");
    /* spread 10: ranks on 24,28,33,38,43 -> free the other 19 cores of NUMA 1 */
    free_cores(t, "spread", 10, 1, "50-55,58-65,68-75,78-85,88-95");
    loom__topo_destroy(t);

    /* nested NUMA nodes: one per package (cores 0-1, 2-3) and one for the whole machine
     * (like HBM or CXL memory); a core belongs to the smallest, so placement sees 2 domains */
    t = topo_must_load("[numa] package:2 [numa] core:2 pu:1");
    CHECK_INT(loom__topo_nnuma(t), 3);
    int wide = -1, small0 = -1;
    for (int k = 0; k < 3; k++) {
        if (strcmp(topo_text(loom__topo_numa_set(t, k)), "0-3") == 0)
            wide = k;
        if (strcmp(topo_text(loom__topo_numa_set(t, k)), "0-1") == 0)
            small0 = k;
    }
    CHECK(wide >= 0 && small0 >= 0);
    core_numa_of(t, "1", 1, small0);
    core_numa_of(t, "1-2", -1, wide);
    EXPECT_CORES(t, "spread", 2, "0,2");
    EXPECT_CORES(t, "scatter", 4, "0,2,1,3");
    free_cores(t, "spread", 2, wide, ""); /* the wide node owns no core */
    free_cores(t, "spread", 2, small0, "1");
    ancestor(t, "0-3", "NUMANode"); /* the wide node hangs on the Machine, just below it */
    ancestor(t, "0-1", "NUMANode"); /* the package's node, just below the Package */
    loom__topo_destroy(t);
    return topo_check_result();
}
