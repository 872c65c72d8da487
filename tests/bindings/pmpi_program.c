/* A program under a profiling tool (pmpi_tool.c, linked in or preloaded): every MPI_ call it
 * makes reaches the tool once; its PMPI_ calls and loom's own inner calls never do. With
 * argument "none" it checks the opposite: without a tool, MPI_ calls reach loom directly. */
#include <dlfcn.h>
#include <string.h>
#include "check.h"
#include "mpi.h"
#include "pmpi_tool.h"

typedef long count_fn(enum pmpi_tool_call);

int main(int argc, char **argv)
{
    int no_tool = argc > 1 && strcmp(argv[1], "none") == 0;
    count_fn *tool = (count_fn *)(void (*)(void))dlsym(RTLD_DEFAULT, "pmpi_tool_count");
    CHECK(no_tool ? tool == NULL : tool != NULL);

    MPI_Init(&argc, &argv); /* loom's MPI_Init calls its own Init_thread, not MPI_Init_thread */
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* A ring: each rank sends 3 messages through MPI_ and 2 through PMPI_. */
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int i = 0; i < 5; i++) {
        int out = rank * 10 + i, in = -1;
        MPI_Request r;
        MPI_Irecv(&in, 1, MPI_INT, left, i, MPI_COMM_WORLD, &r);
        if (i < 3)
            CHECK_INT(MPI_Send(&out, 1, MPI_INT, right, i, MPI_COMM_WORLD), MPI_SUCCESS);
        else
            CHECK_INT(PMPI_Send(&out, 1, MPI_INT, right, i, MPI_COMM_WORLD), MPI_SUCCESS);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        CHECK_INT(in, left * 10 + i);
    }
    /* Two receives through MPI_, one through PMPI_. */
    for (int i = 0; i < 3; i++) {
        int out = i, in = -1;
        MPI_Request r;
        MPI_Isend(&out, 1, MPI_INT, right, 100 + i, MPI_COMM_WORLD, &r);
        if (i < 2)
            MPI_Recv(&in, 1, MPI_INT, left, 100 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            PMPI_Recv(&in, 1, MPI_INT, left, 100 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        CHECK_INT(in, i);
    }
    int one = 1, sum = 0;
    CHECK_INT(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK_INT(sum, size);
    CHECK(MPI_Wtime() > 0 && PMPI_Wtime() > 0);
    /* Calls that loom implements with other calls' code: none of them reaches the tool. */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    PMPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup);
    MPI_Comm_free(&dup);
    char text[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(MPI_ERR_RANK, text, &len);
    CHECK(len > 0);
    /* The bad call goes to the error handler, which does not ask the tool for the string. */
    CHECK_INT(MPI_Send(&one, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);

    /* Every rank's counted calls come before its barrier, and its barrier count before the
     * barrier: after it the counts are final. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (!no_tool) {
        CHECK_INT(tool(PMPI_TOOL_INIT), size);
        CHECK_INT(tool(PMPI_TOOL_INIT_THREAD), 0);
        CHECK_INT(tool(PMPI_TOOL_SEND), 4 * size); /* 3 in the ring, 1 bad */
        CHECK_INT(tool(PMPI_TOOL_RECV), 2 * size);
        CHECK_INT(tool(PMPI_TOOL_ALLREDUCE), size);
        CHECK_INT(tool(PMPI_TOOL_BARRIER), size);
        CHECK_INT(tool(PMPI_TOOL_ERROR_STRING), size);
        CHECK_INT(tool(PMPI_TOOL_WTIME), size);
        if (rank == 0)
            printf("pmpi: the tool saw %d ranks' calls, none of loom's own\n", size);
    }
    /* Keep the counts read above valid until every rank has read them. */
    PMPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
