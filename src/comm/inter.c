/* comm/inter.c — intercommunicators: the pair of halves, MPI_Intercomm_create, and the
 * constructors that take an intercommunicator (dup, split, create, merge).
 *
 * An intercommunicator is two shared halves, one per group, made together (struct
 * loom_inter_pair): each half is an ordinary intracommunicator half of its own group (so
 * MPI_Comm_size, MPI_Comm_rank, MPI_Comm_group, attributes and names are the local group's
 * without a branch), whose peer fields (peer_size, peer_world, peer_pt2pt) name the other
 * group: point-to-point addresses the remote group at no cost to intracommunicators
 * (comm.h). A user context's queues are indexed by the receiver's rank in its own group and a
 * message carries its sender's rank in the sender's group, which is what the receiver's
 * status must say; sender_world (p2p.h) maps that rank to the world rank whose ring of cells
 * to drain.
 *
 * Besides, every member holds a hidden handle on the union of both groups (the first group's
 * ranks, then the second's), an intracommunicator of its own context: the pair meets through
 * it (the constructors' exchange sessions, MPI_Intercomm_merge as a split of it, barriers).
 *
 * Every constructor follows comm/create.c's pattern: one member builds, publishes the pair in
 * its exchange slot, the others read it; errors travel the same way. No lock is taken. In a
 * job of several node processes MPI_Intercomm_create and the splits go through
 * comm/inter_net.c instead (ids and groups as messages, one copy of the pair per node
 * process). */
#include <stdlib.h>
#include <string.h>
#include "comm/comm.h"
#include "core/atomic.h"
#include "core/error.h"
#include "core/rank.h"
#include "net/net.h"
#include "p2p/p2p.h"

/* Free a half nobody holds yet (not linked to its other half). */
static void drop_unlinked(struct loom_comm_shared *sh)
{
    if (sh) {
        loom__store_relaxed(&sh->refs, 1); /* relaxed: nobody else has seen sh */
        loom__comm_shared_release(sh);
    }
}

/* The union of disjoint g0 and g1 (g0's ranks first) into *u; LOOM_ERR_ARG if they overlap. */
static int union_of(struct loom_group *g0, struct loom_group *g1, struct loom_group **u)
{
    int n = g0->size + g1->size;
    unsigned char *seen = calloc((size_t)loom__job.nranks, 1);
    *u = loom__group_new(n);
    int rc = seen && *u ? 0 : LOOM_ERR_NOMEM;
    for (int i = 0; rc == 0 && i < n; i++) {
        int w = i < g0->size ? g0->world[i] : g1->world[i - g0->size];
        if (seen[w])
            rc = LOOM_ERR_ARG; /* the groups must be disjoint */
        seen[w] = 1;
        (*u)->world[i] = w;
    }
    free(seen);
    if (rc != 0 && *u) {
        loom__group_release(*u);
        *u = NULL;
    }
    return rc;
}

int loom__inter_pair_make(struct loom_group *g0, struct loom_group *g1, const uint64_t ids[3],
                          int refs, struct loom_inter_pair *out)
{
    memset(out, 0, sizeof *out);
    struct loom_group *u;
    int rc = union_of(g0, g1, &u);
    if (rc != 0)
        return rc;
    int spans = loom__group_spans_nodes(u);
    if ((rc = loom__comm_shared_make_unregistered(g0, ids[0], refs, &out->side[0])) != 0 ||
        (rc = loom__comm_shared_make_unregistered(g1, ids[1], refs, &out->side[1])) != 0 ||
        (rc = loom__comm_shared_make(u, ids[2], refs, &out->all)) != 0) {
        drop_unlinked(out->side[0]);
        drop_unlinked(out->side[1]);
        memset(out, 0, sizeof *out);
        loom__group_release(u);
        return rc;
    }
    loom__group_release(u);
    for (int s = 0; s < 2; s++) {
        struct loom_comm_shared *me = out->side[s], *other = out->side[1 - s];
        me->remote = other;
        me->inter_first = s == 0;
        me->peer_size = other->size;
        me->peer_world = other->world_of;
        me->peer_pt2pt = other->pt2pt;
        me->pt2pt->sender_world = other->world_of; /* its messages come from the other group */
    }
    /* both halves are known to the network once linked, whether or not its own group spans
     * node processes: the other group's messages come to them */
    for (int s = 0; s < 2 && spans; s++)
        loom__comm_shared_register(out->side[s]);
    return 0;
}

