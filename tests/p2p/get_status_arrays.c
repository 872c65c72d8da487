/* MPI_Request_get_status_all/_any/_some (MPI 4.1): they report completion like
 * Testall/Testany/Testsome but leave every request as it was (not freed, still active), skip
 * MPI_REQUEST_NULL and inactive persistent requests, and say so when no request is active. */
#include "check.h"
#include "mpi.h"

static void expect_untouched(MPI_Request *reqs, MPI_Request *copy, int n)
{
    for (int i = 0; i < n; i++)
        CHECK(reqs[i] == copy[i]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = (rank ^ 1) < size ? rank ^ 1 : rank;

    /* requests: receives of tags 0, 1, 2, a null one, an inactive persistent one */
    enum { N = 5 };
    int in[3] = {-1, -1, -1}, out[3] = {100 + rank, 110 + rank, 120 + rank}, spare;
    MPI_Request reqs[N], copy[N];
    for (int t = 0; t < 3; t++)
        MPI_Irecv(&in[t], 1, MPI_INT, partner, t, MPI_COMM_WORLD, &reqs[t]);
    reqs[3] = MPI_REQUEST_NULL;
    MPI_Recv_init(&spare, 1, MPI_INT, partner, 77, MPI_COMM_WORLD, &reqs[4]);
    for (int i = 0; i < N; i++)
        copy[i] = reqs[i];

    /* nothing sent yet: nothing done */
    int flag = -1, index = -5, outcount = -5, idx[N];
    MPI_Status st, sts[N];
    CHECK_INT(MPI_Request_get_status_all(N, reqs, &flag, sts), MPI_SUCCESS);
    CHECK_INT(flag, 0);
    CHECK_INT(MPI_Request_get_status_some(N, reqs, &outcount, idx, sts), MPI_SUCCESS);
    CHECK_INT(outcount, 0);

    /* tag 1 arrives first (once every rank has looked): _any and _some find it, and it stays
     * active */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(&out[1], 1, MPI_INT, partner, 1, MPI_COMM_WORLD);
    do {
        CHECK_INT(MPI_Request_get_status_any(N, reqs, &index, &flag, &st), MPI_SUCCESS);
    } while (!flag);
    CHECK_INT(index, 1);
    CHECK_INT(st.MPI_TAG, 1);
    CHECK_INT(st.MPI_SOURCE, partner);
    CHECK_INT(in[1], 110 + partner);
    expect_untouched(reqs, copy, N);
    CHECK_INT(MPI_Request_get_status_some(N, reqs, &outcount, idx, sts), MPI_SUCCESS);
    CHECK_INT(outcount, 1);
    CHECK_INT(idx[0], 1);
    CHECK_INT(sts[0].MPI_TAG, 1);
    CHECK_INT(MPI_Request_get_status_all(N, reqs, &flag, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    CHECK_INT(flag, 0);
    expect_untouched(reqs, copy, N);

    /* the rest, once the partner has seen its tag 1 (so that it saw tag 1 alone) */
    int go_out = 1, go_in = 0; /* two buffers: the partner writes one while this reads */
    MPI_Sendrecv(&go_out, 1, MPI_INT, partner, 9, &go_in, 1, MPI_INT, partner, 9,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK_INT(go_in, 1);
    MPI_Send(&out[0], 1, MPI_INT, partner, 0, MPI_COMM_WORLD);
    MPI_Send(&out[2], 1, MPI_INT, partner, 2, MPI_COMM_WORLD);
    do {
        CHECK_INT(MPI_Request_get_status_all(N, reqs, &flag, sts), MPI_SUCCESS);
    } while (!flag);
    for (int t = 0; t < 3; t++) {
        CHECK_INT(sts[t].MPI_TAG, t);
        CHECK_INT(sts[t].MPI_SOURCE, partner);
        CHECK_INT(in[t], 100 + 10 * t + partner);
    }
    CHECK_INT(sts[3].MPI_SOURCE, MPI_ANY_SOURCE); /* null and inactive: empty statuses */
    CHECK_INT(sts[4].MPI_TAG, MPI_ANY_TAG);
    CHECK_INT(MPI_Request_get_status_some(N, reqs, &outcount, idx, sts), MPI_SUCCESS);
    CHECK_INT(outcount, 3);
    expect_untouched(reqs, copy, N);
    /* the requests are still there to be completed: Waitall frees them */
    CHECK_INT(MPI_Waitall(3, reqs, sts), MPI_SUCCESS);
    CHECK_INT(sts[2].MPI_TAG, 2);
    CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[2] == MPI_REQUEST_NULL);

    /* no active request left: _any says done with MPI_UNDEFINED, _some MPI_UNDEFINED */
    CHECK_INT(MPI_Request_get_status_any(N, reqs, &index, &flag, &st), MPI_SUCCESS);
    CHECK_INT(flag, 1);
    CHECK_INT(index, MPI_UNDEFINED);
    CHECK_INT(st.MPI_SOURCE, MPI_ANY_SOURCE);
    CHECK_INT(MPI_Request_get_status_some(N, reqs, &outcount, idx, sts), MPI_SUCCESS);
    CHECK_INT(outcount, MPI_UNDEFINED);
    CHECK_INT(MPI_Request_get_status_all(N, reqs, &flag, sts), MPI_SUCCESS);
    CHECK_INT(flag, 1);
    CHECK_INT(MPI_Request_get_status_all(0, NULL, &flag, NULL), MPI_SUCCESS);
    CHECK_INT(flag, 1);

    /* bad arguments */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Request bad[1] = {(MPI_Request)(void *)&spare};
    CHECK_INT(MPI_Request_get_status_all(1, bad, &flag, sts), MPI_ERR_REQUEST);
    CHECK_INT(MPI_Request_get_status_any(-1, reqs, &index, &flag, &st), MPI_ERR_COUNT);
    CHECK_INT(MPI_Request_get_status_some(N, reqs, &outcount, NULL, sts), MPI_ERR_ARG);
    CHECK_INT(MPI_Request_get_status_all(N, reqs, &flag, NULL), MPI_ERR_ARG);

    MPI_Request_free(&reqs[4]);
    MPI_Finalize();
    return 0;
}
