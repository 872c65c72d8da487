/* sess_check.h — what the session tests share: OK(), and one round of the whole flow on a
 * session (its WORLD process set made a communicator, used, freed). */
#ifndef LOOM_TEST_SESS_CHECK_H
#define LOOM_TEST_SESS_CHECK_H
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "mpi.h"

#define OK(call) CHECK_INT((call), MPI_SUCCESS)

/* A communicator of the ranks of process set `pset` of session s, made with tag `tag`. */
static inline MPI_Comm sess_comm(MPI_Session s, const char *pset, const char *tag)
{
    MPI_Group g;
    MPI_Comm c;
    OK(MPI_Group_from_session_pset(s, pset, &g));
    OK(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    OK(MPI_Group_free(&g));
    CHECK(c != MPI_COMM_NULL);
    return c;
}

/* Communicate on c of `n` ranks: a ring exchange (each rank sends its rank + base to the next
 * and checks what the previous one sent) and an allreduce of the ranks. */
static inline void sess_talk(MPI_Comm c, int n, int base)
{
    int me, size;
    OK(MPI_Comm_rank(c, &me));
    OK(MPI_Comm_size(c, &size));
    CHECK_INT(size, n);
    int v = me + base, got = -1;
    MPI_Status st;
    OK(MPI_Sendrecv(&v, 1, MPI_INT, (me + 1) % n, 7, &got, 1, MPI_INT, (me + n - 1) % n, 7, c,
                    &st));
    CHECK_INT(got, (me + n - 1) % n + base);
    CHECK_INT(st.MPI_SOURCE, (me + n - 1) % n);
    int sum = -1;
    OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c));
    CHECK_INT(sum, n * (n - 1) / 2);
}
#endif
