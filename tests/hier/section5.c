/* section5.c — the worked examples of the paper's Section 5, step by step, communicator by
 * communicator, on one node (Fig. 1: package:2 numa:1 l3:1 l2:2 core:2 pu:1, 8 ranks).
 *   argv[1] = "5.1": one rank per core (LOOM_BIND=compact). The paper's steps 2-5 (step 1 is
 *                    the Machine level of a cluster, which one loom process does not have).
 *   argv[1] = "5.2": the non-uniform binding of Fig. 2 (LOOM_BIND=user:0,1,2-3,2-3,4-7,...):
 *                    ranks 0 and 1 on cores 0 and 1, ranks 2 and 3 on L2 #1, ranks 4-7 on
 *                    NUMA node #1.
 * Each entry: newcomm[step] of world rank w as "<members> <type> <num> <index>", then after
 * '|' rootscomm[step] as "<members> <type>"; "null" is MPI_COMM_NULL. See hier_check.h. */
#include "hier_check.h"

/* Section 5.1, on node 0 (the paper's steps 2, 3, 4 and 5). */
static const char *const fig1[4][8] = {
    /* step 0 (paper step 2): one communicator per NUMA node; roots {p0, p4} */
    {"0-3 NUMANode 2 0 | 0,4 Machine", "0-3 NUMANode 2 0 | null", "0-3 NUMANode 2 0 | null",
     "0-3 NUMANode 2 0 | null", "4-7 NUMANode 2 1 | 0,4 Machine", "4-7 NUMANode 2 1 | null",
     "4-7 NUMANode 2 1 | null", "4-7 NUMANode 2 1 | null"},
    /* step 1 (paper step 3): one per L2 cache; roots {p0, p2} and {p4, p6} */
    {"0,1 L2Cache 2 0 | 0,2 NUMANode", "0,1 L2Cache 2 0 | null", "2,3 L2Cache 2 1 | 0,2 NUMANode",
     "2,3 L2Cache 2 1 | null", "4,5 L2Cache 2 0 | 4,6 NUMANode", "4,5 L2Cache 2 0 | null",
     "6,7 L2Cache 2 1 | 4,6 NUMANode", "6,7 L2Cache 2 1 | null"},
    /* step 2 (paper step 4): one per core, each rank the root of its own, so the roots
     * communicators are {p0,p1} {p2,p3} {p4,p5} {p6,p7} */
    {"0 Core 2 0 | 0,1 L2Cache", "1 Core 2 1 | 0,1 L2Cache", "2 Core 2 0 | 2,3 L2Cache",
     "3 Core 2 1 | 2,3 L2Cache", "4 Core 2 0 | 4,5 L2Cache", "5 Core 2 1 | 4,5 L2Cache",
     "6 Core 2 0 | 6,7 L2Cache", "7 Core 2 1 | 6,7 L2Cache"},
    /* step 3 (paper step 5): the bottom, MPI_COMM_NULL everywhere */
    {"null | null", "null | null", "null | null", "null | null", "null | null", "null | null",
     "null | null", "null | null"},
};

/* Section 5.2 (steps 1 to 4 of the paper). */
static const char *const fig2[4][8] = {
    /* step 1: NUMA nodes; roots {p0, p4} */
    {"0-3 NUMANode 2 0 | 0,4 Machine", "0-3 NUMANode 2 0 | null", "0-3 NUMANode 2 0 | null",
     "0-3 NUMANode 2 0 | null", "4-7 NUMANode 2 1 | 0,4 Machine", "4-7 NUMANode 2 1 | null",
     "4-7 NUMANode 2 1 | null", "4-7 NUMANode 2 1 | null"},
    /* step 2: L2 caches of NUMA node 0; ranks 4-7 may move over NUMA node 1: null */
    {"0,1 L2Cache 2 0 | 0,2 NUMANode", "0,1 L2Cache 2 0 | null", "2,3 L2Cache 2 1 | 0,2 NUMANode",
     "2,3 L2Cache 2 1 | null", "null | null", "null | null", "null | null", "null | null"},
    /* step 3: cores for ranks 0 and 1; ranks 2 and 3 are bound to their L2 only: null */
    {"0 Core 2 0 | 0,1 L2Cache", "1 Core 2 1 | 0,1 L2Cache", "null | null", "null | null",
     "null | null", "null | null", "null | null", "null | null"},
    /* step 4: the bottom for ranks 0 and 1 */
    {"null | null", "null | null", "null | null", "null | null", "null | null", "null | null",
     "null | null", "null | null"},
};

static const char *t51(int step, int w)
{
    return step < 4 ? fig1[step][w] : "null | null";
}

static const char *t52(int step, int w)
{
    return step < 4 ? fig2[step][w] : "null | null";
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int size, me = world_rank();
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_INT(size, 8);
    CHECK(argc > 1);
    int is51 = strcmp(argv[1], "5.1") == 0;
    int steps = hier_walk(is51 ? t51 : t52, 4);
    /* Section 5.1: every rank goes through 4 splits; 5.2: ranks 0-1 four, 2-3 three, 4-7 two */
    int want = is51 || me < 2 ? 4 : me < 4 ? 3 : 2;
    CHECK_INT(steps, want);
    if (is51) {
        /* newcomm[2] = {p_i}: congruent with MPI_COMM_SELF, as the paper notes */
        MPI_Comm c = MPI_COMM_WORLD, n;
        MPI_Comm kept[3];
        for (int s = 0; s < 3; s++) {
            OK(MPI_Comm_split_type(c, MPIX_COMM_TYPE_PHYSICAL_TOPOLOGY, 0, MPI_INFO_NULL, &n));
            CHECK(n != MPI_COMM_NULL);
            kept[s] = c = n;
        }
        int r;
        OK(MPI_Comm_compare(c, MPI_COMM_SELF, &r));
        CHECK_INT(r, MPI_CONGRUENT);
        for (int s = 0; s < 3; s++)
            OK(MPI_Comm_free(&kept[s]));
    }
    OK(MPI_Finalize());
    return 0;
}
