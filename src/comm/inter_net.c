/* comm/inter_net.c — intercommunicators in a job of several node processes.
 *
 * Inside one node process a pair of halves is built by one member and handed to the others
 * as a pointer (comm/inter.c). In a job of several node processes the groups and context ids
 * travel as messages instead, and each member attaches to its node process's copy of the pair
 * (comm/attach.c), whether or not this particular pair spans node processes (every member
 * knows the job's shape, so all of them take the same path).
 *
 * MPI_Intercomm_create: the leaders trade their groups' world ranks over the peer
 * communicator (the user's context and tag, as the standard says): the leader with the lower
 * world rank receives the other's list first, makes the pair's three context ids and sends its
 * own list and the ids back. Each leader then broadcasts to its local group, on the local
 * communicator, a header (its error, which side its group is, the ids, the other group's size)
 * and the other group's list.
 *
 * Split (and dup, create_sub, which are splits): every member of both groups contributes its
 * colour, key and three fresh ids through an allgather on the union's hidden communicator;
 * each member computes its colour's two groups (each side's members ordered by key, then by
 * rank in the union) and takes the ids of the colour's first member in the union. */
#include <stdlib.h>
#include "coll/coll.h"
#include "comm/comm.h"
#include "core/error.h"
#include "core/rank.h"
#include "net/net.h"

/* What a local leader broadcasts to its group. */
struct header {
    int err;         /* the leader's arguments were wrong, or the pair could not be agreed */
    int side;        /* 0: this group comes first in the union */
    int other_n;     /* the other group's size */
    uint64_t ids[3];
};

static void ids_new(uint64_t ids[3])
{
    for (int i = 0; i < 3; i++)
        ids[i] = loom__comm_context_id_new();
}

/* The leaders' part: fills h and *other (the other group's world ranks, malloc'd). */
static void leaders_meet(struct loom_comm *local, struct loom_comm *peer, int remote_leader,
                         int tag, struct header *h, int **other)
{
    const struct loom_group *mine = local->sh->group;
    int first = loom__self->world_rank < peer->sh->peer_world[remote_leader];
    h->side = first ? 0 : 1;
    int rc = 0;
    if (first) {
        loom__inter_leader_recv(peer, remote_leader, tag, &h->other_n, sizeof h->other_n);
        *other = malloc((size_t)(h->other_n > 0 ? h->other_n : 1) * sizeof **other);
        if (!*other) /* the other leader waits for an answer */
            loom__net_abort(1, "out of memory making an intercommunicator");
        loom__inter_leader_recv(peer, remote_leader, tag, *other,
                                (size_t)h->other_n * sizeof **other);
        ids_new(h->ids);
        if ((rc = loom__inter_leader_send(peer, remote_leader, tag, &mine->size,
                                          sizeof mine->size)) == 0 &&
            (rc = loom__inter_leader_send(peer, remote_leader, tag, mine->world,
                                          (size_t)mine->size * sizeof *mine->world)) == 0)
            rc = loom__inter_leader_send(peer, remote_leader, tag, h->ids, sizeof h->ids);
    } else {
        if ((rc = loom__inter_leader_send(peer, remote_leader, tag, &mine->size,
                                          sizeof mine->size)) == 0)
            rc = loom__inter_leader_send(peer, remote_leader, tag, mine->world,
                                         (size_t)mine->size * sizeof *mine->world);
        if (rc == 0) {
            loom__inter_leader_recv(peer, remote_leader, tag, &h->other_n, sizeof h->other_n);
            *other = malloc((size_t)(h->other_n > 0 ? h->other_n : 1) * sizeof **other);
            if (!*other)
                loom__net_abort(1, "out of memory making an intercommunicator");
            loom__inter_leader_recv(peer, remote_leader, tag, *other,
                                    (size_t)h->other_n * sizeof **other);
            loom__inter_leader_recv(peer, remote_leader, tag, h->ids, sizeof h->ids);
        }
    }
    if (rc != 0) /* a synchronous send does not fail for want of memory */
        loom__net_abort(1, "the leaders of an intercommunicator could not meet");
}

static void bcast(struct loom_comm *c, int root, void *buf, size_t bytes)
{
    struct loom_coll_args a = {.rbuf = buf, .rcount = bytes, .rtype = MPI_BYTE, .root = root};
    if (loom__coll_run_internal(LOOM_COLL_BCAST, c, &a) != 0)
        loom__net_abort(1, "an intercommunicator's creation failed between node processes");
}

/* The calling rank's handle on the pair of groups g_side0, g_side1 with ids, on side `side`
 * with rank `rank` there. */
