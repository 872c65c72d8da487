/* Every point-to-point big-count call (MPI_Xxx_c) on ordinary counts gives what its int twin
 * gives: each rank sends to the next in a ring and receives from the one before, once per call,
 * with a count in elements of MPI_INT, and checks the data, the status and both forms of
 * MPI_Get_count and MPI_Get_elements. The int and _c forms share one implementation
 * (docs/bindings.md), so this checks the wiring of each entry point. */
#include "p2p_check.h"

enum { N = 1000, PAD = 8 };

/* One rank's state (ranks are threads of one process: nothing here is a global). */
struct ring {
    int rank, size, next, prev;
    int sbuf[N], rbuf[N + PAD];
};

/* The message of round r from rank `from`. */
static int value(int r, int from, int i)
{
    return r * 100000 + from * 1000 + i;
}

static void fill(struct ring *g, int r)
{
    int *sbuf = g->sbuf, *rbuf = g->rbuf;
    for (int i = 0; i < N; i++)
        sbuf[i] = value(r, g->rank, i);
    for (int i = 0; i < N + PAD; i++)
        rbuf[i] = -1;
}

/* What round r left in rbuf and st: N ints from prev, nothing past them. */
static void check_round(const struct ring *g, int r, const MPI_Status *st)
{
    const int *rbuf = g->rbuf, prev = g->prev;
    for (int i = 0; i < N; i++)
        CHECK_INT(rbuf[i], value(r, prev, i));
    for (int i = N; i < N + PAD; i++)
        CHECK_INT(rbuf[i], -1);
    CHECK_INT(st->MPI_SOURCE, prev);
    CHECK_INT(st->MPI_TAG, r);
    MPI_Count c = -5, e = -5;
    int ci = -5, ei = -5;
    OK(MPI_Get_count_c(st, MPI_INT, &c));
    OK(MPI_Get_count(st, MPI_INT, &ci));
    OK(MPI_Get_elements_c(st, MPI_INT, &e));
    OK(MPI_Get_elements(st, MPI_INT, &ei));
    CHECK(c == N && e == N && ci == N && ei == N);
    OK(MPI_Get_count_c(st, MPI_SHORT, &c)); /* 2 * N shorts */
    CHECK(c == 2 * N);
}

