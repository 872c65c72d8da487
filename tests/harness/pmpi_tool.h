/* tests/harness/pmpi_tool.h — what pmpi_tool.c shows the program: its counters, this rank's. */
#ifndef PMPI_TOOL_H
#define PMPI_TOOL_H
#include <mpi.h>

struct pmpi_tool_counts {
    int send, recv, bcast, finalize;
};
void pmpi_tool_counts(struct pmpi_tool_counts *c);
#endif
