/* comm/vtopo_dist_net.c — MPI_Dist_graph_create over several node processes: every member's
 * edge lists, gathered.
 *
 * Inside one node process the members read each other's arrays in place (comm/vtopo_create.c);
 * across node processes each member flattens its lists into one array of ints,
 *   n, weighted, m, sources[n], degrees[n], destinations[m], weights[m] (if weighted),
 * the members trade the lengths (an allgather) and then the arrays (an allgatherv) on the
 * parent's collective context, and each member points a struct loom_edges per member into
 * the result. */
#include <stdlib.h>
#include <string.h>
#include "coll/coll.h"
#include "comm/comm.h"
#include "comm/vtopo.h"
#include "core/error.h"
#include "net/net.h"

static void *need(void *p)
{
    if (!p) /* the other members would wait for this one's part */
        loom__net_abort(1, "out of memory making a distributed graph across node processes");
    return p;
}

static void run(struct loom_comm *parent, enum loom_coll_kind kind,
                const struct loom_coll_args *a)
{
    if (loom__coll_run_internal(kind, parent, a) != 0)
        loom__net_abort(1, "a distributed graph's edges could not be gathered");
}

void loom__vtopo_edges_gather(struct loom_comm *parent, const struct loom_edges *mine,
                              struct loom_edges **all, int **buf)
{
    int size = parent->sh->size, n = mine->n, m = 0, w = mine->weights != NULL;
    for (int i = 0; i < n; i++)
        m += mine->degrees[i];
    int len = 3 + 2 * n + m + (w ? m : 0);
    int *flat = need(malloc((size_t)len * sizeof *flat));
    flat[0] = n, flat[1] = w, flat[2] = m;
    memcpy(flat + 3, mine->sources, (size_t)n * sizeof *flat);
    memcpy(flat + 3 + n, mine->degrees, (size_t)n * sizeof *flat);
    memcpy(flat + 3 + 2 * n, mine->destinations, (size_t)m * sizeof *flat);
    if (w)
        memcpy(flat + 3 + 2 * n + m, mine->weights, (size_t)m * sizeof *flat);

    int *lens = need(malloc((size_t)size * sizeof *lens));
    int *displs = need(malloc((size_t)size * sizeof *displs));
    struct loom_coll_args a = {.sbuf = &len, .scount = 1, .stype = MPI_INT, .rbuf = lens,
                               .rcount = 1, .rtype = MPI_INT};
    run(parent, LOOM_COLL_ALLGATHER, &a);
    long long total = 0;
    for (int r = 0; r < size; r++) {
        displs[r] = (int)total;
        total += lens[r];
    }
    if (total > 0x7fffffff)
        loom__net_abort(1, "a distributed graph of more than INT_MAX numbers across node "
                           "processes");
    *buf = need(malloc((size_t)(total > 0 ? total : 1) * sizeof **buf));
    a = (struct loom_coll_args){.sbuf = flat, .scount = (size_t)len, .stype = MPI_INT,
                                .rbuf = *buf, .rcounts = lens, .rdispls = displs,
                                .rtype = MPI_INT};
    run(parent, LOOM_COLL_ALLGATHERV, &a);
    free(flat);

    *all = need(malloc((size_t)size * sizeof **all));
    for (int r = 0; r < size; r++) {
        const int *p = *buf + displs[r];
        int pn = p[0], pw = p[1], pm = p[2];
        (*all)[r] = (struct loom_edges){.n = pn, .sources = p + 3, .degrees = p + 3 + pn,
                                        .destinations = p + 3 + 2 * pn,
                                        .weights = pw ? p + 3 + 2 * pn + pm : NULL};
    }
    free(lens);
    free(displs);
}
