/* p2p.c — point-to-point across an intercommunicator (inter_util.h's halves of world):
 * ranks name the remote group, statuses give the sender's rank in its own group, wildcards
 * and probes see only the remote group's messages on this communicator, and messages of
 * every size (cells, eager, rendezvous, chunked copies) arrive intact. With one rank there
 * is no intercommunicator: the program checks that world is not one. */
#include <stdlib.h>
#include <string.h>
#include "inter_util.h"

#define BIG (300 * 1000) /* several copy chunks */

static void fill(unsigned char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(seed * 31 + i * 7);
}

static void check_fill(const unsigned char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != (unsigned char)(seed * 31 + i * 7)) {
            fprintf(stderr, "byte %zu of a message from seed %d is wrong\n", i, seed);
            CHECK(0);
        }
}

/* Low rank i and high rank i (i below both sizes) play ping-pong with each size and mode. */
static void pingpong(struct halves *h)
{
    static const size_t sizes[] = {0, 8, 40, 1000, 20000, BIG};
    int peer = h->lrank;
    if (peer >= h->rsize)
        return;
    unsigned char *out = malloc(BIG), *in = malloc(BIG);
    CHECK(out && in);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        for (int mode = 0; mode < 3; mode++) { /* Send, Ssend, Isend + Irecv */
            int seed = (int)k * 3 + mode + 10 * h->lrank;
            MPI_Status st;
            if (!h->high) {
                fill(out, n, seed);
                if (mode == 0)
                    OK(MPI_Send(out, (int)n, MPI_BYTE, peer, 5, h->inter));
                else if (mode == 1)
                    OK(MPI_Ssend(out, (int)n, MPI_BYTE, peer, 5, h->inter));
                else {
                    MPI_Request r;
                    OK(MPI_Isend(out, (int)n, MPI_BYTE, peer, 5, h->inter, &r));
                    OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
                }
                memset(in, 0, n);
                OK(MPI_Recv(in, (int)n, MPI_BYTE, peer, 6, h->inter, &st));
                check_fill(in, n, seed + 1000);
            } else {
                memset(in, 0, n);
                if (mode < 2) {
                    OK(MPI_Recv(in, (int)n, MPI_BYTE, peer, 5, h->inter, &st));
                } else {
                    MPI_Request r;
                    OK(MPI_Irecv(in, (int)n, MPI_BYTE, peer, 5, h->inter, &r));
                    OK(MPI_Wait(&r, &st));
                }
                check_fill(in, n, seed);
                fill(out, n, seed + 1000);
                OK(MPI_Send(out, (int)n, MPI_BYTE, peer, 6, h->inter));
            }
            CHECK_INT(st.MPI_SOURCE, peer);
            int count;
            OK(MPI_Get_count(&st, MPI_BYTE, &count));
            CHECK_INT(count, (int)n);
        }
    }
    free(out);
    free(in);
}

/* Every rank of the high half sends to rank 0 of the low half (and the other way round):
 * the receiver takes them with MPI_ANY_SOURCE / MPI_ANY_TAG after probing, and sees each
 * remote rank once, tag = the sender's rank, data = its world rank. A message on world with
 * the same tag, sent first, must not be taken. */
static void wildcards(struct halves *h)
{
    int me = world_rank();
    if (h->lrank == 0) {
        /* first a message on world to the other leader: same tag space, other context */
        int other = h->high ? 0 : h->low_size;
        OK(MPI_Send(&me, 1, MPI_INT, other, 0, MPI_COMM_WORLD));
    }
    int mine[2] = {h->lrank, me};
    OK(MPI_Send(mine, 2, MPI_INT, 0, h->lrank, h->inter));
    if (h->lrank == 0) {
        char *seen = calloc((size_t)h->rsize, 1);
        CHECK(seen);
        for (int i = 0; i < h->rsize; i++) {
            MPI_Status st;
            int flag = 0;
            while (!flag)
                OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, h->inter, &flag, &st));
            int src = st.MPI_SOURCE;
            CHECK(src >= 0 && src < h->rsize);
            CHECK_INT(st.MPI_TAG, src);
            MPI_Status pst;
            OK(MPI_Probe(src, MPI_ANY_TAG, h->inter, &pst));
            CHECK_INT(pst.MPI_SOURCE, src);
            int got[2];
            if (i % 2) {
                MPI_Message msg;
                OK(MPI_Mprobe(src, MPI_ANY_TAG, h->inter, &msg, &st));
                OK(MPI_Mrecv(got, 2, MPI_INT, &msg, &st));
            } else {
                OK(MPI_Recv(got, 2, MPI_INT, MPI_ANY_SOURCE, src, h->inter, &st));
            }
            CHECK_INT(st.MPI_SOURCE, src);
            CHECK_INT(got[0], src);
            CHECK_INT(got[1], half_world(h, !h->high, src));
            CHECK(!seen[src]);
            seen[src] = 1;
        }
        free(seen);
        int flag = 1;
        OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, h->inter, &flag, MPI_STATUS_IGNORE));
        CHECK_INT(flag, 0); /* the world message is not on this communicator */
        int w;
        MPI_Status st;
        OK(MPI_Recv(&w, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st));
        CHECK_INT(w, h->high ? 0 : h->low_size);
    }
}

