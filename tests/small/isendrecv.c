/* MPI_Isendrecv and MPI_Isendrecv_replace: a shift around the ring (to rank + 1, from
 * rank - 1) of small (cell), eager and rendezvous sizes, completed by MPI_Wait, by MPI_Test
 * alone (a keypoint each) and by MPI_Waitall; a replace of a non-contiguous type; wildcards
 * (the status names the sender and the tag); MPI_PROC_NULL on either side and both (the
 * status is empty, from MPI_PROC_NULL); a request freed in flight whose send still arrives. */
#include <stdlib.h>
#include <string.h>
#include "small_check.h"

/* Per rank: every rank is a thread of one process (the tests are not built by loomcc, whose
 * plugin would make globals per rank). */
static _Thread_local int rank, size, next, prev;

static int value(int from, int i, int salt)
{
    return from * 1000003 + i * 7 + salt;
}

/* One shift of n ints by Isendrecv, completed by `how` (0 wait, 1 test loop, 2 waitall). */
static void shift(int n, int how, int salt)
{
    int *s = malloc(sizeof(int) * (size_t)(n + 1)), *r = malloc(sizeof(int) * (size_t)(n + 1));
    CHECK(s && r);
    for (int i = 0; i < n; i++)
        s[i] = value(rank, i, salt);
    r[n] = -7; /* past the message: must stay */
    MPI_Request req;
    MPI_Status st;
    OK(MPI_Isendrecv(s, n, MPI_INT, next, salt, r, n, MPI_INT, prev, salt, MPI_COMM_WORLD,
                     &req));
    CHECK(req != MPI_REQUEST_NULL);
    if (how == 0) {
        OK(MPI_Wait(&req, &st));
    } else if (how == 1) {
        int flag = 0;
        while (!flag)
            OK(MPI_Test(&req, &flag, &st));
    } else {
        OK(MPI_Waitall(1, &req, &st));
    }
    CHECK(req == MPI_REQUEST_NULL);
    CHECK_INT(st.MPI_SOURCE, prev);
    CHECK_INT(st.MPI_TAG, salt);
    int count = -1;
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK_INT(count, n);
    for (int i = 0; i < n; i++)
        CHECK_INT(r[i], value(prev, i, salt));
    CHECK_INT(r[n], -7);
    free(s);
    free(r);
}

/* The same by Isendrecv_replace, in place. */
static void shift_replace(int n, int salt)
{
    int *b = malloc(sizeof(int) * (size_t)(n + 1));
    CHECK(b);
    for (int i = 0; i < n; i++)
        b[i] = value(rank, i, salt);
    b[n] = -7;
    MPI_Request req;
    MPI_Status st;
    OK(MPI_Isendrecv_replace(b, n, MPI_INT, next, salt, prev, salt, MPI_COMM_WORLD, &req));
    OK(MPI_Wait(&req, &st));
    CHECK_INT(st.MPI_SOURCE, prev);
    for (int i = 0; i < n; i++)
        CHECK_INT(b[i], value(prev, i, salt));
    CHECK_INT(b[n], -7);
    free(b);
}

/* Replace with a vector (every other int): the gaps keep their values. */
static void replace_vector(void)
{
    MPI_Datatype v;
    OK(MPI_Type_vector(8, 1, 2, MPI_INT, &v));
    OK(MPI_Type_commit(&v));
    int b[16];
    for (int i = 0; i < 16; i++)
        b[i] = i % 2 ? -i : value(rank, i, 3);
    MPI_Request req;
    OK(MPI_Isendrecv_replace(b, 1, v, next, 3, prev, 3, MPI_COMM_WORLD, &req));
    OK(MPI_Type_free(&v)); /* the operation keeps its own reference */
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int i = 0; i < 16; i++)
        CHECK_INT(b[i], i % 2 ? -i : value(prev, i, 3));
}

static void wildcards(void)
{
    int s = value(rank, 0, 5), r = -1;
    MPI_Request req;
    MPI_Status st;
    OK(MPI_Isendrecv(&s, 1, MPI_INT, next, 40 + rank, &r, 1, MPI_INT, MPI_ANY_SOURCE,
                     MPI_ANY_TAG, MPI_COMM_WORLD, &req));
    OK(MPI_Wait(&req, &st));
    CHECK_INT(st.MPI_SOURCE, prev);
    CHECK_INT(st.MPI_TAG, 40 + prev);
    CHECK_INT(r, value(prev, 0, 5));
}

