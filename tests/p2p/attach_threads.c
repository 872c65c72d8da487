/* Buffers of several communicators used by several threads of a rank at once
 * (MPI_THREAD_MULTIPLE), around the ring: T sender threads do K buffered sends each on
 * communicator A (one buffer attached to A, with room for all of them); meanwhile an
 * attacher thread attaches a buffer to communicator B, does a buffered send on B, detaches
 * (checking it gets its buffer back), and again, R times, alternating a user buffer and
 * MPI_BUFFER_AUTOMATIC; another thread flushes A's buffer with iflush requests. Two receiver
 * threads take A's messages (per sender thread, in order) and B's. Every message arrives
 * intact; A's buffer is empty at the end (its detach gives it back at once). */
#include <pthread.h>
#include "p2p_check.h"

enum { T = 3, K = 40, R = 30, S = 3000 };

struct ctx {
    MPI_Comm a, b;
    int rank, next, prev;
    int t; /* the sender thread's index */
};

static unsigned msg_id(int rank, int t, int k)
{
    return (unsigned)(rank * 100000 + t * 1000 + k);
}

static void *sender(void *arg)
{
    const struct ctx *c = arg;
    unsigned char *buf = p2p_malloc(S);
    for (int k = 0; k < K; k++) {
        p2p_fill(buf, S, msg_id(c->rank, c->t, k));
        OK(MPI_Bsend(buf, S, MPI_BYTE, c->next, c->t, c->a));
    }
    free(buf);
    return NULL;
}

static void *attacher(void *arg)
{
    const struct ctx *c = arg;
    int room = S + MPI_BSEND_OVERHEAD;
    char *mine = p2p_malloc((size_t)room);
    unsigned char *buf = p2p_malloc(S);
    for (int k = 0; k < R; k++) {
        void *attach = k % 2 ? MPI_BUFFER_AUTOMATIC : mine;
        OK(MPI_Comm_attach_buffer(c->b, attach, room));
        p2p_fill(buf, S, msg_id(c->rank, T, k));
        OK(MPI_Bsend(buf, S, MPI_BYTE, c->next, T, c->b));
        void *got;
        int got_size;
        OK(MPI_Comm_detach_buffer(c->b, &got, &got_size));
        CHECK(got == attach);
        CHECK_INT(got_size, k % 2 ? 0 : room);
    }
    free(mine);
    free(buf);
    return NULL;
}

static void *flusher(void *arg)
{
    const struct ctx *c = arg;
    for (int k = 0; k < 10; k++) {
        MPI_Request req;
        OK(MPI_Comm_iflush_buffer(c->a, &req));
        OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
    return NULL;
}

/* Receive n messages of tag from prev on comm, each checked against (prev, tag, k). */
static void receive(MPI_Comm comm, int prev, int tag, int n)
{
    unsigned char *buf = p2p_malloc(S);
    for (int k = 0; k < n; k++) {
        OK(MPI_Recv(buf, S, MPI_BYTE, prev, tag, comm, MPI_STATUS_IGNORE));
        CHECK_FILL(buf, S, msg_id(prev, tag, k));
    }
    free(buf);
}

static void *receiver_a(void *arg)
{
    const struct ctx *c = arg;
    for (int t = 0; t < T; t++)
        receive(c->a, c->prev, t, K);
    return NULL;
}

static void *receiver_b(void *arg)
{
    const struct ctx *c = arg;
    receive(c->b, c->prev, T, R);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank = p2p_rank(), size = p2p_size();
    struct ctx base = {MPI_COMM_NULL, MPI_COMM_NULL, rank, (rank + 1) % size,
                       (rank + size - 1) % size, 0};
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &base.a));
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &base.b));
    int room = T * K * (S + MPI_BSEND_OVERHEAD);
    char *abuf = p2p_malloc((size_t)room);
    OK(MPI_Comm_attach_buffer(base.a, abuf, room));

    struct ctx ctx[T + 4];
    pthread_t th[T + 4];
    int n = 0;
    for (int t = 0; t < T; t++, n++) {
        ctx[n] = base;
        ctx[n].t = t;
        CHECK_INT(pthread_create(&th[n], NULL, sender, &ctx[n]), 0);
    }
    void *(*const others[])(void *) = {attacher, flusher, receiver_a, receiver_b};
    for (int i = 0; i < 4; i++, n++) {
        ctx[n] = base;
        CHECK_INT(pthread_create(&th[n], NULL, others[i], &ctx[n]), 0);
    }
    for (int i = 0; i < n; i++)
        CHECK_INT(pthread_join(th[i], NULL), 0);

    OK(MPI_Barrier(MPI_COMM_WORLD)); /* every rank has received all: A's buffer is empty */
    void *got;
    int got_size;
    OK(MPI_Comm_detach_buffer(base.a, &got, &got_size));
    CHECK(got == abuf);
    CHECK_INT(got_size, room);
    FAILS(MPI_Comm_detach_buffer(base.b, &got, &got_size), MPI_ERR_BUFFER);
    OK(MPI_Comm_free(&base.a));
    OK(MPI_Comm_free(&base.b));
    free(abuf);
    OK(MPI_Finalize());
    return 0;
}
