/* tests/topo/test_place_knl.c — placement on a 64-core KNL-like node (4 PUs per core):
 * SNC-4 ("package:1 numa:4 l2:8 core:2 pu:4": NUMA k = cores 16k..16k+15) and a single NUMA
 * node ("package:1 l2:32 core:2 pu:4"). Expected cores are worked out by hand below. */
#include "topo_check.h"

/* "0,s,2s,..." for n ranks, as a list for EXPECT_CORES */
static const char *stride(int s, int n)
{
    static char buf[1024];
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%d", i ? "," : "", s * i);
    return buf;
}

/* scatter on a machine of d equal NUMA nodes of c cores: rank i sits on node i mod d at its
 * (i div d)-th core, i.e. core c*(i mod d) + i/d (only valid while n <= d*c) */
static const char *scattered(int d, int c, int n)
{
    static char buf[1024];
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%d", i ? "," : "",
                                c * (i % d) + i / d);
    return buf;
}

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
    struct loom_topo *t = topo_must_load("package:1 numa:4 l2:8 core:2 pu:4");
    CHECK_INT(loom__topo_ncores(t), 64);

    /* spread, SNC-4, N = 16 cores per node.
     * 64: 16 per node, nothing free.
     * 62: split 16,16,15,15; a node with 15 ranks frees position ceil(16/1)-1 = 15:
     *     ranks 32-46 -> cores 32-46 (47 free), ranks 47-61 -> cores 48-62 (63 free).
     * 32: 8 per node, f = 8, delta = 2: free 1,3,...,15, ranks at even positions: core 2i.
     * 17: split 5,4,4,4. m=5: f=11, free ceil(16k/11)-1 for k=1..11 = 1,2,4,5,7,8,10,11,
     *     13,14,15 -> ranks at 0,3,6,9,12. m=4: f=12, delta=4/3, free ceil(4k/3)-1 =
     *     1,2,3,5,6,7,9,10,11,13,14,15 -> ranks at 0,4,8,12. */
    EXPECT_CORES(t, "spread", 64, "0-63");
    EXPECT_CORES(t, "spread", 62, "0-46,48-62");
    EXPECT_CORES(t, "spread", 32, stride(2, 32));
    EXPECT_CORES(t, "spread", 17, "0,3,6,9,12,16,20,24,28,32,36,40,44,48,52,56,60");
    EXPECT_CORES(t, "spread", 70, "0-63,0-5"); /* oversubscribed */

    EXPECT_CORES(t, "compact", 64, "0-63");
    EXPECT_CORES(t, "compact", 62, "0-61");
    EXPECT_CORES(t, "compact", 32, "0-31");
    EXPECT_CORES(t, "compact", 17, "0-16");
    EXPECT_CORES(t, "compact", 66, "0-63,0-1");

    EXPECT_CORES(t, "scatter", 64, scattered(4, 16, 64));
    EXPECT_CORES(t, "scatter", 62, scattered(4, 16, 62));
    EXPECT_CORES(t, "scatter", 32, scattered(4, 16, 32));
    EXPECT_CORES(t, "scatter", 17, "0,16,32,48,1,17,33,49,2,18,34,50,3,19,35,51,4");
    EXPECT_CORES(t, "scatter", 67, "0,16,32,48,1,17,33,49,2,18,34,50,3,19,35,51,4,20,36,52,"
                                   "5,21,37,53,6,22,38,54,7,23,39,55,8,24,40,56,9,25,41,57,"
                                   "10,26,42,58,11,27,43,59,12,28,44,60,13,29,45,61,14,30,46,"
                                   "62,15,31,47,63,0,16,32");

    check_weights(t, "spread", 62, 4); /* a rank gets all 4 PUs of its core */
    check_weights(t, "none", 62, 256);
    loom__topo_destroy(t);

    /* one NUMA node of N = 64 cores.
     * 62: f = 2, delta = 32, free ceil(32)-1 = 31 and ceil(64)-1 = 63 (Eq. 1):
     *     ranks 0-30 -> cores 0-30, ranks 31-61 -> cores 32-62.
     * 16: f = 48, delta = 4/3, free ceil(4k/3)-1 = 4a+1, 4a+2, 4a+3: ranks at 4i. */
    t = topo_must_load("package:1 l2:32 core:2 pu:4");
    CHECK_INT(loom__topo_nnuma(t), 1);
    EXPECT_CORES(t, "spread", 62, "0-30,32-62");
    EXPECT_CORES(t, "spread", 64, "0-63");
    EXPECT_CORES(t, "spread", 16, stride(4, 16));
    EXPECT_CORES(t, "spread", 32, stride(2, 32));
    EXPECT_CORES(t, "compact", 62, "0-61");
    EXPECT_CORES(t, "scatter", 62, "0-61"); /* one node: scatter is compact */
    check_weights(t, "spread", 62, 4);
    loom__topo_destroy(t);
    return topo_check_result();
}
