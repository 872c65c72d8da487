/* The error field of a status: calls that return one status leave it as it was (MPI 4.1,
 * section 3.2.5: Recv, Mrecv, Imrecv+Wait, Probe, Mprobe, Iprobe, Sendrecv, Wait, Test, whether
 * the message came through a ring cell, an eager copy or a rendezvous, and when the receive is
 * truncated); an array call that
 * fails with MPI_ERR_IN_STATUS sets it in every status: the error where its request failed,
 * MPI_SUCCESS elsewhere. Partners: rank^1, or the rank itself when alone. */
#include "p2p_check.h"

#define DUMMY MPI_ERR_DIMS /* a value no receive would write */

static MPI_Status fresh(void)
{
    MPI_Status st;
    memset(&st, 0, sizeof st);
    st.MPI_ERROR = DUMMY;
    return st;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = p2p_rank(), size = p2p_size();
    int peer = size == 1 ? 0 : rank ^ 1;
    if (peer >= size)
        peer = rank; /* the last of an odd number talks to itself */
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int *out = p2p_malloc(sizeof *out * 100001), *in = p2p_malloc(sizeof *in * 100001);
    int *in2 = p2p_malloc(sizeof *in2 * 100001); /* two receives in flight: two buffers */
    const int counts[] = {1, 1000, 100000}; /* a cell, eager, rendezvous */
    for (int k = 0; k < 3; k++) {
        int n = counts[k];
        MPI_Request rq;
        MPI_Status st = fresh();
        /* Recv */
        OK(MPI_Isend(out, n, MPI_INT, peer, 1, MPI_COMM_WORLD, &rq));
        OK(MPI_Recv(in, n, MPI_INT, peer, 1, MPI_COMM_WORLD, &st));
        CHECK_INT(st.MPI_ERROR, DUMMY);
        CHECK_INT(st.MPI_SOURCE, peer);
        st = fresh();
        OK(MPI_Wait(&rq, &st));
        CHECK_INT(st.MPI_ERROR, DUMMY);
        /* Probe + Recv, Mprobe + Mrecv, Iprobe */
        OK(MPI_Isend(out, n, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq));
        st = fresh();
        OK(MPI_Probe(peer, 2, MPI_COMM_WORLD, &st));
        CHECK_INT(st.MPI_ERROR, DUMMY);
        MPI_Message msg;
        st = fresh();
        OK(MPI_Mprobe(peer, 2, MPI_COMM_WORLD, &msg, &st));
        CHECK_INT(st.MPI_ERROR, DUMMY);
        st = fresh();
        OK(MPI_Mrecv(in, n, MPI_INT, &msg, &st));
        CHECK_INT(st.MPI_ERROR, DUMMY);
        CHECK_INT(st.MPI_TAG, 2);
        OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        OK(MPI_Isend(out, n, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq));
        int flag = 0;
        while (!flag) {
            st = fresh();
            OK(MPI_Iprobe(peer, 3, MPI_COMM_WORLD, &flag, &st));
        }
        CHECK_INT(st.MPI_ERROR, DUMMY);
        OK(MPI_Mprobe(peer, 3, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE));
        MPI_Request r2;
        OK(MPI_Imrecv(in, n, MPI_INT, &msg, &r2));
        st = fresh();
        OK(MPI_Wait(&r2, &st));
        CHECK_INT(st.MPI_ERROR, DUMMY);
        st = fresh();
        for (flag = 0; !flag;)
            OK(MPI_Test(&rq, &flag, &st));
        CHECK_INT(st.MPI_ERROR, DUMMY);
        /* A truncated receive: the class is returned, the error field still left alone */
        OK(MPI_Isend(out, n + 1, MPI_INT, peer, 8, MPI_COMM_WORLD, &rq));
        st = fresh();
        FAILS(MPI_Recv(in, n, MPI_INT, peer, 8, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE);
        CHECK_INT(st.MPI_ERROR, DUMMY);
        OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        /* Sendrecv */
        st = fresh();
        OK(MPI_Sendrecv(out, n, MPI_INT, peer, 4, in, n, MPI_INT, peer, 4, MPI_COMM_WORLD, &st));
        CHECK_INT(st.MPI_ERROR, DUMMY);
        /* Waitall where one receive is truncated: MPI_ERR_IN_STATUS, each status says why */
        MPI_Request rs[4];
        MPI_Status sts[4] = {fresh(), fresh(), fresh(), fresh()};
        OK(MPI_Isend(out, n, MPI_INT, peer, 5, MPI_COMM_WORLD, &rs[0]));
        OK(MPI_Isend(out, n + 1, MPI_INT, peer, 6, MPI_COMM_WORLD, &rs[1]));
        OK(MPI_Irecv(in, n, MPI_INT, peer, 5, MPI_COMM_WORLD, &rs[2]));
        OK(MPI_Irecv(in2, n, MPI_INT, peer, 6, MPI_COMM_WORLD, &rs[3])); /* one int short */
        FAILS(MPI_Waitall(4, rs, sts), MPI_ERR_IN_STATUS);
        CHECK_INT(sts[0].MPI_ERROR, MPI_SUCCESS);
        CHECK_INT(sts[1].MPI_ERROR, MPI_SUCCESS);
        CHECK_INT(sts[2].MPI_ERROR, MPI_SUCCESS);
        int cls;
        MPI_Error_class(sts[3].MPI_ERROR, &cls);
        CHECK_INT(cls, MPI_ERR_TRUNCATE);
        /* ...and a Waitall that succeeds leaves the fields alone */
        sts[0] = fresh();
        sts[1] = fresh();
        OK(MPI_Isend(out, n, MPI_INT, peer, 7, MPI_COMM_WORLD, &rs[0]));
        OK(MPI_Irecv(in, n, MPI_INT, peer, 7, MPI_COMM_WORLD, &rs[1]));
        OK(MPI_Waitall(2, rs, sts));
        CHECK_INT(sts[0].MPI_ERROR, DUMMY);
        CHECK_INT(sts[1].MPI_ERROR, DUMMY);
    }
    free(out);
    free(in);
    free(in2);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
        printf("status_error: error fields as the standard says\n");
    MPI_Finalize();
    return 0;
}