static int attach(const uint64_t ids[3], struct loom_group *g0, struct loom_group *g1, int side,
                  int rank, struct loom_comm *parent, struct loom_comm **out)
{
    struct loom_inter_pair pair;
    int rc = loom__inter_pair_attach(ids, g0, g1, &pair);
    if (rc != 0)
        return rc;
    return loom__inter_handle_new(&pair, side, rank, parent, out);
}

int loom__intercomm_create_net(struct loom_comm *local, int local_leader, struct loom_comm *peer,
                               int remote_leader, int tag, int leader_err,
                               struct loom_comm **out)
{
    struct header h = {0};
    int *other = NULL;
    *out = NULL;
    if (local->rank == local_leader && leader_err != 0)
        h.err = leader_err; /* the leader's own arguments are wrong: tell the group */
    else if (local->rank == local_leader)
        leaders_meet(local, peer, remote_leader, tag, &h, &other);
    bcast(local, local_leader, &h, sizeof h);
    if (h.err != 0)
        return h.err;
    if (local->rank != local_leader &&
        !(other = malloc((size_t)(h.other_n > 0 ? h.other_n : 1) * sizeof *other)))
        loom__net_abort(1, "out of memory making an intercommunicator");
    bcast(local, local_leader, other, (size_t)h.other_n * sizeof *other);
    struct loom_group *g = loom__group_new(h.other_n);
    int rc = LOOM_ERR_NOMEM;
    if (g) {
        for (int i = 0; i < h.other_n; i++)
            g->world[i] = other[i];
        struct loom_group *mine = local->sh->group;
        rc = h.side == 0 ? attach(h.ids, mine, g, 0, local->rank, local, out)
                         : attach(h.ids, g, mine, 1, local->rank, local, out);
        loom__group_release(g);
    }
    free(other);
    return rc;
}

/* ---- split over the union ------------------------------------------------------------ */

struct contrib {
    int color, key;
    uint64_t ids[3];
};

/* The members of union ranks [lo, hi) of colour `color`, by key then union rank, as a group;
 * the caller's rank in it into *me when it is there. NULL on ENOMEM. */
static struct loom_group *side_group(const struct loom_comm *all, const struct contrib *c,
                                     int lo, int hi, int color, int *me)
{
    struct loom_member *m = malloc((size_t)(hi - lo > 0 ? hi - lo : 1) * sizeof *m);
    if (!m)
        return NULL;
    int n = 0;
    for (int i = lo; i < hi; i++)
        if (c[i].color == color)
            m[n++] = (struct loom_member){c[i].key, i};
    qsort(m, (size_t)n, sizeof *m, loom__comm_member_cmp);
    struct loom_group *g = loom__group_new(n);
    for (int i = 0; g && i < n; i++) {
        g->world[i] = all->sh->world_of[m[i].rank];
        if (m[i].rank == all->rank)
            *me = i;
    }
    free(m);
    return g;
}

int loom__intercomm_split_net(struct loom_comm *c, int color, int key, struct loom_comm **out)
{
    struct loom_comm *all = c->all;
    int size = all->sh->size;
    int first_size = c->sh->inter_first ? c->sh->size : c->sh->peer_size;
    int side = c->sh->inter_first ? 0 : 1;
    struct contrib mine = {color, key, {0}};
    ids_new(mine.ids);
    struct contrib *every = malloc((size_t)size * sizeof *every);
    if (!every) /* the others would wait for this member's part */
        loom__net_abort(1, "out of memory splitting an intercommunicator");
    struct loom_coll_args a = {.sbuf = &mine, .scount = sizeof mine, .stype = MPI_BYTE,
                               .rbuf = every, .rcount = sizeof mine, .rtype = MPI_BYTE};
    if (loom__coll_run_internal(LOOM_COLL_ALLGATHER, all, &a) != 0)
        loom__net_abort(1, "an intercommunicator's split failed between node processes");
    *out = NULL;
    int rc = 0, me = -1;
    struct loom_group *g0 = NULL, *g1 = NULL;
    if (color == MPI_UNDEFINED)
        goto out;
    int builder = 0;
    while (every[builder].color != color)
        builder++;
    g0 = side_group(all, every, 0, first_size, color, &me);
    g1 = side_group(all, every, first_size, size, color, &me);
    if (!g0 || !g1)
        rc = LOOM_ERR_NOMEM;
    /* a colour with no member on one side gives MPI_COMM_NULL on the other */
    else if (g0->size > 0 && g1->size > 0)
        rc = attach(every[builder].ids, g0, g1, side, me, c, out);
out:
    if (g0)
        loom__group_release(g0);
    if (g1)
        loom__group_release(g1);
    free(every);
    return rc;
}
