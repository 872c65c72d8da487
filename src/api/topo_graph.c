/* api/topo_graph.c — graph topologies (Graph_create, Graph_get, Graphdims_get,
 * Graph_neighbors_count, Graph_neighbors, Graph_map) and MPI_Topo_test. */
#include "api/api.h"
#include "api/topo.h"
#include "comm/comm.h"
#include "comm/vtopo.h"

int loom__mpi_graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                           int reorder, MPI_Comm *comm_graph)
{
    LOOM_API_ENTER("MPI_Graph_create");
    const char *fn = "MPI_Graph_create";
    struct loom_comm *c;
    int rc = loom__topo_comm(fn, comm_old, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__topo_check_graph(fn, comm_old, nnodes, index, edges, c->sh->size);
    if (rc == MPI_SUCCESS)
        rc = loom__topo_nonnull(fn, comm_old, "comm_graph", comm_graph);
    if (rc != MPI_SUCCESS)
        return rc;
    struct loom_comm *nc;
    rc = loom__vtopo_graph_create(c, nnodes, index, edges, reorder != 0, &nc);
    if (rc != 0) {
        *comm_graph = MPI_COMM_NULL;
        return loom__api_error_code(comm_old, fn, rc);
    }
    *comm_graph = nc ? nc : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int loom__mpi_graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    LOOM_API_ENTER("MPI_Graphdims_get");
    const char *fn = "MPI_Graphdims_get";
    struct loom_comm *c;
    int rc = loom__topo_get(fn, comm, MPI_GRAPH, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__topo_nonnull(fn, comm, "nnodes", nnodes);
    if (rc == MPI_SUCCESS)
        rc = loom__topo_nonnull(fn, comm, "nedges", nedges);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct loom_vtopo *t = c->topo;
    *nnodes = t->nnodes;
    *nedges = t->nnodes > 0 ? t->index[t->nnodes - 1] : 0;
    return MPI_SUCCESS;
}

int loom__mpi_graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    LOOM_API_ENTER("MPI_Graph_get");
    const char *fn = "MPI_Graph_get";
    struct loom_comm *c;
    int rc = loom__topo_get(fn, comm, MPI_GRAPH, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct loom_vtopo *t = c->topo;
    int nedges = t->nnodes > 0 ? t->index[t->nnodes - 1] : 0;
    if (maxindex < t->nnodes)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "maxindex %d is less than the %d nodes",
                               maxindex, t->nnodes);
    if (maxedges < nedges)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "maxedges %d is less than the %d edges",
                               maxedges, nedges);
    if ((t->nnodes > 0 && (rc = loom__topo_nonnull(fn, comm, "index", index)) != 0) ||
        (nedges > 0 && (rc = loom__topo_nonnull(fn, comm, "edges", edges)) != 0))
        return rc;
    for (int i = 0; i < t->nnodes; i++)
        index[i] = t->index[i];
    for (int e = 0; e < nedges; e++)
        edges[e] = t->edges[e];
    return MPI_SUCCESS;
}

/* rank is a node of c's graph. */
static int check_node(const char *fn, MPI_Comm comm, struct loom_comm *c, int rank)
{
    if (rank < 0 || rank >= c->topo->nnodes)
        return loom__api_error(comm, fn, MPI_ERR_RANK, "rank %d is not a node of the graph "
                               "(nnodes %d)", rank, c->topo->nnodes);
    return MPI_SUCCESS;
}

int loom__mpi_graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    LOOM_API_ENTER("MPI_Graph_neighbors_count");
    const char *fn = "MPI_Graph_neighbors_count";
    struct loom_comm *c;
    int rc = loom__topo_get(fn, comm, MPI_GRAPH, &c);
    if (rc == MPI_SUCCESS)
        rc = check_node(fn, comm, c, rank);
    if (rc == MPI_SUCCESS)
        rc = loom__topo_nonnull(fn, comm, "nneighbors", nneighbors);
    if (rc != MPI_SUCCESS)
        return rc;
    int out;
    loom__vtopo_degrees(c->topo, rank, nneighbors, &out);
    return MPI_SUCCESS;
}

int loom__mpi_graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    LOOM_API_ENTER("MPI_Graph_neighbors");
    const char *fn = "MPI_Graph_neighbors";
    struct loom_comm *c;
    int rc = loom__topo_get(fn, comm, MPI_GRAPH, &c);
    if (rc == MPI_SUCCESS)
        rc = check_node(fn, comm, c, rank);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct loom_vtopo *t = c->topo;
    int first = rank > 0 ? t->index[rank - 1] : 0, n = t->index[rank] - first;
    if (maxneighbors < n)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "maxneighbors %d is less than the %d "
                               "neighbours of rank %d", maxneighbors, n, rank);
    if (n > 0 && (rc = loom__topo_nonnull(fn, comm, "neighbors", neighbors)) != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < n; i++)
        neighbors[i] = t->edges[first + i];
    return MPI_SUCCESS;
}

int loom__mpi_graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                        int *newrank)
{
    LOOM_API_ENTER("MPI_Graph_map");
    const char *fn = "MPI_Graph_map";
    struct loom_comm *c;
    int rc = loom__topo_comm(fn, comm, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__topo_check_graph(fn, comm, nnodes, index, edges, c->sh->size);
    if (rc == MPI_SUCCESS)
        rc = loom__topo_nonnull(fn, comm, "newrank", newrank);
    if (rc != MPI_SUCCESS)
        return rc;
    /* The rank MPI_Graph_create with reorder would give (docs/topology.md). */
    *newrank = MPI_UNDEFINED;
    if (c->rank < nnodes && (rc = loom__vtopo_graph_rank(c, nnodes, index, edges, newrank)) != 0)
        return loom__api_error_code(comm, fn, rc);
    return MPI_SUCCESS;
}

int loom__mpi_topo_test(MPI_Comm comm, int *status)
{
    LOOM_API_ENTER("MPI_Topo_test");
    struct loom_comm *c;
    int rc = loom__topo_comm("MPI_Topo_test", comm, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__topo_nonnull("MPI_Topo_test", comm, "status", status);
    if (rc == MPI_SUCCESS)
        *status = c->topo ? c->topo->kind : MPI_UNDEFINED;
    return rc;
}
