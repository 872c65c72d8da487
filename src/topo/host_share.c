/* topo/host_share.c — node processes that share a host: each takes its own part of the host's
 * cores, so that their ranks (placed by LOOM_BIND inside that part) never land on one
 * another's cores. Without it, each would place its ranks from the first core of the host.
 *
 * The cores, in hwloc's logical order (a package's cores, then the next package's), are cut
 * into `share` consecutive runs as even as integer division makes them: node process k takes
 * cores [k * n / share, (k + 1) * n / share). Consecutive cores keep a node process's ranks
 * under the fewest caches and NUMA nodes, which its shared-memory collectives and its
 * progress threads count on (the 2019 paper's placement, inside the part). */
#include "topo/hw.h"

struct loom_cpuset *loom__topo_host_part(const struct loom_topo *t, int k, int share)
{
    if (share < 1 || k < 0 || k >= share || t->ncores < share)
        return NULL;
    struct loom_cpuset *s = loom__cpuset_new();
    if (!s)
        return NULL;
    long lo = (long)k * t->ncores / share, hi = (long)(k + 1) * t->ncores / share;
    for (long c = lo; c < hi; c++)
        hwloc_bitmap_or(s->bits, s->bits, t->cores[c].bits);
    return s;
}
