/* A started persistent collective allocates nothing: the collectives layer's per-thread count
 * of schedule allocations (loom__coll_allocs_here, an internal of the static library) moves
 * at MPI_Allreduce_init and at every MPI_Iallreduce, and stays put across MPI_Start + wait of
 * the persistent allreduce, at 8 B and at 64 KiB (scratch buffers, reduce-then-bcast), for
 * every completion call. Also a persistent bcast and alltoall. */
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
    free(ab);
    free(s);
    free(r);
    OK(MPI_Finalize());
    return 0;
}
