/* Bad input to the point-to-point calls, under MPI_ERRORS_RETURN: each returns the right
 * class and the job goes on (a correct exchange at the end still works).
 *   MPI_ERR_COMM     MPI_COMM_NULL, a freed communicator, a pointer to something else
 *   MPI_ERR_RANK     destination/source out of range, MPI_ANY_SOURCE as a destination
 *   MPI_ERR_COUNT    negative count
 *   MPI_ERR_TAG      negative tag on a send (MPI_ANY_TAG included) or below MPI_ANY_TAG on
 *                    a receive
 *   MPI_ERR_TYPE     MPI_DATATYPE_NULL, uncommitted, freed
 *   MPI_ERR_BUFFER   NULL buffer with a nonzero count
 *   MPI_ERR_REQUEST  Start on MPI_REQUEST_NULL / an active request / a non-persistent one,
 *                    Request_free and Cancel of MPI_REQUEST_NULL, Mrecv of MPI_MESSAGE_NULL */
#include "p2p_check.h"

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    int buf[4] = {0}, flag;
    MPI_Request req;
    MPI_Status st;
    MPI_Message msg;
    const MPI_Comm W = MPI_COMM_WORLD;

    /* communicators: null, freed (a stale copy of the handle), not a communicator */
    MPI_Comm dup, stale;
    OK(MPI_Comm_dup(W, &dup));
    OK(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
    stale = dup;
    OK(MPI_Comm_free(&dup));
    static const long zeros[16];
    MPI_Comm junk = (MPI_Comm)(void *)zeros;
    MPI_Comm bad[3] = {MPI_COMM_NULL, stale, junk};
    for (int i = 0; i < 3; i++) {
        MPI_Comm c = bad[i];
        FAILS(MPI_Send(buf, 1, MPI_INT, peer, 0, c), MPI_ERR_COMM);
        FAILS(MPI_Ssend(buf, 1, MPI_INT, peer, 0, c), MPI_ERR_COMM);
        FAILS(MPI_Rsend(buf, 1, MPI_INT, peer, 0, c), MPI_ERR_COMM);
        FAILS(MPI_Bsend(buf, 1, MPI_INT, peer, 0, c), MPI_ERR_COMM);
        FAILS(MPI_Recv(buf, 1, MPI_INT, peer, 0, c, &st), MPI_ERR_COMM);
        FAILS(MPI_Isend(buf, 1, MPI_INT, peer, 0, c, &req), MPI_ERR_COMM);
        FAILS(MPI_Issend(buf, 1, MPI_INT, peer, 0, c, &req), MPI_ERR_COMM);
        FAILS(MPI_Irsend(buf, 1, MPI_INT, peer, 0, c, &req), MPI_ERR_COMM);
        FAILS(MPI_Ibsend(buf, 1, MPI_INT, peer, 0, c, &req), MPI_ERR_COMM);
        FAILS(MPI_Irecv(buf, 1, MPI_INT, peer, 0, c, &req), MPI_ERR_COMM);
        FAILS(MPI_Send_init(buf, 1, MPI_INT, peer, 0, c, &req), MPI_ERR_COMM);
        FAILS(MPI_Ssend_init(buf, 1, MPI_INT, peer, 0, c, &req), MPI_ERR_COMM);
        FAILS(MPI_Rsend_init(buf, 1, MPI_INT, peer, 0, c, &req), MPI_ERR_COMM);
        FAILS(MPI_Bsend_init(buf, 1, MPI_INT, peer, 0, c, &req), MPI_ERR_COMM);
        FAILS(MPI_Recv_init(buf, 1, MPI_INT, peer, 0, c, &req), MPI_ERR_COMM);
        FAILS(MPI_Sendrecv(buf, 1, MPI_INT, peer, 0, buf + 1, 1, MPI_INT, peer, 0, c, &st),
              MPI_ERR_COMM);
        FAILS(MPI_Sendrecv_replace(buf, 1, MPI_INT, peer, 0, peer, 0, c, &st), MPI_ERR_COMM);
        FAILS(MPI_Probe(peer, 0, c, &st), MPI_ERR_COMM);
        FAILS(MPI_Iprobe(peer, 0, c, &flag, &st), MPI_ERR_COMM);
        FAILS(MPI_Mprobe(peer, 0, c, &msg, &st), MPI_ERR_COMM);
        FAILS(MPI_Improbe(peer, 0, c, &flag, &msg, &st), MPI_ERR_COMM);
    }

    /* ranks */
    int bad_dest[3] = {size, -5, MPI_ANY_SOURCE};
    for (int i = 0; i < 3; i++) {
        int d = bad_dest[i];
        FAILS(MPI_Send(buf, 1, MPI_INT, d, 0, W), MPI_ERR_RANK);
        FAILS(MPI_Ssend(buf, 1, MPI_INT, d, 0, W), MPI_ERR_RANK);
        FAILS(MPI_Isend(buf, 1, MPI_INT, d, 0, W, &req), MPI_ERR_RANK);
        FAILS(MPI_Bsend(buf, 1, MPI_INT, d, 0, W), MPI_ERR_RANK);
        FAILS(MPI_Send_init(buf, 1, MPI_INT, d, 0, W, &req), MPI_ERR_RANK);
        FAILS(MPI_Sendrecv(buf, 1, MPI_INT, d, 0, buf + 1, 1, MPI_INT, peer, 0, W, &st),
              MPI_ERR_RANK);
    }
    int bad_src[2] = {size, -5};
    for (int i = 0; i < 2; i++) {
        int s = bad_src[i];
        FAILS(MPI_Recv(buf, 1, MPI_INT, s, 0, W, &st), MPI_ERR_RANK);
        FAILS(MPI_Irecv(buf, 1, MPI_INT, s, 0, W, &req), MPI_ERR_RANK);
        FAILS(MPI_Recv_init(buf, 1, MPI_INT, s, 0, W, &req), MPI_ERR_RANK);
        FAILS(MPI_Probe(s, 0, W, &st), MPI_ERR_RANK);
        FAILS(MPI_Iprobe(s, 0, W, &flag, &st), MPI_ERR_RANK);
        FAILS(MPI_Improbe(s, 0, W, &flag, &msg, &st), MPI_ERR_RANK);
        FAILS(MPI_Sendrecv(buf, 1, MPI_INT, peer, 0, buf + 1, 1, MPI_INT, s, 0, W, &st),
              MPI_ERR_RANK);
    }

    /* counts */
    FAILS(MPI_Send(buf, -1, MPI_INT, peer, 0, W), MPI_ERR_COUNT);
    FAILS(MPI_Recv(buf, -1, MPI_INT, peer, 0, W, &st), MPI_ERR_COUNT);
    FAILS(MPI_Isend(buf, -1, MPI_INT, peer, 0, W, &req), MPI_ERR_COUNT);
    FAILS(MPI_Irecv(buf, -1, MPI_INT, peer, 0, W, &req), MPI_ERR_COUNT);
    FAILS(MPI_Bsend(buf, -1, MPI_INT, peer, 0, W), MPI_ERR_COUNT);
    FAILS(MPI_Recv_init(buf, -1, MPI_INT, peer, 0, W, &req), MPI_ERR_COUNT);
    FAILS(MPI_Sendrecv_replace(buf, -1, MPI_INT, peer, 0, peer, 0, W, &st), MPI_ERR_COUNT);
    FAILS(MPI_Send(buf, -1, MPI_INT, MPI_PROC_NULL, 0, W), MPI_ERR_COUNT);

    /* tags */
    FAILS(MPI_Send(buf, 1, MPI_INT, peer, -1, W), MPI_ERR_TAG); /* MPI_ANY_TAG */
    FAILS(MPI_Send(buf, 1, MPI_INT, peer, -7, W), MPI_ERR_TAG);
    FAILS(MPI_Isend(buf, 1, MPI_INT, peer, MPI_ANY_TAG, W, &req), MPI_ERR_TAG);
    FAILS(MPI_Ssend_init(buf, 1, MPI_INT, peer, -3, W, &req), MPI_ERR_TAG);
    FAILS(MPI_Recv(buf, 1, MPI_INT, peer, -7, W, &st), MPI_ERR_TAG);
    FAILS(MPI_Irecv(buf, 1, MPI_INT, peer, -2, W, &req), MPI_ERR_TAG);
    FAILS(MPI_Probe(peer, -9, W, &st), MPI_ERR_TAG);
    FAILS(MPI_Sendrecv(buf, 1, MPI_INT, peer, MPI_ANY_TAG, buf + 1, 1, MPI_INT, peer, 0, W, &st),
          MPI_ERR_TAG);

    /* datatypes: null, uncommitted, freed */
    MPI_Datatype unc, freed, stale_t;
    OK(MPI_Type_contiguous(2, MPI_INT, &unc));
    OK(MPI_Type_contiguous(2, MPI_INT, &freed));
    OK(MPI_Type_commit(&freed));
    stale_t = freed;
    OK(MPI_Type_free(&freed));
    MPI_Datatype badt[3] = {MPI_DATATYPE_NULL, unc, stale_t};
    for (int i = 0; i < 3; i++) {
        MPI_Datatype t = badt[i];
        FAILS(MPI_Send(buf, 1, t, peer, 0, W), MPI_ERR_TYPE);
        FAILS(MPI_Recv(buf, 1, t, peer, 0, W, &st), MPI_ERR_TYPE);
        FAILS(MPI_Isend(buf, 1, t, peer, 0, W, &req), MPI_ERR_TYPE);
        FAILS(MPI_Irecv(buf, 1, t, peer, 0, W, &req), MPI_ERR_TYPE);
        FAILS(MPI_Bsend(buf, 1, t, peer, 0, W), MPI_ERR_TYPE);
        FAILS(MPI_Send_init(buf, 1, t, peer, 0, W, &req), MPI_ERR_TYPE);
        FAILS(MPI_Sendrecv(buf, 1, MPI_INT, peer, 0, buf + 1, 1, t, peer, 0, W, &st),
              MPI_ERR_TYPE);
        FAILS(MPI_Sendrecv_replace(buf, 1, t, peer, 0, peer, 0, W, &st), MPI_ERR_TYPE);
    }
    /* DATATYPE_NULL is accepted only with count 0 and MPI_PROC_NULL */
    FAILS(MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, peer, 0, W, &st), MPI_ERR_TYPE);
    FAILS(MPI_Recv(buf, 1, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, W, &st), MPI_ERR_TYPE);
    OK(MPI_Type_free(&unc));

    /* NULL buffers with data */
    FAILS(MPI_Send(NULL, 1, MPI_INT, peer, 0, W), MPI_ERR_BUFFER);
    FAILS(MPI_Recv(NULL, 2, MPI_INT, peer, 0, W, &st), MPI_ERR_BUFFER);
    FAILS(MPI_Isend(NULL, 1, MPI_INT, peer, 0, W, &req), MPI_ERR_BUFFER);
    FAILS(MPI_Irecv(NULL, 1, MPI_INT, peer, 0, W, &req), MPI_ERR_BUFFER);
    FAILS(MPI_Ssend(NULL, 1, MPI_INT, peer, 0, W), MPI_ERR_BUFFER);
    FAILS(MPI_Recv_init(NULL, 1, MPI_INT, peer, 0, W, &req), MPI_ERR_BUFFER);
    FAILS(MPI_Sendrecv_replace(NULL, 1, MPI_INT, peer, 0, peer, 0, W, &st), MPI_ERR_BUFFER);

    /* requests */
    MPI_Request null = MPI_REQUEST_NULL;
    FAILS(MPI_Start(&null), MPI_ERR_REQUEST);
    FAILS(MPI_Request_free(&null), MPI_ERR_REQUEST);
    FAILS(MPI_Cancel(&null), MPI_ERR_REQUEST);
    MPI_Request pr[2];
    OK(MPI_Recv_init(buf, 1, MPI_INT, peer, 50, W, &pr[0]));
    pr[1] = MPI_REQUEST_NULL;
    FAILS(MPI_Startall(2, pr), MPI_ERR_REQUEST); /* the null entry */
    /* pr[0] may or may not have started before the error: make it inactive either way
     * (an inactive persistent request reads as complete) */
    OK(MPI_Request_get_status(pr[0], &flag, MPI_STATUS_IGNORE));
    if (!flag) {
        OK(MPI_Cancel(&pr[0]));
        OK(MPI_Wait(&pr[0], &st));
    }
    OK(MPI_Start(&pr[0]));
    FAILS(MPI_Start(&pr[0]), MPI_ERR_REQUEST); /* active */
    OK(MPI_Cancel(&pr[0]));
    OK(MPI_Wait(&pr[0], &st));
    OK(MPI_Test_cancelled(&st, &flag));
    CHECK_INT(flag, 1);
    OK(MPI_Request_free(&pr[0]));
    OK(MPI_Irecv(buf, 1, MPI_INT, peer, 51, W, &req));
    FAILS(MPI_Start(&req), MPI_ERR_REQUEST); /* not persistent */
    OK(MPI_Cancel(&req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    msg = MPI_MESSAGE_NULL;
    FAILS(MPI_Mrecv(buf, 1, MPI_INT, &msg, &st), MPI_ERR_REQUEST);
    FAILS(MPI_Imrecv(buf, 1, MPI_INT, &msg, &req), MPI_ERR_REQUEST);

    /* nothing was sent by any failed call, and messaging still works */
    OK(MPI_Barrier(W));
    OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, W, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 0);
    OK(MPI_Barrier(W)); /* everyone looked before anyone sends below */
    int out = rank, in = -1;
    OK(MPI_Sendrecv(&out, 1, MPI_INT, peer, 0, &in, 1, MPI_INT, peer, 0, W, &st));
    CHECK_INT(in, peer);
    OK(MPI_Finalize());
    return 0;
}
