/* The hardware hierarchy across node processes: the network is the level above the machines.
 * HW_UNGUIDED and MPIX_Comm_hsplit_with_roots on the world give one communicator per node
 * process, recorded as "Machine", and the roots' communicator as "Network";
 * MPIX_Comm_get_min_hlevel of two ranks of two node processes is "Network"; HW_GUIDED with
 * mpi_shared_memory and with "Machine" gives the node process; a Cartesian communicator with
 * reorder keeps every rank once. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void check(int ok, const char *what, int rank)
{
    if (!ok) {
        fprintf(stderr, "hier: rank %d: %s\n", rank, what);
        failures++;
    }
}

static void info_is(MPI_Comm c, const char *key, const char *want, int rank)
{
    MPI_Info info;
    char v[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0;
    MPI_Comm_get_info(c, &info);
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag);
    MPI_Info_free(&info);
    if (!flag || strcmp(v, want) != 0) {
        fprintf(stderr, "hier: rank %d: %s is \"%s\", expected \"%s\"\n", rank, key,
                flag ? v : "(unset)", want);
        failures++;
    }
}

/* The same members as MPI_COMM_TYPE_SHARED, in the same order. */
static void is_node(MPI_Comm c, MPI_Comm shm, int rank, const char *what)
{
    int cmp = MPI_UNEQUAL;
    if (c != MPI_COMM_NULL)
        MPI_Comm_compare(c, shm, &cmp);
    check(cmp == MPI_CONGRUENT, what, rank);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm shm;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
    int srank, first;
    MPI_Comm_rank(shm, &srank);
    first = rank - srank; /* world ranks are dealt in node-process order */
    int *firsts = malloc((size_t)size * sizeof *firsts);
    MPI_Allgather(&first, 1, MPI_INT, firsts, 1, MPI_INT, MPI_COMM_WORLD);
    int nodes = 0, index = -1;
    for (int i = 0; i < size; i++)
        if (firsts[i] == i) {
            if (i == first)
                index = nodes;
            nodes++;
        }
    char num[16], idx[16];
    snprintf(num, sizeof num, "%d", nodes);
    snprintf(idx, sizeof idx, "%d", index);

    MPI_Comm u;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL, &u);
    is_node(u, shm, rank, "HW_UNGUIDED on the world is not the node process");
    if (u != MPI_COMM_NULL) {
        info_is(u, "mpi_hw_resource_type", "Machine", rank);
        info_is(u, "mpix_hlevel_num", num, rank);
        info_is(u, "mpix_hlevel_index", idx, rank);
        MPI_Comm_free(&u);
    }

    MPI_Comm h, roots;
    MPIX_Comm_hsplit_with_roots(MPI_COMM_WORLD, MPI_INFO_NULL, &h, &roots);
    is_node(h, shm, rank, "hsplit's first level is not the node process");
    check((srank == 0) == (roots != MPI_COMM_NULL), "the roots are not rank 0 of each node",
          rank);
    if (roots != MPI_COMM_NULL) {
        int n;
        MPI_Comm_size(roots, &n);
        check(n == nodes, "the roots' communicator is not one rank per node process", rank);
        info_is(roots, "mpi_hw_resource_type", "Network", rank);
        MPI_Comm_free(&roots);
    }
    if (h != MPI_COMM_NULL)
        MPI_Comm_free(&h);

    char type[MPI_MAX_INFO_VAL + 1];
    int pair[2] = {0, size - 1};
    int tlen;
    MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, 2, pair, type, &tlen);
    if (rank == 0 || rank == size - 1)
        check(strcmp(type, "Network") == 0, "min hlevel of the first and last rank", rank);

    const char *guided[] = {"mpi_shared_memory", "Machine"};
    for (int i = 0; i < 2; i++) {
        MPI_Info info;
        MPI_Comm g;
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_hw_resource_type", guided[i]);
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &g);
        is_node(g, shm, rank, guided[i]);
        if (g != MPI_COMM_NULL) {
            info_is(g, "mpix_hlevel_num", num, rank);
            info_is(g, "mpix_hlevel_index", idx, rank);
            MPI_Comm_free(&g);
        }
        MPI_Info_free(&info);
    }

    /* reorder across node processes: still a permutation of the world */
    int dims[1] = {size}, periods[1] = {1};
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 1, &cart);
    int crank, *seen = calloc((size_t)size, sizeof *seen);
    int *all = malloc((size_t)size * sizeof *all);
    MPI_Comm_rank(cart, &crank);
    MPI_Allgather(&crank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        if (all[i] >= 0 && all[i] < size)
            seen[all[i]]++;
    for (int i = 0; i < size; i++)
        check(seen[i] == 1, "a reordered Cartesian rank is not taken exactly once", rank);
    MPI_Comm_free(&cart);

    MPI_Comm_free(&shm);
    free(firsts), free(seen), free(all);
    int bad = 0;
    MPI_Allreduce(&failures, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && bad == 0)
        printf("hier: %d ranks on %d node processes ok\n", size, nodes);
    MPI_Finalize();
    return bad != 0;
}
