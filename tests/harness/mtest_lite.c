/* tests/harness/mtest_lite.c — see mtest_lite.h. Its globals (the verbosity, which
 * communicator MTestGetIntracomm gives next) are per rank when loomcc builds it. */
#include "mtest_lite.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int verbose;
static int comm_index; /* the next communicator MTestGetIntracomm gives */

void MTest_Init(int *argc, char ***argv)
{
    int flag;
    MPI_Initialized(&flag);
    if (!flag)
        MPI_Init(argc, argv);
    const char *v = getenv("MPITEST_VERBOSE");
    verbose = v ? atoi(v) : 0;
    comm_index = 0;
}

void MTest_Finalize(int errs)
{
    int rank, total = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        if (total)
            printf(" Found %d errors\n", total);
        else
            printf(" No Errors\n");
        fflush(stdout);
    }
    MPI_Finalize();
}

int MTestReturnValue(int errs)
{
    return errs ? 1 : 0;
}

void MTestPrintErrorMsg(const char *msg, int errcode)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0, cls = 0, rank = -1;
    MPI_Error_string(errcode, text, &len);
    MPI_Error_class(errcode, &cls);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "[%d] %s: error class %d, %s\n", rank, msg, cls, text);
    fflush(stderr);
}

void MTestPrintError(int errcode)
{
    MTestPrintErrorMsg("MPI error", errcode);
}

void MTestPrintfMsg(int level, const char *fmt, ...)
{
    if (verbose < level)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fflush(stderr);
}

int MTestFail(const char *file, int line, const char *what)
{
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "[%d] %s:%d: check failed: %s\n", rank, file, line, what);
    fflush(stderr);
    return 1;
}

int MTestGetIntracomm(MPI_Comm *comm, int min_size, const char **name)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *n = "";
    int rc = MPI_SUCCESS;
    switch (comm_index++) {
    case 0:
        *comm = MPI_COMM_WORLD;
        n = "MPI_COMM_WORLD";
        break;
    case 1: {
        MPI_Request req;
        rc = MPI_Comm_idup(MPI_COMM_WORLD, comm, &req);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        n = "Dup of MPI_COMM_WORLD (MPI_Comm_idup)";
        break;
    }
    case 2:
        rc = MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, comm);
        n = "Even/odd split of MPI_COMM_WORLD";
        break;
    case 3: {
        MPI_Group world, reversed;
        int *ranks = malloc(sizeof(int) * (size_t)size);
        for (int i = 0; i < size; i++)
            ranks[i] = size - 1 - i;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Group_incl(world, size, ranks, &reversed);
        rc = MPI_Comm_create(MPI_COMM_WORLD, reversed, comm);
        MPI_Group_free(&reversed);
        MPI_Group_free(&world);
        free(ranks);
        n = "Reversed MPI_COMM_WORLD (MPI_Comm_create)";
        break;
    }
    default:
        comm_index = 0;
        *comm = MPI_COMM_NULL;
        return 0;
    }
    if (rc != MPI_SUCCESS) {
        MTestPrintErrorMsg(n, rc);
        *comm = MPI_COMM_NULL;
    } else if (*comm != MPI_COMM_NULL) {
        if (*comm != MPI_COMM_WORLD)
            MPI_Comm_set_name(*comm, n);
        int csize;
        MPI_Comm_size(*comm, &csize);
        if (csize < min_size)
            MTestFreeComm(comm);
    }
    if (name)
        *name = n;
    MTestPrintfMsg(1, "[%d] communicator: %s\n", rank, n);
    return 1;
}

void MTestFreeComm(MPI_Comm *comm)
{
    if (*comm != MPI_COMM_WORLD && *comm != MPI_COMM_NULL)
        MPI_Comm_free(comm);
    *comm = MPI_COMM_NULL;
}