int loom__inter_pair_new(struct loom_group *g0, struct loom_group *g1,
                         struct loom_inter_pair *out)
{
    /* the callers hand the pair over as a pointer, in this process's memory; over node
     * processes a pair is attached by id (comm/inter_net.c) */
    if (loom__group_spans_nodes(g0) || loom__group_spans_nodes(g1))
        loom__net_unsupported("this kind of intercommunicator");
    uint64_t ids[3] = {loom__comm_context_id_new(), loom__comm_context_id_new(),
                       loom__comm_context_id_new()};
    /* the first half counts both groups' handles (comm/shared.c), the union one per member */
    return loom__inter_pair_make(g0, g1, ids, g0->size + g1->size, out);
}

int loom__inter_handle_new(const struct loom_inter_pair *p, int side, int rank,
                           struct loom_comm *parent, struct loom_comm **out)
{
    int urank = side == 0 ? rank : p->side[0]->size + rank;
    struct loom_comm *c, *all;
    int rc = loom__comm_handle_new(p->side[side], rank, parent, &c);
    if (rc != 0) {
        loom__comm_shared_release(p->all); /* our reference on the union, never taken */
        return rc;
    }
    rc = loom__comm_handle_new(p->all, urank, NULL, &all);
    if (rc != 0) {
        loom__comm_handle_free(c);
        return rc;
    }
    c->all = all;
    *out = c;
    return 0;
}

/* ---- MPI_Intercomm_create ------------------------------------------------------------ */

/* A blocking message between the leaders on peer (its user context, with the user's tag, as
 * the standard says). Synchronous: the receiver copies straight from our buffer, and no eager
 * copy needs memory. 0 or a negative loom code. */
int loom__inter_leader_send(struct loom_comm *peer, int dest, int tag, const void *buf,
                            size_t n)
{
    struct loom_request r;
    loom__req_init_stack(&r, LOOM_REQ_SEND);
    r.comm = loom__comm_user_handle(peer);
    r.ctx = peer->sh->peer_pt2pt;
    r.me = peer->rank;
    r.buf = (void *)buf;
    r.count = n;
    r.type = MPI_BYTE;
    r.peer = dest;
    r.tag = tag;
    r.mode = LOOM_SEND_SYNC;
    int rc = loom__p2p_start_send(&r);
    if (rc == 0)
        loom__req_wait(&r);
    return rc;
}

void loom__inter_leader_recv(struct loom_comm *peer, int source, int tag, void *buf, size_t n)
{
    struct loom_request r;
    loom__req_init_stack(&r, LOOM_REQ_RECV);
    r.comm = loom__comm_user_handle(peer);
    r.ctx = peer->sh->pt2pt;
    r.me = peer->rank;
    r.buf = buf;
    r.count = n;
    r.type = MPI_BYTE;
    r.peer = source;
    r.tag = tag;
    loom__p2p_start_recv(&r);
    loom__req_wait(&r);
}

/* What a local leader publishes to its group. */
struct create_pub {
    struct loom_inter_pair pair;
    int side;
};

/* The leaders' part: the leader of the group whose leader has the lower world rank builds
 * the pair from both groups (the other leader sends it its group, which lives as long as that
 * leader waits for the answer) and sends it back. */
