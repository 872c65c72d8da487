/* synthetic.c — the Section 5 loop on larger synthetic nodes, one rank per core
 * (LOOM_BIND=compact), checked step by step as section5.c does (see hier_check.h):
 *   argv[1] = "knl":  a 64-core KNL-like node, package:1 numa:4 l2:8 core:2 pu:4, 64 ranks:
 *                     NUMANode (4 x 16 ranks) > L2Cache (8 x 2 per node) > Core, then
 *                     MPI_COMM_NULL (a rank bound to a core spans its 4 PUs).
 *   argv[1] = "2s48": a 2-socket 48-core node, package:2 numa:1 l3:1 core:24 pu:2, 48 ranks:
 *                     NUMANode (2 x 24) > Core, then MPI_COMM_NULL.
 * Ranks are threads, so 64 ranks run on a 2-core machine; the expectations are generated. */
#include "hier_check.h"

static _Thread_local char text[2048];

static const char *range(char *buf, int first, int n, int stride)
{
    char *p = buf;
    for (int i = 0; i < n; i++)
        p += sprintf(p, "%s%d", i ? "," : "", first + i * stride);
    return buf;
}

static const char *knl(int step, int w)
{
    char m[512], r[512];
    switch (step) {
    case 0: /* NUMA nodes of 16 cores; roots: the first rank of each */
        snprintf(text, sizeof text, "%s NUMANode 4 %d | %s", range(m, 16 * (w / 16), 16, 1),
                 w / 16, w % 16 == 0 ? "0,16,32,48 Machine" : "null");
        break;
    case 1: /* L2 caches of 2 cores; roots: the even ranks of the NUMA node */
        snprintf(text, sizeof text, "%s L2Cache 8 %d | %s%s", range(m, 2 * (w / 2), 2, 1),
                 (w / 2) % 8, w % 2 == 0 ? range(r, 16 * (w / 16), 8, 2) : "null",
                 w % 2 == 0 ? " NUMANode" : "");
        break;
    case 2: /* cores; every rank is its own root: roots = the L2's two ranks */
        snprintf(text, sizeof text, "%d Core 2 %d | %s L2Cache", w, w % 2,
                 range(r, 2 * (w / 2), 2, 1));
        break;
    default:
        snprintf(text, sizeof text, "null | null");
    }
    return text;
}

static const char *two_sockets(int step, int w)
{
    char m[512], r[512];
    switch (step) {
    case 0:
        snprintf(text, sizeof text, "%s NUMANode 2 %d | %s", range(m, 24 * (w / 24), 24, 1),
                 w / 24, w % 24 == 0 ? "0,24 Machine" : "null");
        break;
    case 1:
        snprintf(text, sizeof text, "%d Core 24 %d | %s NUMANode", w, w % 24,
                 range(r, 24 * (w / 24), 24, 1));
        break;
    default:
        snprintf(text, sizeof text, "null | null");
    }
    return text;
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    CHECK(argc > 1);
    int is_knl = strcmp(argv[1], "knl") == 0, size;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_INT(size, is_knl ? 64 : 48);
    int steps = hier_walk(is_knl ? knl : two_sockets, is_knl ? 4 : 3);
    CHECK_INT(steps, is_knl ? 4 : 3);
    OK(MPI_Finalize());
    return 0;
}
