/* api/topo_dist.c — distributed graph topologies: Dist_graph_create,
 * Dist_graph_create_adjacent, Dist_graph_neighbors_count, Dist_graph_neighbors.
 * Weights: MPI_UNWEIGHTED (no weights), MPI_WEIGHTS_EMPTY (weighted, no edges here), or an
 * array of non-negative integers. The info argument is accepted and not used; reorder maps
 * the graph onto the placement (docs/topology.md). */
#include "api/api.h"
#include "api/topo.h"
#include "comm/comm.h"
#include "comm/vtopo.h"

/* ranks[n] are ranks of a communicator of `size` (MPI_ERR_RANK). */
static int check_ranks(const char *fn, MPI_Comm comm, const char *what, const int *ranks,
                       int n, int size)
{
    if (n > 0 && ranks == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "%s is NULL", what);
    for (int i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= size)
            return loom__api_error(comm, fn, MPI_ERR_RANK, "%s[%d] is %d, not a rank of the "
                                   "communicator (size %d)", what, i, ranks[i], size);
    return MPI_SUCCESS;
}

/* A weights argument for n edges. */
static int check_weights(const char *fn, MPI_Comm comm, const char *what, const int *w, int n)
{
    if (w == MPI_UNWEIGHTED)
        return MPI_SUCCESS;
    if (w == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "%s is NULL (MPI_UNWEIGHTED or "
                               "MPI_WEIGHTS_EMPTY?)", what);
    if (w == MPI_WEIGHTS_EMPTY) {
        if (n > 0)
            return loom__api_error(comm, fn, MPI_ERR_ARG, "%s is MPI_WEIGHTS_EMPTY for %d "
                                   "edges", what, n);
        return MPI_SUCCESS;
    }
    for (int i = 0; i < n; i++)
        if (w[i] < 0)
            return loom__api_error(comm, fn, MPI_ERR_ARG, "%s[%d] is %d, negative", what, i,
                                   w[i]);
    return MPI_SUCCESS;
}

static int check_common(const char *fn, MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    if (info != MPI_INFO_NULL && loom__info_invalid_reason(info) != NULL)
        return loom__api_error(comm, fn, MPI_ERR_INFO, "%s", loom__info_invalid_reason(info));
    return loom__topo_nonnull(fn, comm, "comm_dist_graph", newcomm);
}

static int finish(const char *fn, MPI_Comm comm, int rc, struct loom_comm *nc,
                  MPI_Comm *newcomm)
{
    if (rc != 0) {
        *newcomm = MPI_COMM_NULL;
        return loom__api_error_code(comm, fn, rc);
    }
    *newcomm = nc;
    return MPI_SUCCESS;
}

int loom__mpi_dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                         const int sourceweights[], int outdegree,
                                         const int destinations[], const int destweights[],
                                         MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    LOOM_API_ENTER("MPI_Dist_graph_create_adjacent");
    const char *fn = "MPI_Dist_graph_create_adjacent";
    struct loom_comm *c;
    int rc = loom__topo_comm(fn, comm_old, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    int size = c->sh->size;
    if (indegree < 0 || outdegree < 0)
        return loom__api_error(comm_old, fn, MPI_ERR_ARG, "%s %d is negative",
                               indegree < 0 ? "indegree" : "outdegree",
                               indegree < 0 ? indegree : outdegree);
    if ((rc = check_ranks(fn, comm_old, "sources", sources, indegree, size)) != 0 ||
        (rc = check_weights(fn, comm_old, "sourceweights", sourceweights, indegree)) != 0 ||
        (rc = check_ranks(fn, comm_old, "destinations", destinations, outdegree, size)) != 0 ||
        (rc = check_weights(fn, comm_old, "destweights", destweights, outdegree)) != 0 ||
        (rc = check_common(fn, comm_old, info, comm_dist_graph)) != 0)
        return rc;
    if ((sourceweights == MPI_UNWEIGHTED) != (destweights == MPI_UNWEIGHTED))
        return loom__api_error(comm_old, fn, MPI_ERR_ARG, "only one of sourceweights and "
                               "destweights is MPI_UNWEIGHTED");
    const int *sw = sourceweights == MPI_UNWEIGHTED || indegree == 0 ? NULL : sourceweights;
    const int *dw = destweights == MPI_UNWEIGHTED || outdegree == 0 ? NULL : destweights;
    struct loom_comm *nc = NULL;
    rc = loom__vtopo_dist_create_adjacent(c, indegree, sources, sw, outdegree, destinations,
                                          dw, sourceweights != MPI_UNWEIGHTED, reorder != 0,
                                          &nc);
    return finish(fn, comm_old, rc, nc, comm_dist_graph);
}