static void leaders_meet(struct loom_comm *local, struct loom_comm *peer, int remote_leader,
                         int tag, struct create_pub *pub)
{
    int first = loom__self->world_rank < peer->sh->peer_world[remote_leader];
    pub->side = first ? 0 : 1;
    if (first) {
        struct loom_group *theirs = NULL;
        loom__inter_leader_recv(peer, remote_leader, tag, &theirs, sizeof theirs);
        pub->pair.err = loom__inter_pair_new(local->sh->group, theirs, &pub->pair);
        int rc = loom__inter_leader_send(peer, remote_leader, tag, &pub->pair, sizeof pub->pair);
        if (rc != 0 && pub->pair.err == 0)
            pub->pair.err = rc; /* cannot happen for a synchronous send; leaks the pair */
        return;
    }
    struct loom_group *mine = local->sh->group;
    int rc = loom__inter_leader_send(peer, remote_leader, tag, &mine, sizeof mine);
    if (rc != 0) {
        memset(&pub->pair, 0, sizeof pub->pair);
        pub->pair.err = rc;
        return;
    }
    loom__inter_leader_recv(peer, remote_leader, tag, &pub->pair, sizeof pub->pair);
}

int loom__intercomm_create(struct loom_comm *local, int local_leader, struct loom_comm *peer,
                           int remote_leader, int tag, int leader_err, struct loom_comm **out)
{
    if (loom__job.nnodes > 1) /* the leaders cannot trade pointers */
        return loom__intercomm_create_net(local, local_leader, peer, remote_leader, tag,
                                          leader_err, out);
    struct create_pub mine;
    memset(&mine, 0, sizeof mine);
    if (local->rank == local_leader && leader_err != 0)
        mine.pair.err = leader_err; /* the leader's own arguments are wrong: tell the group */
    else if (local->rank == local_leader)
        leaders_meet(local, peer, remote_leader, tag, &mine);
    loom__comm_xbegin(local, &mine);
    struct create_pub got = *(const struct create_pub *)loom__comm_xslot(local, local_leader);
    loom__comm_xend(local);
    *out = NULL;
    if (got.pair.err != 0)
        return got.pair.err;
    return loom__inter_handle_new(&got.pair, got.side, local->rank, local, out);
}

/* ---- constructors over an intercommunicator ------------------------------------------ */

struct split_pub {
    int color, key;
    struct loom_inter_pair pair; /* written by the colour's builder between the first two
                                    rendezvous; the others read only color and key then */
};

static int before(int key_a, int rank_a, int key_b, int rank_b)
{
    return key_a < key_b || (key_a == key_b && rank_a < rank_b);
}

struct member {
    int key, urank;
};

static int member_cmp(const void *a, const void *b)
{
    const struct member *x = a, *y = b;
    return before(x->key, x->urank, y->key, y->urank) ? -1 : 1;
}

/* The new group of one side: the union ranks [lo, hi) of colour `color`, by key then union
 * rank. */
static struct loom_group *side_group(struct loom_comm *all, int lo, int hi, int color, int n)
{
    struct member *m = malloc((size_t)n * sizeof *m);
    struct loom_group *g = loom__group_new(n);
    if (m == NULL || g == NULL) {
        free(m);
        if (g)
            loom__group_release(g);
        return NULL;
    }
    int k = 0;
    for (int i = lo; i < hi; i++) {
        const struct split_pub *p = loom__comm_xslot(all, i);
        if (p->color == color)
            m[k++] = (struct member){p->key, i};
    }
    qsort(m, (size_t)n, sizeof *m, member_cmp);
    for (int i = 0; i < n; i++)
        g->world[i] = all->sh->world_of[m[i].urank];
    free(m);
    return g;
}

static int build_split(struct loom_comm *all, int first_size, int color, int n0, int n1,
                       struct loom_inter_pair *pair)
{
    struct loom_group *g0 = side_group(all, 0, first_size, color, n0);
    struct loom_group *g1 = side_group(all, first_size, all->sh->size, color, n1);
    int rc = g0 && g1 ? loom__inter_pair_new(g0, g1, pair) : LOOM_ERR_NOMEM;
    if (g0)
        loom__group_release(g0);
    if (g1)
        loom__group_release(g1);
    return rc;
}

