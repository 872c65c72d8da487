/* Synchronous sends complete only once matched: an Issend to a rank that has not posted its
 * receive stays incomplete (MPI_Test false, Request_get_status false) until the peer
 * receives, whatever the size (even under LOOM_EAGER_MAX=1M); barriers order the steps,
 * never time. Also blocking Ssend with the receive posted first and with it posted later. */
#include "p2p_check.h"

static const size_t sizes[] = {0, 1, 16383, 16384, 16385, 1 << 20};
#define NSIZES (sizeof sizes / sizeof sizes[0])

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    unsigned char *sbuf = p2p_malloc(1 << 20), *rbuf = p2p_malloc(1 << 20);
    MPI_Request req;
    MPI_Status st;
    int flag;

    for (size_t k = 0; k < NSIZES; k++) {
        size_t n = sizes[k];
        p2p_fill(sbuf, n, (unsigned)(rank * 100 + k));
        OK(MPI_Issend(sbuf, (int)n, MPI_BYTE, peer, (int)k, MPI_COMM_WORLD, &req));
        /* The peer is at the barrier below, its receive not posted: no completion yet. */
        for (int i = 0; i < 100; i++) {
            flag = -1;
            OK(MPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE));
            CHECK_INT(flag, 0);
            OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
            CHECK_INT(flag, 0);
            CHECK(req != MPI_REQUEST_NULL);
        }
        OK(MPI_Barrier(MPI_COMM_WORLD));
        OK(MPI_Recv(rbuf, (int)n, MPI_BYTE, peer, (int)k, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, peer, (int)k, n);
        CHECK_FILL(rbuf, n, (unsigned)(peer * 100 + k));
        OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK(req == MPI_REQUEST_NULL);
        OK(MPI_Barrier(MPI_COMM_WORLD));
    }

    /* Several synchronous sends queued before the receives: completed one by one, in order. */
    MPI_Request reqs[3];
    for (int i = 0; i < 3; i++)
        OK(MPI_Issend(sbuf, 10, MPI_BYTE, peer, 50, MPI_COMM_WORLD, &reqs[i]));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < 3; i++) {
        OK(MPI_Recv(rbuf, 10, MPI_BYTE, peer, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        OK(MPI_Barrier(MPI_COMM_WORLD)); /* the peer received i+1 messages */
        for (int j = 0; j < 3; j++) {
            /* matched ones complete (MPI's progress rule: polling gets there), the others
             * cannot have */
            do
                OK(MPI_Request_get_status(reqs[j], &flag, MPI_STATUS_IGNORE));
            while (j <= i && !flag);
            CHECK_INT(flag, j <= i);
        }
        OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    OK(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE));

    if (peer != rank) {
        /* Blocking Ssend, receive posted first. */
        OK(MPI_Irecv(rbuf, 1 << 20, MPI_BYTE, peer, 7, MPI_COMM_WORLD, &req));
        OK(MPI_Barrier(MPI_COMM_WORLD));
        p2p_fill(sbuf, 5000, (unsigned)rank + 7000);
        OK(MPI_Ssend(sbuf, 5000, MPI_BYTE, peer, 7, MPI_COMM_WORLD));
        OK(MPI_Wait(&req, &st));
        CHECK_STATUS(st, peer, 7, 5000);
        CHECK_FILL(rbuf, 5000, (unsigned)peer + 7000);
        /* Blocking Ssend, receive posted later: the even rank sends first. */
        if (rank % 2 == 0) {
            OK(MPI_Ssend(sbuf, 5000, MPI_BYTE, peer, 8, MPI_COMM_WORLD));
            OK(MPI_Recv(rbuf, 5000, MPI_BYTE, peer, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            OK(MPI_Recv(rbuf, 5000, MPI_BYTE, peer, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            OK(MPI_Ssend(sbuf, 5000, MPI_BYTE, peer, 8, MPI_COMM_WORLD));
        }
        CHECK_FILL(rbuf, 5000, (unsigned)peer + 7000);
    } else {
        OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    free(sbuf);
    free(rbuf);
    OK(MPI_Finalize());
    return 0;
}
