/* MPI_PROC_NULL: sends to it succeed at once; receives from it return at once with source
 * MPI_PROC_NULL, tag MPI_ANY_TAG, count 0, the buffer untouched; count 0 with
 * MPI_DATATYPE_NULL is accepted there; probes find a message at once (Mprobe gives
 * MPI_MESSAGE_NO_PROC). Every call family is tried. */
#include "p2p_check.h"

static void check_null_status(MPI_Status *st)
{
    int count = -1;
    CHECK_INT(st->MPI_SOURCE, MPI_PROC_NULL);
    CHECK_INT(st->MPI_TAG, MPI_ANY_TAG);
    OK(MPI_Get_count(st, MPI_INT, &count));
    CHECK_INT(count, 0);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int buf[4] = {1, 2, 3, 4}, flag;
    MPI_Status st;
    MPI_Request req, reqs[4];
    MPI_Message msg;

    OK(MPI_Send(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    OK(MPI_Ssend(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    OK(MPI_Rsend(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    OK(MPI_Bsend(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD)); /* no buffer needed */
    OK(MPI_Send(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, MPI_COMM_WORLD));

    memset(&st, 0x55, sizeof st);
    OK(MPI_Recv(buf, 4, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st));
    check_null_status(&st);
    CHECK(buf[0] == 1 && buf[3] == 4);
    memset(&st, 0x55, sizeof st);
    OK(MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    check_null_status(&st);
    OK(MPI_Recv(buf, 4, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));

    /* nonblocking: complete at once */
    OK(MPI_Isend(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &reqs[0]));
    OK(MPI_Issend(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &reqs[1]));
    OK(MPI_Irsend(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &reqs[2]));
    OK(MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &reqs[3]));
    for (int i = 0; i < 4; i++) {
        CHECK(reqs[i] != MPI_REQUEST_NULL);
        OK(MPI_Test(&reqs[i], &flag, i == 3 ? &st : MPI_STATUS_IGNORE));
        CHECK_INT(flag, 1);
        CHECK(reqs[i] == MPI_REQUEST_NULL);
    }
    check_null_status(&st);
    OK(MPI_Irecv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req));
    memset(&st, 0x55, sizeof st);
    OK(MPI_Wait(&req, &st));
    check_null_status(&st);
    OK(MPI_Ibsend(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));

    /* sendrecv */
    memset(&st, 0x55, sizeof st);
    OK(MPI_Sendrecv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, buf, 4, MPI_INT, MPI_PROC_NULL, 1,
                    MPI_COMM_WORLD, &st));
    check_null_status(&st);
    OK(MPI_Sendrecv_replace(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_PROC_NULL, 1,
                            MPI_COMM_WORLD, &st));
    check_null_status(&st);
    CHECK(buf[0] == 1 && buf[3] == 4);

    /* probes */
    flag = 0;
    OK(MPI_Iprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &st));
    CHECK_INT(flag, 1);
    check_null_status(&st);
    memset(&st, 0x55, sizeof st);
    OK(MPI_Probe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    check_null_status(&st);
    OK(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NO_PROC);
    check_null_status(&st);
    memset(&st, 0x55, sizeof st);
    OK(MPI_Mrecv(buf, 4, MPI_INT, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NULL);
    check_null_status(&st);
    flag = 0;
    OK(MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 1);
    CHECK(msg == MPI_MESSAGE_NO_PROC);
    OK(MPI_Imrecv(buf, 4, MPI_INT, &msg, &req));
    CHECK(msg == MPI_MESSAGE_NULL);
    memset(&st, 0x55, sizeof st);
    OK(MPI_Wait(&req, &st));
    check_null_status(&st);

    /* persistent */
    OK(MPI_Send_init(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &reqs[0]));
    OK(MPI_Recv_init(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &reqs[1]));
    for (int it = 0; it < 3; it++) {
        OK(MPI_Startall(2, reqs));
        OK(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE));
        memset(&st, 0x55, sizeof st);
        OK(MPI_Wait(&reqs[1], &st));
        check_null_status(&st);
    }
    OK(MPI_Request_free(&reqs[0]));
    OK(MPI_Request_free(&reqs[1]));
    CHECK(buf[0] == 1 && buf[3] == 4);
    OK(MPI_Finalize());
    return 0;
}
