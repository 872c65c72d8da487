/* mixed.c — sessions and the world model in one program (MPI 4.1, chapter 11):
 *  1. a session opened before MPI_Init: its communicator works before MPI_Init;
 *  2. MPI_Init: MPI_Initialized becomes true; MPI_COMM_WORLD and the session's communicator
 *     both work, and a second session opened now works beside the first;
 *  3. the second session is finalized, MPI_Finalize is called while the first is open:
 *     MPI_Finalized becomes true and the first session's communicator still works, as does
 *     a third session opened after MPI_Finalize;
 *  4. the last MPI_Session_finalize ends the rank's MPI. */
#include "sess_check.h"

int main(int argc, char **argv)
{
    int flag = -1, n = 0;
    MPI_Session a, b, c;
    OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &a));
    MPI_Comm ca = sess_comm(a, "mpi://WORLD", "loom.test.mixed.a");
    OK(MPI_Comm_size(ca, &n));
    sess_talk(ca, n, 1);
    OK(MPI_Initialized(&flag));
    CHECK_INT(flag, 0);

    int provided = -1;
    OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    OK(MPI_Initialized(&flag));
    CHECK_INT(flag, 1);
    OK(MPI_Finalized(&flag));
    CHECK_INT(flag, 0);
    int wsize, wrank, arank;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &wsize));
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &wrank));
    OK(MPI_Comm_rank(ca, &arank));
    CHECK_INT(wsize, n);
    CHECK_INT(arank, wrank); /* mpi://WORLD is MPI_COMM_WORLD's group */
    MPI_Group wg, ag;
    int cmp = -1;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    OK(MPI_Group_from_session_pset(a, "mpi://WORLD", &ag));
    OK(MPI_Group_compare(wg, ag, &cmp));
    CHECK_INT(cmp, MPI_IDENT);
    OK(MPI_Group_free(&ag));
    OK(MPI_Group_free(&wg));
    sess_talk(MPI_COMM_WORLD, n, 2);
    sess_talk(ca, n, 3);

    OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &b));
    CHECK(b != a);
    MPI_Comm cb = sess_comm(b, "mpi://WORLD", "loom.test.mixed.b");
    sess_talk(cb, n, 4);
    sess_talk(ca, n, 5);
    OK(MPI_Comm_free(&cb));
    OK(MPI_Session_finalize(&b));

    OK(MPI_Finalize()); /* session a is still open: the rank's MPI stays up */
    OK(MPI_Finalized(&flag));
    CHECK_INT(flag, 1);
    OK(MPI_Initialized(&flag));
    CHECK_INT(flag, 1);
    sess_talk(ca, n, 6);
    OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    MPI_Comm cc = sess_comm(c, "mpi://WORLD", "loom.test.mixed.c");
    sess_talk(cc, n, 7);
    OK(MPI_Comm_free(&cc));
    OK(MPI_Session_finalize(&c));
    sess_talk(ca, n, 8);
    OK(MPI_Comm_free(&ca));
    OK(MPI_Session_finalize(&a)); /* the last one: the rank is done with MPI */
    OK(MPI_Finalized(&flag));
    CHECK_INT(flag, 1);
    return 0;
}
