/* comm/create_group_net.c — MPI_Comm_create_group for a group whose members run in several
 * node processes.
 *
 * Only the group's members take part, so nothing collective over the parent may be used.
 * The group's rank 0 makes a context id (unique in the job, comm/shared.c) and sends it to
 * each other member, point to point on the parent's hidden collective context; then every
 * member attaches to its node process's half of the new communicator (comm/attach.c). The
 * message's tag is the user's tag moved below MPI_ANY_TAG: the collective context's own
 * messages have tags >= 0, and two concurrent calls on one parent differ by their tag (MPI
 * 4.1 section 7.4.2), so each member receives its own call's id. */
#include <limits.h>
#include "comm/comm.h"
#include "core/error.h"
#include "core/rank.h"
#include "net/net.h"
#include "p2p/p2p.h"
#include "p2p/request.h"

/* One blocking message of the id on the parent's collective context. */
static int move_id(struct loom_comm *parent, int send, int peer, int tag, uint64_t *id)
{
    struct loom_request r;
    loom__req_init_stack(&r, send ? LOOM_REQ_SEND : LOOM_REQ_RECV);
    r.comm = loom__comm_user_handle(parent);
    r.ctx = parent->sh->coll;
    r.me = parent->rank;
    r.buf = id;
    r.count = sizeof *id;
    r.type = MPI_BYTE;
    r.peer = peer;
    r.tag = tag;
    int rc = send ? loom__p2p_start_send(&r) : loom__p2p_start_recv(&r);
    if (rc == 0)
        loom__req_wait(&r);
    return rc;
}

int loom__comm_create_group_net(struct loom_comm *parent, struct loom_group *g, int tag,
                                int me, struct loom_comm **out)
{
    int itag = -2 - (int)((unsigned)tag % (unsigned)(INT_MAX - 1)); /* below MPI_ANY_TAG */
    uint64_t id = 0;
    int rc = 0;
    const struct loom_group *pg = parent->sh->group; /* parent ranks of g's members */
    if (me == 0) {
        id = loom__comm_context_id_new();
        for (int i = 1; i < g->size && rc == 0; i++)
            rc = move_id(parent, 1, loom__group_rank_of(pg, g->world[i]), itag, &id);
    } else {
        rc = move_id(parent, 0, loom__group_rank_of(pg, g->world[0]), itag, &id);
    }
    if (rc != 0) /* the other members would wait for this one */
        loom__net_abort(1, "a communicator's creation failed between node processes");
    struct loom_comm_shared *sh;
    if ((rc = loom__comm_shared_attach(id, g, &sh)) != 0)
        return rc;
    return loom__comm_handle_new(sh, me, parent, out);
}
