/* comm/create_net.c — MPI_Comm_dup, MPI_Comm_split and MPI_Comm_create over a parent whose
 * members run in several node processes.
 *
 * The rendezvous of comm/create.c shares pointers in one process's memory; here the members
 * are in several. So each member sends what the others need (its colour and key, and a
 * context id it made, unique in the job) through an allgather on the parent's collective
 * context — in the order of the parent's collectives, as every constructor is a collective
 * on it — and then computes its new communicator from everybody's contributions: the group,
 * its rank in it, and the context id, the one its new rank 0 made. Every member computes the
 * same. Last, it takes its node process's shared half of the new communicator (comm/attach.c).
 * Each member makes an id whether or not it ends up used: ids cost nothing.
 * Only the members of one new communicator need to agree, so only they read the ids. */
#include <stdlib.h>
#include "coll/coll.h"
#include "comm/comm.h"
#include "core/error.h"
#include "core/rank.h"
#include "net/net.h"

/* What each member sends. */
struct contrib {
    int color, key;
    uint64_t id;
};

/* Everybody's contributions into all[parent size]. 0 or a negative loom code. */
static int allgather(struct loom_comm *parent, const struct contrib *mine, struct contrib *all)
{
    struct loom_coll_args a = {.sbuf = mine, .scount = sizeof *mine, .stype = MPI_BYTE,
                               .rbuf = all, .rcount = sizeof *mine, .rtype = MPI_BYTE};
    return loom__coll_run_internal(LOOM_COLL_ALLGATHER, parent, &a);
}

int loom__comm_member_cmp(const void *a, const void *b)
{
    const struct loom_member *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The calling rank's handle (rank `me`) on this node process's half of the communicator of
 * group g whose context id is `id`. */
static int attach(struct loom_comm *parent, struct loom_group *g, int me, uint64_t id,
                  struct loom_comm **out)
{
    struct loom_comm_shared *sh;
    int rc = loom__comm_shared_attach(id, g, &sh);
    if (rc != 0)
        return rc;
    return loom__comm_handle_new(sh, me, parent, out);
}

/* Everybody's contributions, in an array the caller frees. Without memory for it this member
 * could not take part, and the others would wait for it: the job ends, saying why. */
static struct contrib *exchange(struct loom_comm *parent, int color, int key)
{
    struct contrib mine = {color, key, loom__comm_context_id_new()};
    struct contrib *all = malloc((size_t)parent->sh->size * sizeof *all);
    if (!all)
        loom__net_abort(1, "out of memory making a communicator across node processes");
    int rc = allgather(parent, &mine, all);
    if (rc != 0) {
        loom__log("making a communicator across node processes: its allgather failed (%d)",
                  rc);
        loom__net_abort(1, "a communicator's creation failed between node processes");
    }
    return all;
}

int loom__comm_split_net(struct loom_comm *parent, int color, int key, struct loom_comm **out)
{
    int size = parent->sh->size;
    struct contrib *all = exchange(parent, color, key);
    *out = NULL;
    if (color == MPI_UNDEFINED) {
        free(all);
        return 0;
    }
    int rc = LOOM_ERR_NOMEM, n = 0, me = -1;
    struct loom_member *m = malloc((size_t)size * sizeof *m);
    struct loom_group *g = NULL;
    if (!m)
        goto out;
    for (int i = 0; i < size; i++)
        if (all[i].color == color)
            m[n++] = (struct loom_member){all[i].key, i};
    qsort(m, (size_t)n, sizeof *m, loom__comm_member_cmp);
    if (!(g = loom__group_new(n)))
        goto out;
    for (int i = 0; i < n; i++) {
        g->world[i] = parent->sh->world_of[m[i].rank];
        if (m[i].rank == parent->rank)
            me = i;
    }
    rc = attach(parent, g, me, all[m[0].rank].id, out);
out:
    if (g)
        loom__group_release(g);
    free(m);
    free(all);
    return rc;
}

int loom__comm_create_net(struct loom_comm *parent, struct loom_group *g,
                          struct loom_comm **out)
{
    /* g: the same on its members; other members may give other groups, disjoint from it
     * (MPI 4.1 section 7.4.2), or one without them */
    int me = loom__group_rank_of(g, loom__self->world_rank);
    struct contrib *all = exchange(parent, 0, 0);
    *out = NULL;
    int rc = 0;
    if (me != MPI_UNDEFINED) {
        int root = loom__group_rank_of(parent->sh->group, g->world[0]); /* its rank 0 */
        rc = attach(parent, g, me, all[root].id, out);
    }
    free(all);
    return rc;
}
