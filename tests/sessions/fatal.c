/* fatal.c — argv[1] says which error: with the default handlers each ends the job with a
 * one-line message naming the call (CMakeLists.txt checks it).
 *   bad_session: an invalid session handle (MPI_COMM_SELF's handler, fatal by default);
 *   bad_pset:    an unknown process set on a session made with MPI_ERRORS_ARE_FATAL;
 *   after_finalize: MPI_Session_init after MPI_Finalize ended the rank's MPI. */
#include "sess_check.h"

int main(int argc, char **argv)
{
    CHECK(argc == 2);
    MPI_Session s;
    MPI_Group g;
    int n;
    if (strcmp(argv[1], "bad_session") == 0) {
        OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
        MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &n);
    } else if (strcmp(argv[1], "bad_pset") == 0) {
        OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s));
        MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g);
    } else if (strcmp(argv[1], "after_finalize") == 0) {
        OK(MPI_Init(&argc, &argv));
        OK(MPI_Finalize());
        MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    }
    return 0; /* not reached */
}
