/* The queue-length variables are continuous read-only levels of the calling rank: they
 * cannot be started, stopped, written or reset (MPI_T_PVAR_ALL_HANDLES skips them), and read
 * the current lengths of its posted-receive and unexpected-message queues. Each rank sends
 * only to itself (and the test runs with LOOM_COLL_BARRIER_ALGO=shm, a barrier without
 * messages), so the lengths are exact: 3 eager messages wait unexpected, 2 receives wait
 * posted, and both drain to 0. */
#include "mpit_check.h"

#define BYTES 2000 /* eager, and above the 940 bytes that may go through rings of cells */

static void lengths(MPI_T_pvar_session s, MPI_T_pvar_handle posted, MPI_T_pvar_handle unexp,
                    unsigned long long want_posted, unsigned long long want_unexp)
{
    unsigned long long p = 99, u = 99;
    CHECK_OK(MPI_T_pvar_read(s, posted, &p));
    CHECK_OK(MPI_T_pvar_read(s, unexp, &u));
    CHECK_INT(p, want_posted);
    CHECK_INT(u, want_unexp);
}

int main(int argc, char **argv)
{
    int rank, provided, count, ro, cont, cls;
    char out[3][BYTES] = {{0}}, in[3][BYTES], more[2][BYTES];
    unsigned long long v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    int ip = -1, iu = -1;
    CHECK_OK(MPI_T_pvar_get_index("loom_posted_recvq_length", MPI_T_PVAR_CLASS_LEVEL, &ip));
    CHECK_OK(MPI_T_pvar_get_index("loom_unexpected_recvq_length", MPI_T_PVAR_CLASS_LEVEL, &iu));
    CHECK_OK(MPI_T_pvar_get_info(ip, NULL, NULL, NULL, &cls, NULL, NULL, NULL, NULL, NULL, &ro,
                                 &cont, NULL));
    CHECK_INT(cls, MPI_T_PVAR_CLASS_LEVEL);
    CHECK_INT(ro, 1);
    CHECK_INT(cont, 1);

    MPI_T_pvar_session s;
    MPI_T_pvar_handle posted, unexp, sent;
    CHECK_OK(MPI_T_pvar_session_create(&s));
    CHECK_OK(MPI_T_pvar_handle_alloc(s, ip, NULL, &posted, &count));
    CHECK_INT(count, 1);
    CHECK_OK(MPI_T_pvar_handle_alloc(s, iu, NULL, &unexp, &count));
    CHECK_OK(MPI_T_pvar_handle_alloc(s, pvar_index("loom_messages_sent"), NULL, &sent, &count));
    CHECK_RC(MPI_T_pvar_start(s, posted), MPI_T_ERR_PVAR_NO_STARTSTOP);
    CHECK_RC(MPI_T_pvar_stop(s, posted), MPI_T_ERR_PVAR_NO_STARTSTOP);
    CHECK_RC(MPI_T_pvar_write(s, posted, &v), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_RC(MPI_T_pvar_reset(s, unexp), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_RC(MPI_T_pvar_readreset(s, unexp, &v), MPI_T_ERR_PVAR_NO_WRITE);
    /* ALL_HANDLES: the counter starts, the levels are left out */
    CHECK_OK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    CHECK_OK(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES));
    MPI_Barrier(MPI_COMM_WORLD);

    lengths(s, posted, unexp, 0, 0);
    MPI_Request r[3];
    for (int k = 0; k < 3; k++)
        MPI_Isend(out[k], BYTES, MPI_CHAR, rank, 1, MPI_COMM_WORLD, &r[k]);
    MPI_Waitall(3, r, MPI_STATUSES_IGNORE); /* eager: complete, waiting unexpected */
    lengths(s, posted, unexp, 0, 3);
    for (int k = 0; k < 2; k++)
        MPI_Irecv(more[k], BYTES, MPI_CHAR, rank, 2, MPI_COMM_WORLD, &r[k]);
    lengths(s, posted, unexp, 2, 3);
    for (int k = 0; k < 3; k++)
        MPI_Recv(in[k], BYTES, MPI_CHAR, rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    lengths(s, posted, unexp, 2, 0);
    for (int k = 0; k < 2; k++)
        MPI_Send(out[k], BYTES, MPI_CHAR, rank, 2, MPI_COMM_WORLD);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    lengths(s, posted, unexp, 0, 0);
    CHECK_OK(MPI_T_pvar_read(s, sent, &v));
    CHECK_INT(v, 5); /* the counter was started by ALL_HANDLES */

    CHECK_OK(MPI_T_pvar_session_free(&s));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_T_finalize());
    MPI_Finalize();
    if (rank == 0)
        printf("mpit queues: exact lengths\n");
    return 0;
}
