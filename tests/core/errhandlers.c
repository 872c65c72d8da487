/* Error handlers: MPI_ERRORS_RETURN returns the class; a user handler is called with the
 * communicator and the code; get/set/free; MPI_Comm_call_errhandler; Error_string/class. */
#include <string.h>
#include <mpi.h>
#include "check.h"

/* per rank: ranks are threads of one process */
static _Thread_local int calls, last_code;

static void handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    last_code = *code;
    CHECK(*comm == MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int rank, cls, len;
    char text[MPI_MAX_ERROR_STRING];
    MPI_Init(&argc, &argv);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    CHECK(eh == MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    CHECK(eh == MPI_ERRHANDLER_NULL);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_INT(MPI_Comm_rank(MPI_COMM_NULL, &rank), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_rank(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Error_class(12345, &cls), MPI_ERR_ARG);
    CHECK_INT(MPI_Error_class(MPI_ERR_TRUNCATE, &cls), MPI_SUCCESS);
    CHECK_INT(cls, MPI_ERR_TRUNCATE);
    CHECK_INT(MPI_Error_string(MPI_ERR_TRUNCATE, text, &len), MPI_SUCCESS);
    CHECK(len > 0 && strstr(text, "truncated") != NULL);

    MPI_Errhandler mine;
    MPI_Comm_create_errhandler(handler, &mine);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, mine);
    MPI_Errhandler_free(&mine); /* still in use by MPI_COMM_WORLD: stays alive */
    CHECK_INT(MPI_Comm_size(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_INT(calls, 1);
    CHECK_INT(last_code, MPI_ERR_ARG);
    MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER);
    CHECK_INT(calls, 2);
    CHECK_INT(last_code, MPI_ERR_OTHER);
    CHECK_INT(MPI_Errhandler_free(&mine), MPI_ERR_ARG); /* mine is now NULL */
    CHECK_INT(calls, 3);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Finalize();
    return 0;
}
