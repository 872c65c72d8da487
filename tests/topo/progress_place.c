/* Progress-thread placement, hand-worked (the 2019 paper, Eqs. 1 and 2).
 *  Fig. 1 node (2 NUMA x 4 cores), spread:
 *    6 ranks on cores 0,1,2 | 4,5,6, free 3 and 7. numa: ranks 0-2 -> 3, ranks 3-5 -> 7.
 *      Eq. 1: N=4, n=3, d=4: M=0,1,2 -> ceil(1*4)-1 = 3.
 *      odd-even: p=8, n=6, f=2, d=4: even r -> 3, odd r -> 7.
 *    4 ranks on cores 0,2,4,6, free 1,3,5,7. numa: 1,3,5,7.
 *      Eq. 1: N=4, n=2, d=2: M=0 -> 1, M=2 -> floor(2/2)=1 -> ceil(2*2)-1 = 3.
 *      odd-even: p=8, n=4, f=4, d=2: r=0..3 -> 1,3,5,7.
 *    8 ranks: no free core, every policy falls back to the rank's own core.
 *  64 cores, one NUMA node, 62 ranks (the paper's Iscan case): ranks 0-30 on cores 0-30,
 *    31-61 on 32-62. numa: ranks 0-30 -> 31, 31-61 -> 63 (as in Fig. 5);
 *    odd-even: even ranks -> 31, odd -> 63 (Fig. 6).
 *  64 cores in 4 NUMA nodes (SNC-4), 62 ranks: 16,16,15,15 per node, free 47 and 63.
 *    numa: ranks of nodes 0,1 have no free core -> own core; node 2 -> 47; node 3 -> 63.
 *    odd-even: Eq. 2 gives 31 (taken by a rank) for even ranks, so the (r mod 2)-th free core:
 *    even -> 47, odd -> 63.
 *  cores:3+7 on the Fig. 1 node: rank r -> [3,7][r mod 2]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "topo/topo.h"

static int failures;
#define EXPECT_EQ(got, want)                                                                   \
    do {                                                                                       \
        long g_ = (long)(got), w_ = (long)(want);                                              \
        if (g_ != w_) {                                                                        \
            fprintf(stderr, "%s:%d: %s is %ld, expected %ld\n", __FILE__, __LINE__, #got, g_,  \
                    w_);                                                                       \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)

/* Place n ranks with `bind`, their progress threads with `policy`; return the core of each
 * thread in cores[]. */
static void place(const char *spec, const char *bind, int n, const char *policy, int *cores)
{
    char err[256];
    struct loom_topo *t;
    struct loom_cpuset **ranks = calloc((size_t)n, sizeof *ranks);
    struct loom_cpuset **threads = calloc((size_t)n, sizeof *threads);
    if (loom__topo_load(spec, &t, err, sizeof err) ||
        loom__topo_place(t, bind, n, ranks, err, sizeof err) ||
        loom__topo_place_progress(t, policy, n, ranks, threads, err, sizeof err)) {
        fprintf(stderr, "%s / %s / %s: %s\n", spec, bind, policy, err);
        exit(1);
    }
    for (int i = 0; i < n; i++) {
        cores[i] = loom__topo_core_of(t, threads[i]);
        loom__cpuset_free(ranks[i]);
        loom__cpuset_free(threads[i]);
    }
    free(ranks);
    free(threads);
    loom__topo_destroy(t);
}

#define FIG1 "package:2 numa:1 l3:1 l2:2 core:2 pu:1"

int main(void)
{
    int c[64];
    /* the equations themselves */
    EXPECT_EQ(loom__place_numa(4, 3, 0), 3);
    EXPECT_EQ(loom__place_numa(4, 3, 2), 3);
    EXPECT_EQ(loom__place_numa(4, 2, 0), 1);
    EXPECT_EQ(loom__place_numa(4, 2, 2), 3);
    EXPECT_EQ(loom__place_numa(4, 4, 2), 2);
    EXPECT_EQ(loom__place_numa(64, 62, 30), 31);
    EXPECT_EQ(loom__place_numa(64, 62, 32), 63);
    EXPECT_EQ(loom__place_odd_even(8, 6, 0), 3);
    EXPECT_EQ(loom__place_odd_even(8, 6, 5), 7);
    EXPECT_EQ(loom__place_odd_even(8, 4, 2), 5);
    EXPECT_EQ(loom__place_odd_even(64, 62, 10), 31);
    EXPECT_EQ(loom__place_odd_even(64, 62, 61), 63);
    EXPECT_EQ(loom__place_odd_even(8, 8, 1), -1);

    place(FIG1, "spread", 6, "numa", c);
    for (int r = 0; r < 6; r++)
        EXPECT_EQ(c[r], r < 3 ? 3 : 7);
    place(FIG1, "spread", 6, "odd-even", c);
    for (int r = 0; r < 6; r++)
        EXPECT_EQ(c[r], r % 2 ? 7 : 3);
    place(FIG1, "spread", 6, "bind", c);
    for (int r = 0; r < 6; r++)
        EXPECT_EQ(c[r], r < 3 ? r : r + 1);
    place(FIG1, "spread", 4, "numa", c);
    for (int r = 0; r < 4; r++)
        EXPECT_EQ(c[r], 2 * r + 1);
    place(FIG1, "spread", 4, "odd-even", c);
    for (int r = 0; r < 4; r++)
        EXPECT_EQ(c[r], 2 * r + 1);
    place(FIG1, "spread", 8, "numa", c);
    for (int r = 0; r < 8; r++)
        EXPECT_EQ(c[r], r);
    place(FIG1, "spread", 8, "odd-even", c);
    for (int r = 0; r < 8; r++)
        EXPECT_EQ(c[r], r);
    place(FIG1, "spread", 6, "cores:3+7", c);
    for (int r = 0; r < 6; r++)
        EXPECT_EQ(c[r], r % 2 ? 7 : 3);

    place("package:1 l2:32 core:2 pu:4", "spread", 62, "numa", c);
    for (int r = 0; r < 62; r++)
        EXPECT_EQ(c[r], r <= 30 ? 31 : 63);
    place("package:1 l2:32 core:2 pu:4", "spread", 62, "odd-even", c);
    for (int r = 0; r < 62; r++)
        EXPECT_EQ(c[r], r % 2 ? 63 : 31);

    place("package:1 numa:4 l2:8 core:2 pu:4", "spread", 62, "numa", c);
    for (int r = 0; r < 62; r++) {
        int own = r < 32 ? r : (r < 47 ? r : r + 1); /* node 2 holds ranks 32-46 on cores 32-46 */
        EXPECT_EQ(c[r], r < 32 ? own : (r < 47 ? 47 : 63));
    }
    place("package:1 numa:4 l2:8 core:2 pu:4", "spread", 62, "odd-even", c);
    for (int r = 0; r < 62; r++)
        EXPECT_EQ(c[r], r % 2 ? 63 : 47);

    char err[128];
    EXPECT_EQ(loom__progress_policy_check("numa", err, sizeof err), 0);
    EXPECT_EQ(loom__progress_policy_check("cores:0-1", err, sizeof err), 0);
    EXPECT_EQ(loom__progress_policy_check("cores:", err, sizeof err), -1);
    EXPECT_EQ(loom__progress_policy_check("nearest", err, sizeof err), -1);
    return failures ? 1 : 0;
}
