/* MPI_THREAD_MULTIPLE stress: every rank runs NS stream threads and one collective thread at
 * once, while its own thread waits in pthread_join (it is in no MPI call).
 *
 * Stream thread t exchanges with the next and the previous rank, first on a dup of
 * MPI_COMM_WORLD of its own (tag 100+t), then on one dup shared by all stream threads where
 * only the tag (200+t) keeps them apart. Round by round the exchange alternates
 * Irecv+Isend+Waitall, Sendrecv, and blocking Send/Recv ordered by rank parity, with sizes from
 * 0 B to 1 MiB; every byte is checked. The collective thread loops over Allreduce, Bcast,
 * Ibcast+Wait, Iallreduce+Test loop, Barrier and Alltoall on a dup of its own, checking each
 * result. No thread may wait on work that only another, blocked thread of its rank could do.
 *
 * Usage: mt_stress [rounds] (default 200). Needs at least 2 ranks. */
#include <pthread.h>
#include "p2p_check.h"

#define NS 4

static const size_t sizes[] = {0, 1, 8, 40, 41, 1000, 16384, 16385, 100000, 1u << 20};
#define NSIZES (sizeof sizes / sizeof sizes[0])

struct stream {
    int t, rank, size, rounds;
    MPI_Comm own, shared;
};

struct coll {
    int rank, size, rounds;
    MPI_Comm comm;
};

/* Size and content of the message from src to dst in (round, t, dir, kind): both sides compute
 * them, so every byte of every message is known to its receiver. */
static size_t size_of(int round, int t, int dir, int kind)
{
    return sizes[(size_t)(round * 3 + t * 5 + dir * 7 + kind * 2) % NSIZES];
}

static unsigned char byte_of(int src, int dst, int round, int t, int dir, int kind, size_t i)
{
    return (unsigned char)(src * 7 + dst * 13 + t * 17 + round * 29 + dir * 3 + kind * 5 +
                           (int)(i % 251));
}

static void fill(unsigned char *b, size_t n, int src, int dst, int round, int t, int dir,
                 int kind)
{
    for (size_t i = 0; i < n; i++)
        b[i] = byte_of(src, dst, round, t, dir, kind, i);
}

static void verify(const unsigned char *b, size_t n, int src, int dst, int round, int t,
                   int dir, int kind)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != byte_of(src, dst, round, t, dir, kind, i)) {
            fprintf(stderr, "rank %d thread %d round %d dir %d kind %d: byte %zu of %zu from %d "
                            "is %d, expected %d\n",
                    dst, t, round, dir, kind, i, n, src, b[i],
                    byte_of(src, dst, round, t, dir, kind, i));
            fflush(NULL);
            _exit(99);
        }
}

/* One exchange on comm with tag: dir 0 goes to next (so comes from prev), dir 1 to prev. */
static void exchange(struct stream *s, MPI_Comm comm, int tag, int kind, int round,
                     unsigned char *sb[2], unsigned char *rb[2])
{
    int me = s->rank, next = (me + 1) % s->size, prev = (me + s->size - 1) % s->size;
    int to[2] = {next, prev}, from[2] = {prev, next};
    size_t n[2];
    for (int d = 0; d < 2; d++) {
        n[d] = size_of(round, s->t, d, kind);
        fill(sb[d], n[d], me, to[d], round, s->t, d, kind);
        memset(rb[d], 0xee, n[d]);
    }
    MPI_Status st[4];
    switch (round % 3) {
    case 0: {
        MPI_Request rq[4];
        OK(MPI_Irecv(rb[0], (int)n[0], MPI_BYTE, from[0], tag, comm, &rq[0]));
        OK(MPI_Irecv(rb[1], (int)n[1], MPI_BYTE, from[1], tag, comm, &rq[1]));
        OK(MPI_Isend(sb[0], (int)n[0], MPI_BYTE, to[0], tag, comm, &rq[2]));
        OK(MPI_Isend(sb[1], (int)n[1], MPI_BYTE, to[1], tag, comm, &rq[3]));
        OK(MPI_Waitall(4, rq, st));
        break;
    }
    case 1:
        for (int d = 0; d < 2; d++)
            OK(MPI_Sendrecv(sb[d], (int)n[d], MPI_BYTE, to[d], tag, rb[d], (int)n[d], MPI_BYTE,
                            from[d], tag, comm, &st[d]));
        break;
    default:
        /* Blocking and ordered by parity: even ranks send first. Rank 1 is odd, so not every
         * rank sends first, and the ring cannot deadlock even when messages rendezvous. */
        for (int d = 0; d < 2; d++) {
            if (me % 2 == 0) {
                OK(MPI_Send(sb[d], (int)n[d], MPI_BYTE, to[d], tag, comm));
                OK(MPI_Recv(rb[d], (int)n[d], MPI_BYTE, from[d], tag, comm, &st[d]));
            } else {
                OK(MPI_Recv(rb[d], (int)n[d], MPI_BYTE, from[d], tag, comm, &st[d]));
                OK(MPI_Send(sb[d], (int)n[d], MPI_BYTE, to[d], tag, comm));
            }
        }
    }
    for (int d = 0; d < 2; d++)
        verify(rb[d], n[d], from[d], me, round, s->t, d, kind);
}

