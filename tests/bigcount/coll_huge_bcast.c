/* MPI_Bcast_c of more than 2^31 bytes (a count above INT_MAX) at 2 ranks, blocking and
 * nonblocking, on real memory: every byte sent, sampled bytes checked (about 4 GiB in all). */
#include <stdint.h>
#include "coll_check.h"

static unsigned char pattern(size_t i, int round)
{
    return (unsigned char)((i ^ (i >> 13) ^ (i >> 29)) + (size_t)round * 77);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    const MPI_Count count = ((MPI_Count)1 << 31) + 4099; /* above INT_MAX */
    unsigned char *buf = malloc((size_t)count);
    CHECK(buf != NULL);
    for (int round = 0; round < 2; round++) {
        int root = round % n;
        if (me == root)
            for (size_t i = 0; i < (size_t)count; i++)
                buf[i] = pattern(i, round);
        else
            memset(buf, 0, (size_t)count);
        if (round == 0) {
            OK(MPI_Bcast_c(buf, count, MPI_BYTE, root, MPI_COMM_WORLD));
        } else {
            MPI_Request r;
            OK(MPI_Ibcast_c(buf, count, MPI_BYTE, root, MPI_COMM_WORLD, &r));
            OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        }
        /* sampled: a stride prime to every power of two, around 2^31, and the last bytes */
        for (size_t i = 0; i < (size_t)count; i += 65521)
            CHECK_INT(buf[i], pattern(i, round));
        for (size_t i = ((size_t)1 << 31) - 64; i < (size_t)count; i++)
            CHECK_INT(buf[i], pattern(i, round));
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