int loom__intercomm_split(struct loom_comm *c, int color, int key, struct loom_comm **out)
{
    if (loom__job.nnodes > 1)
        return loom__intercomm_split_net(c, color, key, out);
    struct loom_comm *all = c->all;
    int first_size = c->sh->inter_first ? c->sh->size : c->sh->peer_size;
    int side = c->sh->inter_first ? 0 : 1;
    struct split_pub mine;
    memset(&mine, 0, sizeof mine);
    mine.color = color;
    mine.key = key;
    int n[2] = {0, 0}, newrank = 0, builder = -1;
    loom__comm_xbegin(all, &mine);
    if (color != MPI_UNDEFINED) {
        for (int i = 0; i < all->sh->size; i++) {
            const struct split_pub *p = loom__comm_xslot(all, i);
            if (p->color != color)
                continue;
            int s = i < first_size ? 0 : 1;
            n[s]++;
            if (s == side && before(p->key, i, key, all->rank))
                newrank++;
            if (builder < 0)
                builder = i;
        }
        if (builder == all->rank && n[0] > 0 && n[1] > 0)
            mine.pair.err = build_split(all, first_size, color, n[0], n[1], &mine.pair);
    }
    loom__comm_rendezvous(all);
    struct loom_inter_pair got = {{NULL, NULL}, NULL, 0};
    if (color != MPI_UNDEFINED)
        got = ((const struct split_pub *)loom__comm_xslot(all, builder))->pair;
    loom__comm_xend(all);
    *out = NULL;
    /* a colour with no member on one side gives MPI_COMM_NULL on the other */
    if (color == MPI_UNDEFINED || n[0] == 0 || n[1] == 0)
        return 0;
    if (got.err != 0)
        return got.err;
    return loom__inter_handle_new(&got, side, newrank, c, out);
}

int loom__intercomm_dup(struct loom_comm *c, MPI_Comm handle, struct loom_info *info,
                        int use_info, struct loom_comm **out)
{
    struct loom_comm *nc;
    int rc = loom__intercomm_split(c, 0, c->rank, &nc);
    if (rc != 0)
        return rc;
    if (use_info) {
        nc->info = info ? loom__info_dup(info) : NULL;
    } else {
        pthread_mutex_lock(&c->attr_lock);
        nc->info = c->info ? loom__info_dup(c->info) : NULL;
        pthread_mutex_unlock(&c->attr_lock);
    }
    rc = loom__attr_copy_all(c, handle, nc);
    if (rc != 0) {
        loom__comm_handle_free(nc);
        return rc;
    }
    *out = nc;
    return 0;
}

int loom__intercomm_create_sub(struct loom_comm *c, struct loom_group *g,
                               struct loom_comm **out)
{
    int me = loom__group_rank_of(g, loom__self->world_rank);
    return loom__intercomm_split(c, me == MPI_UNDEFINED ? MPI_UNDEFINED : 0, me, out);
}

int loom__intercomm_merge(struct loom_comm *c, int high, struct loom_comm **out)
{
    struct loom_comm *all = c->all;
    /* The group that passed high = false first; the union's order (first group first) when
     * both passed the same value (the standard leaves that choice to the implementation). */
    int key = high ? all->sh->size + all->rank : all->rank;
    struct loom_comm *nc;
    int rc = loom__comm_split(all, 0, key, &nc);
    if (rc != 0)
        return rc;
    /* the new communicator's error handler is the intercommunicator's, not the hidden
     * handle's */
    loom__errhandler_release(nc->errh);
    nc->errh = c->errh;
    loom__errhandler_retain(nc->errh);
    *out = nc;
    return 0;
}
