/* tests/harness/pmpi_tool.c — a profiling tool (MPI 4.1, 15.2): wraps MPI_Send, MPI_Recv,
 * MPI_Bcast and MPI_Finalize, counts the calls and reaches MPI through PMPI_. Built with
 * loomcc its counters are per rank, as a process-based MPI gives them to a tool. At
 * MPI_Finalize it reports the totals on rank 0, after checking that every rank's counters
 * are its own (each saw one MPI_Finalize); if not it aborts the job. */
#include <stdio.h>
#include "pmpi_tool.h"

static int n_send, n_recv, n_bcast, n_finalize;

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    n_send++;
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    n_recv++;
    return PMPI_Recv(buf, count, type, source, tag, comm, status);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    n_bcast++;
    return PMPI_Bcast(buf, count, type, root, comm);
}

void pmpi_tool_counts(struct pmpi_tool_counts *c)
{
    c->send = n_send;
    c->recv = n_recv;
    c->bcast = n_bcast;
    c->finalize = n_finalize;
}

int MPI_Finalize(void)
{
    n_finalize++;
    int rank, size, mine[4] = {n_send, n_recv, n_bcast, n_finalize}, sum[4];
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    PMPI_Reduce(mine, sum, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("pmpi_tool: %d ranks: %d MPI_Send, %d MPI_Recv, %d MPI_Bcast, %d MPI_Finalize\n",
               size, sum[0], sum[1], sum[2], sum[3]);
        fflush(stdout);
        if (sum[3] != size) {
            fprintf(stderr, "pmpi_tool: %d calls of MPI_Finalize by %d ranks\n", sum[3], size);
            PMPI_Abort(MPI_COMM_WORLD, 3);
        }
    }
    return PMPI_Finalize();
}
