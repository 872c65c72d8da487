/* MPI_Probe and MPI_Iprobe: nothing found before a message is sent (barrier-ordered), then
 * the status tells source, tag and size (eager and rendezvous), probing does not consume
 * (probe twice, then receive with a buffer sized from Get_count), wildcards find the first
 * message in order, a blocking probe waits for a message sent later, and nothing is left. */
#include "p2p_check.h"

static const size_t lens[] = {0, 50, 16384, 16385, 400000};
#define NLENS (sizeof lens / sizeof lens[0])

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    unsigned char *sbuf = p2p_malloc(400000);
    MPI_Request req;
    MPI_Status st;
    int flag, count;

    for (size_t k = 0; k < NLENS; k++) {
        size_t n = lens[k];
        int tag = 10 + (int)k;
        flag = -1;
        OK(MPI_Iprobe(peer, tag, MPI_COMM_WORLD, &flag, &st));
        CHECK_INT(flag, 0);
        OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
        CHECK_INT(flag, 0);
        OK(MPI_Barrier(MPI_COMM_WORLD));
        p2p_fill(sbuf, n, (unsigned)(rank * 10 + k));
        OK(MPI_Isend(sbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req));
        /* blocking probe, then a non-blocking one: same answer, nothing consumed */
        OK(MPI_Probe(peer, tag, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, peer, tag, n);
        do
            OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
        while (!flag);
        CHECK_STATUS(st, peer, tag, n);
        OK(MPI_Iprobe(peer, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK_INT(flag, 1);
        OK(MPI_Get_count(&st, MPI_BYTE, &count));
        unsigned char *rbuf = p2p_malloc((size_t)count);
        OK(MPI_Recv(rbuf, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, peer, tag, n);
        CHECK_FILL(rbuf, n, (unsigned)(peer * 10 + k));
        free(rbuf);
        OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        OK(MPI_Iprobe(peer, tag, MPI_COMM_WORLD, &flag, &st));
        CHECK_INT(flag, 0);
        OK(MPI_Barrier(MPI_COMM_WORLD));
    }

    /* wildcard probes see messages in order: three tags from the peer */
    int v[3] = {rank, rank + 1, rank + 2}, in;
    MPI_Request reqs[3];
    for (int i = 0; i < 3; i++)
        OK(MPI_Isend(&v[i], 1, MPI_INT, peer, 30 - i, MPI_COMM_WORLD, &reqs[i]));
    for (int i = 0; i < 3; i++) {
        OK(MPI_Probe(peer, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        CHECK_INT(st.MPI_TAG, 30 - i);
        OK(MPI_Probe(MPI_ANY_SOURCE, 30 - i, MPI_COMM_WORLD, &st));
        CHECK_INT(st.MPI_SOURCE, peer);
        OK(MPI_Recv(&in, 1, MPI_INT, peer, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_INT(in, peer + i);
    }
    OK(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE));

    /* a blocking probe for a message sent only after the barrier that follows the probe
     * call on the other side: pairs only, the even rank probes, the odd one sends */
    OK(MPI_Barrier(MPI_COMM_WORLD));
    if (peer != rank) {
        if (rank % 2 == 0) {
            OK(MPI_Probe(peer, 40, MPI_COMM_WORLD, &st));
            CHECK_STATUS(st, peer, 40, sizeof(int));
            OK(MPI_Recv(&in, 1, MPI_INT, peer, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_INT(in, peer);
        } else {
            OK(MPI_Send(&rank, 1, MPI_INT, peer, 40, MPI_COMM_WORLD));
        }
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 0);
    free(sbuf);
    OK(MPI_Finalize());
    return 0;
}
