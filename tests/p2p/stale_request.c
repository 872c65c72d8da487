/* A stale request handle (a copy of a request that an earlier wait completed and freed) is
 * MPI_ERR_REQUEST in every call that takes a request, and the handle is checked before any
 * field of the request is read: under AddressSanitizer the wait used to read freed memory
 * (heap-use-after-free in p2p_wait.c's inactive()). Freed requests stay loom memory while the
 * job runs (p2p/request.c). A persistent request freed by MPI_Request_free, likewise. */
#include "p2p_check.h"

static void complete_one(MPI_Request *req, MPI_Request *stale, int peer, int tag)
{
    int rank = p2p_rank(), in = -1, out = rank + 100 * tag;
    OK(MPI_Irecv(&in, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, req));
    *stale = *req;
    OK(MPI_Send(&out, 1, MPI_INT, peer, tag, MPI_COMM_WORLD));
    OK(MPI_Wait(req, MPI_STATUS_IGNORE));
    CHECK(*req == MPI_REQUEST_NULL);
    CHECK_INT(in, peer + 100 * tag);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    MPI_Request req, stale, arr[2];
    int flag = -1, index = -1, n = -1, indices[2];

    complete_one(&req, &stale, peer, 1);
    MPI_Request copy = stale;
    FAILS(MPI_Wait(&copy, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    copy = stale;
    FAILS(MPI_Test(&copy, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    CHECK_INT(flag, -1);
    FAILS(MPI_Request_get_status(stale, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    copy = stale;
    FAILS(MPI_Request_free(&copy), MPI_ERR_REQUEST);
    copy = stale;
    FAILS(MPI_Cancel(&copy), MPI_ERR_REQUEST);
    copy = stale;
    FAILS(MPI_Start(&copy), MPI_ERR_REQUEST);
    FAILS(MPI_Startall(1, &stale), MPI_ERR_REQUEST);
    CHECK_INT(MPIX_Request_is_complete(stale), 0);
    arr[0] = MPI_REQUEST_NULL;
    arr[1] = stale;
    FAILS(MPI_Waitall(2, arr, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
    FAILS(MPI_Testall(2, arr, &flag, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
    FAILS(MPI_Waitany(2, arr, &index, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    FAILS(MPI_Testany(2, arr, &index, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    FAILS(MPI_Waitsome(2, arr, &n, indices, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
    FAILS(MPI_Testsome(2, arr, &n, indices, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
    CHECK_INT(index, -1);
    CHECK_INT(n, -1);

    /* a persistent request, freed */
    int buf = rank;
    OK(MPI_Send_init(&buf, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &req));
    stale = req;
    OK(MPI_Request_free(&req));
    copy = stale;
    FAILS(MPI_Start(&copy), MPI_ERR_REQUEST);
    copy = stale;
    FAILS(MPI_Wait(&copy, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);

    /* many requests in a row: the pool of freed requests hands them out again, and each
     * works */
    for (int i = 0; i < 50; i++)
        complete_one(&req, &stale, peer, 3);
    OK(MPI_Finalize());
    return 0;
}
