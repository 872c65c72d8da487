/* MPI_THREAD_MULTIPLE: 4 threads per rank (created inside the rank: they act for it) send
 * and receive at once, thread t using tag t only, so that each thread's messages are its
 * own. Thread t of every rank sends ROUNDS messages to each rank (itself included) and
 * receives ROUNDS from each, mixing blocking and nonblocking calls, specific and
 * ANY_SOURCE receives, probes and sizes on both sides of the eager threshold. Per (source,
 * tag) the messages come in order; the totals are checked after the join. Each thread ends
 * its rounds with a barrier on a communicator of its own. */
#include <pthread.h>
#include <stdatomic.h>
#include "p2p_check.h"

#define NT 4
#define ROUNDS 30
#define MAXLEN 40000

struct arg {
    int t, rank, size;
    MPI_Comm round_comm; /* this thread's own dup of MPI_COMM_WORLD, for its round barriers */
    long received, bytes; /* written by the thread, read after the join */
};

static size_t len_of(int src, int dst, int t, int round)
{
    unsigned x = (unsigned)(src * 131 + dst * 31 + t * 7 + round * 3);
    return x % 5 == 0 ? 20000 + x % 20000 : x % 3000; /* some rendezvous, most eager */
}

static unsigned id_of(int src, int dst, int t, int round)
{
    return (unsigned)(((src * 64 + dst) * NT + t) * 1000 + round);
}

static void *worker(void *p)
{
    struct arg *a = p;
    int t = a->t, me = a->rank, n = a->size;
    unsigned char *sbuf = p2p_malloc((size_t)n * MAXLEN), *rbuf = p2p_malloc(MAXLEN);
    MPI_Request *sreq = p2p_malloc(sizeof *sreq * (size_t)n);
    int *next = calloc((size_t)n, sizeof *next); /* next round expected from each source */
    CHECK(next != NULL);
    for (int round = 0; round < ROUNDS; round++) {
        /* sends to everyone, nonblocking, each from its own slice of sbuf */
        for (int d = 0; d < n; d++) {
            size_t len = len_of(me, d, t, round);
            unsigned char *b = sbuf + (size_t)d * MAXLEN;
            p2p_fill(b, len, id_of(me, d, t, round));
            if ((round + d) % 3 == 0)
                OK(MPI_Issend(b, (int)len, MPI_BYTE, d, t, MPI_COMM_WORLD, &sreq[d]));
            else
                OK(MPI_Isend(b, (int)len, MPI_BYTE, d, t, MPI_COMM_WORLD, &sreq[d]));
        }
        /* receive one message from each source, in ways that vary by round */
        for (int k = 0; k < n; k++) {
            MPI_Status st;
            int src;
            switch (round % 3) {
            case 0: /* by source, blocking */
                src = (me + k) % n;
                OK(MPI_Recv(rbuf, MAXLEN, MPI_BYTE, src, t, MPI_COMM_WORLD, &st));
                break;
            case 1: /* any source, tag t */
                OK(MPI_Recv(rbuf, MAXLEN, MPI_BYTE, MPI_ANY_SOURCE, t, MPI_COMM_WORLD, &st));
                break;
            default: { /* probe, then a nonblocking receive of exactly the probed message */
                MPI_Request r;
                int count;
                OK(MPI_Probe(MPI_ANY_SOURCE, t, MPI_COMM_WORLD, &st));
                OK(MPI_Get_count(&st, MPI_BYTE, &count));
                OK(MPI_Irecv(rbuf, count, MPI_BYTE, st.MPI_SOURCE, t, MPI_COMM_WORLD, &r));
                OK(MPI_Wait(&r, &st));
            }
            }
            src = st.MPI_SOURCE;
            CHECK(src >= 0 && src < n);
            CHECK_INT(st.MPI_TAG, t);
            /* one message per source per round, in order */
            CHECK_INT(next[src], round);
            next[src]++;
            size_t len = len_of(src, me, t, round);
            int count;
            OK(MPI_Get_count(&st, MPI_BYTE, &count));
            CHECK_INT(count, len);
            CHECK_FILL(rbuf, len, id_of(src, me, t, round));
            a->received++;
            a->bytes += (long)len;
        }
        OK(MPI_Waitall(n, sreq, MPI_STATUSES_IGNORE));
        /* no source starts round+1 before everyone got round's messages (so an ANY_SOURCE
         * receive cannot take a message of the next round); one communicator per thread
         * keeps the barriers of different threads apart */
        OK(MPI_Barrier(a->round_comm));
    }
    free(next);
    free(sreq);
    free(sbuf);
    free(rbuf);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1;
    OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    int rank = p2p_rank(), size = p2p_size();
    pthread_t th[NT];
    struct arg args[NT];
    for (int t = 0; t < NT; t++) {
        args[t] = (struct arg){t, rank, size, MPI_COMM_NULL, 0, 0};
        OK(MPI_Comm_dup(MPI_COMM_WORLD, &args[t].round_comm));
        CHECK_INT(pthread_create(&th[t], NULL, worker, &args[t]), 0);
    }
    for (int t = 0; t < NT; t++)
        CHECK_INT(pthread_join(th[t], NULL), 0);
    for (int t = 0; t < NT; t++) {
        OK(MPI_Comm_free(&args[t].round_comm));
        long want = 0;
        for (int s = 0; s < size; s++)
            for (int r = 0; r < ROUNDS; r++)
                want += (long)len_of(s, rank, t, r);
        CHECK_INT(args[t].received, (long)size * ROUNDS);
        CHECK_INT(args[t].bytes, want);
    }
    /* nothing left for anyone */
    int flag;
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 0);
    OK(MPI_Finalize());
    return 0;
}
