/* The default error handler (MPI_ERRORS_ARE_FATAL) on a bad point-to-point call: one line
 * `loom: rank R: MPI_Xxx: <reason>` on stderr and the job ends with status 1, even though
 * the other ranks wait in a barrier. argv[1] picks the call (one per family); the last rank
 * makes the bad call. */
#include "p2p_check.h"

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size(), buf[2] = {0}, flag;
    const char *what = argc > 1 ? argv[1] : "send";
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;
    MPI_Message msg = MPI_MESSAGE_NULL;
    if (rank == size - 1) {
        if (!strcmp(what, "send"))
            MPI_Send(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD); /* rank out of range */
        else if (!strcmp(what, "recv"))
            MPI_Recv(buf, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, &st); /* tag */
        else if (!strcmp(what, "isend"))
            MPI_Isend(buf, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req); /* count */
        else if (!strcmp(what, "wait")) {
            MPI_Request bad = (MPI_Request)(void *)buf; /* not a request */
            MPI_Wait(&bad, &st);
        } else if (!strcmp(what, "request_free"))
            MPI_Request_free(&req); /* MPI_REQUEST_NULL */
        else if (!strcmp(what, "start"))
            MPI_Start(&req);
        else if (!strcmp(what, "bsend"))
            MPI_Bsend(buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD); /* no buffer attached */
        else if (!strcmp(what, "sendrecv"))
            MPI_Sendrecv(buf, 1, MPI_DATATYPE_NULL, 0, 0, buf + 1, 1, MPI_INT, 0, 0,
                         MPI_COMM_WORLD, &st);
        else if (!strcmp(what, "probe"))
            MPI_Probe(0, 0, MPI_COMM_NULL, &st);
        else if (!strcmp(what, "mrecv"))
            MPI_Mrecv(buf, 1, MPI_INT, &msg, &st);
        else if (!strcmp(what, "send_init"))
            MPI_Send_init(NULL, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        else if (!strcmp(what, "iprobe"))
            MPI_Iprobe(size + 3, 0, MPI_COMM_WORLD, &flag, &st);
        else if (!strcmp(what, "comm_attach")) { /* a second buffer on MPI_COMM_WORLD */
            MPI_Comm_attach_buffer(MPI_COMM_WORLD, MPI_BUFFER_AUTOMATIC, 0);
            MPI_Comm_attach_buffer(MPI_COMM_WORLD, buf, (int)sizeof buf);
        } else if (!strcmp(what, "session_detach")) { /* nothing attached to the session */
            MPI_Session s;
            void *got;
            MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s);
            MPI_Session_detach_buffer(s, &got, &flag);
        }
        fprintf(stderr, "fatal.c: the bad call (%s) returned\n", what);
        return 3;
    }
    MPI_Barrier(MPI_COMM_WORLD); /* never completes: the last rank never comes */
    fprintf(stderr, "fatal.c: the barrier completed\n");
    return 4;
}
