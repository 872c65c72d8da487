/* tests/topo/test_place_fig1.c — every policy on the 8-core, 2-NUMA node of Fig. 1 of the
 * 2019 split-tree paper: NUMA 0 = cores 0-3, NUMA 1 = cores 4-7, one PU per core. Expected
 * cores are worked out by hand in the comments. */
#include "topo_check.h"

int main(void)
{
    struct loom_topo *t = topo_must_load("package:2 numa:1 l3:1 l2:2 core:2 pu:1");

    /* spread. Split n over 2 nodes (node 0 takes the odd one), then inside a node of N = 4
     * cores with m ranks the free positions are ceil((j+1)*4/(4-m)) - 1:
     *   m=1: free 1,2,3 -> rank at 0      m=2: free 1,3 -> ranks at 0,2
     *   m=3: free 3     -> ranks at 0,1,2 m=4: none free */
    EXPECT_CORES(t, "spread", 4, "0,2,4,6");     /* 2+2: Fig. 1, one free core between */
    EXPECT_CORES(t, "spread", 6, "0-2,4-6");     /* 3+3: cores 3 and 7 free */
    EXPECT_CORES(t, "spread", 1, "0");           /* 1+0 */
    EXPECT_CORES(t, "spread", 2, "0,4");         /* 1+1 */
    EXPECT_CORES(t, "spread", 3, "0,2,4");       /* 2+1 */
    EXPECT_CORES(t, "spread", 5, "0-2,4,6");     /* 3+2 */
    EXPECT_CORES(t, "spread", 7, "0-3,4-6");     /* 4+3 */
    EXPECT_CORES(t, "spread", 8, "0-7");         /* full */
    EXPECT_CORES(t, "spread", 10, "0-7,0-1");    /* oversubscribed: rank i as rank i mod 8 */
    EXPECT_CORES(t, NULL, 4, "0,2,4,6");         /* spread is the default */
    EXPECT_CORES(t, "", 6, "0-2,4-6");

    /* compact: rank i -> core i */
    EXPECT_CORES(t, "compact", 4, "0-3");
    EXPECT_CORES(t, "compact", 6, "0-5");
    EXPECT_CORES(t, "compact", 11, "0-7,0-2");

    /* scatter: rank i -> NUMA i mod 2, its next free core */
    EXPECT_CORES(t, "scatter", 3, "0,4,1");
    EXPECT_CORES(t, "scatter", 4, "0,4,1,5");
    EXPECT_CORES(t, "scatter", 6, "0,4,1,5,2,6");
    EXPECT_CORES(t, "scatter", 8, "0,4,1,5,2,6,3,7");
    EXPECT_CORES(t, "scatter", 10, "0,4,1,5,2,6,3,7,0,4");

    /* none: the whole machine for everyone */
    struct loom_cpuset *sets[12];
    char err[512];
    CHECK_INT(loom__topo_place(t, "none", 12, sets, err, sizeof(err)), 0);
    for (int i = 0; i < 12; i++) {
        CHECK_STR(topo_text(sets[i]), "0-7");
        loom__cpuset_free(sets[i]);
    }

    /* user: MPICH Hydra's form */
    CHECK_INT(loom__topo_place(t, "user:0,1,2+3,2+3,4-7,4-7,4-7,4-7", 8, sets, err,
                               sizeof(err)), 0);
    const char *want[8] = {"0", "1", "2-3", "2-3", "4-7", "4-7", "4-7", "4-7"};
    for (int i = 0; i < 8; i++) {
        CHECK_STR(topo_text(sets[i]), want[i]);
        loom__cpuset_free(sets[i]);
    }

    /* zero ranks is fine */
    CHECK_INT(loom__topo_place(t, "spread", 0, sets, err, sizeof(err)), 0);

    loom__topo_destroy(t);
    return topo_check_result();
}
