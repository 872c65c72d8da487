/* Buffered sends (under MPI_ERRORS_RETURN): Bsend and Ibsend complete at once and free the
 * user's buffer (overwritten right after, the peer still gets the original); a buffer of
 * sum(Pack_size + MPI_BSEND_OVERHEAD) holds exactly that many pending messages and one more
 * fails with MPI_ERR_BUFFER; no buffer attached fails too; Buffer_detach returns the buffer
 * and size attached and waits until the buffered messages are delivered; a second attach
 * fails; space comes back once messages are received. Message sizes above the eager
 * threshold (also under LOOM_EAGER_MAX=1M) keep messages pending in the buffer. */
#include "p2p_check.h"

#define BIG (2 * 1024 * 1024 + 3) /* pending until received, even under LOOM_EAGER_MAX=1M */

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    unsigned char *sbuf = p2p_malloc(BIG), *rbuf = p2p_malloc(BIG);
    MPI_Status st;
    MPI_Request req;
    int pack, small = 100;
    void *got;
    int got_size;

    /* no buffer attached */
    FAILS(MPI_Bsend(sbuf, 10, MPI_BYTE, peer, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    FAILS(MPI_Ibsend(sbuf, 10, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &req), MPI_ERR_BUFFER);
    FAILS(MPI_Buffer_detach(&got, &got_size), MPI_ERR_BUFFER);

    /* room for exactly two pending BIG messages */
    OK(MPI_Pack_size(BIG, MPI_BYTE, MPI_COMM_WORLD, &pack));
    CHECK(pack >= BIG);
    int bsize = 2 * (pack + MPI_BSEND_OVERHEAD);
    char *attached = p2p_malloc((size_t)bsize);
    OK(MPI_Buffer_attach(attached, bsize));
    CHECK(MPI_Buffer_attach(attached, bsize) != MPI_SUCCESS); /* one at a time */
    for (int i = 0; i < 2; i++) {
        p2p_fill(sbuf, BIG, (unsigned)(rank * 10 + i));
        if (i == 0) {
            OK(MPI_Bsend(sbuf, BIG, MPI_BYTE, peer, 1, MPI_COMM_WORLD));
        } else {
            OK(MPI_Ibsend(sbuf, BIG, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req));
            int flag = 0;
            OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE)); /* complete at once */
            CHECK_INT(flag, 1);
        }
        memset(sbuf, 0, BIG); /* the user's buffer is free again */
    }
    /* full: neither a big nor a small message fits now */
    FAILS(MPI_Bsend(sbuf, BIG, MPI_BYTE, peer, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    FAILS(MPI_Bsend(sbuf, small, MPI_BYTE, peer, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < 2; i++) {
        OK(MPI_Recv(rbuf, BIG, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, peer, 1, BIG);
        CHECK_FILL(rbuf, BIG, (unsigned)(peer * 10 + i));
    }
    /* the peer received my messages before detach returns: then the buffer is mine */
    OK(MPI_Buffer_detach(&got, &got_size));
    CHECK(got == attached);
    CHECK_INT(got_size, bsize);
    memset(attached, 0, (size_t)bsize);
    OK(MPI_Barrier(MPI_COMM_WORLD));

    /* many small messages in a buffer sized for them by the standard's formula; space
     * freed by delivery is reused */
    enum { K = 8 };
    OK(MPI_Pack_size(small, MPI_BYTE, MPI_COMM_WORLD, &pack));
    bsize = K * (pack + MPI_BSEND_OVERHEAD);
    OK(MPI_Buffer_attach(attached, bsize));
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < K; i++) {
            p2p_fill(sbuf, (size_t)small, (unsigned)(rank * 1000 + round * 100 + i));
            OK(MPI_Bsend(sbuf, small, MPI_BYTE, peer, 2, MPI_COMM_WORLD));
        }
        for (int i = 0; i < K; i++) {
            OK(MPI_Recv(rbuf, small, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &st));
            CHECK_FILL(rbuf, (size_t)small, (unsigned)(peer * 1000 + round * 100 + i));
        }
        OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    /* typed buffered send: 3 doubles, Pack_size accounting in the type */
    double d[3] = {rank + 0.5, 1.25, -2.0}, e[3];
    OK(MPI_Bsend(d, 3, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD));
    OK(MPI_Recv(e, 3, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(e[0] == peer + 0.5 && e[2] == -2.0);
    /* zero bytes */
    OK(MPI_Bsend(NULL, 0, MPI_BYTE, peer, 4, MPI_COMM_WORLD));
    OK(MPI_Recv(NULL, 0, MPI_BYTE, peer, 4, MPI_COMM_WORLD, &st));
    CHECK_STATUS(st, peer, 4, 0);
    OK(MPI_Buffer_detach(&got, &got_size));
    CHECK(got == attached);

    /* detach waits for delivery: the peer receives without any other synchronisation and
     * the data it gets is the message, though the buffer is wiped as soon as detach
     * returns. (A self-message would wait for our own receive: pairs only.) */
    if (peer != rank) {
        OK(MPI_Pack_size(BIG, MPI_BYTE, MPI_COMM_WORLD, &pack));
        bsize = pack + MPI_BSEND_OVERHEAD;
        OK(MPI_Buffer_attach(attached, bsize));
        if (rank % 2 == 0) {
            p2p_fill(sbuf, BIG, (unsigned)rank + 77);
            OK(MPI_Bsend(sbuf, BIG, MPI_BYTE, peer, 5, MPI_COMM_WORLD));
            OK(MPI_Buffer_detach(&got, &got_size));
            memset(attached, 0xff, (size_t)bsize);
        } else {
            OK(MPI_Recv(rbuf, BIG, MPI_BYTE, peer, 5, MPI_COMM_WORLD, &st));
            CHECK_FILL(rbuf, BIG, (unsigned)peer + 77);
            OK(MPI_Buffer_detach(&got, &got_size));
        }
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    free(attached);
    free(sbuf);
    free(rbuf);
    OK(MPI_Finalize());
    return 0;
}
