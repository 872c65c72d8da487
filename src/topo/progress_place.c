/* topo/progress_place.c — where progress threads go (the 2019 paper, Section 4-5).
 *
 *  bind      the thread shares its rank's CPU set;
 *  numa      Eq. 1: P_numa(N, n, M) = M if n >= N, else ceil((floor(M/d) + 1) * d) - 1 with
 *            d = N / (N - n): N cores in the rank's NUMA node, n ranks on it, M the position
 *            of the rank's core in the node. Under the spread placement, the cores of a NUMA
 *            node form N - n blocks, each ending with a free core, and a rank at position M
 *            lies in block floor(M/d): Eq. 1 is the free core that ends the rank's block.
 *            Ranks placed otherwise take the first free core at or after their position in
 *            their NUMA node (wrapping), which is the same thing under spread; with no free
 *            core in the node, the rank's own core (as the paper says);
 *  odd-even  Eq. 2: P(p, n, r) = p/(p-n) * (r mod (p-n)) + p/(p-n) - 1 over the p cores of the
 *            machine: consecutive ranks never share a communication core. With p/(p-n) not
 *            an integer we round up, as for the free cores of spread (ceil((j+1) p/f) - 1), so
 *            the result is always a free core of spread; with no free core, bind;
 *  cores:L   dedicated communication cores: rank r's thread on core L[r mod |L|] (logical
 *            core indexes, ranges a-b, joined with '+' or ',').
 */
#include <stdlib.h>
#include <string.h>
#include "topo/hw.h"

int loom__place_numa(int N, int n, int M)
{
    if (n >= N)
        return M;
    long f = N - n;
    long j = (long)M * f / N;                /* floor(M / d), d = N / f */
    return (int)(((j + 1) * N + f - 1) / f - 1); /* ceil((j + 1) * d) - 1 */
}

int loom__place_odd_even(int p, int n, int r)
{
    if (n >= p)
        return -1;
    long f = p - n;
    long j = r % f;
    return (int)(((j + 1) * p + f - 1) / f - 1);
}

int loom__progress_policy_check(const char *policy, char *err, size_t errlen)
{
    if (!strcmp(policy, "bind") || !strcmp(policy, "numa") || !strcmp(policy, "odd-even"))
        return 0;
    if (!strncmp(policy, "cores:", 6)) {
        struct loom_cpuset s = {hwloc_bitmap_alloc()};
        int rc = s.bits && policy[6] && loom__cpuset_parse(&s, policy + 6) == 0 ? 0 : -1;
        hwloc_bitmap_free(s.bits);
        if (rc == 0)
            return 0;
        loom__topo_seterr(err, errlen, "\"%s\" is not a core list (e.g. cores:3+7 or cores:0-1)",
                          policy + 6);
        return -1;
    }
    loom__topo_seterr(err, errlen, "\"%s\" is not a progress-thread placement", policy);
    return -1;
}

/* The logical index of the core whose set equals (or holds) s's first PU, -1 if none. */
static int core_index(const struct loom_topo *t, const struct loom_cpuset *s)
{
    int pu = hwloc_bitmap_first(s->bits);
    for (int c = 0; pu >= 0 && c < t->ncores; c++)
        if (hwloc_bitmap_isset(t->cores[c].bits, (unsigned)pu))
            return c;
    return -1;
}

/* 1 if any rank's set touches core c. */
static int core_used(const struct loom_topo *t, int c, struct loom_cpuset *const *sets, int n)
{
    for (int i = 0; i < n; i++)
        if (hwloc_bitmap_intersects(t->cores[c].bits, sets[i]->bits))
            return 1;
    return 0;
}

int loom__topo_place_progress(const struct loom_topo *t, const char *policy, int nranks,
                              struct loom_cpuset *const *rank_sets, struct loom_cpuset **out,
                              char *err, size_t errlen)
{
    if (loom__progress_policy_check(policy, err, errlen))
        return -1;
    int *list = NULL, nlist = 0;
    if (!strncmp(policy, "cores:", 6)) {
        struct loom_cpuset parsed = {hwloc_bitmap_alloc()};
        if (!parsed.bits || loom__cpuset_parse(&parsed, policy + 6) != 0) {
            hwloc_bitmap_free(parsed.bits);
            loom__topo_seterr(err, errlen, "\"%s\" is not a core list", policy + 6);
            return -1;
        }
        hwloc_bitmap_t b = parsed.bits;
        unsigned i;
        list = malloc(sizeof *list * (size_t)(hwloc_bitmap_weight(b) + 1));
        hwloc_bitmap_foreach_begin(i, b)
        {
            if ((int)i >= t->ncores) {
                loom__topo_seterr(err, errlen, "core %u does not exist (the machine has %d)",
                                  i, t->ncores);
                hwloc_bitmap_free(b);
                free(list);
                return -1;
            }
            list[nlist++] = (int)i;
        }
        hwloc_bitmap_foreach_end();
        hwloc_bitmap_free(b);
    }
    /* ranks bound to a single core, counted per NUMA node, for Eq. 1 and 2 */
    int free_total = 0;
    for (int c = 0; c < t->ncores; c++)
        free_total += !core_used(t, c, rank_sets, nranks);
    for (int r = 0; r < nranks; r++) {
        int core = -1, rc = core_index(t, rank_sets[r]);
        if (list) {
            core = list[r % nlist];
        } else if (!strcmp(policy, "odd-even") && free_total > 0) {
            int pos = loom__place_odd_even(t->ncores, t->ncores - free_total, r);
            if (pos >= 0 && pos < t->ncores && !core_used(t, pos, rank_sets, nranks))
                core = pos;
            else /* placement other than spread: the (r mod f)-th free core */
                for (int c = 0, k = r % free_total; c < t->ncores; c++)
                    if (!core_used(t, c, rank_sets, nranks) && k-- == 0) {
                        core = c;
                        break;
                    }
        } else if (!strcmp(policy, "numa") && rc >= 0 && t->core_numa[rc] >= 0) {
            /* the first free core at or after the rank's own, in its NUMA node (Eq. 1) */
            int numa = t->core_numa[rc];
            for (int step = 0; step < t->ncores && core < 0; step++) {
                int c = (rc + step) % t->ncores;
                if (t->core_numa[c] == numa && !core_used(t, c, rank_sets, nranks))
                    core = c;
            }
        }
        out[r] = loom__cpuset_dup(core >= 0 ? &t->cores[core] : rank_sets[r]);
        if (!out[r]) {
            free(list);
            return -1;
        }
    }
    free(list);
    return 0;
}
