/* bench/topology.c — what reordering a Cartesian communicator saves: the bytes of a 2-D
 * halo exchange that cross a NUMA node or a package boundary, with reorder = 0 and 1.
 *
 *   loomrun -n N bench_topology [--numa-per-package K] [--block B]
 *
 * Each rank owns a B x B block of doubles on a periodic 2-D grid (MPI_Dims_create) and
 * sends one face (B doubles) to each of its four neighbours with MPI_Neighbor_alltoall
 * (checked). The counts come from where each rank runs (loom_rank_placement: its NUMA node;
 * the package is NUMA node / K), so on a synthetic machine (LOOM_TOPOLOGY) they are exact
 * and the same on any host. Prints one CSV line per reorder value on rank 0:
 *   reorder,ranks,dims,face_bytes,total_bytes,cross_numa_bytes,cross_package_bytes */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

static int fail(const char *what)
{
    fprintf(stderr, "bench_topology: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
}

static void run(int reorder, int per_pkg, int block)
{
    int size, dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, reorder, &cart);
    int me, numa;
    MPI_Comm_rank(cart, &me);
    loom_rank_placement(NULL, &numa, NULL, 0, NULL);
    int *numa_of = malloc((size_t)size * sizeof *numa_of);
    double *sbuf = malloc((size_t)(4 * block) * sizeof *sbuf);
    double *rbuf = malloc((size_t)(4 * block) * sizeof *rbuf);
    if (!numa_of || !sbuf || !rbuf)
        fail("out of memory");
    MPI_Allgather(&numa, 1, MPI_INT, numa_of, 1, MPI_INT, cart);
    long long mine[3] = {0, 0, 0}, sum[3];
    int nb[4];
    MPI_Cart_shift(cart, 0, 1, &nb[0], &nb[1]);
    MPI_Cart_shift(cart, 1, 1, &nb[2], &nb[3]);
    long long face = (long long)block * (long long)sizeof(double);
    for (int i = 0; i < 4; i++) {
        mine[0] += face;
        if (numa_of[nb[i]] != numa)
            mine[1] += face;
        if (numa_of[nb[i]] / per_pkg != numa / per_pkg)
            mine[2] += face;
        for (int e = 0; e < block; e++)
            sbuf[i * block + e] = me * 4 + i;
    }
    /* the exchange itself: block i comes from neighbour i, its block i^1 */
    MPI_Neighbor_alltoall(sbuf, block, MPI_DOUBLE, rbuf, block, MPI_DOUBLE, cart);
    for (int i = 0; i < 4; i++)
        if (rbuf[i * block] != nb[i] * 4 + (i ^ 1) || rbuf[i * block + block - 1] !=
                                                        nb[i] * 4 + (i ^ 1))
            fail("halo exchange delivered the wrong face");
    MPI_Reduce(mine, sum, 3, MPI_LONG_LONG, MPI_SUM, 0, cart);
    if (me == 0)
        printf("%d,%d,%dx%d,%lld,%lld,%lld,%lld\n", reorder, size, dims[0], dims[1], face,
               sum[0], sum[1], sum[2]);
    free(numa_of), free(sbuf), free(rbuf);
    MPI_Comm_free(&cart);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int per_pkg = 1, block = 256;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--numa-per-package") == 0 && i + 1 < argc)
            per_pkg = atoi(argv[++i]);
        else if (strcmp(argv[i], "--block") == 0 && i + 1 < argc)
            block = atoi(argv[++i]);
        else
            return fail("usage: bench_topology [--numa-per-package K] [--block B]");
    }
    if (per_pkg < 1 || block < 1)
        return fail("K and B must be positive");
    run(0, per_pkg, block);
    run(1, per_pkg, block);
    MPI_Finalize();
    return 0;
}
