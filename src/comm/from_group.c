/* comm/from_group.c — MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups:
 * communicators made from groups, with no parent communicator to meet through.
 *
 * loom has no sessions: a group is any group of the job's ranks. The members meet in a
 * job-wide registry of pending creations, keyed by the string tag and the group(s): the first
 * member to come makes the shared half (or the pair of halves) at once and files an entry;
 * each member takes its handle from the entry, and the last one removes it. Nobody waits for
 * the others: the shared half exists from the first arrival on, so a member that returns
 * early may already send to one that has not arrived (its message waits in the queues).
 * A member's k-th creation with a key joins the k-th entry with that key: an entry records
 * who has joined, and a member skips the entries it is already in (creations that follow each
 * other with the same tag stay apart; different tags are concurrent creations).
 *
 * Over ranks of several node processes the members cannot meet in memory: they agree on
 * the context ids by computing them alike (comm/from_group_net.c).
 *
 * Lock: `registry_lock` protects the list and every entry in it; shared halves are made under
 * it (a creation's cost, rare), no callback runs under it. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "comm/comm.h"
#include "core/error.h"
#include "core/rank.h"

struct pending {
    struct pending *next;
    char *tag;
    struct loom_group *g[2];        /* the groups (g[1] NULL for an intracommunicator);
                                       intercommunicator: g[0] is first in the union */
    int n;                          /* members in all */
    int joined;                     /* members that took their handle */
    unsigned char *in;              /* [n] 1 once member i (union order) has joined */
    struct loom_comm_shared *sh;    /* intracommunicator */
    struct loom_inter_pair pair;    /* intercommunicator */
    int err;                        /* the first member could not make the halves */
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pending *registry; /* oldest first */

/* The entry the calling rank (member `me` in union order) joins for this key, made if there
 * is none. Lock held. NULL on ENOMEM. */
static struct pending *find_or_add(const char *tag, struct loom_group *g0,
                                   struct loom_group *g1, int me)
{
    struct pending **pp = &registry, *p;
    for (; (p = *pp) != NULL; pp = &p->next)
        if (!p->in[me] && strcmp(p->tag, tag) == 0 && loom__group_same(p->g[0], g0) &&
            loom__group_same(p->g[1], g1))
            return p;
    int n = g0->size + (g1 ? g1->size : 0);
    p = calloc(1, sizeof *p);
    if (p == NULL || (p->tag = strdup(tag)) == NULL ||
        (p->in = calloc((size_t)n, 1)) == NULL) {
        if (p)
            free(p->tag);
        free(p);
        return NULL;
    }
    p->n = n;
    p->g[0] = g0;
    p->g[1] = g1;
    loom__group_retain(g0);
    if (g1)
        loom__group_retain(g1);
    p->err = g1 ? loom__inter_pair_new(g0, g1, &p->pair) : loom__comm_shared_new(g0, &p->sh);
    *pp = p;
    return p;
}

static void drop(struct pending *p)
{
    struct pending **pp = &registry;
    while (*pp != p)
        pp = &(*pp)->next;
    *pp = p->next;
    loom__group_release(p->g[0]);
    if (p->g[1])
        loom__group_release(p->g[1]);
    free(p->in);
    free(p->tag);
    free(p);
}

/* Join the calling rank's entry as member `me`; copies out what it needs. 0, or the
 * creation's error (every member gets it). */
static int join(const char *tag, struct loom_group *g0, struct loom_group *g1, int me,
                struct loom_comm_shared **sh, struct loom_inter_pair *pair)
{
    pthread_mutex_lock(&registry_lock);
    struct pending *p = find_or_add(tag, g0, g1, me);
    if (p == NULL) {
        pthread_mutex_unlock(&registry_lock);
        return LOOM_ERR_NOMEM;
    }
    p->in[me] = 1;
    int err = p->err;
    *sh = p->sh;
    *pair = p->pair;
    if (++p->joined == p->n)
        drop(p);
    pthread_mutex_unlock(&registry_lock);
    return err;
}

/* The new handle takes the caller's error handler and info. */
static void finish(struct loom_comm *c, struct loom_errhandler *errh, struct loom_info *info)
{
    loom__errhandler_release(c->errh);
    c->errh = errh;
    loom__errhandler_retain(errh);
    c->info = info ? loom__info_dup(info) : NULL;
}

int loom__comm_create_from_group(struct loom_group *g, const char *tag, struct loom_info *info,
                                 struct loom_errhandler *errh, struct loom_comm **out)
{
    int me = loom__group_rank_of(g, loom__self->world_rank);
    struct loom_comm_shared *sh;
    struct loom_inter_pair unused;
    int rc = loom__group_spans_nodes(g) ? loom__from_group_attach(tag, g, NULL, me, &sh, NULL)
                                        : join(tag, g, NULL, me, &sh, &unused);
    if (rc != 0)
        return rc;
    rc = loom__comm_handle_new(sh, me, NULL, out);
    if (rc == 0)
        finish(*out, errh, info);
    return rc;
}

int loom__intercomm_create_from_groups(struct loom_group *local, int local_leader,
                                       struct loom_group *remote, int remote_leader,
                                       const char *tag, struct loom_info *info,
                                       struct loom_errhandler *errh, struct loom_comm **out)
{
    /* the group of the leader with the lower world rank comes first in the union */
    int first = local->world[local_leader] < remote->world[remote_leader];
    struct loom_group *g0 = first ? local : remote, *g1 = first ? remote : local;
    int rank = loom__group_rank_of(local, loom__self->world_rank);
    int side = first ? 0 : 1;
    struct loom_comm_shared *unused;
    struct loom_inter_pair pair;
    int me = side == 0 ? rank : g0->size + rank;
    int rc = loom__group_spans_nodes(g0) || loom__group_spans_nodes(g1)
                 ? loom__from_group_attach(tag, g0, g1, me, NULL, &pair)
                 : join(tag, g0, g1, me, &unused, &pair);
    if (rc != 0)
        return rc;
    rc = loom__inter_handle_new(&pair, side, rank, NULL, out);
    if (rc == 0)
        finish(*out, errh, info);
    return rc;
}