/* Sendrecv between partners, and MPI_PROC_NULL on the intercommunicator. */
static void sendrecv(struct halves *h)
{
    int peer = h->lrank % h->rsize;
    /* rank r of each half sends to remote r % rsize; the receivers count their senders */
    int expect = 0;
    for (int r = 0; r < h->rsize; r++)
        expect += r % h->lsize == h->lrank;
    MPI_Request *rq = malloc(sizeof *rq * (size_t)(expect + 1));
    int *vals = malloc(sizeof *vals * (size_t)(expect + 1));
    CHECK(rq && vals);
    for (int i = 0; i < expect; i++)
        OK(MPI_Irecv(&vals[i], 1, MPI_INT, MPI_ANY_SOURCE, 9, h->inter, &rq[i]));
    int v = 1000 * h->high + h->lrank;
    OK(MPI_Send(&v, 1, MPI_INT, peer, 9, h->inter));
    OK(MPI_Waitall(expect, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < expect; i++) {
        CHECK_INT(vals[i] / 1000, !h->high);
        CHECK_INT(vals[i] % 1000 % h->lsize, h->lrank);
    }
    free(rq);
    free(vals);
    if (h->lrank < h->rsize) {
        int got = -1;
        MPI_Status st;
        OK(MPI_Sendrecv(&v, 1, MPI_INT, h->lrank, 3, &got, 1, MPI_INT, h->lrank, 3, h->inter,
                        &st));
        CHECK_INT(got, 1000 * !h->high + h->lrank);
        CHECK_INT(st.MPI_SOURCE, h->lrank);
    }
    MPI_Status st;
    OK(MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 1, h->inter));
    OK(MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 1, h->inter, &st));
    CHECK_INT(st.MPI_SOURCE, MPI_PROC_NULL);
}

/* Persistent requests and buffered sends address the remote group too: partners exchange
 * over Send_init / Recv_init, three rounds, then one MPI_Bsend each way. */
static void persistent_and_buffered(struct halves *h)
{
    if (h->lrank >= h->rsize)
        return;
    int peer = h->lrank, out = 0, in = -1;
    MPI_Request rq[2];
    OK(MPI_Send_init(&out, 1, MPI_INT, peer, 21, h->inter, &rq[0]));
    OK(MPI_Recv_init(&in, 1, MPI_INT, peer, 21, h->inter, &rq[1]));
    for (int round = 0; round < 3; round++) {
        out = 1000 * h->high + 10 * round + h->lrank;
        OK(MPI_Startall(2, rq));
        OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        CHECK_INT(in, 1000 * !h->high + 10 * round + peer);
    }
    OK(MPI_Request_free(&rq[0]));
    OK(MPI_Request_free(&rq[1]));
    static _Thread_local char space[1024 + MPI_BSEND_OVERHEAD];
    void *old;
    int size;
    OK(MPI_Buffer_attach(space, sizeof space));
    out = 77 + h->high;
    OK(MPI_Bsend(&out, 1, MPI_INT, peer, 22, h->inter));
    OK(MPI_Recv(&in, 1, MPI_INT, peer, 22, h->inter, MPI_STATUS_IGNORE));
    CHECK_INT(in, 77 + !h->high);
    OK(MPI_Buffer_detach(&old, &size));
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int flag = 1;
    OK(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag));
    CHECK_INT(flag, 0);
    if (world_size() >= 2) {
        struct halves h;
        halves_make(&h, 42);
        OK(MPI_Comm_test_inter(h.inter, &flag));
        CHECK_INT(flag, 1);
        pingpong(&h);
        wildcards(&h);
        OK(MPI_Barrier(MPI_COMM_WORLD)); /* the wildcards must not see the next phase */
        sendrecv(&h);
        persistent_and_buffered(&h);
        halves_free(&h);
    }
    OK(MPI_Finalize());
    return 0;
}
