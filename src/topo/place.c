/* topo/place.c — rank placement: turning a policy string (LOOM_BIND, loomrun --bind-to) and a
 * rank count into one CPU set per rank. The rules, spread's in particular (Section 4 / Fig. 1
 * and Eq. 1 of the 2019 split-tree paper), are written at the top of topo.h; this file is
 * their only implementation. Placement first chooses a core index per rank and only then
 * makes sets, so each policy is a few lines of integer arithmetic over NUMA domains. */
#include <stdlib.h>
#include <string.h>

#include "topo/hw.h"

enum policy { SPREAD, COMPACT, SCATTER, NONE, USER };

static const char help[] =
    "spread (the default), compact, scatter, none, or user:<set>,<set>,... with one set of PU "
    "indexes per rank, '+' joining indexes and a-b ranges (e.g. user:0,1,2+3,4-7)";

const char *loom__topo_policy_help(void)
{
    return help;
}

/* Decode policy into *p (and *user, the text after "user:"); -1 + message if unknown. */
static int decode(const char *policy, enum policy *p, const char **user, char *err,
                  size_t errlen)
{
    static const struct {
        const char *name;
        enum policy p;
    } names[] = {{"spread", SPREAD}, {"compact", COMPACT}, {"scatter", SCATTER}, {"none", NONE}};
    *user = NULL;
    if (!policy || !*policy) {
        *p = SPREAD;
        return 0;
    }
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(policy, names[i].name) == 0) {
            *p = names[i].p;
            return 0;
        }
    if (strncmp(policy, "user:", 5) == 0) {
        *p = USER;
        *user = policy + 5;
        return 0;
    }
    loom__topo_seterr(err, errlen, "unknown binding policy \"%s\"; accepted: %s", policy, help);
    return -1;
}

/* Parse the i-th ','-separated set of a user list into s (NULL: syntax only). Returns 0,
 * 1 when the list has no i-th set, -1 + message on a bad set. */
static int user_set(const char *list, int i, struct loom_cpuset *s, char *err, size_t errlen)
{
    const char *b = list;
    for (int k = 0; k < i; k++) {
        b = strchr(b, ',');
        if (!b)
            return 1;
        b++;
    }
    size_t len = strcspn(b, ",");
    char *piece = malloc(len + 1);
    if (!piece) {
        loom__topo_seterr(err, errlen, "binding policy user: out of memory");
        return -1;
    }
    memcpy(piece, b, len);
    piece[len] = '\0';
    struct loom_cpuset *tmp = s ? s : loom__cpuset_new();
    int rc = tmp && loom__cpuset_parse(tmp, piece) == 0 ? 0 : -1;
    if (rc < 0)
        loom__topo_seterr(err, errlen,
                          "binding policy user: set %d \"%s\" is not a list of PU indexes "
                          "joined by '+' with ranges a-b (e.g. 2+3 or 4-7)",
                          i, piece);
    if (!s)
        loom__cpuset_free(tmp);
    free(piece);
    return rc;
}

int loom__topo_policy_check(const char *policy, char *err, size_t errlen)
{
    enum policy p;
    const char *user;
    if (decode(policy, &p, &user, err, errlen) < 0)
        return -1;
    if (p != USER)
        return 0;
    int i = 0, rc;
    while ((rc = user_set(user, i, NULL, err, errlen)) == 0)
        i++;
    return rc < 0 ? -1 : 0;
}

/* A NUMA domain: the cores, in logical order, of one NUMA node that has cores. */
struct domain {
    int n;      /* number of cores */
    int *cores; /* core logical indexes; points into one shared array */
    int used;   /* scatter: cores handed out so far */
    int ranks;  /* spread: ranks given to this domain */
};

/* Group the cores of t into domains (cores outside every NUMA node form a last domain).
 * Fills dom[] (room for nnuma + 1) and idx[] (room for ncores); returns the count. */
static int domains(const struct loom_topo *t, struct domain *dom, int *idx)
{
    int nd = 0, fill = 0;
    for (int k = 0; k <= t->nnuma; k++) {
        int want = k < t->nnuma ? k : -1; /* NUMA 0..nnuma-1, then cores outside all */
        struct domain *d = &dom[nd];
        d->n = 0;
        d->cores = idx + fill;
        d->used = d->ranks = 0;
        for (int c = 0; c < t->ncores; c++)
            if (t->core_numa[c] == want)
                d->cores[d->n++] = c;
        fill += d->n;
        if (d->n)
            nd++;
    }
    return nd;
}

/* scatter: m <= ncores ranks round-robin over the domains, skipping full ones. */
static void scatter(struct domain *dom, int nd, int m, int *core)
{
    for (int r = 0; r < m; r++) {
        int d = r % nd;
        while (dom[d].used == dom[d].n)
            d = (d + 1) % nd;
        core[r] = dom[d].cores[dom[d].used++];
    }
}

