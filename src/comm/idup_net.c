/* comm/idup_net.c — MPI_Comm_idup of an intracommunicator whose members run in several node
 * processes, and of any intercommunicator in a job of several node processes.
 *
 * Inside one node process the root hands every member a pointer to the shared half it made
 * (comm/idup.c). Across node processes there is no such pointer: the root makes a context id
 * (comm/shared.c) and sends it to every member, and a last local step of each member's
 * schedule attaches to its node process's half by that id (comm/attach.c) and stores it in
 * the member's new handle. That step runs on whichever thread advances the schedule (the
 * attach is thread-safe and runs no user code); the owner reads the handle's shared half only
 * after the request's completion, which orders it after the store. The groups are the
 * parent's, alive while the schedule holds its reference on the parent's shared half. An
 * intercommunicator's schedule runs over its union, whose rank 0 makes the pair's three ids;
 * each member attaches to the pair (comm/inter_net.c) and fills both its handles. */
#include "coll/sched.h"
#include "comm/comm.h"
#include "core/error.h"
#include "net/net.h"

struct idup_net {
    uint64_t ids[3];           /* made by the root, received by the others (one for an
                                  intracommunicator, the pair's three for an intercommunicator) */
    struct loom_group *g0, *g1; /* the parent's group; an intercommunicator's two, first one
                                   first (g1 NULL for an intracommunicator) */
    int side;                  /* the member's group in an intercommunicator */
    struct loom_comm *nc, *all; /* the member's new handle, and its union's (or NULL) */
};

static void attach_step(void *arg)
{
    struct idup_net *x = arg;
    int rc;
    if (x->g1 == NULL) {
        struct loom_comm_shared *sh;
        if ((rc = loom__comm_shared_attach(x->ids[0], x->g0, &sh)) == 0)
            x->nc->sh = sh;
    } else {
        struct loom_inter_pair pair;
        if ((rc = loom__inter_pair_attach(x->ids, x->g0, x->g1, &pair)) == 0) {
            x->nc->sh = pair.side[x->side];
            x->all->sh = pair.all;
        }
    }
    if (rc != 0) /* nobody could be told */
        loom__net_abort(1, "out of memory making a communicator across node processes");
}

int loom__comm_idup_net(struct loom_comm *parent, struct loom_comm *over, MPI_Comm h,
                        struct loom_comm *nc, MPI_Request *req)
{
    struct loom_sched *s = loom__sched_new(over, h);
    if (!s)
        return LOOM_ERR_NOMEM;
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    struct idup_net *x = loom__sched_bytes(s, sizeof *x);
    if (!s->nomem) {
        *x = (struct idup_net){.g0 = parent->sh->group, .nc = nc, .all = nc->all};
        if (loom__comm_is_inter(parent)) {
            struct loom_comm_shared *first =
                parent->sh->inter_first ? parent->sh : parent->sh->remote;
            x->g0 = first->group;
            x->g1 = first->remote->group;
            x->side = parent->sh->inter_first ? 0 : 1;
        }
        if (s->me == 0) {
            for (int i = 0; i < 3; i++)
                x->ids[i] = loom__comm_context_id_new();
            for (int r = 1; r < s->size; r++)
                loom__sched_send(s, x->ids, sizeof x->ids, MPI_BYTE, r);
        } else {
            loom__sched_recv(s, x->ids, sizeof x->ids, MPI_BYTE, 0);
        }
        loom__sched_round(s, LOOM_ROUND_NONE, 0);
        loom__sched_call(s, attach_step, x);
    }
    return loom__sched_start(s, req);
}
