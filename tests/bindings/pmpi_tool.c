/* A profiling tool as users write them: it defines some MPI_ calls, counts them, and reaches
 * loom through their PMPI_ twins. Linked into a program (before loom) or LD_PRELOADed.
 * The counts are process-wide (all ranks of a loom job are threads of one process): atomics.
 * The program finds them with dlsym, so that the same program works with either way of
 * loading the tool. */
#include <stdatomic.h>
#include "mpi.h"
#include "pmpi_tool.h"

static _Atomic long counts[PMPI_TOOL_NCALLS];

static void count(enum pmpi_tool_call c)
{
    atomic_fetch_add(&counts[c], 1);
}

__attribute__((visibility("default"))) long pmpi_tool_count(enum pmpi_tool_call c)
{
    return atomic_load(&counts[c]);
}

int MPI_Init(int *argc, char ***argv)
{
    count(PMPI_TOOL_INIT);
    return PMPI_Init(argc, argv);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    count(PMPI_TOOL_INIT_THREAD);
    return PMPI_Init_thread(argc, argv, required, provided);
}

int MPI_Send(const void *buf, int count_, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    count(PMPI_TOOL_SEND);
    return PMPI_Send(buf, count_, type, dest, tag, comm);
}

int MPI_Recv(void *buf, int count_, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    count(PMPI_TOOL_RECV);
    return PMPI_Recv(buf, count_, type, source, tag, comm, status);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count_, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    count(PMPI_TOOL_ALLREDUCE);
    return PMPI_Allreduce(sendbuf, recvbuf, count_, type, op, comm);
}

int MPI_Barrier(MPI_Comm comm)
{
    count(PMPI_TOOL_BARRIER);
    return PMPI_Barrier(comm);
}

int MPI_Error_string(int code, char *string, int *resultlen)
{
    count(PMPI_TOOL_ERROR_STRING);
    return PMPI_Error_string(code, string, resultlen);
}

double MPI_Wtime(void)
{
    count(PMPI_TOOL_WTIME);
    return PMPI_Wtime();
}