static void *stream_main(void *p)
{
    struct stream *s = p;
    unsigned char *sb[2], *rb[2];
    for (int d = 0; d < 2; d++) {
        sb[d] = malloc(sizes[NSIZES - 1]);
        rb[d] = malloc(sizes[NSIZES - 1]);
        CHECK(sb[d] != NULL && rb[d] != NULL);
    }
    for (int round = 0; round < s->rounds; round++) {
        exchange(s, s->own, 100 + s->t, 0, round, sb, rb);
        exchange(s, s->shared, 200 + s->t, 1, round, sb, rb);
    }
    for (int d = 0; d < 2; d++) {
        free(sb[d]);
        free(rb[d]);
    }
    return NULL;
}

static void *coll_main(void *p)
{
    struct coll *c = p;
    int n = c->size, me = c->rank;
    enum { MAXC = 4096 };
    int *a = malloc(sizeof *a * MAXC), *b = malloc(sizeof *b * MAXC);
    int *all = malloc(sizeof *all * (size_t)n * 8), *got = malloc(sizeof *got * (size_t)n * 8);
    CHECK(a && b && all && got);
    for (int round = 0; round < c->rounds; round++) {
        int count = 1 + (round * 37) % MAXC, root = round % n;
        /* Allreduce: sum over ranks of (rank + round + i) */
        for (int i = 0; i < count; i++)
            a[i] = me + round + i;
        OK(MPI_Allreduce(a, b, count, MPI_INT, MPI_SUM, c->comm));
        for (int i = 0; i < count; i++)
            CHECK_INT(b[i], n * (n - 1) / 2 + n * (round + i));
        /* Bcast from root */
        for (int i = 0; i < count; i++)
            b[i] = me == root ? round * 3 + i : -1;
        OK(MPI_Bcast(b, count, MPI_INT, root, c->comm));
        for (int i = 0; i < count; i++)
            CHECK_INT(b[i], round * 3 + i);
        /* Ibcast + Wait from the next root */
        int root2 = (root + 1) % n;
        for (int i = 0; i < count; i++)
            b[i] = me == root2 ? round * 5 - i : -1;
        MPI_Request rq;
        OK(MPI_Ibcast(b, count, MPI_INT, root2, c->comm, &rq));
        OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        for (int i = 0; i < count; i++)
            CHECK_INT(b[i], round * 5 - i);
        /* Iallreduce + a Test loop */
        for (int i = 0; i < count; i++)
            a[i] = (me + 1) * (i % 7 + 1);
        OK(MPI_Iallreduce(a, b, count, MPI_INT, MPI_MAX, c->comm, &rq));
        for (int done = 0; !done;)
            OK(MPI_Test(&rq, &done, MPI_STATUS_IGNORE));
        for (int i = 0; i < count; i++)
            CHECK_INT(b[i], n * (i % 7 + 1));
        OK(MPI_Barrier(c->comm));
        /* Alltoall of 1..8 ints per pair */
        int per = 1 + round % 8;
        for (int d = 0; d < n; d++)
            for (int k = 0; k < per; k++)
                all[d * per + k] = me * 1000 + d * 10 + k + round;
        OK(MPI_Alltoall(all, per, MPI_INT, got, per, MPI_INT, c->comm));
        for (int src = 0; src < n; src++)
            for (int k = 0; k < per; k++)
                CHECK_INT(got[src * per + k], src * 1000 + me * 10 + k + round);
    }
    free(a);
    free(b);
    free(all);
    free(got);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2);
    int rounds = argc > 1 ? atoi(argv[1]) : 200;
    CHECK(rounds > 0);

    struct stream s[NS];
    struct coll c = {.rank = rank, .size = size, .rounds = rounds};
    MPI_Comm shared;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &shared));
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &c.comm));
    for (int t = 0; t < NS; t++) {
        s[t] = (struct stream){.t = t, .rank = rank, .size = size, .rounds = rounds,
                               .shared = shared};
        OK(MPI_Comm_dup(MPI_COMM_WORLD, &s[t].own));
    }
    pthread_t th[NS + 1];
    for (int t = 0; t < NS; t++)
        CHECK_INT(pthread_create(&th[t], NULL, stream_main, &s[t]), 0);
    CHECK_INT(pthread_create(&th[NS], NULL, coll_main, &c), 0);
    for (int t = 0; t <= NS; t++)
        CHECK_INT(pthread_join(th[t], NULL), 0);
    for (int t = 0; t < NS; t++)
        OK(MPI_Comm_free(&s[t].own));
    OK(MPI_Comm_free(&shared));
    OK(MPI_Comm_free(&c.comm));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
        printf("mt_stress: %d ranks x (%d stream threads + 1 collective thread), %d rounds: "
               "every byte checked\n",
               size, NS, rounds);
    MPI_Finalize();
    return 0;
}
