/* Non-overtaking: messages from one source on one communicator and tag are received in the
 * order they were sent, whatever their sizes (small eager ones after large rendezvous ones
 * and the reverse), whether the receives come before or after the messages, with specific
 * or wildcard tags; messages on another communicator (a dup) never match. */
#include "p2p_check.h"

#define NMSG 120
#define NTAG 3
#define BIG 70000

/* message i of a sender: its tag and length (mixed small and large, deterministic) */
static int tag_of(int i)
{
    return (i * 7 + i / 5) % NTAG;
}

static size_t len_of(int i)
{
    static const size_t lens[] = {8, BIG, 16384, 16385, 0, 100, 40000, 1};
    return lens[(i * 3 + i / 8) % 8];
}

/* A message carries its index in its first int (when long enough) and a fill after it. */
static void make(unsigned char *buf, int src, int i)
{
    size_t n = len_of(i);
    p2p_fill(buf, n, (unsigned)(src * 1000 + i));
    if (n >= sizeof(int))
        memcpy(buf, &i, sizeof i);
}

static void check(unsigned char *buf, MPI_Status *st, int src, int i)
{
    size_t n = len_of(i);
    CHECK_STATUS(*st, src, tag_of(i), n);
    if (n >= sizeof(int)) {
        int got;
        memcpy(&got, buf, sizeof got);
        CHECK_INT(got, i);
        for (size_t k = sizeof(int); k < n; k++)
            if (buf[k] != p2p_byte((unsigned)(src * 1000 + i), k)) {
                fprintf(stderr, "message %d byte %zu wrong\n", i, k);
                CHECK(0);
            }
    }
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    unsigned char **sbuf = malloc(sizeof *sbuf * NMSG), **rbuf = malloc(sizeof *rbuf * NMSG);
    MPI_Request sreq[NMSG], rreq[NMSG];
    MPI_Status st[NMSG];
    CHECK(sbuf && rbuf);
    for (int i = 0; i < NMSG; i++) {
        sbuf[i] = p2p_malloc(BIG);
        rbuf[i] = p2p_malloc(BIG);
        make(sbuf[i], rank, i);
    }

    /* 1. all sent first; received tag by tag with specific tags */
    for (int i = 0; i < NMSG; i++)
        OK(MPI_Isend(sbuf[i], (int)len_of(i), MPI_BYTE, peer, tag_of(i), MPI_COMM_WORLD,
                     &sreq[i]));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int t = NTAG - 1; t >= 0; t--)
        for (int i = 0; i < NMSG; i++) {
            if (tag_of(i) != t)
                continue;
            OK(MPI_Recv(rbuf[0], BIG, MPI_BYTE, peer, t, MPI_COMM_WORLD, &st[0]));
            check(rbuf[0], &st[0], peer, i);
        }
    OK(MPI_Waitall(NMSG, sreq, MPI_STATUSES_IGNORE));
    OK(MPI_Barrier(MPI_COMM_WORLD));

    /* 2. all sent first; received with ANY_TAG (and ANY_SOURCE when alone with the peer):
     * the order of sending, across tags */
    for (int i = 0; i < NMSG; i++)
        OK(MPI_Isend(sbuf[i], (int)len_of(i), MPI_BYTE, peer, tag_of(i), MPI_COMM_WORLD,
                     &sreq[i]));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < NMSG; i++) {
        OK(MPI_Recv(rbuf[0], BIG, MPI_BYTE, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &st[0]));
        check(rbuf[0], &st[0], peer, i);
    }
    OK(MPI_Waitall(NMSG, sreq, MPI_STATUSES_IGNORE));
    OK(MPI_Barrier(MPI_COMM_WORLD));

    /* 3. receives posted first, half with ANY_TAG, half with the tag; then the sends, some
     * blocking. The i-th receive gets message i. */
    for (int i = 0; i < NMSG; i++)
        OK(MPI_Irecv(rbuf[i], BIG, MPI_BYTE, peer, i % 2 ? MPI_ANY_TAG : tag_of(i),
                     MPI_COMM_WORLD, &rreq[i]));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < NMSG; i++) {
        if (i % 3 == 0 || peer == rank)
            OK(MPI_Isend(sbuf[i], (int)len_of(i), MPI_BYTE, peer, tag_of(i), MPI_COMM_WORLD,
                         &sreq[i]));
        else {
            OK(MPI_Send(sbuf[i], (int)len_of(i), MPI_BYTE, peer, tag_of(i), MPI_COMM_WORLD));
            sreq[i] = MPI_REQUEST_NULL;
        }
    }
    OK(MPI_Waitall(NMSG, rreq, st));
    for (int i = 0; i < NMSG; i++)
        check(rbuf[i], &st[i], peer, i);
    OK(MPI_Waitall(NMSG, sreq, MPI_STATUSES_IGNORE));
    OK(MPI_Barrier(MPI_COMM_WORLD));

    /* 4. half the receives posted, the messages sent, the rest received later: the posted
     * ones get the first messages of each tag */
    for (int i = 0; i < NMSG / 2; i++)
        OK(MPI_Irecv(rbuf[i], BIG, MPI_BYTE, peer, tag_of(i), MPI_COMM_WORLD, &rreq[i]));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < NMSG; i++)
        OK(MPI_Isend(sbuf[i], (int)len_of(i), MPI_BYTE, peer, tag_of(i), MPI_COMM_WORLD,
                     &sreq[i]));
    for (int i = NMSG / 2; i < NMSG; i++)
        OK(MPI_Recv(rbuf[i], BIG, MPI_BYTE, peer, tag_of(i), MPI_COMM_WORLD, &st[i]));
    OK(MPI_Waitall(NMSG / 2, rreq, st));
    for (int i = 0; i < NMSG; i++)
        check(rbuf[i], &st[i], peer, i);
    OK(MPI_Waitall(NMSG, sreq, MPI_STATUSES_IGNORE));

    /* 5. another communicator: same source and tag, separate order */
    MPI_Comm dup;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    int a = 1, b = 2, got = 0;
    MPI_Request r2[2];
    OK(MPI_Isend(&a, 1, MPI_INT, peer, 9, dup, &r2[0]));
    OK(MPI_Isend(&b, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, &r2[1]));
    OK(MPI_Recv(&got, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_INT(got, 2);
    OK(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, MPI_STATUS_IGNORE));
    CHECK_INT(got, 1);
    OK(MPI_Waitall(2, r2, MPI_STATUSES_IGNORE));
    OK(MPI_Comm_free(&dup));

    for (int i = 0; i < NMSG; i++) {
        free(sbuf[i]);
        free(rbuf[i]);
    }
    free(sbuf);
    free(rbuf);
    OK(MPI_Finalize());
    return 0;
}