static void proc_null(void)
{
    int s = value(rank, 0, 6), r = -1, r2 = -1;
    MPI_Request req[2];
    MPI_Status st[2];
    int count = -1;
    /* nothing to receive: the status is empty, from MPI_PROC_NULL; its send is received by
     * the second call, which has nothing to send (both in flight: the send may wait for its
     * receive) */
    OK(MPI_Isendrecv(&s, 1, MPI_INT, next, 6, &r, 1, MPI_INT, MPI_PROC_NULL, 6, MPI_COMM_WORLD,
                     &req[0]));
    OK(MPI_Isendrecv(&s, 1, MPI_INT, MPI_PROC_NULL, 6, &r2, 1, MPI_INT, prev, 6,
                     MPI_COMM_WORLD, &req[1]));
    OK(MPI_Waitall(2, req, st));
    CHECK_INT(st[0].MPI_SOURCE, MPI_PROC_NULL);
    CHECK_INT(st[0].MPI_TAG, MPI_ANY_TAG);
    OK(MPI_Get_count(&st[0], MPI_INT, &count));
    CHECK_INT(count, 0);
    CHECK_INT(r, -1);
    CHECK_INT(st[1].MPI_SOURCE, prev);
    CHECK_INT(r2, value(prev, 0, 6));
    /* both sides MPI_PROC_NULL, replace form included */
    OK(MPI_Isendrecv(&s, 1, MPI_INT, MPI_PROC_NULL, 6, &r, 1, MPI_INT, MPI_PROC_NULL, 6,
                     MPI_COMM_WORLD, &req[0]));
    OK(MPI_Wait(&req[0], &st[0]));
    CHECK_INT(st[0].MPI_SOURCE, MPI_PROC_NULL);
    OK(MPI_Isendrecv_replace(&s, 1, MPI_INT, MPI_PROC_NULL, 6, MPI_PROC_NULL, 6,
                             MPI_COMM_WORLD, &req[0]));
    OK(MPI_Wait(&req[0], &st[0]));
    CHECK_INT(st[0].MPI_SOURCE, MPI_PROC_NULL);
    CHECK_INT(s, value(rank, 0, 6));
    /* replace with only a send: the buffer keeps its data */
    OK(MPI_Isendrecv_replace(&s, 1, MPI_INT, next, 7, MPI_PROC_NULL, 7, MPI_COMM_WORLD,
                             &req[0]));
    OK(MPI_Recv(&r, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    OK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    CHECK_INT(s, value(rank, 0, 6));
    CHECK_INT(r, value(prev, 0, 6));
}

/* A request freed before it completes: its send (of a rendezvous size) still arrives, and
 * the buffer may be reused once the receiver says so. */
static void freed_in_flight(void)
{
    enum { N = 100000 };
    int *s = malloc(sizeof(int) * N), *r = malloc(sizeof(int) * N);
    CHECK(s && r);
    for (int i = 0; i < N; i++)
        s[i] = value(rank, i, 8);
    MPI_Request req;
    OK(MPI_Isendrecv(s, N, MPI_INT, next, 8, r, 0, MPI_INT, MPI_PROC_NULL, 8, MPI_COMM_WORLD,
                     &req));
    OK(MPI_Request_free(&req));
    CHECK(req == MPI_REQUEST_NULL);
    OK(MPI_Recv(r, N, MPI_INT, prev, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        CHECK_INT(r[i], value(prev, i, 8));
    OK(MPI_Barrier(MPI_COMM_WORLD)); /* every send is received: s may go */
    free(s);
    free(r);
}

/* A request freed with both parts in flight: whoever completes the last part destroys it.
 * The same messages again, by a blocking Sendrecv, follow the freed ones (messages do not
 * overtake) and arrive. buf outlives the call: the freed send may be read and its receive
 * land later (a copy task, with rendezvous only), until MPI_Finalize. */
static void freed_both(int buf[2])
{
    int s = value(rank, 0, 11), r = -1;
    MPI_Request req;
    buf[0] = s;
    OK(MPI_Isendrecv(&buf[0], 1, MPI_INT, next, 11, &buf[1], 1, MPI_INT, prev, 11,
                     MPI_COMM_WORLD, &req));
    OK(MPI_Request_free(&req));
    CHECK(req == MPI_REQUEST_NULL);
    OK(MPI_Sendrecv(&s, 1, MPI_INT, next, 11, &r, 1, MPI_INT, prev, 11, MPI_COMM_WORLD,
                    MPI_STATUS_IGNORE));
    CHECK_INT(r, value(prev, 0, 11));
}

/* Several pairs in flight at once, completed together, replace forms among them. */
static void many(void)
{
    enum { K = 8 };
    int s[K], r[K], b[K];
    MPI_Request reqs[2 * K];
    for (int k = 0; k < K; k++) {
        s[k] = value(rank, k, 9);
        b[k] = value(rank, k, 10);
        OK(MPI_Isendrecv(&s[k], 1, MPI_INT, next, 100 + k, &r[k], 1, MPI_INT, prev, 100 + k,
                         MPI_COMM_WORLD, &reqs[k]));
        OK(MPI_Isendrecv_replace(&b[k], 1, MPI_INT, prev, 200 + k, next, 200 + k,
                                 MPI_COMM_WORLD, &reqs[K + k]));
    }
    OK(MPI_Waitall(2 * K, reqs, MPI_STATUSES_IGNORE));
    for (int k = 0; k < K; k++) {
        CHECK_INT(r[k], value(prev, k, 9));
        CHECK_INT(b[k], value(next, k, 10));
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    static const int sizes[] = {0, 1, 4, 300, 5000, 300000}; /* ints: cell to rendezvous */
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        for (int how = 0; how < 3; how++)
            shift(sizes[k], how, (int)k * 3 + how);
        shift_replace(sizes[k], 50 + (int)k);
    }
    replace_vector();
    wildcards();
    proc_null();
    freed_in_flight();
    int buf[2] = {0, -1};
    freed_both(buf);
    many();
    MPI_Finalize();
    return 0;
}
