/* MPI_Gatherv_c and MPI_Allgatherv_c whose displacements lie beyond 2^31 bytes (and beyond
 * INT_MAX elements of MPI_BYTE) at 2 ranks, blocking, nonblocking and persistent: the blocks
 * land exactly there, and the bytes around them stay untouched. The receive buffers span a
 * little more than 2 GiB each; only the pages around the blocks are written. */
#include <stdint.h>
#include "coll_run.h"

enum { B = 1000 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    CHECK(n <= 2);
    const MPI_Aint far = ((MPI_Aint)1 << 31) + 12345; /* rank 1's block: past 2^31 bytes */
    size_t span = (size_t)far + 2 * B;
    unsigned char *rbuf = malloc(span);
    CHECK(rbuf != NULL);
    unsigned char s[B];
    for (int i = 0; i < B; i++)
        s[i] = (unsigned char)(me * 100 + i % 97);
    MPI_Count counts[2] = {B, B};
    MPI_Aint displs[2] = {7, far}; /* rank 0's block near the start */
    for (int kind = 0; kind < 2; kind++) {
        for (int mode = 0; mode < NMODES; mode++) {
            int root = kind == 0 ? n - 1 : -1; /* gatherv's root; allgatherv: everyone */
            int receives = kind == 1 || me == root;
            if (receives) { /* marks around each block */
                memset(rbuf, 0xEE, 16 + B);
                memset(rbuf + far - 8, 0xEE, B + 16);
            }
            if (kind == 0)
                RUN_C(mode, Gatherv, Igatherv,
                      (s, B, MPI_BYTE, rbuf, counts, displs, MPI_BYTE, root, MPI_COMM_WORLD));
            else
                RUN_C(mode, Allgatherv, Iallgatherv,
                      (s, B, MPI_BYTE, rbuf, counts, displs, MPI_BYTE, MPI_COMM_WORLD));
            if (!receives)
                continue;
            for (int r = 0; r < n; r++) {
                unsigned char *blk = rbuf + displs[r];
                for (int i = 0; i < B; i++)
                    CHECK_INT(blk[i], (unsigned char)(r * 100 + i % 97));
                CHECK_INT(blk[-1], 0xEE);
                CHECK_INT(blk[B], 0xEE);
            }
        }
    }
    free(rbuf);
    MPI_Finalize();
    return 0;
}
