/* init_first.c — the world model first: after MPI_Init, a session's "mpi://WORLD" group makes
 * a communicator congruent with MPI_COMM_WORLD; sessions opened and finalized between
 * MPI_Init and MPI_Finalize leave the world model untouched; MPI_Finalize with no session
 * open ends the rank's MPI as usual. */
#include "sess_check.h"

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int n, flag;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    for (int round = 0; round < 3; round++) {
        MPI_Session s;
        OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
        char tag[32];
        snprintf(tag, sizeof tag, "loom.test.first.%d", round);
        MPI_Comm c = sess_comm(s, "mpi://WORLD", tag);
        int cmp = -1;
        OK(MPI_Comm_compare(c, MPI_COMM_WORLD, &cmp));
        CHECK_INT(cmp, MPI_CONGRUENT);
        sess_talk(c, n, round);
        OK(MPI_Comm_free(&c));
        OK(MPI_Session_finalize(&s));
        sess_talk(MPI_COMM_WORLD, n, 10 + round);
    }
    OK(MPI_Initialized(&flag));
    CHECK_INT(flag, 1);
    OK(MPI_Finalize());
    OK(MPI_Finalized(&flag));
    CHECK_INT(flag, 1);
    return 0;
}
