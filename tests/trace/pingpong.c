/* The program behind the LOOM_STATS and LOOM_TRACE tests: ranks pair up (0-1, 2-3, ...; an
 * odd last rank sits out). In each pair the even rank sends K messages of BIG bytes, each
 * answered by SMALL bytes; the odd rank posts its receive, computes, then waits, so the large
 * copy (chunk tasks unless LOOM_PROGRESS=inline) can be done by whoever is free. No
 * collective is used, so the message counts are exactly:
 *   even rank: sent K messages, K*BIG bytes; received K, K*SMALL bytes;
 *   odd rank: the other way round; a rank without a partner: 0.
 * Usage: trace_pingpong [K BIG SMALL] (default 4 1048576 64). */
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "check.h"

/* Work that takes a while and cannot be optimized away. */
static double compute(long n)
{
    volatile double x = 1.0;
    for (long i = 0; i < n; i++)
        x = x * 1.0000001 + 1e-9;
    return x;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int k = argc > 1 ? atoi(argv[1]) : 4;
    int big = argc > 2 ? atoi(argv[2]) : 1 << 20;
    int small = argc > 3 ? atoi(argv[3]) : 64;
    CHECK(k > 0 && big > 0 && small > 0);

    compute(200000); /* a computing phase everybody has */
    int peer = rank ^ 1;
    if (peer < size) {
        char *bbuf = malloc((size_t)big), *sbuf = malloc((size_t)small);
        CHECK(bbuf && sbuf);
        for (int it = 0; it < k; it++) {
            if (rank % 2 == 0) {
                for (int i = 0; i < big; i++)
                    bbuf[i] = (char)(i * 7 + it);
                MPI_Send(bbuf, big, MPI_CHAR, peer, it, MPI_COMM_WORLD);
                MPI_Status st;
                MPI_Recv(sbuf, small, MPI_CHAR, peer, it, MPI_COMM_WORLD, &st);
                int got;
                MPI_Get_count(&st, MPI_CHAR, &got);
                CHECK_INT(got, small);
                CHECK_INT(sbuf[small - 1], (char)(it + 1));
            } else {
                MPI_Request req;
                memset(bbuf, 0, (size_t)big);
                MPI_Irecv(bbuf, big, MPI_CHAR, peer, it, MPI_COMM_WORLD, &req);
                compute(100000); /* computing while the message is in flight */
                MPI_Wait(&req, MPI_STATUS_IGNORE);
                for (int i = 0; i < big; i++)
                    if (bbuf[i] != (char)(i * 7 + it))
                        CHECK_INT(bbuf[i], (char)(i * 7 + it));
                memset(sbuf, it + 1, (size_t)small);
                MPI_Send(sbuf, small, MPI_CHAR, peer, it, MPI_COMM_WORLD);
            }
        }
        free(bbuf);
        free(sbuf);
    }
    MPI_Finalize();
    return 0;
}
