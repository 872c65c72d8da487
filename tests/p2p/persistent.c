/* Persistent requests (under MPI_ERRORS_RETURN): Send_init, Ssend_init, Rsend_init,
 * Bsend_init and Recv_init started many times (Start and Startall, completed by Wait, Test,
 * Waitall) with the data changing between starts, small and large; an Ssend_init start does
 * not complete before the peer's receive is started; inactive requests act as complete
 * (Wait, Test, Request_get_status), keep their handle, and are freed with Request_free;
 * Start on an active request fails with MPI_ERR_REQUEST; a request freed while active
 * still completes its operation. */
#include "p2p_check.h"

#define ITERS 40
#define BIG 100000

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    unsigned char *sbuf = p2p_malloc(BIG), *rbuf = p2p_malloc(BIG);
    int sv[4], rv[4], flag;
    MPI_Request r[8];
    MPI_Status st[8];

    /* four kinds of send, each with its receive, on separate tags */
    OK(MPI_Recv_init(&rv[0], 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &r[0]));
    OK(MPI_Recv_init(&rv[1], 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &r[1]));
    OK(MPI_Recv_init(&rv[2], 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &r[2]));
    OK(MPI_Recv_init(&rv[3], 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &r[3]));
    OK(MPI_Send_init(&sv[0], 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &r[4]));
    OK(MPI_Ssend_init(&sv[1], 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &r[5]));
    OK(MPI_Rsend_init(&sv[2], 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &r[6]));
    OK(MPI_Bsend_init(&sv[3], 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &r[7]));
    int bsize = 4 * (64 + MPI_BSEND_OVERHEAD);
    void *battach = p2p_malloc((size_t)bsize);
    OK(MPI_Buffer_attach(battach, bsize));

    /* inactive: complete-looking, handle kept */
    MPI_Request keep = r[4];
    OK(MPI_Wait(&r[4], &st[0]));
    CHECK(r[4] == keep);
    OK(MPI_Test(&r[4], &flag, &st[0]));
    CHECK_INT(flag, 1);
    CHECK(r[4] == keep);
    OK(MPI_Request_get_status(r[4], &flag, &st[0]));
    CHECK_INT(flag, 1);

    for (int it = 0; it < ITERS; it++) {
        for (int i = 0; i < 4; i++)
            sv[i] = rank * 10000 + it * 10 + i;
        memset(rv, 0xff, sizeof rv);
        /* receives first (the ready send needs its receive posted: barrier) */
        OK(MPI_Startall(4, r));
        FAILS(MPI_Start(&r[0]), MPI_ERR_REQUEST); /* already active */
        OK(MPI_Barrier(MPI_COMM_WORLD));
        if (it % 2) {
            OK(MPI_Startall(4, &r[4]));
        } else {
            for (int i = 4; i < 8; i++)
                OK(MPI_Start(&r[i]));
        }
        switch (it % 3) {
        case 0:
            OK(MPI_Waitall(8, r, st));
            break;
        case 1:
            for (int i = 7; i >= 0; i--)
                OK(MPI_Wait(&r[i], &st[i]));
            break;
        default:
            do
                OK(MPI_Testall(8, r, &flag, st));
            while (!flag);
        }
        for (int i = 0; i < 4; i++) {
            CHECK_INT(rv[i], peer * 10000 + it * 10 + i);
            CHECK_STATUS(st[i], peer, i, sizeof(int));
        }
        for (int i = 0; i < 8; i++)
            CHECK(r[i] != MPI_REQUEST_NULL);
    }
    for (int i = 0; i < 8; i++) {
        OK(MPI_Request_free(&r[i]));
        CHECK(r[i] == MPI_REQUEST_NULL);
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));

    /* the synchronous one: not complete until the peer's receive is started */
    MPI_Request ss, rr;
    OK(MPI_Ssend_init(sbuf, 10, MPI_BYTE, peer, 7, MPI_COMM_WORLD, &ss));
    OK(MPI_Recv_init(rbuf, 10, MPI_BYTE, peer, 7, MPI_COMM_WORLD, &rr));
    for (int it = 0; it < 5; it++) {
        p2p_fill(sbuf, 10, (unsigned)(rank * 10 + it));
        OK(MPI_Start(&ss));
        OK(MPI_Test(&ss, &flag, MPI_STATUS_IGNORE));
        CHECK_INT(flag, 0);
        OK(MPI_Request_get_status(ss, &flag, MPI_STATUS_IGNORE));
        CHECK_INT(flag, 0);
        OK(MPI_Barrier(MPI_COMM_WORLD));
        OK(MPI_Start(&rr));
        OK(MPI_Wait(&rr, &st[0]));
        CHECK_FILL(rbuf, 10, (unsigned)(peer * 10 + it));
        OK(MPI_Wait(&ss, MPI_STATUS_IGNORE));
        OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    OK(MPI_Request_free(&ss));
    OK(MPI_Request_free(&rr));

    /* large messages, the buffers refilled between starts */
    OK(MPI_Send_init(sbuf, BIG, MPI_BYTE, peer, 8, MPI_COMM_WORLD, &ss));
    OK(MPI_Recv_init(rbuf, BIG, MPI_BYTE, peer, 8, MPI_COMM_WORLD, &rr));
    for (int it = 0; it < 10; it++) {
        p2p_fill(sbuf, BIG, (unsigned)(rank * 100 + it));
        MPI_Request both[2] = {ss, rr};
        OK(MPI_Startall(2, both));
        OK(MPI_Waitall(2, both, st));
        CHECK(both[0] == ss && both[1] == rr);
        CHECK_STATUS(st[1], peer, 8, BIG);
        CHECK_FILL(rbuf, BIG, (unsigned)(peer * 100 + it));
        OK(MPI_Barrier(MPI_COMM_WORLD)); /* the peer is done with sbuf */
    }
    /* freed while active: the operations still happen */
    p2p_fill(sbuf, BIG, 4242u + (unsigned)rank);
    OK(MPI_Start(&rr));
    OK(MPI_Start(&ss));
    OK(MPI_Request_free(&rr));
    OK(MPI_Wait(&ss, MPI_STATUS_IGNORE));
    OK(MPI_Request_free(&ss));
    OK(MPI_Barrier(MPI_COMM_WORLD)); /* in loom a send completes once the data is in place */
    CHECK_FILL(rbuf, BIG, 4242u + (unsigned)peer);

    void *got;
    int got_size;
    OK(MPI_Buffer_detach(&got, &got_size));
    free(battach);
    free(sbuf);
    free(rbuf);
    OK(MPI_Finalize());
    return 0;
}