/* The receive side of a round by a nonblocking receive of the given form. */
static void irecv_round(struct ring *g, int r, int wide, MPI_Request *req)
{
    int *rbuf = g->rbuf, prev = g->prev;
    if (wide)
        OK(MPI_Irecv_c(rbuf, (MPI_Count)N + PAD, MPI_INT, prev, r, MPI_COMM_WORLD, req));
    else
        OK(MPI_Irecv(rbuf, N + PAD, MPI_INT, prev, r, MPI_COMM_WORLD, req));
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    struct ring *g = malloc(sizeof *g);
    CHECK(g != NULL);
    int rank = g->rank = p2p_rank(), size = g->size = p2p_size();
    int next = g->next = (rank + 1) % size, prev = g->prev = (rank + size - 1) % size;
    int *sbuf = g->sbuf, *rbuf = g->rbuf;
    MPI_Status st;
    MPI_Request rq, sq;
    MPI_Count big = N; /* passed where the int form takes an int */
    int bsize = 4 * (N * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    void *battach = malloc((size_t)bsize);
    OK(MPI_Buffer_attach(battach, bsize));

    for (int r = 0; r < 2 * 12; r++) {
        int wide = r % 2, kind = r / 2; /* each kind of send twice: int, then _c */
        fill(g, r);
        irecv_round(g, r, wide, &rq);
        OK(MPI_Barrier(MPI_COMM_WORLD)); /* every receive is posted: ready sends may go */
        switch (kind) {
        case 0:
            OK(wide ? MPI_Send_c(sbuf, big, MPI_INT, next, r, MPI_COMM_WORLD)
                    : MPI_Send(sbuf, N, MPI_INT, next, r, MPI_COMM_WORLD));
            break;
        case 1:
            OK(wide ? MPI_Ssend_c(sbuf, big, MPI_INT, next, r, MPI_COMM_WORLD)
                    : MPI_Ssend(sbuf, N, MPI_INT, next, r, MPI_COMM_WORLD));
            break;
        case 2:
            OK(wide ? MPI_Rsend_c(sbuf, big, MPI_INT, next, r, MPI_COMM_WORLD)
                    : MPI_Rsend(sbuf, N, MPI_INT, next, r, MPI_COMM_WORLD));
            break;
        case 3:
            OK(wide ? MPI_Bsend_c(sbuf, big, MPI_INT, next, r, MPI_COMM_WORLD)
                    : MPI_Bsend(sbuf, N, MPI_INT, next, r, MPI_COMM_WORLD));
            break;
        case 4:
            OK(wide ? MPI_Isend_c(sbuf, big, MPI_INT, next, r, MPI_COMM_WORLD, &sq)
                    : MPI_Isend(sbuf, N, MPI_INT, next, r, MPI_COMM_WORLD, &sq));
            OK(MPI_Wait(&sq, MPI_STATUS_IGNORE));
            break;
        case 5:
            OK(wide ? MPI_Issend_c(sbuf, big, MPI_INT, next, r, MPI_COMM_WORLD, &sq)
                    : MPI_Issend(sbuf, N, MPI_INT, next, r, MPI_COMM_WORLD, &sq));
            OK(MPI_Wait(&sq, MPI_STATUS_IGNORE));
            break;
        case 6:
            OK(wide ? MPI_Irsend_c(sbuf, big, MPI_INT, next, r, MPI_COMM_WORLD, &sq)
                    : MPI_Irsend(sbuf, N, MPI_INT, next, r, MPI_COMM_WORLD, &sq));
            OK(MPI_Wait(&sq, MPI_STATUS_IGNORE));
            break;
        case 7:
            OK(wide ? MPI_Ibsend_c(sbuf, big, MPI_INT, next, r, MPI_COMM_WORLD, &sq)
                    : MPI_Ibsend(sbuf, N, MPI_INT, next, r, MPI_COMM_WORLD, &sq));
            OK(MPI_Wait(&sq, MPI_STATUS_IGNORE));
            break;
        case 8:
            OK(wide ? MPI_Send_init_c(sbuf, big, MPI_INT, next, r, MPI_COMM_WORLD, &sq)
                    : MPI_Send_init(sbuf, N, MPI_INT, next, r, MPI_COMM_WORLD, &sq));
            break;
        case 9:
            OK(wide ? MPI_Ssend_init_c(sbuf, big, MPI_INT, next, r, MPI_COMM_WORLD, &sq)
                    : MPI_Ssend_init(sbuf, N, MPI_INT, next, r, MPI_COMM_WORLD, &sq));
            break;
        case 10:
            OK(wide ? MPI_Rsend_init_c(sbuf, big, MPI_INT, next, r, MPI_COMM_WORLD, &sq)
                    : MPI_Rsend_init(sbuf, N, MPI_INT, next, r, MPI_COMM_WORLD, &sq));
            break;
        case 11:
            OK(wide ? MPI_Bsend_init_c(sbuf, big, MPI_INT, next, r, MPI_COMM_WORLD, &sq)
                    : MPI_Bsend_init(sbuf, N, MPI_INT, next, r, MPI_COMM_WORLD, &sq));
            break;
        }
        if (kind >= 8) { /* persistent: started, completed, freed */
            OK(MPI_Start(&sq));
            OK(MPI_Wait(&sq, MPI_STATUS_IGNORE));
            OK(MPI_Request_free(&sq));
        }
        OK(MPI_Wait(&rq, &st));
        check_round(g, r, &st);
    }
    int r = 100;

    /* the receive side: blocking, matched, persistent (int and _c) */
    for (int wide = 0; wide < 2; wide++, r++) {
        fill(g, r);
        OK(MPI_Isend(sbuf, N, MPI_INT, next, r, MPI_COMM_WORLD, &sq));
        OK(wide ? MPI_Recv_c(rbuf, (MPI_Count)N + PAD, MPI_INT, prev, r, MPI_COMM_WORLD, &st)
                : MPI_Recv(rbuf, N + PAD, MPI_INT, prev, r, MPI_COMM_WORLD, &st));
        OK(MPI_Wait(&sq, MPI_STATUS_IGNORE));
        check_round(g, r, &st);
    }
    for (int wide = 0; wide < 4; wide++, r++) {
        fill(g, r);
        MPI_Message msg;
        OK(MPI_Isend(sbuf, N, MPI_INT, next, r, MPI_COMM_WORLD, &sq));
        OK(MPI_Mprobe(prev, r, MPI_COMM_WORLD, &msg, &st));
        if (wide == 0)
            OK(MPI_Mrecv(rbuf, N + PAD, MPI_INT, &msg, &st));
        else if (wide == 1)
            OK(MPI_Mrecv_c(rbuf, (MPI_Count)N + PAD, MPI_INT, &msg, &st));
        else {
            if (wide == 2)
                OK(MPI_Imrecv(rbuf, N + PAD, MPI_INT, &msg, &rq));
            else
                OK(MPI_Imrecv_c(rbuf, (MPI_Count)N + PAD, MPI_INT, &msg, &rq));
            OK(MPI_Wait(&rq, &st));
        }
        OK(MPI_Wait(&sq, MPI_STATUS_IGNORE));
        check_round(g, r, &st);
    }
    for (int wide = 0; wide < 2; wide++, r++) {
        fill(g, r);
        if (wide)
            OK(MPI_Recv_init_c(rbuf, (MPI_Count)N + PAD, MPI_INT, prev, r, MPI_COMM_WORLD, &rq));
        else
            OK(MPI_Recv_init(rbuf, N + PAD, MPI_INT, prev, r, MPI_COMM_WORLD, &rq));
        OK(MPI_Start(&rq));
        OK(MPI_Send(sbuf, N, MPI_INT, next, r, MPI_COMM_WORLD));
        OK(MPI_Wait(&rq, &st));
        OK(MPI_Request_free(&rq));
        check_round(g, r, &st);
    }

    /* both sides in one call: Sendrecv, Isendrecv and their _replace forms */
    for (int form = 0; form < 8; form++, r++) {
        fill(g, r);
        int wide = form % 2;
        switch (form / 2) {
        case 0:
            OK(wide ? MPI_Sendrecv_c(sbuf, big, MPI_INT, next, r, rbuf, (MPI_Count)N + PAD,
                                     MPI_INT, prev, r, MPI_COMM_WORLD, &st)
                    : MPI_Sendrecv(sbuf, N, MPI_INT, next, r, rbuf, N + PAD, MPI_INT, prev, r,
                                   MPI_COMM_WORLD, &st));
            break;
        case 1:
            OK(wide ? MPI_Isendrecv_c(sbuf, big, MPI_INT, next, r, rbuf, (MPI_Count)N + PAD,
                                      MPI_INT, prev, r, MPI_COMM_WORLD, &rq)
                    : MPI_Isendrecv(sbuf, N, MPI_INT, next, r, rbuf, N + PAD, MPI_INT, prev, r,
                                    MPI_COMM_WORLD, &rq));
            OK(MPI_Wait(&rq, &st));
            break;
        case 2:
            memcpy(rbuf, sbuf, sizeof g->sbuf);
            OK(wide ? MPI_Sendrecv_replace_c(rbuf, big, MPI_INT, next, r, prev, r,
                                             MPI_COMM_WORLD, &st)
                    : MPI_Sendrecv_replace(rbuf, N, MPI_INT, next, r, prev, r, MPI_COMM_WORLD,
                                           &st));
            break;
        case 3:
            memcpy(rbuf, sbuf, sizeof g->sbuf);
            OK(wide ? MPI_Isendrecv_replace_c(rbuf, big, MPI_INT, next, r, prev, r,
                                              MPI_COMM_WORLD, &rq)
                    : MPI_Isendrecv_replace(rbuf, N, MPI_INT, next, r, prev, r, MPI_COMM_WORLD,
                                            &rq));
            OK(MPI_Wait(&rq, &st));
            break;
        }
        check_round(g, r, &st);
    }

    /* bad counts: the same class from both forms */
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    FAILS(MPI_Send_c(sbuf, -1, MPI_INT, next, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    FAILS(MPI_Send(sbuf, -1, MPI_INT, next, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    FAILS(MPI_Recv_c(rbuf, -((MPI_Count)1 << 40), MPI_INT, prev, 0, MPI_COMM_WORLD, &st),
          MPI_ERR_COUNT);
    FAILS(MPI_Get_count_c(&st, MPI_INT, NULL), MPI_ERR_ARG);
    FAILS(MPI_Get_count_c(&st, MPI_DATATYPE_NULL, &big), MPI_ERR_TYPE);

    void *b;
    OK(MPI_Buffer_detach(&b, &bsize));
    free(battach);
    free(g);
    OK(MPI_Finalize());
    return 0;
}
