/* MPICH's async extensions: a poll function runs, as its rank, until it says DONE; it can
 * spawn another; MPIX_Stream_progress drives it; MPIX_Request_is_complete does not free. */
#include <stdatomic.h>
#include <mpi.h>
#include "check.h"

/* Poll functions may run on another thread (a stealing rank, a progress thread): what the
 * rank's main thread reads of them is atomic. */
struct counter {
    atomic_int calls;
    int target, rank_seen, spawned;
    atomic_int *done;
};

static int child(MPIX_Async_thing thing)
{
    atomic_int *done = MPIX_Async_get_state(thing);
    atomic_fetch_add(done, 1);
    return MPIX_ASYNC_DONE;
}

static int count_up(MPIX_Async_thing thing)
{
    struct counter *c = MPIX_Async_get_state(thing);
    MPI_Comm_rank(MPI_COMM_WORLD, &c->rank_seen);
    if (atomic_fetch_add(&c->calls, 1) + 1 == 3 && !c->spawned) {
        c->spawned = 1;
        MPIX_Async_spawn(thing, child, c->done, MPIX_STREAM_NULL);
    }
    return c->calls >= c->target ? MPIX_ASYNC_DONE : MPIX_ASYNC_NOPROGRESS;
}

int main(int argc, char **argv)
{
    int rank;
    atomic_int done = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    struct counter c = {0, 10, -1, 0, &done};
    MPIX_Async_start(count_up, &c, MPIX_STREAM_NULL);
    for (int i = 0; i < 1000000 && (c.calls < 10 || done < 1); i++)
        MPIX_Stream_progress(MPIX_STREAM_NULL);
    CHECK_INT(c.calls, 10);
    CHECK_INT(done, 1);
    CHECK_INT(c.rank_seen, rank);
    for (int i = 0; i < 100; i++)
        MPIX_Stream_progress(MPIX_STREAM_NULL);
    CHECK_INT(c.calls, 10); /* DONE: never polled again */

    /* a request stays valid after MPIX_Request_is_complete */
    MPI_Request req;
    int buf = rank;
    MPI_Irecv(&buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req);
    CHECK_INT(MPIX_Request_is_complete(req), 1);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK_INT(MPIX_Request_is_complete(MPI_REQUEST_NULL), 1);
    MPI_Irecv(&buf, 1, MPI_INT, rank, 5, MPI_COMM_WORLD, &req);
    CHECK_INT(MPIX_Request_is_complete(req), 0);
    int v = 42;
    MPI_Send(&v, 1, MPI_INT, rank, 5, MPI_COMM_WORLD);
    CHECK_INT(MPIX_Request_is_complete(req), 1);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK_INT(buf, 42);
    MPI_Finalize();
    return 0;
}
