/* The first posted receive's copy in its queue's line (struct loom_match's `head`, p2p.h): a
 * sender that finds receives posted matches the first one from that copy, and the copy must
 * follow the queue through every change. Each case posts receives from the partner, meets it
 * in a barrier (so every message below finds its receive posted and is matched by its
 * sender), and checks that every message landed in the buffer of the receive the standard
 * names (the oldest posted that matches) and that every other buffer is untouched:
 *  - a message that the first receive does not match goes further down the queue (and leaves
 *    the copy of the first one as it was);
 *  - the first receive cancelled, or taken while others wait behind it: the next one must be
 *    read again, not matched through the old copy (which names another buffer);
 *  - the same with messages that move in chunk tasks.
 * Messages are larger than the rings' cells, so that the sender matches them. */
#include "p2p_check.h"

#define MID 1200         /* bytes: past the cells, below the eager threshold */
#define BIG (256 * 1024) /* bytes: several copy chunks */
#define NBUF 6

/* One rank's state (the test's ranks are threads of one process: no globals). */
struct side {
    int rank, peer;
    unsigned char *buf[NBUF];
    MPI_Request req[NBUF];
};

/* The id of the message a rank sends with `tag`. */
static unsigned msg_id(int from, int tag) { return (unsigned)(from * 1000 + tag); }

static void post(struct side *s, int i, size_t n, int tag)
{
    memset(s->buf[i], 0xee, n);
    OK(MPI_Irecv(s->buf[i], (int)n, MPI_BYTE, s->peer, tag, MPI_COMM_WORLD, &s->req[i]));
}

static void send(struct side *s, size_t n, int tag)
{
    unsigned char *out = p2p_malloc(n);
    p2p_fill(out, n, msg_id(s->rank, tag));
    OK(MPI_Send(out, (int)n, MPI_BYTE, s->peer, tag, MPI_COMM_WORLD));
    free(out);
}

/* Receive i completed with the message of tag `tag`. */
static void landed(struct side *s, int i, size_t n, int tag)
{
    MPI_Status st;
    OK(MPI_Wait(&s->req[i], &st));
    CHECK_STATUS(st, s->peer, tag, n);
    CHECK_FILL(s->buf[i], n, msg_id(s->peer, tag));
}

/* Receive i is cancelled, and nothing reached its buffer. */
static void cancel_untouched(struct side *s, int i, size_t n)
{
    MPI_Status st;
    int flag = 0;
    OK(MPI_Cancel(&s->req[i]));
    OK(MPI_Wait(&s->req[i], &st));
    OK(MPI_Test_cancelled(&st, &flag));
    CHECK_INT(flag, 1);
    CHECK_BYTES(s->buf[i], n, 0xee);
}

static void barrier(void) { OK(MPI_Barrier(MPI_COMM_WORLD)); }

static void cases(struct side *s, size_t n)
{
    /* past a first receive that does not match, to the second and to a wildcard third */
    post(s, 0, n, 1);
    post(s, 1, n, 2);
    post(s, 2, n, MPI_ANY_TAG);
    barrier();
    send(s, n, 2);
    send(s, n, 3);
    landed(s, 1, n, 2);
    landed(s, 2, n, 3);
    CHECK_BYTES(s->buf[0], n, 0xee);
    barrier();
    cancel_untouched(s, 0, n);

    /* the first taken while two wait behind it; then a message for the third, then one for
     * the second, whose copy must be read afresh */
    post(s, 0, n, 6);
    post(s, 1, n, 7);
    post(s, 2, n, 8);
    barrier();
    send(s, n, 6);
    send(s, n, 8);
    send(s, n, 7);
    landed(s, 0, n, 6);
    landed(s, 2, n, 8);
    landed(s, 1, n, 7);
    barrier();

    /* the first cancelled while another with the same tag waits: the message goes to the
     * second, not to the cancelled one's buffer */
    post(s, 3, n, 9);
    post(s, 4, n, 9);
    cancel_untouched(s, 3, n);
    barrier();
    send(s, n, 9);
    landed(s, 4, n, 9);
    CHECK_BYTES(s->buf[3], n, 0xee);
    barrier();

    /* the queue emptied and filled again: the new first receive is the one matched */
    post(s, 5, n, 10);
    barrier();
    send(s, n, 10);
    landed(s, 5, n, 10);
    barrier();
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    struct side s;
    s.rank = p2p_rank();
    s.peer = p2p_partner(s.rank, p2p_size());
    for (int i = 0; i < NBUF; i++)
        s.buf[i] = p2p_malloc(BIG);
    cases(&s, MID);
    cases(&s, BIG);
    for (int i = 0; i < NBUF; i++)
        free(s.buf[i]);
    OK(MPI_Finalize());
    return 0;
}
