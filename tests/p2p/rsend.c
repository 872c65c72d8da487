/* Ready sends (MPI_Rsend, MPI_Irsend): the receive is posted first (a barrier makes sure),
 * then the ready send delivers into it, small and large. */
#include "p2p_check.h"

static const size_t sizes[] = {0, 8, 16384, 16385, 300000};
#define NSIZES (sizeof sizes / sizeof sizes[0])

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    unsigned char *sbuf = p2p_malloc(300000), *rbuf = p2p_malloc(300000);
    MPI_Request rreq, sreq;
    MPI_Status st;

    for (size_t k = 0; k < NSIZES; k++) {
        size_t n = sizes[k];
        for (int nonblocking = 0; nonblocking < 2; nonblocking++) {
            unsigned id = (unsigned)(rank * 100 + k * 2 + nonblocking);
            memset(rbuf, 0, n);
            OK(MPI_Irecv(rbuf, (int)n, MPI_BYTE, peer, (int)k, MPI_COMM_WORLD, &rreq));
            OK(MPI_Barrier(MPI_COMM_WORLD));
            p2p_fill(sbuf, n, id);
            if (nonblocking) {
                OK(MPI_Irsend(sbuf, (int)n, MPI_BYTE, peer, (int)k, MPI_COMM_WORLD, &sreq));
                OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
            } else {
                OK(MPI_Rsend(sbuf, (int)n, MPI_BYTE, peer, (int)k, MPI_COMM_WORLD));
            }
            OK(MPI_Wait(&rreq, &st));
            CHECK_STATUS(st, peer, (int)k, n);
            CHECK_FILL(rbuf, n, (unsigned)(peer * 100 + k * 2 + nonblocking));
            OK(MPI_Barrier(MPI_COMM_WORLD));
        }
    }
    free(sbuf);
    free(rbuf);
    OK(MPI_Finalize());
    return 0;
}
