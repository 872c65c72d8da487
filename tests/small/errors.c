/* The bad inputs of tests/small's calls that the bad-argument walk (tests/bindings) cannot
 * reach, under MPI_ERRORS_RETURN: a status of MPI_STATUS_IGNORE for the accessors, a
 * truncated receive of an Isendrecv (the class comes from the wait, the status names the
 * sender), bad ranks and tags of each side, an uncommitted type, MPI_ANY_SOURCE as a
 * destination. */
#include "small_check.h"

int main(int argc, char **argv)
{
    int rank, size, v;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;

    FAILS(MPI_Status_set_source(MPI_STATUS_IGNORE, 1), MPI_ERR_ARG);
    FAILS(MPI_Status_set_tag(MPI_STATUS_IGNORE, 1), MPI_ERR_ARG);
    FAILS(MPI_Status_set_error(MPI_STATUS_IGNORE, 1), MPI_ERR_ARG);
    FAILS(MPI_Status_get_source(MPI_STATUS_IGNORE, &v), MPI_ERR_ARG);
    FAILS(MPI_Status_get_tag(MPI_STATUS_IGNORE, &v), MPI_ERR_ARG);
    FAILS(MPI_Status_get_error(MPI_STATUS_IGNORE, &v), MPI_ERR_ARG);

    int s[4] = {1, 2, 3, 4}, r[4] = {0};
    MPI_Request req = MPI_REQUEST_NULL;
    FAILS(MPI_Isendrecv(s, 4, MPI_INT, MPI_ANY_SOURCE, 0, r, 4, MPI_INT, prev, 0,
                        MPI_COMM_WORLD, &req), MPI_ERR_RANK);
    FAILS(MPI_Isendrecv(s, 4, MPI_INT, next, MPI_ANY_TAG, r, 4, MPI_INT, prev, 0,
                        MPI_COMM_WORLD, &req), MPI_ERR_TAG);
    FAILS(MPI_Isendrecv(s, 4, MPI_INT, next, 0, r, 4, MPI_INT, -3, 0, MPI_COMM_WORLD, &req),
          MPI_ERR_RANK);
    FAILS(MPI_Isendrecv(s, 4, MPI_INT, next, 0, r, 4, MPI_INT, prev, -3, MPI_COMM_WORLD,
                        &req), MPI_ERR_TAG);
    FAILS(MPI_Isendrecv_replace(s, 4, MPI_INT, size, 0, prev, 0, MPI_COMM_WORLD, &req),
          MPI_ERR_RANK);
    FAILS(MPI_Isendrecv_replace(s, -1, MPI_INT, next, 0, prev, 0, MPI_COMM_WORLD, &req),
          MPI_ERR_COUNT);
    MPI_Datatype t;
    MPI_Type_contiguous(2, MPI_INT, &t); /* not committed */
    FAILS(MPI_Isendrecv(s, 1, t, next, 0, r, 4, MPI_INT, prev, 0, MPI_COMM_WORLD, &req),
          MPI_ERR_TYPE);
    FAILS(MPI_Isendrecv_replace(s, 1, t, next, 0, prev, 0, MPI_COMM_WORLD, &req),
          MPI_ERR_TYPE);
    MPI_Type_free(&t);
    CHECK(req == MPI_REQUEST_NULL); /* no failed call made a request */

    /* 4 ints into room for 2: the wait says MPI_ERR_TRUNCATE, the status who sent it */
    MPI_Status st;
    OK(MPI_Isendrecv(s, 4, MPI_INT, next, 5, r, 2, MPI_INT, prev, 5, MPI_COMM_WORLD, &req));
    FAILS(MPI_Wait(&req, &st), MPI_ERR_TRUNCATE);
    CHECK_INT(st.MPI_SOURCE, prev);
    CHECK_INT(st.MPI_TAG, 5);
    CHECK(req == MPI_REQUEST_NULL);
    /* ... and through an array call, in the status's error field */
    int b[4] = {1, 2, 3, 4};
    OK(MPI_Isendrecv_replace(b, 4, MPI_INT, next, 6, prev, 6, MPI_COMM_WORLD, &req));
    MPI_Request reqs[2] = {req, MPI_REQUEST_NULL};
    OK(MPI_Irecv(r, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &reqs[1]));
    MPI_Status sts[2];
    OK(MPI_Waitall(2, reqs, sts)); /* a replace of the same size fits */
    for (int i = 0; i < 4; i++)
        CHECK_INT(b[i], i + 1);
    int small[2];
    OK(MPI_Isendrecv(s, 4, MPI_INT, next, 7, small, 2, MPI_INT, prev, 7, MPI_COMM_WORLD,
                     &reqs[0]));
    OK(MPI_Irecv(r, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &reqs[1]));
    FAILS(MPI_Waitall(2, reqs, sts), MPI_ERR_IN_STATUS);
    CHECK_INT(sts[0].MPI_ERROR, MPI_ERR_TRUNCATE);
    CHECK_INT(sts[1].MPI_ERROR, MPI_SUCCESS);
    MPI_Finalize();
    return 0;
}
