/* MPI_Barrier: no rank leaves round k before every rank has entered it. Each rank bumps a
 * counter shared by the job (ranks are threads of one process) before each barrier; after
 * barrier k the counter is at least (k + 1) * size. Also on sub-communicators and SELF. */
#include <stdatomic.h>
#include "comm_check.h"

static atomic_int entered;
static atomic_int entered_sub[2];

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = world_rank(), size = world_size();
    for (int k = 0; k < 200; k++) {
        atomic_fetch_add(&entered, 1);
        OK(MPI_Barrier(MPI_COMM_WORLD));
        int seen = atomic_load(&entered);
        if (seen < (k + 1) * size) {
            fprintf(stderr, "rank %d round %d: counter %d, expected >= %d\n", rank, k, seen,
                    (k + 1) * size);
            CHECK(0);
        }
    }
    MPI_Comm half;
    int n;
    OK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, 0, &half));
    OK(MPI_Comm_size(half, &n));
    for (int k = 0; k < 100; k++) {
        atomic_fetch_add(&entered_sub[rank % 2], 1);
        OK(MPI_Barrier(half));
        CHECK(atomic_load(&entered_sub[rank % 2]) >= (k + 1) * n);
    }
    OK(MPI_Comm_free(&half));
    OK(MPI_Barrier(MPI_COMM_SELF));
    MPI_Finalize();
    return 0;
}
