/* Bad input to the partitioned calls gets the standard's error class under MPI_ERRORS_RETURN
 * (what the bindings walk cannot reach: it needs a live partitioned request):
 * MPI_ERR_RANK / MPI_ERR_TAG for wildcards in MPI_Precv_init, MPI_ERR_ARG for 0 partitions, a
 * partition out of range, a partition already ready in the round, a bad Pready_range or
 * Pready_list (which then marks nothing); MPI_ERR_REQUEST for Pready on an inactive send or a
 * receive, Parrived on a send, Request_free or Cancel of an active partitioned request (and
 * Cancel of an inactive one). Also: Parrived on an inactive receive or MPI_REQUEST_NULL says
 * arrived, MPI_PROC_NULL peers complete at Start, a send longer than its receive is truncated
 * (MPI_ERR_TRUNCATE in the wait, the status counts what fit), a shorter one fills the front
 * of the buffer.
 * Pairs of ranks as in data.c. */
#include "check.h"
#include "mpi.h"
#include "class_check.h"

#define OK(call) CHECK_INT((call), MPI_SUCCESS)

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank, size;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    int peer = (rank ^ 1) < size ? rank ^ 1 : rank;
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info ni = MPI_INFO_NULL;
    int sbuf[10], rbuf[10], flag = -1;
    MPI_Request s = MPI_REQUEST_NULL, r = MPI_REQUEST_NULL;

    /* init */
    EXPECT(MPI_Precv_init(rbuf, 2, 4, MPI_INT, MPI_ANY_SOURCE, 1, w, ni, &r), MPI_ERR_RANK);
    EXPECT(MPI_Precv_init(rbuf, 2, 4, MPI_INT, peer, MPI_ANY_TAG, w, ni, &r), MPI_ERR_TAG);
    EXPECT(MPI_Psend_init(sbuf, 0, 4, MPI_INT, peer, 1, w, ni, &s), MPI_ERR_ARG);
    EXPECT(MPI_Psend_init(sbuf, -1, 4, MPI_INT, peer, 1, w, ni, &s), MPI_ERR_ARG);
    EXPECT(MPI_Psend_init(sbuf, 2, -4, MPI_INT, peer, 1, w, ni, &s), MPI_ERR_COUNT);
    EXPECT(MPI_Psend_init(sbuf, 2, 4, MPI_DATATYPE_NULL, peer, 1, w, ni, &s), MPI_ERR_TYPE);
    EXPECT(MPI_Psend_init(sbuf, 2, 4, MPI_INT, size, 1, w, ni, &s), MPI_ERR_RANK);
    EXPECT(MPI_Precv_init(rbuf, 2, 4, MPI_INT, peer, 1, w, ni, NULL), MPI_ERR_ARG);
    CHECK(s == MPI_REQUEST_NULL && r == MPI_REQUEST_NULL);

    /* a pair: 2 send partitions of 4 ints, 4 receive partitions of 2 */
    OK(MPI_Psend_init(sbuf, 2, 4, MPI_INT, peer, 1, w, ni, &s));
    OK(MPI_Precv_init(rbuf, 4, 2, MPI_INT, peer, 1, w, ni, &r));
    EXPECT(MPI_Pready(0, s), MPI_ERR_REQUEST);     /* inactive */
    OK(MPI_Parrived(r, 3, &flag));                  /* inactive: arrived */
    CHECK_INT(flag, 1);
    EXPECT(MPI_Parrived(r, 4, &flag), MPI_ERR_ARG); /* out of range */
    EXPECT(MPI_Parrived(r, -1, &flag), MPI_ERR_ARG);
    EXPECT(MPI_Parrived(s, 0, &flag), MPI_ERR_REQUEST); /* a send */
    EXPECT(MPI_Parrived(r, 0, NULL), MPI_ERR_ARG);
    flag = 0;
    OK(MPI_Parrived(MPI_REQUEST_NULL, 0, &flag)); /* a null request: arrived */
    CHECK_INT(flag, 1);
    EXPECT(MPI_Pready(0, MPI_REQUEST_NULL), MPI_ERR_REQUEST);
    OK(MPI_Start(&r));
    OK(MPI_Start(&s));
    EXPECT(MPI_Start(&s), MPI_ERR_REQUEST);          /* already active */
    EXPECT(MPI_Pready(0, r), MPI_ERR_REQUEST);       /* a receive */
    EXPECT(MPI_Pready(2, s), MPI_ERR_ARG);           /* out of range */
    EXPECT(MPI_Pready(-1, s), MPI_ERR_ARG);
    EXPECT(MPI_Pready_range(1, 0, s), MPI_ERR_ARG);  /* high < low */
    EXPECT(MPI_Pready_range(0, 2, s), MPI_ERR_ARG);  /* high out of range */
    int bad[2] = {1, 5};
    EXPECT(MPI_Pready_list(2, bad, s), MPI_ERR_ARG); /* marks nothing */
    EXPECT(MPI_Pready_list(-1, bad, s), MPI_ERR_ARG);
    EXPECT(MPI_Pready_list(1, NULL, s), MPI_ERR_ARG);
    EXPECT(MPI_Request_free(&s), MPI_ERR_REQUEST);   /* active */
    EXPECT(MPI_Request_free(&r), MPI_ERR_REQUEST);
    EXPECT(MPI_Cancel(&s), MPI_ERR_REQUEST);         /* active: cannot be cancelled */
    EXPECT(MPI_Cancel(&r), MPI_ERR_REQUEST);
    for (int i = 0; i < 8; i++)
        sbuf[i] = rank * 100 + i;
    OK(MPI_Pready(1, s)); /* partition 1 was not marked by the bad list */
    EXPECT(MPI_Pready(1, s), MPI_ERR_ARG); /* already ready in this round */
    OK(MPI_Barrier(w)); /* the peer's partition 1 is ready, 0 not yet: ours 2 and 3 moved */
    OK(MPI_Parrived(r, 0, &flag));
    CHECK_INT(flag, 0);
    OK(MPI_Parrived(r, 1, &flag));
    CHECK_INT(flag, 0);
    OK(MPI_Parrived(r, 2, &flag));
    CHECK_INT(flag, 1);
    OK(MPI_Parrived(r, 3, &flag));
    CHECK_INT(flag, 1);
    OK(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 0);
    OK(MPI_Barrier(w)); /* nobody readies 0 before the peer looked */
    OK(MPI_Pready_list(1, (int[]){0}, s));
    OK(MPI_Wait(&s, MPI_STATUS_IGNORE));
    OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < 8; i++)
        CHECK_INT(rbuf[i], peer * 100 + i);
    EXPECT(MPI_Pready(0, s), MPI_ERR_REQUEST); /* inactive again */
    EXPECT(MPI_Cancel(&s), MPI_ERR_REQUEST);
    OK(MPI_Request_free(&s));
    OK(MPI_Request_free(&r));
    EXPECT(MPI_Pready(0, s), MPI_ERR_REQUEST); /* freed (MPI_REQUEST_NULL) */

    /* MPI_PROC_NULL: complete at Start, Pready accepted, Parrived true */
    OK(MPI_Psend_init(sbuf, 2, 4, MPI_INT, MPI_PROC_NULL, 1, w, ni, &s));
    OK(MPI_Precv_init(rbuf, 2, 4, MPI_INT, MPI_PROC_NULL, 1, w, ni, &r));
    OK(MPI_Start(&s));
    OK(MPI_Start(&r));
    OK(MPI_Pready(1, s));
    EXPECT(MPI_Pready(2, s), MPI_ERR_ARG);
    OK(MPI_Parrived(r, 1, &flag));
    CHECK_INT(flag, 1);
    MPI_Status st;
    OK(MPI_Wait(&r, &st));
    CHECK_INT(st.MPI_SOURCE, MPI_PROC_NULL);
    OK(MPI_Wait(&s, MPI_STATUS_IGNORE));
    OK(MPI_Request_free(&s));
    OK(MPI_Request_free(&r));

    /* truncation: 10 ints into 8 */
    for (int i = 0; i < 10; i++) {
        sbuf[i] = rank * 100 + i;
        rbuf[i] = -1;
    }
    OK(MPI_Psend_init(sbuf, 5, 2, MPI_INT, peer, 2, w, ni, &s));
    OK(MPI_Precv_init(rbuf, 2, 4, MPI_INT, peer, 2, w, ni, &r));
    OK(MPI_Start(&r));
    OK(MPI_Start(&s));
    OK(MPI_Pready_range(0, 4, s));
    OK(MPI_Wait(&s, MPI_STATUS_IGNORE));
    EXPECT(MPI_Wait(&r, &st), MPI_ERR_TRUNCATE);
    int count = -1;
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK_INT(count, 8);
    for (int i = 0; i < 10; i++)
        CHECK_INT(rbuf[i], i < 8 ? peer * 100 + i : -1);
    OK(MPI_Request_free(&s));
    OK(MPI_Request_free(&r));

    /* a shorter send: 6 ints into 8; the rest of the buffer stays, the status counts 6 */
    for (int i = 0; i < 10; i++)
        rbuf[i] = -1;
    OK(MPI_Psend_init(sbuf, 3, 2, MPI_INT, peer, 4, w, ni, &s));
    OK(MPI_Precv_init(rbuf, 2, 4, MPI_INT, peer, 4, w, ni, &r));
    OK(MPI_Start(&r));
    OK(MPI_Start(&s));
    OK(MPI_Pready_list(2, (int[]){0, 1}, s));
    OK(MPI_Barrier(w));
    OK(MPI_Parrived(r, 0, &flag));
    CHECK_INT(flag, 1);
    OK(MPI_Parrived(r, 1, &flag)); /* ints 4, 5 wait for send partition 2 */
    CHECK_INT(flag, 0);
    OK(MPI_Barrier(w));
    OK(MPI_Pready(2, s));
    OK(MPI_Wait(&s, MPI_STATUS_IGNORE));
    OK(MPI_Wait(&r, &st));
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK_INT(count, 6);
    for (int i = 0; i < 8; i++)
        CHECK_INT(rbuf[i], i < 6 ? peer * 100 + i : -1);
    OK(MPI_Request_free(&s));
    OK(MPI_Request_free(&r));
    OK(MPI_Finalize());
    return 0;
}
