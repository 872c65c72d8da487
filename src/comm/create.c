/* comm/create.c — MPI_Comm_dup, MPI_Comm_split and MPI_Comm_create: communicators made
 * collectively over a parent.
 *
 * One pattern for all three: members publish what the others need through an exchange
 * session on the parent (comm/rendezvous.c); the lowest rank of each new group builds the
 * shared half (with one reference per member) and publishes the pointer in its own slot; the
 * other members read it and make their handles. Errors (ENOMEM in the leader) travel the same
 * way, so every member of a new group returns the same result, and every rank of the parent
 * goes through every rendezvous whatever happens. No lock is taken. A parent whose members
 * run in several node processes goes through comm/create_net.c instead. */
#include <stdlib.h>
#include "comm/comm.h"
#include "comm/vtopo.h"
#include "core/error.h"
#include "core/rank.h"

/* What a leader publishes: the shared half, or the reason it could not make one. */
struct pub {
    struct loom_comm_shared *sh;
    int err;
};

static struct loom_info *info_of(struct loom_comm *c)
{
    pthread_mutex_lock(&c->attr_lock);
    struct loom_info *i = c->info ? loom__info_dup(c->info) : NULL;
    pthread_mutex_unlock(&c->attr_lock);
    return i;
}

/* The calling rank's handle on a new communicator of the parent's group, same ranks. */
static int dup_handle(struct loom_comm *parent, struct loom_comm **out)
{
    if (parent->sh->spans_nodes) /* one colour, the parent's order */
        return loom__comm_split_net(parent, 0, parent->rank, out);
    struct pub mine = {NULL, 0};
    if (parent->rank == 0)
        mine.err = loom__comm_shared_new(parent->sh->group, &mine.sh);
    loom__comm_xbegin(parent, &mine);
    struct pub leader = *(const struct pub *)loom__comm_xslot(parent, 0);
    loom__comm_xend(parent);
    if (leader.err != 0)
        return leader.err;
    return loom__comm_handle_new(leader.sh, parent->rank, parent, out);
}

int loom__comm_dup(struct loom_comm *parent, MPI_Comm parent_handle, struct loom_info *info,
                   int use_info, struct loom_comm **out)
{
    struct loom_comm *c;
    int rc = dup_handle(parent, &c);
    if (rc != 0)
        return rc;
    if (parent->topo) { /* a dup keeps the topology (MPI 4.1 §7.4.2) */
        loom__vtopo_retain(parent->topo);
        c->topo = parent->topo;
    }
    struct loom_info *src = use_info ? info : NULL;
    c->info = src ? loom__info_dup(src) : use_info ? NULL : info_of(parent);
    rc = loom__attr_copy_all(parent, parent_handle, c);
    if (rc != 0) {
        loom__comm_handle_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

/* ---- split ---------------------------------------------------------------------------- */

struct split_pub {
    int color, key;
    struct pub pub; /* written by the leader of the colour between the first two rendezvous */
};

/* Order of the new ranks: by key, then by parent rank. */
struct member {
    int key, prank;
};

static int before(int key_a, int rank_a, int key_b, int rank_b)
{
    return key_a < key_b || (key_a == key_b && rank_a < rank_b);
}

static int member_cmp(const void *a, const void *b)
{
    const struct member *x = a, *y = b;
    return before(x->key, x->prank, y->key, y->prank) ? -1 : 1;
}

/* The leader of `color` builds the new group and its shared half. */
static int build_split(struct loom_comm *parent, int color, int n, struct loom_comm_shared **sh)
{
    struct member *m = malloc((size_t)n * sizeof *m);
    struct loom_group *g = loom__group_new(n);
    int rc = LOOM_ERR_NOMEM;
    if (m == NULL || g == NULL)
        goto out;
    int k = 0;
    for (int i = 0; i < parent->sh->size; i++) {
        const struct split_pub *p = loom__comm_xslot(parent, i);
        if (p->color == color)
            m[k++] = (struct member){p->key, i};
    }
    qsort(m, (size_t)n, sizeof *m, member_cmp);
    for (int i = 0; i < n; i++)
        g->world[i] = parent->sh->world_of[m[i].prank];
    rc = loom__comm_shared_new(g, sh);
out:
    free(m);
    if (g)
        loom__group_release(g);
    return rc;
}

int loom__comm_split(struct loom_comm *parent, int color, int key, struct loom_comm **out)
{
    if (parent->sh->spans_nodes)
        return loom__comm_split_net(parent, color, key, out);
    struct split_pub mine = {color, key, {NULL, 0}};
    int n = 0, newrank = 0, leader = -1;
    loom__comm_xbegin(parent, &mine);
    if (color != MPI_UNDEFINED) {
        int lkey = 0;
        for (int i = 0; i < parent->sh->size; i++) {
            const struct split_pub *p = loom__comm_xslot(parent, i);
            if (p->color != color)
                continue;
            n++;
            if (before(p->key, i, key, parent->rank))
                newrank++;
            if (leader < 0 || before(p->key, i, lkey, leader)) {
                leader = i;
                lkey = p->key;
            }
        }
        if (newrank == 0) /* only mine.pub changes: the others read color and key */
            mine.pub.err = build_split(parent, color, n, &mine.pub.sh);
    }
    loom__comm_rendezvous(parent);
    struct pub got = {NULL, 0};
    if (color != MPI_UNDEFINED)
        got = ((const struct split_pub *)loom__comm_xslot(parent, leader))->pub;
    loom__comm_xend(parent);
    *out = NULL;
    if (color == MPI_UNDEFINED)
        return 0;
    if (got.err != 0)
        return got.err;
    return loom__comm_handle_new(got.sh, newrank, parent, out);
}

/* ---- create ---------------------------------------------------------------------------- */

int loom__comm_create(struct loom_comm *parent, struct loom_group *g, struct loom_comm **out)
{
    if (parent->sh->spans_nodes)
        return loom__comm_create_net(parent, g, out);
    int me = loom__group_rank_of(g, loom__self->world_rank);
    int leader = -1; /* parent rank of g's rank 0 */
    if (me != MPI_UNDEFINED && me > 0)
        for (int i = 0; i < parent->sh->size && leader < 0; i++)
            if (parent->sh->world_of[i] == g->world[0])
                leader = i;
    struct pub mine = {NULL, 0};
    if (me == 0)
        mine.err = loom__comm_shared_new(g, &mine.sh);
    loom__comm_xbegin(parent, &mine);
    struct pub got = mine;
    if (me != MPI_UNDEFINED && me > 0)
        got = *(const struct pub *)loom__comm_xslot(parent, leader);
    loom__comm_xend(parent);
    *out = NULL;
    if (me == MPI_UNDEFINED)
        return 0;
    if (got.err != 0)
        return got.err;
    return loom__comm_handle_new(got.sh, me, parent, out);
}
