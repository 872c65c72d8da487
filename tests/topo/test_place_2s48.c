/* tests/topo/test_place_2s48.c — placement on a 2-socket 48-core node with 2 PUs per core
 * ("package:2 numa:1 l3:1 core:24 pu:2": NUMA 0 = cores 0-23, NUMA 1 = cores 24-47).
 * Expected cores are worked out by hand below. */
#include "topo_check.h"

static void check_weights(const struct loom_topo *t, const char *policy, int n, int want)
{
    struct loom_cpuset *sets[128];
    char err[512];
    CHECK_INT(loom__topo_place(t, policy, n, sets, err, sizeof(err)), 0);
    for (int i = 0; i < n; i++) {
        CHECK_INT(loom__cpuset_weight(sets[i]), want);
        loom__cpuset_free(sets[i]);
    }
}

int main(void)
{
    struct loom_topo *t = topo_must_load("package:2 numa:1 l3:1 core:24 pu:2");
    CHECK_INT(loom__topo_ncores(t), 48);
    CHECK_INT(loom__topo_nnuma(t), 2);

    /* spread, N = 24 per node.
     * 48: full. 47: split 24,23; node 1 frees position 23 -> ranks 24-46 on cores 24-46.
     * 24: 12,12; f = 12, delta = 2: ranks at even positions -> core 2i.
     * 10: 5,5; f = 19, free ceil(24k/19)-1 for k=1..19 = 1,2,3,5,6,7,8,10,11,12,13,15,16,
     *     17,18,20,21,22,23 -> ranks at 0,4,9,14,19 (then 24 + those). */
    EXPECT_CORES(t, "spread", 48, "0-47");
    EXPECT_CORES(t, "spread", 47, "0-46");
    EXPECT_CORES(t, "spread", 24, "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,"
                                  "42,44,46");
    EXPECT_CORES(t, "spread", 10, "0,4,9,14,19,24,28,33,38,43");
    EXPECT_CORES(t, "spread", 100, "0-47,0-47,0-3"); /* oversubscribed */

    EXPECT_CORES(t, "compact", 48, "0-47");
    EXPECT_CORES(t, "compact", 47, "0-46");
    EXPECT_CORES(t, "compact", 24, "0-23");
    EXPECT_CORES(t, "compact", 10, "0-9");

    /* scatter: rank i -> node i mod 2, core 24*(i mod 2) + i/2 */
    EXPECT_CORES(t, "scatter", 10, "0,24,1,25,2,26,3,27,4,28");
    EXPECT_CORES(t, "scatter", 24, "0,24,1,25,2,26,3,27,4,28,5,29,6,30,7,31,8,32,9,33,10,34,"
                                   "11,35");
    EXPECT_CORES(t, "scatter", 47, "0,24,1,25,2,26,3,27,4,28,5,29,6,30,7,31,8,32,9,33,10,34,"
                                   "11,35,12,36,13,37,14,38,15,39,16,40,17,41,18,42,19,43,20,"
                                   "44,21,45,22,46,23");
    EXPECT_CORES(t, "scatter", 50, "0,24,1,25,2,26,3,27,4,28,5,29,6,30,7,31,8,32,9,33,10,34,"
                                   "11,35,12,36,13,37,14,38,15,39,16,40,17,41,18,42,19,43,20,"
                                   "44,21,45,22,46,23,47,0,24");

    check_weights(t, "spread", 47, 2);
    check_weights(t, "compact", 10, 2);
    check_weights(t, "none", 10, 96);
    loom__topo_destroy(t);
    return topo_check_result();
}
