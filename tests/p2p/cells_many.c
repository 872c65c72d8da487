/* Small messages among more ranks than a rank may have rings (p2p/inbox.h: with 121 ranks or
 * more a ring has 16 cells and a rank receives through at most 227 rings), so that some pairs
 * go through rings and the others, refused one, take the sender-matched path; each check
 * fails if a message is lost, duplicated, reordered or delivered to the wrong receive:
 *  1. every rank sends 8 bytes to every other rank with MPI_Isend; the receives from the even
 *     ranks are posted before a barrier, the others after it; all are checked;
 *  2. every rank sends 5 messages of 0 - 100 bytes in a row to every other rank, then receives
 *     the 5 from each peer with a blocking MPI_Recv (ANY_TAG): they come in the order sent;
 *  3. a ring of ranks passes a token of 24 bytes around twice with MPI_Sendrecv.
 * Prints "p2p_cells_many: N ranks: ok" from rank 0. */
#include <stdlib.h>
#include <string.h>
#include "p2p_check.h"

#define ROW 5

static unsigned value(int from, int to, int k)
{
    return (unsigned)from * 1000003u + (unsigned)to * 101u + (unsigned)k;
}

static void all_pairs(int rank, int size)
{
    unsigned *in = calloc((size_t)size, sizeof *in), *out = calloc((size_t)size, sizeof *out);
    MPI_Request *rq = calloc(2 * (size_t)size, sizeof *rq);
    CHECK(in && out && rq);
    for (int p = 0; p < 2 * size; p++)
        rq[p] = MPI_REQUEST_NULL;
    for (int p = 0; p < size; p += 2) /* receives from the even ranks: posted first */
        if (p != rank)
            OK(MPI_Irecv(&in[p], 1, MPI_UNSIGNED, p, 1, MPI_COMM_WORLD, &rq[p]));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int p = 0; p < size; p++) {
        if (p == rank)
            continue;
        out[p] = value(rank, p, 0);
        OK(MPI_Isend(&out[p], 1, MPI_UNSIGNED, p, 1, MPI_COMM_WORLD, &rq[size + p]));
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (int p = 1; p < size; p += 2) /* ...and from the odd ones once they have been sent */
        if (p != rank)
            OK(MPI_Irecv(&in[p], 1, MPI_UNSIGNED, p, 1, MPI_COMM_WORLD, &rq[p]));
    OK(MPI_Waitall(2 * size, rq, MPI_STATUSES_IGNORE));
    for (int p = 0; p < size; p++)
        if (p != rank)
            CHECK_INT(in[p], value(p, rank, 0));
    free(in);
    free(out);
    free(rq);
}

static void rows_in_order(int rank, int size)
{
    unsigned char msg[101];
    for (int p = 0; p < size; p++) {
        if (p == rank)
            continue;
        for (int k = 0; k < ROW; k++) {
            int len = (p * 7 + k * 23) % 101;
            unsigned v = value(rank, p, k);
            memset(msg, (int)(v & 0xff), sizeof msg);
            if (len >= (int)sizeof v)
                memcpy(msg, &v, sizeof v);
            OK(MPI_Send(msg, len, MPI_BYTE, p, k, MPI_COMM_WORLD));
        }
    }
    for (int p = 0; p < size; p++) {
        if (p == rank)
            continue;
        for (int k = 0; k < ROW; k++) {
            MPI_Status st;
            unsigned char got[101];
            memset(got, 0xee, sizeof got);
            OK(MPI_Recv(got, (int)sizeof got, MPI_BYTE, p, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            int len = (rank * 7 + k * 23) % 101, n = -1;
            unsigned v = value(p, rank, k);
            CHECK_INT(st.MPI_TAG, k); /* the k-th message from p carries tag k */
            OK(MPI_Get_count(&st, MPI_BYTE, &n));
            CHECK_INT(n, len);
            if (len >= (int)sizeof v) {
                unsigned head;
                memcpy(&head, got, sizeof head);
                CHECK_INT(head, v);
            }
            for (int i = (int)sizeof v; i < len; i++)
                CHECK_INT(got[i], v & 0xff);
            CHECK_INT(got[len], 0xee);
        }
    }
}

static void token_ring(int rank, int size)
{
    unsigned char token[24];
    memset(token, 0, sizeof token);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int lap = 0; lap < 2; lap++) {
        unsigned char in[24];
        token[0] = (unsigned char)lap;
        memcpy(token + 4, &rank, sizeof rank);
        OK(MPI_Sendrecv(token, 24, MPI_BYTE, right, 9, in, 24, MPI_BYTE, left, 9,
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        int from;
        memcpy(&from, in + 4, sizeof from);
        CHECK_INT(from, left);
        CHECK_INT(in[0], lap);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    all_pairs(rank, size);
    rows_in_order(rank, size);
    token_ring(rank, size);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
        printf("p2p_cells_many: %d ranks: ok\n", size);
    MPI_Finalize();
    return 0;
}
