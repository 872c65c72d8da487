/* api/inter.c — intercommunicators: MPI_Intercomm_create, MPI_Intercomm_merge,
 * MPI_Comm_remote_size, MPI_Comm_remote_group. The protocols are in comm/inter.c. */
#include "api/api.h"
#include "comm/comm.h"
#include "p2p/p2p.h"

/* The calling rank's handle, or NULL after reporting MPI_ERR_COMM through *rc. */
static struct loom_comm *get_comm(MPI_Comm comm, const char *fn, int *rc)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL)
        *rc = loom__api_error(comm, fn, MPI_ERR_COMM, "%s", loom__comm_invalid_reason(comm));
    return c;
}

/* The handle of an intercommunicator, or NULL after reporting MPI_ERR_COMM. */
static struct loom_comm *get_inter(MPI_Comm comm, const char *fn, int *rc)
{
    struct loom_comm *c = get_comm(comm, fn, rc);
    if (c != NULL && !loom__comm_is_inter(c)) {
        *rc = loom__api_error(comm, fn, MPI_ERR_COMM, "not an intercommunicator");
        return NULL;
    }
    return c;
}

/* The local leader's checks of peer_comm and remote_leader: 0, or a negative loom code
 * after reporting the error. */
static int check_leader(MPI_Comm comm, const char *fn, struct loom_comm *local,
                        MPI_Comm peer_comm, int remote_leader, struct loom_comm **peer)
{
    struct loom_comm *p = loom__comm_resolve(peer_comm);
    if (p == NULL) {
        loom__api_error(comm, fn, MPI_ERR_COMM, "peer_comm: %s",
                        loom__comm_invalid_reason(peer_comm));
        return LOOM_ERR_COMM;
    }
    if (remote_leader < 0 || remote_leader >= p->sh->peer_size) {
        loom__api_error(comm, fn, MPI_ERR_RANK,
                        "remote_leader %d out of range (peer_comm %s size %d)", remote_leader,
                        loom__comm_is_inter(p) ? "remote group" : "communicator",
                        p->sh->peer_size);
        return LOOM_ERR_RANK;
    }
    if (p->sh->peer_world[remote_leader] == loom__self->world_rank) {
        loom__api_error(comm, fn, MPI_ERR_RANK,
                        "remote_leader %d of peer_comm is the calling rank (the local leader)",
                        remote_leader);
        return LOOM_ERR_RANK;
    }
    /* it would wait in our own group's rendezvous, never answering */
    if (loom__group_rank_of(local->sh->group, p->sh->peer_world[remote_leader]) !=
        MPI_UNDEFINED) {
        loom__api_error(comm, fn, MPI_ERR_RANK,
                        "remote_leader %d of peer_comm is a member of local_comm", remote_leader);
        return LOOM_ERR_RANK;
    }
    *peer = p;
    return 0;
}

int loom__mpi_intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                               int remote_leader, int tag, MPI_Comm *newintercomm)
{
    LOOM_API_ENTER("MPI_Intercomm_create");
    const char *fn = "MPI_Intercomm_create";
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(local_comm, fn, &rc);
    if (c == NULL)
        return rc;
    if (loom__comm_is_inter(c))
        return loom__api_error(local_comm, fn, MPI_ERR_COMM,
                               "local_comm is an intercommunicator");
    if (newintercomm == NULL)
        return loom__api_error(local_comm, fn, MPI_ERR_ARG, "newintercomm is NULL");
    if (local_leader < 0 || local_leader >= c->sh->size)
        return loom__api_error(local_comm, fn, MPI_ERR_RANK,
                               "local_leader %d out of range (communicator size %d)",
                               local_leader, c->sh->size);
    if (tag < 0 || tag > LOOM_TAG_UB)
        return loom__api_error(local_comm, fn, MPI_ERR_TAG, "tag %d out of range 0..%d", tag,
                               LOOM_TAG_UB);
    /* A leader's own mistake is reported at once, and then to its group through the
     * creation's rendezvous (so that the group does not wait for it forever). */
    struct loom_comm *peer = NULL;
    int leader_err = 0;
    if (c->rank == local_leader)
        leader_err = check_leader(local_comm, fn, c, peer_comm, remote_leader, &peer);
    struct loom_comm *nc;
    rc = loom__intercomm_create(c, local_leader, peer, remote_leader, tag, leader_err, &nc);
    *newintercomm = MPI_COMM_NULL;
    if (rc == 0) {
        *newintercomm = nc;
        return MPI_SUCCESS;
    }
    if (leader_err != 0) /* reported above */
        return loom__error_class(leader_err);
    if (rc == LOOM_ERR_ARG)
        return loom__api_error(local_comm, fn, MPI_ERR_ARG,
                               "the local and remote groups overlap");
    if (rc == LOOM_ERR_COMM || rc == LOOM_ERR_RANK)
        return loom__api_error(local_comm, fn, loom__error_class(rc),
                               "the local leader (rank %d) was given a bad %s", local_leader,
                               rc == LOOM_ERR_COMM ? "peer_comm" : "remote_leader");
    return loom__api_error_code(local_comm, fn, rc);
}

int loom__mpi_intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    LOOM_API_ENTER("MPI_Intercomm_merge");
    const char *fn = "MPI_Intercomm_merge";
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_inter(intercomm, fn, &rc);
    if (c == NULL)
        return rc;
    if (newintracomm == NULL)
        return loom__api_error(intercomm, fn, MPI_ERR_ARG, "newintracomm is NULL");
    struct loom_comm *nc;
    rc = loom__intercomm_merge(c, high != 0, &nc);
    if (rc != 0) {
        *newintracomm = MPI_COMM_NULL;
        return loom__api_error_code(intercomm, fn, rc);
    }
    *newintracomm = nc;
    return MPI_SUCCESS;
}

int loom__mpi_comm_remote_size(MPI_Comm comm, int *size)
{
    LOOM_API_ENTER("MPI_Comm_remote_size");
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_inter(comm, "MPI_Comm_remote_size", &rc);
    if (c == NULL)
        return rc;
    if (size == NULL)
        return loom__api_error(comm, "MPI_Comm_remote_size", MPI_ERR_ARG, "size is NULL");
    *size = c->sh->peer_size;
    return MPI_SUCCESS;
}

int loom__mpi_comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    LOOM_API_ENTER("MPI_Comm_remote_group");
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_inter(comm, "MPI_Comm_remote_group", &rc);
    if (c == NULL)
        return rc;
    if (group == NULL)
        return loom__api_error(comm, "MPI_Comm_remote_group", MPI_ERR_ARG, "group is NULL");
    /* a new reference on the remote half's group, freed by MPI_Group_free */
    loom__group_retain(c->sh->remote->group);
    *group = c->sh->remote->group;
    return MPI_SUCCESS;
}
