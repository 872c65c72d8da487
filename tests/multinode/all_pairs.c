/* Every rank exchanges messages with every other rank, across node processes: eager and
 * rendezvous sizes (to 4 MiB; 8192 and 8200 ints lie either side of the network's eager
 * limit of 32 KiB, and CMakeLists.txt runs it with ofi_rxm's buffer sized below), contiguous
 * and strided buffers on either side, wildcard receives, synchronous sends, and order
 * between messages of one pair. Contents checked. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "abort_check.h"

static int value(int from, int to, size_t i)
{
    return (int)((unsigned)from * 7919u + (unsigned)to * 104729u + (unsigned)i * 31u);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    static const size_t counts[] = {0, 1, 100, 4000, 8192, 8200, 70000, 1 << 20};
    const int ncounts = (int)(sizeof counts / sizeof counts[0]);
    size_t max = counts[ncounts - 1];
    int *out = malloc(2 * max * sizeof *out), *in = malloc(2 * max * sizeof *in);
    CHECK_MSG(out && in, "out of memory");

    for (int c = 0; c < ncounts; c++) {
        size_t cnt = counts[c];
        for (int peer = 0; peer < n; peer++) {
            if (peer == me)
                continue;
            /* contiguous both ways; the lower rank sends first */
            for (size_t i = 0; i < cnt; i++)
                out[i] = value(me, peer, i);
            MPI_Request rq[2];
            MPI_Irecv(in, (int)cnt, MPI_INT, peer, c, MPI_COMM_WORLD, &rq[0]);
            if (c % 2)
                MPI_Issend(out, (int)cnt, MPI_INT, peer, c, MPI_COMM_WORLD, &rq[1]);
            else
                MPI_Isend(out, (int)cnt, MPI_INT, peer, c, MPI_COMM_WORLD, &rq[1]);
            MPI_Status sts[2];
            MPI_Waitall(2, rq, sts);
            int got;
            MPI_Get_count(&sts[0], MPI_INT, &got);
            CHECK_MSG(got == (int)cnt && sts[0].MPI_SOURCE == peer && sts[0].MPI_TAG == c,
                      "from %d: count %d (want %zu), source %d, tag %d", peer, got, cnt,
                      sts[0].MPI_SOURCE, sts[0].MPI_TAG);
            for (size_t i = 0; i < cnt; i++)
                CHECK_MSG(in[i] == value(peer, me, i), "from %d, %zu ints: element %zu is %d", peer,
                          cnt, i, in[i]);
        }
    }

    /* strided sender, contiguous receiver, and the reverse, at an eager and a large size */
    for (int big = 0; big < 2; big++) {
        int cnt = big ? 1 << 20 : 1000;
        MPI_Datatype vec;
        MPI_Type_vector(cnt, 1, 2, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        for (int peer = 0; peer < n; peer++) {
            if (peer == me)
                continue;
            for (int i = 0; i < cnt; i++) {
                out[2 * i] = value(me, peer, (size_t)i + 5);
                out[2 * i + 1] = -1;
            }
            memset(in, 0, 2 * (size_t)cnt * sizeof *in);
            MPI_Request rq[2];
            /* the lower rank receives strided, the higher contiguous */
            if (me < peer)
                MPI_Irecv(in, 1, vec, peer, 99, MPI_COMM_WORLD, &rq[0]);
            else
                MPI_Irecv(in, cnt, MPI_INT, peer, 99, MPI_COMM_WORLD, &rq[0]);
            MPI_Isend(out, 1, vec, peer, 99, MPI_COMM_WORLD, &rq[1]);
            MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
            for (int i = 0; i < cnt; i++) {
                int v = me < peer ? in[2 * i] : in[i];
                CHECK_MSG(v == value(peer, me, (size_t)i + 5), "strided from %d (%d ints): element "
                          "%d is %d", peer, cnt, i, v);
            }
        }
        MPI_Type_free(&vec);
    }

    /* order and wildcards: every other rank sends 50 numbered messages (mixed sizes); rank 0
     * takes them with MPI_ANY_SOURCE and checks each sender's numbers arrive in order */
    if (me == 0) {
        int *next = calloc((size_t)n, sizeof *next);
        for (int k = 0; k < 50 * (n - 1); k++) {
            MPI_Status st;
            MPI_Recv(in, (int)max, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            int s = st.MPI_SOURCE;
            CHECK_MSG(s > 0 && s < n && in[0] == next[s], "from %d: message %d, expected %d", s,
                      in[0], s > 0 && s < n ? next[s] : -1);
            CHECK_MSG(st.MPI_TAG == in[0] % 3, "tag %d for message %d", st.MPI_TAG, in[0]);
            next[s]++;
        }
        free(next);
    } else {
        for (int k = 0; k < 50; k++) {
            out[0] = k;
            /* 24000 B: eager, and sent from `out` in place by default (LOOM_NET_INPLACE),
             * which the next iteration rewrites as soon as MPI_Send has returned */
            int cnt = k % 10 == 9 ? 20000 : k % 10 == 4 ? 6000 : 1 + k;
            MPI_Send(out, cnt, MPI_INT, 0, k % 3, MPI_COMM_WORLD);
        }
    }
    free(out);
    free(in);
    MPI_Finalize();
    if (me == 0)
        printf("all_pairs: %d ranks ok\n", n);
    return 0;
}
