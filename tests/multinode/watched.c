/* What the network thread polls for (net/net_watch.c), read through MPI_T's level
 * loom_net_watched by the first rank while the last, in the other node process, has not sent
 * yet: a nonblocking receive with room for an eager message only is not counted (its message
 * arrives whole and its wait takes it), one with room for more is, from a given source or
 * from MPI_ANY_SOURCE; an eager nonblocking send completes at once and is not counted, a
 * rendezvous one is until the peer has read it; a synchronous send into a small receive (a
 * request-to-send, whose read is counted when a poll matches it) leaves nothing counted once
 * it is done; and everything completed leaves 0. Shape 2:1: no other rank polls or posts. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "abort_check.h"

#define SMALL 8
#define BIG (1 << 20)

static unsigned long long watched(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    unsigned long long v = 99;
    CHECK_OK(MPI_T_pvar_read(s, h, &v));
    return v;
}

#define CHECK_WATCHED(s, h, want)                                                            \
    do {                                                                                      \
        unsigned long long got_ = watched(s, h);                                              \
        CHECK_MSG(got_ == (want), "line %d: loom_net_watched %llu, expected %d", __LINE__,    \
                  got_, (int)(want));                                                         \
    } while (0)

static void fill(char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = (char)(i * 7u + (unsigned)seed);
}

static void check(const char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        CHECK_MSG(b[i] == (char)(i * 7u + (unsigned)seed), "seed %d: byte %zu wrong", seed, i);
}

int main(int argc, char **argv)
{
    int rank, size, provided, idx, count;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MSG(size == 2, "run on 2 node processes of 1 rank");
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK_OK(MPI_T_pvar_get_index("loom_net_watched", MPI_T_PVAR_CLASS_LEVEL, &idx));
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h;
    CHECK_OK(MPI_T_pvar_session_create(&s));
    CHECK_OK(MPI_T_pvar_handle_alloc(s, idx, NULL, &h, &count));
    char *small[3], *big[4];
    for (int k = 0; k < 3; k++)
        CHECK_MSG((small[k] = malloc(SMALL)) != NULL, "out of memory");
    for (int k = 0; k < 4; k++)
        CHECK_MSG((big[k] = malloc(BIG)) != NULL, "out of memory");
    int peer = 1 - rank;
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_WATCHED(s, h, 0);

    if (rank == 0) {
        MPI_Request r[5];
        MPI_Irecv(small[0], SMALL, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &r[0]);
        CHECK_WATCHED(s, h, 0);
        MPI_Irecv(big[0], BIG, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &r[1]);
        CHECK_WATCHED(s, h, 1);
        MPI_Irecv(big[1], BIG, MPI_CHAR, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &r[2]);
        CHECK_WATCHED(s, h, 2);
        fill(small[1], SMALL, 4);
        MPI_Isend(small[1], SMALL, MPI_CHAR, peer, 4, MPI_COMM_WORLD, &r[3]);
        CHECK_WATCHED(s, h, 2);
        fill(big[2], BIG, 5);
        MPI_Isend(big[2], BIG, MPI_CHAR, peer, 5, MPI_COMM_WORLD, &r[4]);
        CHECK_WATCHED(s, h, 3);
        MPI_Barrier(MPI_COMM_WORLD); /* the peer sends and receives from here on */
        MPI_Waitall(5, r, MPI_STATUSES_IGNORE);
        check(small[0], SMALL, 1);
        check(big[0], BIG, 2);
        check(big[1], BIG, 3);
        MPI_Irecv(small[2], SMALL, MPI_CHAR, peer, 6, MPI_COMM_WORLD, &r[0]);
        CHECK_WATCHED(s, h, 0);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        check(small[2], SMALL, 6);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        fill(small[0], SMALL, 1);
        fill(big[0], BIG, 2);
        fill(big[1], BIG, 3);
        MPI_Send(small[0], SMALL, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
        MPI_Send(big[0], BIG, MPI_CHAR, peer, 2, MPI_COMM_WORLD);
        MPI_Send(big[1], BIG, MPI_CHAR, peer, 3, MPI_COMM_WORLD);
        MPI_Recv(small[1], SMALL, MPI_CHAR, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(big[2], BIG, MPI_CHAR, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        check(small[1], SMALL, 4);
        check(big[2], BIG, 5);
        MPI_Barrier(MPI_COMM_WORLD);
        fill(small[2], SMALL, 6);
        MPI_Ssend(small[2], SMALL, MPI_CHAR, peer, 6, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_WATCHED(s, h, 0);
    CHECK_OK(MPI_T_pvar_handle_free(s, &h));
    CHECK_OK(MPI_T_pvar_session_free(&s));
    CHECK_OK(MPI_T_finalize());
    for (int k = 0; k < 3; k++)
        free(small[k]);
    for (int k = 0; k < 4; k++)
        free(big[k]);
    if (rank == 0)
        printf("watched: 2 ranks ok\n");
    MPI_Finalize();
    return 0;
}
