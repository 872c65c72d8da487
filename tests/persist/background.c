/* In thread mode a started persistent collective progresses in the background, as a
 * nonblocking one does: every rank starts a persistent allreduce (and a bcast) and then
 * computes, never entering loom (MPIX_Request_is_complete only reads the request's state),
 * until the request is complete; the progress threads ran the whole schedule (split-tree off:
 * no level is left to the wait). Several starts, values checked. Run with LOOM_PROGRESS=thread
 * only (under the other policies nothing runs a rank's work while it computes). */
#include <sched.h>
#include "coll_check.h"

#define STARTS 10

static void compute_until_complete(MPI_Request r)
{
    while (!MPIX_Request_is_complete(r)) /* computing: no MPI call */
        sched_yield();
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank, size;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    long in[64], out[64], bc[8];
    MPI_Request ar, br;
    OK(MPI_Allreduce_init(in, out, 64, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &ar));
    OK(MPI_Bcast_init(bc, 8, MPI_LONG, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &br));
    for (int it = 0; it < STARTS; it++) {
        for (int i = 0; i < 64; i++) {
            in[i] = rank * 100 + i + it * 10000;
            out[i] = -1;
        }
        for (int i = 0; i < 8; i++)
            bc[i] = rank == size - 1 ? it * 7 + i : -1;
        OK(MPI_Start(&ar));
        OK(MPI_Start(&br));
        compute_until_complete(ar);
        compute_until_complete(br);
        OK(MPI_Wait(&ar, MPI_STATUS_IGNORE));
        OK(MPI_Wait(&br, MPI_STATUS_IGNORE));
        for (int i = 0; i < 64; i++)
            CHECK_INT(out[i], 100L * size * (size - 1) / 2 + (long)size * (i + it * 10000));
        for (int i = 0; i < 8; i++)
            CHECK_INT(bc[i], it * 7 + i);
    }
    OK(MPI_Request_free(&ar));
    OK(MPI_Request_free(&br));
    OK(MPI_Finalize());
    return 0;
}
