/* comm/split_hw.c — the colours of MPI_COMM_TYPE_HW_UNGUIDED (the 2018 paper's Algorithm 1)
 * and MPI_COMM_TYPE_HW_GUIDED (MPI-4), and the info keys recorded on what they create.
 *
 * Why every rank computes every member's colour: the number of communicators a split makes
 * and the index of each (MPIX_Comm_get_hlevel_info) need all the colours, and every input is
 * already visible to every rank (the parent's members, their CPU sets, the topology), so no
 * exchange is needed and all members agree by construction. Cost per rank: O(objects) to
 * build the levels plus O(members x children) inclusion tests.
 *
 * Binding rules (Section 3.2.4): a member whose CPU set spans several children of the level
 * being split (a rank bound to an L2 when the split is into cores, an unbound rank under
 * LOOM_BIND=none) is in none of them and gets MPI_COMM_NULL; so does everybody once the level
 * being split has no children. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "comm/split_hw.h"
#include "core/error.h"
#include "coll/coll.h"
#include "core/rank.h"
#include "net/net.h"
#include "topo/topo.h"

/* The CPU set of member r of c (the whole machine if a rank has none). */
static const struct loom_cpuset *binding(const struct loom_comm *c, int r)
{
    const struct loom_cpuset *s = loom__job.ranks[c->sh->world_of[r]].cpuset;
    return s ? s : loom__topo_machine_set(loom__job.topo);
}

static int by_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* From every member's colour (sorted in place): how many distinct defined colours there are,
 * and how many of them are below `mine` (its index; -1 when mine is undefined). */
static void count(int *colors, int n, int mine, int *ncomms, int *index)
{
    qsort(colors, (size_t)n, sizeof *colors, by_int);
    *ncomms = 0;
    *index = -1;
    for (int i = 0; i < n; i++) {
        if (colors[i] == MPI_UNDEFINED || (i > 0 && colors[i] == colors[i - 1]))
            continue;
        if (colors[i] == mine)
            *index = *ncomms;
        (*ncomms)++;
    }
}

static void plan_init(struct loom_hw_split *out)
{
    out->color = MPI_UNDEFINED;
    out->ncomms = 0;
    out->index = -1;
    out->type[0] = '\0';
    out->parent_type[0] = '\0';
}

/* Over node processes the first level is the network: its children are the node processes
 * (each one machine as far as its ranks can tell, sharing memory), and every member knows
 * every member's node process. */
static int network_plan(struct loom_comm *parent, struct loom_hw_split *out)
{
    int n = parent->sh->size;
    int *colors = malloc((size_t)n * sizeof *colors);
    if (!colors)
        return LOOM_ERR_NOMEM;
    for (int r = 0; r < n; r++)
        colors[r] = loom__node_of(parent->sh->world_of[r]);
    out->color = loom__job.node;
    snprintf(out->type, sizeof out->type, "%s", LOOM_HW_NODE_PROCESS);
    snprintf(out->parent_type, sizeof out->parent_type, "%s", LOOM_HW_NETWORK);
    count(colors, n, out->color, &out->ncomms, &out->index);
    free(colors);
    return 0;
}

int loom__split_hw_unguided_plan(struct loom_comm *parent, struct loom_hw_split *out)
{
    plan_init(out);
    if (parent->sh->spans_nodes)
        return network_plan(parent, out);
    int n = parent->sh->size, rc = LOOM_ERR_NOMEM;
    struct loom_hier *h = NULL;
    struct loom_cpuset *all = loom__cpuset_new();
    int *colors = malloc((size_t)n * sizeof *colors);
    if (!all || !colors || loom__topo_hier_new(loom__job.topo, &h) != 0)
        goto out;
    for (int r = 0; r < n; r++)
        loom__cpuset_or(all, binding(parent, r));
    /* The deepest level holding every member; its children are the candidates. When it has
     * none (every member on one PU), nobody gets a communicator. */
    int top = loom__topo_hier_find(h, all);
    if (top >= 0)
        snprintf(out->parent_type, sizeof out->parent_type, "%s", loom__topo_hier_type(h, top));
    for (int r = 0; r < n; r++) {
        int child = top >= 0 ? loom__topo_hier_child(h, top, binding(parent, r)) : -1;
        colors[r] = child >= 0 ? loom__topo_hier_pos(h, child) : MPI_UNDEFINED;
        if (r == parent->rank && child >= 0) {
            out->color = colors[r];
            snprintf(out->type, sizeof out->type, "%s", loom__topo_hier_type(h, child));
        }
    }
    count(colors, n, out->color, &out->ncomms, &out->index);
    rc = 0;
out:
    loom__topo_hier_free(h);
    loom__cpuset_free(all);
    free(colors);
    return rc;
}

