/* pmpi_tool.h — the calls the test profiling tool counts (pmpi_tool.c, pmpi_program.c). */
#ifndef LOOM_TEST_PMPI_TOOL_H
#define LOOM_TEST_PMPI_TOOL_H
enum pmpi_tool_call {
    PMPI_TOOL_INIT,
    PMPI_TOOL_INIT_THREAD,
    PMPI_TOOL_SEND,
    PMPI_TOOL_RECV,
    PMPI_TOOL_ALLREDUCE,
    PMPI_TOOL_BARRIER,
    PMPI_TOOL_ERROR_STRING,
    PMPI_TOOL_WTIME,
    PMPI_TOOL_NCALLS
};
/* How many times the program called this MPI_ function (all ranks together). */
long pmpi_tool_count(enum pmpi_tool_call c);
#endif
