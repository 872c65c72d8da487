/* Performance variables count a known exchange exactly: each rank sends messages of 0, 8,
 * 40 (a cell), 1000 (eager) and 100000 bytes (rendezvous under the default threshold) to the
 * next rank and receives as many from the previous one; its handles must then show 5
 * messages and their bytes each way, whichever thread moved the data. Then the standard's
 * semantics on the same handles: stopped handles do not move, reset / write / readreset set
 * what they show, MPI_T_PVAR_ALL_HANDLES starts and stops a whole session, handles of two
 * sessions are independent. Works under every progress policy and any number of ranks. */
#include <stdlib.h>
#include <string.h>

#include "mpit_check.h"

#define NMSG 5
static const int sizes[NMSG] = {0, 8, 40, 1000, 100000};

enum { SENT, SENT_BYTES, RECV, RECV_BYTES, NVARS };
static const char *const names[NVARS] = {"loom_messages_sent", "loom_bytes_sent",
                                         "loom_messages_received", "loom_bytes_received"};

static void alloc_all(MPI_T_pvar_session s, MPI_T_pvar_handle h[NVARS])
{
    for (int v = 0; v < NVARS; v++) {
        int count = 0;
        CHECK_OK(MPI_T_pvar_handle_alloc(s, pvar_index(names[v]), NULL, &h[v], &count));
        CHECK_INT(count, 1);
    }
}

static void read_all(MPI_T_pvar_session s, MPI_T_pvar_handle h[NVARS], unsigned long long out[])
{
    for (int v = 0; v < NVARS; v++)
        CHECK_OK(MPI_T_pvar_read(s, h[v], &out[v]));
}

/* The known pattern: NMSG messages to rank+1, NMSG from rank-1. */
static void exchange(int rank, int size, char *sbuf, char *rbuf)
{
    MPI_Request req[2 * NMSG];
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    for (int k = 0; k < NMSG; k++)
        MPI_Irecv(rbuf + k * 100000, sizes[k], MPI_CHAR, from, k, MPI_COMM_WORLD, &req[k]);
    for (int k = 0; k < NMSG; k++)
        MPI_Isend(sbuf, sizes[k], MPI_CHAR, to, k, MPI_COMM_WORLD, &req[NMSG + k]);
    MPI_Waitall(2 * NMSG, req, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv)
{
    int rank, size, provided;
    unsigned long long bytes = 0, a[NVARS], b[NVARS];
    for (int k = 0; k < NMSG; k++)
        bytes += (unsigned long long)sizes[k];

    CHECK_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided)); /* before MPI_Init: allowed */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *sbuf = calloc(100000, 1), *rbuf = calloc(NMSG * 100000, 1);
    CHECK(sbuf && rbuf);

    MPI_T_pvar_session s, s2;
    MPI_T_pvar_handle h[NVARS], h2[NVARS];
    CHECK_OK(MPI_T_pvar_session_create(&s));
    CHECK_OK(MPI_T_pvar_session_create(&s2));
    alloc_all(s, h);
    alloc_all(s2, h2);

    /* A fresh handle shows 0, and stays 0 while stopped whatever happens. */
    read_all(s, h, a);
    for (int v = 0; v < NVARS; v++)
        CHECK_INT(a[v], 0);
    exchange(rank, size, sbuf, rbuf);
    read_all(s, h, a);
    for (int v = 0; v < NVARS; v++)
        CHECK_INT(a[v], 0);

    /* Started: the exchange counts exactly. Every rank has started before any sends. */
    CHECK_OK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    CHECK_OK(MPI_T_pvar_start(s2, h2[SENT]));
    CHECK_OK(MPI_T_pvar_start(s2, h2[SENT])); /* twice: no change */
    MPI_Barrier(MPI_COMM_WORLD);
    read_all(s, h, a);
    exchange(rank, size, sbuf, rbuf);
    read_all(s, h, b);
    CHECK_INT(b[SENT] - a[SENT], NMSG);
    CHECK_INT(b[SENT_BYTES] - a[SENT_BYTES], bytes);
    CHECK_INT(b[RECV] - a[RECV], NMSG);
    CHECK_INT(b[RECV_BYTES] - a[RECV_BYTES], bytes);

    /* Reset: 0, then counts on from 0. */
    CHECK_OK(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES));
    read_all(s, h, a);
    for (int v = 0; v < NVARS; v++)
        CHECK_INT(a[v], 0);
    exchange(rank, size, sbuf, rbuf);
    read_all(s, h, a);
    CHECK_INT(a[SENT], NMSG);
    CHECK_INT(a[RECV_BYTES], bytes);

    /* readreset: the value, and 0 afterwards. */
    unsigned long long rr = 0;
    CHECK_OK(MPI_T_pvar_readreset(s, h[SENT_BYTES], &rr));
    CHECK_INT(rr, bytes);
    CHECK_OK(MPI_T_pvar_read(s, h[SENT_BYTES], &rr));
    CHECK_INT(rr, 0);

    /* write: shows the value written, counts on from it. */
    unsigned long long w = 1000;
    CHECK_OK(MPI_T_pvar_write(s, h[RECV], &w));
    exchange(rank, size, sbuf, rbuf);
    CHECK_OK(MPI_T_pvar_read(s, h[RECV], &rr));
    CHECK_INT(rr, 1000 + NMSG);

    /* Stopped: frozen. The other session's started handle keeps counting. */
    MPI_Barrier(MPI_COMM_WORLD);
    unsigned long long other0, other1;
    CHECK_OK(MPI_T_pvar_read(s2, h2[SENT], &other0));
    CHECK_OK(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES));
    read_all(s, h, a);
    exchange(rank, size, sbuf, rbuf);
    read_all(s, h, b);
    for (int v = 0; v < NVARS; v++)
        CHECK_INT(b[v], a[v]);
    CHECK_OK(MPI_T_pvar_read(s2, h2[SENT], &other1));
    CHECK_INT(other1 - other0, NMSG);
    /* the other session's stopped handles never moved */
    CHECK_OK(MPI_T_pvar_read(s2, h2[RECV], &rr));
    CHECK_INT(rr, 0);

    /* Started again: counts on from where it stopped. */
    CHECK_OK(MPI_T_pvar_start(s, h[SENT]));
    MPI_Barrier(MPI_COMM_WORLD);
    exchange(rank, size, sbuf, rbuf);
    CHECK_OK(MPI_T_pvar_read(s, h[SENT], &rr));
    CHECK_INT(rr, b[SENT] + NMSG);

    CHECK_OK(MPI_T_pvar_handle_free(s, &h[SENT]));
    CHECK(h[SENT] == MPI_T_PVAR_HANDLE_NULL);
    CHECK_OK(MPI_T_pvar_session_free(&s)); /* frees the remaining handles */
    CHECK(s == MPI_T_PVAR_SESSION_NULL);
    CHECK_OK(MPI_T_pvar_session_free(&s2));
    MPI_Barrier(MPI_COMM_WORLD);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    CHECK_OK(MPI_T_finalize());
    if (rank == 0)
        printf("mpit pvars: %d ranks, exact counts\n", size);
    return 0;
}
