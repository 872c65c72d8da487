/* Isend, Irecv, Issend, Irsend completed by MPI_Wait and by MPI_Test loops: the data and
 * statuses are right, handles become MPI_REQUEST_NULL, a Wait or Test on MPI_REQUEST_NULL
 * returns at once with an empty status (source MPI_ANY_SOURCE, tag MPI_ANY_TAG, count 0). */
#include "p2p_check.h"

#define N 4
static const size_t lens[N] = {0, 100, 16385, 500000};

static void check_empty(MPI_Status *st)
{
    int count = -1;
    CHECK_INT(st->MPI_SOURCE, MPI_ANY_SOURCE);
    CHECK_INT(st->MPI_TAG, MPI_ANY_TAG);
    OK(MPI_Get_count(st, MPI_BYTE, &count));
    CHECK_INT(count, 0);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    unsigned char *sbuf[N], *rbuf[N];
    MPI_Request sreq[N], rreq[N];
    MPI_Status st;
    int flag;
    for (int i = 0; i < N; i++) {
        sbuf[i] = p2p_malloc(lens[N - 1]);
        rbuf[i] = p2p_malloc(lens[N - 1]);
    }

    for (int round = 0; round < 4; round++) {
        /* round 0,1: receives first; 2,3: sends first. Even rounds wait, odd rounds test. */
        int recv_first = round < 2, use_test = round % 2;
        for (int i = 0; i < N; i++) {
            p2p_fill(sbuf[i], lens[i], (unsigned)(rank * 100 + round * 10 + i));
            memset(rbuf[i], 0, lens[i]);
        }
        if (recv_first) {
            for (int i = 0; i < N; i++)
                OK(MPI_Irecv(rbuf[i], (int)lens[i], MPI_BYTE, peer, i, MPI_COMM_WORLD,
                             &rreq[i]));
            OK(MPI_Barrier(MPI_COMM_WORLD));
        }
        /* message i goes by a different call each round (Irsend only when posted first) */
        for (int i = 0; i < N; i++) {
            int how = (i + round) % (recv_first ? 3 : 2);
            int rc = how == 0   ? MPI_Isend(sbuf[i], (int)lens[i], MPI_BYTE, peer, i,
                                            MPI_COMM_WORLD, &sreq[i])
                     : how == 1 ? MPI_Issend(sbuf[i], (int)lens[i], MPI_BYTE, peer, i,
                                             MPI_COMM_WORLD, &sreq[i])
                                : MPI_Irsend(sbuf[i], (int)lens[i], MPI_BYTE, peer, i,
                                             MPI_COMM_WORLD, &sreq[i]);
            OK(rc);
            CHECK(sreq[i] != MPI_REQUEST_NULL);
        }
        if (!recv_first) {
            OK(MPI_Barrier(MPI_COMM_WORLD));
            for (int i = N - 1; i >= 0; i--) /* reverse order: tags tell them apart */
                OK(MPI_Irecv(rbuf[i], (int)lens[i], MPI_BYTE, peer, i, MPI_COMM_WORLD,
                             &rreq[i]));
        }
        for (int i = 0; i < N; i++) {
            if (use_test) {
                do
                    OK(MPI_Test(&rreq[i], &flag, &st));
                while (!flag);
            } else {
                OK(MPI_Wait(&rreq[i], &st));
            }
            CHECK(rreq[i] == MPI_REQUEST_NULL);
            CHECK_STATUS(st, peer, i, lens[i]);
            CHECK_FILL(rbuf[i], lens[i], (unsigned)(peer * 100 + round * 10 + i));
        }
        for (int i = 0; i < N; i++) {
            if (use_test) {
                do
                    OK(MPI_Test(&sreq[i], &flag, MPI_STATUS_IGNORE));
                while (!flag);
            } else {
                OK(MPI_Wait(&sreq[i], MPI_STATUS_IGNORE));
            }
            CHECK(sreq[i] == MPI_REQUEST_NULL);
        }
        OK(MPI_Barrier(MPI_COMM_WORLD));
    }

    /* null handles */
    MPI_Request null = MPI_REQUEST_NULL;
    memset(&st, 0x55, sizeof st);
    OK(MPI_Wait(&null, &st));
    check_empty(&st);
    memset(&st, 0x55, sizeof st);
    flag = 0;
    OK(MPI_Test(&null, &flag, &st));
    CHECK_INT(flag, 1);
    check_empty(&st);
    CHECK(null == MPI_REQUEST_NULL);

    /* a send completes without a Wait being needed for its data to arrive: many Isends in
     * flight to one peer, each with its own buffer */
    enum { M = 64 };
    MPI_Request many[M];
    int vals[M], got[M];
    for (int i = 0; i < M; i++) {
        vals[i] = rank * 1000 + i;
        OK(MPI_Isend(&vals[i], 1, MPI_INT, peer, 77, MPI_COMM_WORLD, &many[i]));
    }
    for (int i = 0; i < M; i++)
        OK(MPI_Recv(&got[i], 1, MPI_INT, peer, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < M; i++) {
        CHECK_INT(got[i], peer * 1000 + i);
        OK(MPI_Wait(&many[i], MPI_STATUS_IGNORE));
    }

    for (int i = 0; i < N; i++) {
        free(sbuf[i]);
        free(rbuf[i]);
    }
    OK(MPI_Finalize());
    return 0;
}
