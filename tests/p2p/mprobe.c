/* Matched probes: Improbe finds nothing before a message is sent; Mprobe/Improbe take the
 * message out of matching (a later Iprobe or Recv does not see it; a second message with
 * the same envelope goes to the next receive) and Mrecv/Imrecv receive exactly it, eager or
 * rendezvous, with derived receive types; MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC. */
#include "p2p_check.h"

static const size_t lens[] = {0, 64, 16385, 300000};
#define NLENS (sizeof lens / sizeof lens[0])

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    unsigned char *sbuf[2], *rbuf = p2p_malloc(300000);
    sbuf[0] = p2p_malloc(300000);
    sbuf[1] = p2p_malloc(300000);
    MPI_Request req[2], rreq;
    MPI_Message msg;
    MPI_Status st;
    int flag;

    for (size_t k = 0; k < NLENS; k++) {
        size_t n = lens[k];
        flag = -1;
        msg = MPI_MESSAGE_NULL;
        OK(MPI_Improbe(peer, 5, MPI_COMM_WORLD, &flag, &msg, &st));
        CHECK_INT(flag, 0);
        CHECK(msg == MPI_MESSAGE_NULL);
        OK(MPI_Barrier(MPI_COMM_WORLD));
        /* two messages with the same envelope */
        for (int i = 0; i < 2; i++) {
            p2p_fill(sbuf[i], n, (unsigned)(rank * 100 + k * 10 + i));
            OK(MPI_Isend(sbuf[i], (int)n, MPI_BYTE, peer, 5, MPI_COMM_WORLD, &req[i]));
        }
        /* take the first one; the next Recv gets the second */
        if (k % 2)
            OK(MPI_Mprobe(peer, 5, MPI_COMM_WORLD, &msg, &st));
        else
            do
                OK(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
            while (!flag);
        CHECK(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC);
        CHECK_STATUS(st, peer, 5, n);
        OK(MPI_Recv(rbuf, (int)n, MPI_BYTE, peer, 5, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, peer, 5, n);
        CHECK_FILL(rbuf, n, (unsigned)(peer * 100 + k * 10 + 1));
        OK(MPI_Iprobe(peer, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK_INT(flag, 0); /* the matched one is invisible */
        memset(rbuf, 0, n);
        if (k % 2) {
            OK(MPI_Mrecv(rbuf, (int)n, MPI_BYTE, &msg, &st));
        } else {
            OK(MPI_Imrecv(rbuf, (int)n, MPI_BYTE, &msg, &rreq));
            OK(MPI_Wait(&rreq, &st));
        }
        CHECK(msg == MPI_MESSAGE_NULL);
        CHECK_STATUS(st, peer, 5, n);
        CHECK_FILL(rbuf, n, (unsigned)(peer * 100 + k * 10));
        OK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
        OK(MPI_Barrier(MPI_COMM_WORLD));
    }

    /* Mrecv into a derived type: ints sent, received into every other int */
    int out[100], in[200];
    MPI_Datatype every_other;
    OK(MPI_Type_vector(100, 1, 2, MPI_INT, &every_other));
    OK(MPI_Type_commit(&every_other));
    for (int i = 0; i < 100; i++)
        out[i] = rank * 1000 + i;
    for (int i = 0; i < 200; i++)
        in[i] = -1;
    OK(MPI_Isend(out, 100, MPI_INT, peer, 6, MPI_COMM_WORLD, &req[0]));
    OK(MPI_Mprobe(peer, 6, MPI_COMM_WORLD, &msg, &st));
    OK(MPI_Mrecv(in, 1, every_other, &msg, &st));
    for (int i = 0; i < 200; i++)
        CHECK_INT(in[i], i % 2 ? -1 : peer * 1000 + i / 2);
    OK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    OK(MPI_Type_free(&every_other));

    /* MPI_PROC_NULL */
    OK(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NO_PROC);
    CHECK_INT(st.MPI_SOURCE, MPI_PROC_NULL);
    OK(MPI_Mrecv(rbuf, 10, MPI_BYTE, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NULL);
    CHECK_STATUS(st, MPI_PROC_NULL, MPI_ANY_TAG, 0);

    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 0);
    free(sbuf[0]);
    free(sbuf[1]);
    free(rbuf);
    OK(MPI_Finalize());
    return 0;
}