/* spread: m <= ncores ranks, the rule of topo.h (split, then Eq. 1 inside each domain). */
static void spread(struct domain *dom, int nd, int m, int *core)
{
    int excess = 0;
    for (int d = 0; d < nd; d++) {
        dom[d].ranks = m / nd + (d < m % nd);
        if (dom[d].ranks > dom[d].n) {
            excess += dom[d].ranks - dom[d].n;
            dom[d].ranks = dom[d].n;
        }
    }
    for (int d = 0; excess > 0; d = (d + 1) % nd)
        if (dom[d].ranks < dom[d].n) {
            dom[d].ranks++;
            excess--;
        }
    int r = 0;
    for (int d = 0; d < nd; d++) {
        long n = dom[d].n, f = n - dom[d].ranks, j = 0;
        for (long pos = 0; pos < n; pos++) {
            /* F_j = ceil((j+1) * n / f) - 1 is the j-th free position */
            if (j < f && pos == ((j + 1) * n + f - 1) / f - 1) {
                j++;
                continue;
            }
            core[r++] = dom[d].cores[pos];
        }
    }
}

/* The user sets of list for nranks ranks, checked against the machine. */
static int user_sets(const struct loom_topo *t, const char *list, int nranks,
                     struct loom_cpuset **sets, char *err, size_t errlen)
{
    for (int i = 0; i < nranks; i++) {
        sets[i] = loom__cpuset_new();
        if (!sets[i]) {
            loom__topo_seterr(err, errlen, "binding policy user: out of memory");
            return -1;
        }
        int rc = user_set(list, i, sets[i], err, errlen);
        if (rc > 0)
            loom__topo_seterr(err, errlen,
                              "binding policy user: %d set(s) given for %d ranks; give one "
                              "set per rank",
                              i, nranks);
        if (rc)
            return -1;
        if (!hwloc_bitmap_isincluded(sets[i]->bits, t->machine.bits)) {
            char have[256], want[256];
            loom__cpuset_format(sets[i], want, sizeof(want));
            loom__cpuset_format(&t->machine, have, sizeof(have));
            loom__topo_seterr(err, errlen,
                              "binding policy user: set %d (%s) names a PU that this "
                              "topology lacks (it has %s)",
                              i, want, have);
            return -1;
        }
    }
    return 0;
}

int loom__topo_place(const struct loom_topo *t, const char *policy, int nranks,
                     struct loom_cpuset **sets, char *err, size_t errlen)
{
    enum policy p;
    const char *user;
    if (nranks < 0 || (nranks > 0 && !sets)) {
        loom__topo_seterr(err, errlen, "cannot place %d ranks", nranks);
        return -1;
    }
    for (int i = 0; i < nranks; i++)
        sets[i] = NULL;
    if (decode(policy, &p, &user, err, errlen) < 0)
        return -1;
    if (p == USER) {
        if (user_sets(t, user, nranks, sets, err, errlen) < 0)
            goto out_with_sets;
        return 0;
    }
    if (p == NONE) {
        for (int i = 0; i < nranks; i++)
            if (!(sets[i] = loom__cpuset_dup(&t->machine)))
                goto out_nomem;
        return 0;
    }

    /* m ranks get distinct cores; rank i >= m reuses the core of rank i mod m. */
    int m = nranks < t->ncores ? nranks : t->ncores;
    struct domain *dom = malloc(sizeof(*dom) * (size_t)(t->nnuma + 1));
    int *idx = malloc(sizeof(*idx) * (size_t)t->ncores);
    int *core = malloc(sizeof(*core) * (size_t)(m ? m : 1));
    if (!dom || !idx || !core) {
        free(dom);
        free(idx);
        free(core);
        goto out_nomem;
    }
    int nd = domains(t, dom, idx);
    if (p == COMPACT)
        for (int r = 0; r < m; r++)
            core[r] = r;
    else if (p == SCATTER)
        scatter(dom, nd, m, core);
    else
        spread(dom, nd, m, core);
    int ok = 1;
    for (int i = 0; i < nranks && ok; i++)
        ok = (sets[i] = loom__cpuset_dup(&t->cores[core[i % m]])) != NULL;
    free(dom);
    free(idx);
    free(core);
    if (ok)
        return 0;

out_nomem:
    loom__topo_seterr(err, errlen, "cannot place %d ranks: out of memory", nranks);
out_with_sets:
    for (int i = 0; i < nranks; i++) {
        loom__cpuset_free(sets[i]);
        sets[i] = NULL;
    }
    return -1;
}
