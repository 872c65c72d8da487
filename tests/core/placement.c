/* Ranks run where the placement put them: on the Fig. 1 node (LOOM_TOPOLOGY
 * "package:2 numa:1 l3:1 l2:2 core:2 pu:1") with 4 ranks under spread, ranks 0-3 sit on cores
 * 0, 2, 4, 6 and NUMA nodes 0, 0, 1, 1; a synthetic machine is never bound. */
#include <string.h>
#include <mpi.h>
#include "check.h"

int main(int argc, char **argv)
{
    static const int want_core[4] = {0, 2, 4, 6}, want_numa[4] = {0, 0, 1, 1};
    int rank, core, numa;
    const char *policy;
    char cpus[64];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    loom_rank_placement(&core, &numa, cpus, sizeof cpus, &policy);
    CHECK(strcmp(policy, "spread") == 0);
    CHECK_INT(core, want_core[rank]);
    CHECK_INT(numa, want_numa[rank]);
    CHECK_INT(loom_rank_is_bound(), 0);
    MPI_Finalize();
    return 0;
}