int loom__mpi_dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                const int destinations[], const int weights[], MPI_Info info,
                                int reorder, MPI_Comm *comm_dist_graph)
{
    LOOM_API_ENTER("MPI_Dist_graph_create");
    const char *fn = "MPI_Dist_graph_create";
    struct loom_comm *c;
    int rc = loom__topo_comm(fn, comm_old, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    int size = c->sh->size;
    if (n < 0)
        return loom__api_error(comm_old, fn, MPI_ERR_ARG, "n %d is negative", n);
    if ((rc = check_ranks(fn, comm_old, "sources", sources, n, size)) != 0)
        return rc;
    if (n > 0 && degrees == NULL)
        return loom__api_error(comm_old, fn, MPI_ERR_ARG, "degrees is NULL");
    long long total = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0)
            return loom__api_error(comm_old, fn, MPI_ERR_ARG, "degrees[%d] is %d, negative",
                                   i, degrees[i]);
        total += degrees[i];
    }
    if (total > 0x7fffffff)
        return loom__api_error(comm_old, fn, MPI_ERR_ARG, "more than INT_MAX edges");
    if ((rc = check_ranks(fn, comm_old, "destinations", destinations, (int)total, size)) != 0 ||
        (rc = check_weights(fn, comm_old, "weights", weights, (int)total)) != 0 ||
        (rc = check_common(fn, comm_old, info, comm_dist_graph)) != 0)
        return rc;
    struct loom_comm *nc = NULL;
    rc = loom__vtopo_dist_create(c, n, sources, degrees, destinations,
                                 weights == MPI_UNWEIGHTED ? NULL : weights, reorder != 0, &nc);
    return finish(fn, comm_old, rc, nc, comm_dist_graph);
}

int loom__mpi_dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree,
                                         int *weighted)
{
    LOOM_API_ENTER("MPI_Dist_graph_neighbors_count");
    const char *fn = "MPI_Dist_graph_neighbors_count";
    struct loom_comm *c;
    int rc = loom__topo_get(fn, comm, MPI_DIST_GRAPH, &c);
    if (rc == MPI_SUCCESS && ((rc = loom__topo_nonnull(fn, comm, "indegree", indegree)) != 0 ||
                              (rc = loom__topo_nonnull(fn, comm, "outdegree", outdegree)) !=
                                  0 ||
                              (rc = loom__topo_nonnull(fn, comm, "weighted", weighted)) != 0))
        return rc;
    if (rc != MPI_SUCCESS)
        return rc;
    *indegree = c->topo->indeg;
    *outdegree = c->topo->outdeg;
    *weighted = c->topo->weighted;
    return MPI_SUCCESS;
}

/* Copy n neighbours (and their weights when asked for) out. */
static int copy_out(const char *fn, MPI_Comm comm, const char *what, int max, int n,
                    const int *from, const int *fromw, int weighted, int *to, int *tow)
{
    if (max < n)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "max%s %d is less than the %d "
                               "neighbours", what, max, n);
    if (n > 0 && to == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "the %s array is NULL", what);
    int want_w = weighted && tow != MPI_UNWEIGHTED && tow != MPI_WEIGHTS_EMPTY;
    if (want_w && n > 0 && tow == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "the %s weights array is NULL", what);
    for (int i = 0; i < n; i++) {
        to[i] = from[i];
        if (want_w)
            tow[i] = fromw[i];
    }
    return MPI_SUCCESS;
}

int loom__mpi_dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
                                   int sourceweights[], int maxoutdegree, int destinations[],
                                   int destweights[])
{
    LOOM_API_ENTER("MPI_Dist_graph_neighbors");
    const char *fn = "MPI_Dist_graph_neighbors";
    struct loom_comm *c;
    int rc = loom__topo_get(fn, comm, MPI_DIST_GRAPH, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct loom_vtopo *t = c->topo;
    /* check both sides before writing either */
    if (maxindegree < t->indeg || maxoutdegree < t->outdeg)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "%s %d is less than the %d neighbours",
                               maxindegree < t->indeg ? "maxindegree" : "maxoutdegree",
                               maxindegree < t->indeg ? maxindegree : maxoutdegree,
                               maxindegree < t->indeg ? t->indeg : t->outdeg);
    rc = copy_out(fn, comm, "indegree", maxindegree, t->indeg, t->in, t->inw, t->weighted,
                  sources, sourceweights);
    if (rc == MPI_SUCCESS)
        rc = copy_out(fn, comm, "outdegree", maxoutdegree, t->outdeg, t->out, t->outw,
                      t->weighted, destinations, destweights);
    return rc;
}
