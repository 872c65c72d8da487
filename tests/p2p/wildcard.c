/* MPI_ANY_SOURCE and MPI_ANY_TAG: every rank sends one message to every rank (itself
 * included) and receives them all with wildcards, the status telling what came; wildcard
 * receives posted before the messages; ANY_TAG with a given source and ANY_SOURCE with a
 * given tag. Small and large messages (by source parity) exercise both protocols. */
#include "p2p_check.h"

static size_t msg_len(int src)
{
    return src % 2 ? 40000 : 24;
}

static int msg_tag(int src, int dst)
{
    return (src * 7 + dst) % 5;
}

static unsigned msg_id(int src, int dst, int round)
{
    return (unsigned)(round * 10000 + src * 100 + dst);
}

/* Check one received message against what `st` says came. */
static void check_msg(unsigned char *buf, MPI_Status *st, int me, int round, int *seen)
{
    int src = st->MPI_SOURCE;
    CHECK(src >= 0 && src < p2p_size());
    CHECK_INT(seen[src], 0);
    seen[src] = 1;
    CHECK_STATUS(*st, src, msg_tag(src, me), msg_len(src));
    CHECK_FILL(buf, msg_len(src), msg_id(src, me, round));
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size();
    unsigned char **sbuf = malloc(sizeof *sbuf * (size_t)size);
    unsigned char **rbuf = malloc(sizeof *rbuf * (size_t)size);
    MPI_Request *sreq = malloc(sizeof *sreq * (size_t)size);
    MPI_Request *rreq = malloc(sizeof *rreq * (size_t)size);
    MPI_Status *st = malloc(sizeof *st * (size_t)size);
    int *seen = malloc(sizeof *seen * (size_t)size);
    CHECK(sbuf && rbuf && sreq && rreq && st && seen);
    for (int i = 0; i < size; i++) {
        sbuf[i] = p2p_malloc(40000);
        rbuf[i] = p2p_malloc(40000);
    }

    /* round 0: messages first (unexpected), then ANY_SOURCE + ANY_TAG blocking receives */
    for (int d = 0; d < size; d++) {
        p2p_fill(sbuf[d], msg_len(rank), msg_id(rank, d, 0));
        OK(MPI_Isend(sbuf[d], (int)msg_len(rank), MPI_BYTE, d, msg_tag(rank, d), MPI_COMM_WORLD,
                     &sreq[d]));
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    memset(seen, 0, sizeof *seen * (size_t)size);
    for (int i = 0; i < size; i++) {
        MPI_Status s;
        OK(MPI_Recv(rbuf[0], 40000, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &s));
        check_msg(rbuf[0], &s, rank, 0, seen);
    }
    OK(MPI_Waitall(size, sreq, MPI_STATUSES_IGNORE));
    OK(MPI_Barrier(MPI_COMM_WORLD));

    /* round 1: wildcard receives posted first, then the messages */
    for (int i = 0; i < size; i++)
        OK(MPI_Irecv(rbuf[i], 40000, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                     &rreq[i]));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int d = 0; d < size; d++) {
        p2p_fill(sbuf[d], msg_len(rank), msg_id(rank, d, 1));
        OK(MPI_Isend(sbuf[d], (int)msg_len(rank), MPI_BYTE, d, msg_tag(rank, d), MPI_COMM_WORLD,
                     &sreq[d]));
    }
    OK(MPI_Waitall(size, rreq, st));
    memset(seen, 0, sizeof *seen * (size_t)size);
    for (int i = 0; i < size; i++)
        check_msg(rbuf[i], &st[i], rank, 1, seen);
    OK(MPI_Waitall(size, sreq, MPI_STATUSES_IGNORE));
    OK(MPI_Barrier(MPI_COMM_WORLD));

    /* round 2: ANY_TAG from each given source, then ANY_SOURCE with each given tag */
    for (int d = 0; d < size; d++) {
        p2p_fill(sbuf[d], msg_len(rank), msg_id(rank, d, 2));
        OK(MPI_Isend(sbuf[d], (int)msg_len(rank), MPI_BYTE, d, msg_tag(rank, d), MPI_COMM_WORLD,
                     &sreq[d]));
    }
    memset(seen, 0, sizeof *seen * (size_t)size);
    for (int s = size - 1; s >= 0; s--) {
        MPI_Status stat;
        OK(MPI_Recv(rbuf[0], 40000, MPI_BYTE, s, MPI_ANY_TAG, MPI_COMM_WORLD, &stat));
        CHECK_INT(stat.MPI_SOURCE, s);
        check_msg(rbuf[0], &stat, rank, 2, seen);
    }
    OK(MPI_Waitall(size, sreq, MPI_STATUSES_IGNORE));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int d = 0; d < size; d++) {
        p2p_fill(sbuf[d], msg_len(rank), msg_id(rank, d, 3));
        OK(MPI_Isend(sbuf[d], (int)msg_len(rank), MPI_BYTE, d, msg_tag(rank, d), MPI_COMM_WORLD,
                     &sreq[d]));
    }
    memset(seen, 0, sizeof *seen * (size_t)size);
    for (int tag = 0; tag < 5; tag++) {
        int expect = 0;
        for (int s = 0; s < size; s++)
            expect += msg_tag(s, rank) == tag;
        for (int i = 0; i < expect; i++) {
            MPI_Status stat;
            OK(MPI_Recv(rbuf[0], 40000, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &stat));
            CHECK_INT(stat.MPI_TAG, tag);
            check_msg(rbuf[0], &stat, rank, 3, seen);
        }
    }
    for (int s = 0; s < size; s++)
        CHECK_INT(seen[s], 1);
    OK(MPI_Waitall(size, sreq, MPI_STATUSES_IGNORE));

    /* nothing left over */
    int flag = -1;
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 0);

    for (int i = 0; i < size; i++) {
        free(sbuf[i]);
        free(rbuf[i]);
    }
    free(sbuf), free(rbuf), free(sreq), free(rreq), free(st), free(seen);
    OK(MPI_Finalize());
    return 0;
}
