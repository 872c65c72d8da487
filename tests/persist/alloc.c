/* A started persistent collective allocates nothing: the collectives layer's per-thread count
 * of schedule allocations (loom__coll_allocs_here, an internal of the static library) moves
 * at MPI_Allreduce_init and at every MPI_Iallreduce, and stays put across MPI_Start + wait of
 * the persistent allreduce, at 8 B and at 64 KiB (scratch buffers, reduce-then-bcast), for
 * every completion call. Also a persistent bcast and alltoall, and persistent neighbor
 * allgather and alltoallw on a periodic ring (the neighbor schedules, coll/neighbor.c). */
#include "coll_check.h"

unsigned long loom__coll_allocs_here(void); /* coll/sched.h */

#define STARTS 50

static void no_alloc_per_start(MPI_Request *r, const char *what)
{
    unsigned long before = loom__coll_allocs_here();
    for (int it = 0; it < STARTS; it++) {
        OK(MPI_Start(r));
        if (it % 3 == 0) {
            OK(MPI_Wait(r, MPI_STATUS_IGNORE));
        } else if (it % 3 == 1) {
            int flag = 0;
            while (!flag)
                OK(MPI_Test(r, &flag, MPI_STATUS_IGNORE));
        } else {
            OK(MPI_Waitall(1, r, MPI_STATUSES_IGNORE));
        }
    }
    unsigned long after = loom__coll_allocs_here();
    if (after != before) {
        fprintf(stderr, "%s: %lu allocations in %d starts\n", what, after - before, STARTS);
        _exit(99);
    }
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank, size;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    size_t counts[2] = {1, 8192}; /* 8 B and 64 KiB of doubles */
    double *s = malloc(8192 * sizeof *s), *r = malloc(8192 * sizeof *r);
    CHECK(s && r);
    for (int i = 0; i < 8192; i++)
        s[i] = rank + i;
    for (int k = 0; k < 2; k++) {
        int n = (int)counts[k];
        MPI_Request req;
        unsigned long at_init = loom__coll_allocs_here();
        OK(MPI_Allreduce_init(s, r, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                              &req));
        CHECK(loom__coll_allocs_here() > at_init); /* the counter sees the build */
        no_alloc_per_start(&req, k ? "allreduce_init 64 KiB" : "allreduce_init 8 B");
        CHECK_INT(r[n - 1], (double)size * (n - 1) + (double)size * (size - 1) / 2);
        OK(MPI_Request_free(&req));
        /* the nonblocking form builds a schedule per call: the counter moves */
        unsigned long nb = loom__coll_allocs_here();
        OK(MPI_Iallreduce(s, r, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req));
        OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK(loom__coll_allocs_here() > nb);
        OK(MPI_Allreduce_init(s, r, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                              &req));
        OK(MPI_Request_free(&req)); /* freed without a start */
    }
    MPI_Request b, a;
    int *ab = malloc((size_t)size * 2 * sizeof *ab);
    CHECK(ab);
    for (int i = 0; i < size; i++)
        ab[i] = rank;
    OK(MPI_Bcast_init(r, 100, MPI_DOUBLE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &b));
    OK(MPI_Alltoall_init(ab, 1, MPI_INT, ab + size, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                         &a));
    no_alloc_per_start(&b, "bcast_init");
    no_alloc_per_start(&a, "alltoall_init");
    for (int i = 0; i < size; i++)
        CHECK_INT(ab[size + i], i);
    OK(MPI_Request_free(&b));
    OK(MPI_Request_free(&a));

    /* neighbor collectives: the schedule of the Ineighbor_ form is built per call, the
     * persistent one's once */
    MPI_Comm ring;
    OK(MPI_Cart_create(MPI_COMM_WORLD, 1, (int[]){size}, (int[]){1}, 0, &ring));
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    int nb_s[2] = {rank, -rank}, nb_r[2], sc[2] = {1, 1}, rc[2] = {1, 1};
    MPI_Aint sd[2] = {0, sizeof(int)}, rd[2] = {0, sizeof(int)};
    MPI_Datatype t[2] = {MPI_INT, MPI_INT};
    unsigned long nb_before = loom__coll_allocs_here();
    OK(MPI_Ineighbor_allgather(nb_s, 1, MPI_INT, nb_r, 1, MPI_INT, ring, &a));
    OK(MPI_Wait(&a, MPI_STATUS_IGNORE));
    CHECK(loom__coll_allocs_here() > nb_before);
    OK(MPI_Neighbor_allgather_init(nb_s, 1, MPI_INT, nb_r, 1, MPI_INT, ring, MPI_INFO_NULL,
                                   &a));
    OK(MPI_Neighbor_alltoallw_init(nb_s, sc, sd, t, nb_r, rc, rd, t, ring, MPI_INFO_NULL,
                                   &b));
    no_alloc_per_start(&a, "neighbor_allgather_init");
    CHECK_INT(nb_r[0], left);
    CHECK_INT(nb_r[1], right);
    no_alloc_per_start(&b, "neighbor_alltoallw_init");
    CHECK_INT(nb_r[0], -left);  /* block 0 comes from the left's block 1 (its +1 side) */
    CHECK_INT(nb_r[1], right);  /* block 1 from the right's block 0 */
    OK(MPI_Request_free(&a));
    OK(MPI_Request_free(&b));
    OK(MPI_Comm_free(&ring));
    free(ab);
    free(s);
    free(r);
    OK(MPI_Finalize());
    return 0;
}
