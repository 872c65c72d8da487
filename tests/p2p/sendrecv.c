/* MPI_Sendrecv and MPI_Sendrecv_replace around a ring (to oneself when alone), small and
 * large, with wildcards and MPI_PROC_NULL ends; Sendrecv_replace with derived datatypes
 * (a vector: the gaps stay untouched) and with a message shorter than the buffer. */
#include "p2p_check.h"

static const size_t lens[] = {0, 8, 16385, 1 << 20};
#define NLENS (sizeof lens / sizeof lens[0])

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size();
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    unsigned char *sbuf = p2p_malloc(1 << 20), *rbuf = p2p_malloc((1 << 20) + 16);
    MPI_Status st;

    for (size_t k = 0; k < NLENS; k++) {
        size_t n = lens[k];
        p2p_fill(sbuf, n, (unsigned)(rank * 10 + k));
        memset(rbuf, 0xab, n + 16);
        OK(MPI_Sendrecv(sbuf, (int)n, MPI_BYTE, right, (int)k, rbuf, (int)n + 16, MPI_BYTE, left,
                        (int)k, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, left, (int)k, n);
        CHECK_FILL(rbuf, n, (unsigned)(left * 10 + k));
        CHECK_BYTES(rbuf + n, 16, 0xab);
        /* wildcard receive side */
        OK(MPI_Sendrecv(sbuf, (int)n, MPI_BYTE, right, (int)k, rbuf, (int)n, MPI_BYTE,
                        MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, left, (int)k, n);
        CHECK_FILL(rbuf, n, (unsigned)(left * 10 + k));
        /* in place */
        p2p_fill(rbuf, n, (unsigned)(rank * 10 + k + 5));
        OK(MPI_Sendrecv_replace(rbuf, (int)n, MPI_BYTE, right, 100 + (int)k, left,
                                100 + (int)k, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, left, 100 + (int)k, n);
        CHECK_FILL(rbuf, n, (unsigned)(left * 10 + k + 5));
    }

    /* PROC_NULL at one end: the first rank only sends, the last only receives */
    int out = rank, in = -7;
    int to = rank == size - 1 ? MPI_PROC_NULL : rank + 1;
    int from = rank == 0 ? MPI_PROC_NULL : rank - 1;
    OK(MPI_Sendrecv(&out, 1, MPI_INT, to, 9, &in, 1, MPI_INT, from, 9, MPI_COMM_WORLD, &st));
    if (rank == 0) {
        CHECK_INT(in, -7);
        CHECK_INT(st.MPI_SOURCE, MPI_PROC_NULL);
    } else {
        CHECK_INT(in, rank - 1);
        CHECK_INT(st.MPI_SOURCE, rank - 1);
    }
    in = rank;
    OK(MPI_Sendrecv_replace(&in, 1, MPI_INT, to, 10, from, 10, MPI_COMM_WORLD, &st));
    CHECK_INT(in, rank == 0 ? 0 : rank - 1);

    /* Sendrecv_replace with a (resized) vector: 50 blocks of 3 ints every 5 ints */
    enum { COUNT = 50, BL = 3, STRIDE = 5, TOTAL = COUNT * STRIDE };
    int *v = p2p_malloc(sizeof(int) * TOTAL);
    MPI_Datatype vec0, vec;
    OK(MPI_Type_vector(COUNT, BL, STRIDE, MPI_INT, &vec0));
    /* extent TOTAL ints (the vector alone ends after its last block), so copies tile */
    OK(MPI_Type_create_resized(vec0, 0, (MPI_Aint)(sizeof(int) * TOTAL), &vec));
    OK(MPI_Type_free(&vec0));
    OK(MPI_Type_commit(&vec));
    for (int reps = 1; reps <= 100; reps *= 10) {
        /* reps copies of the vector: 150 ints (small) up to 15000 ints (rendezvous) */
        int *w = p2p_malloc(sizeof(int) * TOTAL * (size_t)reps);
        for (int i = 0; i < TOTAL * reps; i++)
            w[i] = (i % STRIDE) < BL ? rank * 1000000 + i : -1;
        OK(MPI_Sendrecv_replace(w, reps, vec, right, 11, left, 11, MPI_COMM_WORLD, &st));
        int count = -1;
        OK(MPI_Get_count(&st, vec, &count));
        CHECK_INT(count, reps);
        for (int i = 0; i < TOTAL * reps; i++)
            CHECK_INT(w[i], (i % STRIDE) < BL ? left * 1000000 + i : -1);
        free(w);
    }
    /* a shorter message than the buffer: only the first blocks change */
    for (int i = 0; i < TOTAL; i++)
        v[i] = i;
    int few[6] = {rank, rank, rank, rank, rank, rank};
    int *sink = p2p_malloc(sizeof(int) * COUNT * BL);
    MPI_Request req, sinkreq;
    MPI_Status sinkst;
    /* the vector goes right with tag 13: its receive is posted first, since a standard send
     * may wait for its match */
    OK(MPI_Irecv(sink, COUNT * BL, MPI_INT, left, 13, MPI_COMM_WORLD, &sinkreq));
    OK(MPI_Isend(few, 6, MPI_INT, right, 12, MPI_COMM_WORLD, &req));
    OK(MPI_Sendrecv_replace(v, 1, vec, right, 13, left, 12, MPI_COMM_WORLD, &st));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    OK(MPI_Wait(&sinkreq, &sinkst));
    int count = -1;
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK_INT(count, 6);
    for (int i = 0; i < TOTAL; i++) {
        int blockpos = i % STRIDE, elem = (i / STRIDE) * BL + blockpos;
        CHECK_INT(v[i], blockpos < BL && elem < 6 ? left : i);
    }
    /* the vector that came from the left: its 150 elements, packed */
    OK(MPI_Get_count(&sinkst, MPI_INT, &count));
    CHECK_INT(count, COUNT * BL);
    for (int i = 0; i < COUNT * BL; i++)
        CHECK_INT(sink[i], (i / BL) * STRIDE + i % BL);
    free(sink);

    OK(MPI_Type_free(&vec));
    free(v);
    free(sbuf);
    free(rbuf);
    OK(MPI_Finalize());
    return 0;
}
