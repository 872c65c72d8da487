/* hello — every rank says where loom placed it. Run: loomrun -n 4 ./hello */
#include <stdio.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, core, numa;
    char cpus[64];
    const char *policy;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    loom_rank_placement(&core, &numa, cpus, sizeof cpus, &policy);
    /* Print in rank order so the output reads as a table. */
    for (int r = 0; r < size; r++) {
        if (r == rank)
            printf("rank %d of %d: core %d, NUMA node %d, cpus %s, placement %s%s\n", rank, size,
                   core, numa, cpus, policy, loom_rank_is_bound() ? "" : " (not bound)");
        fflush(stdout);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
