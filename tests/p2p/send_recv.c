/* Blocking standard send and receive: every size class around the eager threshold, each
 * through the three paths a message can take (receive posted first, message waiting
 * unexpected, both sides blocking), between partners or to oneself; zero bytes with a NULL
 * buffer; MPI_STATUS_IGNORE; typed counts. Rerun with LOOM_EAGER_MAX=0 and =1M. */
#include "p2p_check.h"

static const size_t sizes[] = {0, 1, 7, 4096, 16383, 16384, 16385, 65536, 1 << 20, 3000003};
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define PAD 64

/* The id of message (source, size index, path). */
static unsigned msg_id(int src, size_t k, int path)
{
    return (unsigned)(src * 1000 + (int)k * 10 + path);
}

/* Check what a receive of `n` bytes from `src` by path `path` left in rbuf. */
static void check_got(unsigned char *rbuf, size_t n, int src, size_t k, int path)
{
    CHECK_FILL(rbuf, n, msg_id(src, k, path));
    CHECK_BYTES(rbuf + n, PAD, 0xee);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    unsigned char *sbuf = p2p_malloc(sizes[NSIZES - 1]);
    unsigned char *rbuf = p2p_malloc(sizes[NSIZES - 1] + PAD);
    MPI_Status st;
    MPI_Request req;

    for (size_t k = 0; k < NSIZES; k++) {
        size_t n = sizes[k];
        int tag = (int)k;

        /* path 1: the receive is posted before the send starts */
        memset(rbuf, 0xee, n + PAD);
        OK(MPI_Irecv(rbuf, (int)n + PAD, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req));
        OK(MPI_Barrier(MPI_COMM_WORLD));
        p2p_fill(sbuf, n, msg_id(rank, k, 1));
        OK(MPI_Send(sbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD));
        OK(MPI_Wait(&req, &st));
        CHECK(req == MPI_REQUEST_NULL);
        CHECK_STATUS(st, peer, tag, n);
        check_got(rbuf, n, peer, k, 1);
        OK(MPI_Barrier(MPI_COMM_WORLD)); /* sbuf is reused below */

        /* path 2: the message waits unexpected until the receive comes */
        memset(rbuf, 0xee, n + PAD);
        p2p_fill(sbuf, n, msg_id(rank, k, 2));
        OK(MPI_Isend(sbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req));
        OK(MPI_Barrier(MPI_COMM_WORLD));
        OK(MPI_Recv(rbuf, (int)n + PAD, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, peer, tag, n);
        check_got(rbuf, n, peer, k, 2);
        OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        OK(MPI_Barrier(MPI_COMM_WORLD));

        /* path 3: both blocking; the even rank sends first (pairs only) */
        if (peer != rank) {
            memset(rbuf, 0xee, n + PAD);
            p2p_fill(sbuf, n, msg_id(rank, k, 3));
            if (rank % 2 == 0) {
                OK(MPI_Send(sbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD));
                OK(MPI_Recv(rbuf, (int)n + PAD, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE));
            } else {
                OK(MPI_Recv(rbuf, (int)n + PAD, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE));
                OK(MPI_Send(sbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD));
            }
            check_got(rbuf, n, peer, k, 3);
        }
        OK(MPI_Barrier(MPI_COMM_WORLD));
    }

    /* zero bytes from and into NULL buffers, both paths */
    OK(MPI_Irecv(NULL, 0, MPI_INT, peer, 100, MPI_COMM_WORLD, &req));
    OK(MPI_Send(NULL, 0, MPI_INT, peer, 100, MPI_COMM_WORLD));
    OK(MPI_Wait(&req, &st));
    CHECK_STATUS(st, peer, 100, 0);
    OK(MPI_Isend(NULL, 0, MPI_INT, peer, 101, MPI_COMM_WORLD, &req));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Recv(NULL, 0, MPI_INT, peer, 101, MPI_COMM_WORLD, &st));
    CHECK_STATUS(st, peer, 101, 0);
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));

    /* typed counts: ints in, a larger int buffer out, Get_count in ints and in bytes */
    int ints[1000], got[1200], count = -1;
    for (int i = 0; i < 1000; i++)
        ints[i] = rank * 100000 + i;
    memset(got, 0, sizeof got);
    OK(MPI_Isend(ints, 1000, MPI_INT, peer, 102, MPI_COMM_WORLD, &req));
    OK(MPI_Recv(got, 1200, MPI_INT, peer, 102, MPI_COMM_WORLD, &st));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK_INT(count, 1000);
    OK(MPI_Get_count(&st, MPI_BYTE, &count));
    CHECK_INT(count, 1000 * (int)sizeof(int));
    OK(MPI_Get_count(&st, MPI_DOUBLE, &count));
    CHECK_INT(count, 1000 * sizeof(int) % sizeof(double) ? MPI_UNDEFINED : 500);
    for (int i = 0; i < 1000; i++)
        CHECK_INT(got[i], peer * 100000 + i);
    for (int i = 1000; i < 1200; i++)
        CHECK_INT(got[i], 0);

    free(sbuf);
    free(rbuf);
    OK(MPI_Finalize());
    return 0;
}
