/* inter_util.h — the intercommunicator the tests in tests/inter use: world split into a low
 * half (world ranks 0 .. n/2-1, at least one rank) and a high half (the rest), joined by
 * MPI_Intercomm_create with world as the peer communicator. */
#ifndef LOOM_TEST_INTER_UTIL_H
#define LOOM_TEST_INTER_UTIL_H
#include <mpi.h>
#include "comm_check.h"

struct halves {
    int n;           /* world size */
    int low_size;    /* ranks in the low half */
    int high;        /* 1 if the calling rank is in the high half */
    int lsize, rsize; /* local and remote group sizes */
    int lrank;       /* rank in the local group */
    MPI_Comm local;  /* the calling rank's half (an intracommunicator) */
    MPI_Comm inter;  /* the intercommunicator between the halves */
};

/* World rank of rank r of the low (high = 0) or high half. */
static inline int half_world(const struct halves *h, int high, int r)
{
    return high ? h->low_size + r : r;
}

/* Needs at least 2 ranks. tag: the leaders' tag on world. */
static inline void halves_make(struct halves *h, int tag)
{
    int me = world_rank();
    h->n = world_size();
    h->low_size = h->n / 2;
    h->high = me >= h->low_size;
    OK(MPI_Comm_split(MPI_COMM_WORLD, h->high, me, &h->local));
    OK(MPI_Comm_rank(h->local, &h->lrank));
    int remote_leader = h->high ? 0 : h->low_size;
    OK(MPI_Intercomm_create(h->local, 0, MPI_COMM_WORLD, remote_leader, tag, &h->inter));
    CHECK(h->inter != MPI_COMM_NULL);
    OK(MPI_Comm_size(h->inter, &h->lsize));
    OK(MPI_Comm_remote_size(h->inter, &h->rsize));
    CHECK_INT(h->lsize, h->high ? h->n - h->low_size : h->low_size);
    CHECK_INT(h->rsize, h->n - h->lsize);
}

static inline void halves_free(struct halves *h)
{
    OK(MPI_Comm_free(&h->inter));
    CHECK(h->inter == MPI_COMM_NULL);
    OK(MPI_Comm_free(&h->local));
}
#endif