int loom__split_hw_guided_value(struct loom_info *info, char value[MPI_MAX_INFO_VAL + 1],
                                char *why, size_t whylen)
{
    value[0] = '\0';
    if (!info || loom__info_get(info, LOOM_HW_KEY_TYPE, value, MPI_MAX_INFO_VAL + 1) < 0) {
        value[0] = '\0';
        return 0;
    }
    /* a name, alone or in MPI_Get_hw_resource_info's form "hwloc://<name>" */
    const char *name = value;
    if (strncasecmp(name, LOOM_HW_URI_PREFIX, strlen(LOOM_HW_URI_PREFIX)) == 0)
        name += strlen(LOOM_HW_URI_PREFIX);
    int ok = (name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z');
    for (const char *p = name; ok && *p; p++)
        ok = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
             *p == '_';
    if (!ok) {
        if (why && whylen)
            snprintf(why, whylen,
                     "info value \"%.64s\" of key " LOOM_HW_KEY_TYPE
                     " is not a resource type name (a letter, then letters, digits or '_')",
                     value);
        return LOOM_ERR_INFO;
    }
    return 0;
}

/* Every member's colour into colors[n], from each member's own (mine): over node processes
 * an allgather on the parent (other node processes' bindings are theirs to read). */
static int gather_colors(struct loom_comm *parent, int mine, int *colors)
{
    struct loom_coll_args a = {.sbuf = &mine, .scount = 1, .stype = MPI_INT, .rbuf = colors,
                               .rcount = 1, .rtype = MPI_INT};
    return loom__coll_run_internal(LOOM_COLL_ALLGATHER, parent, &a);
}

int loom__split_hw_guided_plan(struct loom_comm *parent, const char *value,
                               struct loom_hw_split *out)
{
    plan_init(out);
    int n = parent->sh->size, nodes = parent->sh->spans_nodes;
    int *colors = malloc((size_t)n * sizeof *colors);
    if (!colors && nodes) /* the others would wait for this member's colour */
        loom__net_abort(1, "out of memory splitting a communicator across node processes");
    if (!colors)
        return LOOM_ERR_NOMEM;
    int shared = strcmp(value, LOOM_HW_SHARED_MEMORY) == 0;
    const char *name = shared ? LOOM_HW_SHARED_MEMORY : loom__topo_resource_name(value);
    snprintf(out->type, sizeof out->type, "%s", name ? name : value);
    int rc = 0;
    if (nodes) {
        /* an object's position is per node process: with the node process, it names one
         * object of the job; the shared-memory domain is the node process */
        int id = shared ? 0
                 : name ? loom__topo_resource_of(loom__job.topo, name,
                                                 binding(parent, parent->rank))
                        : -1;
        out->color = id >= 0 ? id * loom__job.nnodes + loom__job.node : MPI_UNDEFINED;
        rc = gather_colors(parent, out->color, colors);
    } else {
        for (int r = 0; r < n; r++) {
            /* one node process: the shared-memory domain is the whole parent */
            int id = shared ? 0
                     : name ? loom__topo_resource_of(loom__job.topo, name, binding(parent, r))
                            : -1;
            colors[r] = id >= 0 ? id : MPI_UNDEFINED;
            if (r == parent->rank)
                out->color = colors[r];
        }
    }
    if (rc == 0)
        count(colors, n, out->color, &out->ncomms, &out->index);
    free(colors);
    return rc;
}

int loom__split_hw_unguided_color(struct loom_comm *parent, struct loom_info *info,
                                  struct loom_hw_split *plan)
{
    (void)info; /* no hint changes where an unguided split goes */
    return loom__split_hw_unguided_plan(parent, plan);
}

int loom__split_hw_guided_color(struct loom_comm *parent, struct loom_info *info,
                                struct loom_hw_split *plan)
{
    char value[MPI_MAX_INFO_VAL + 1];
    int rc = loom__split_hw_guided_value(info, value, NULL, 0);
    if (rc != 0)
        value[0] = '\0'; /* still take part in a collective plan: colour MPI_UNDEFINED */
    int prc = loom__split_hw_guided_plan(parent, value, plan);
    return rc != 0 ? rc : prc;
}

int loom__split_hw_record(struct loom_comm *nc, const char *type, int ncomms, int index)
{
    char num[16], idx[16];
    snprintf(num, sizeof num, "%d", ncomms);
    snprintf(idx, sizeof idx, "%d", index);
    int rc = 0;
    pthread_mutex_lock(&nc->attr_lock);
    if (!nc->info && !(nc->info = loom__info_new()))
        rc = LOOM_ERR_NOMEM;
    if (rc == 0 && (loom__info_set(nc->info, LOOM_HW_KEY_TYPE, type) != 0 ||
                    loom__info_set(nc->info, LOOM_HW_KEY_NUM, num) != 0 ||
                    loom__info_set(nc->info, LOOM_HW_KEY_INDEX, idx) != 0))
        rc = LOOM_ERR_NOMEM;
    pthread_mutex_unlock(&nc->attr_lock);
    return rc;
}
