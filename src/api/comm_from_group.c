/* api/comm_from_group.c — MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups
 * (MPI 4): communicators made from groups and a string tag (comm/from_group.c): a group from
 * a session's process set (api/session.c) or any group of the job's ranks. No communicator
 * exists before the new one, so argument errors go to MPI_COMM_WORLD's handler, as for the
 * group calls. */
#include <string.h>
#include "api/api.h"
#include "comm/comm.h"
#include "p2p/bsend.h"

#define ERR(fn, cls, ...) loom__api_error(MPI_COMM_WORLD, fn, cls, __VA_ARGS__)

/* The checks both calls share: the string tag, info, error handler and output. */
static int check_common(const char *fn, const char *stringtag, MPI_Info info,
                        MPI_Errhandler errhandler, MPI_Comm *out)
{
    if (stringtag == NULL)
        return ERR(fn, MPI_ERR_ARG, "stringtag is NULL");
    if (strnlen(stringtag, MPI_MAX_STRINGTAG_LEN + 1) > MPI_MAX_STRINGTAG_LEN)
        return ERR(fn, MPI_ERR_ARG, "stringtag is longer than MPI_MAX_STRINGTAG_LEN (%d)",
                   MPI_MAX_STRINGTAG_LEN);
    if (info != MPI_INFO_NULL && loom__info_invalid_reason(info) != NULL)
        return ERR(fn, MPI_ERR_INFO, "%s", loom__info_invalid_reason(info));
    if (!loom__object_is(errhandler, LOOM_MAGIC_ERRHANDLER))
        return ERR(fn, MPI_ERR_ARG, "errhandler is not a valid error handler");
    if (errhandler->session_fn != NULL)
        return ERR(fn, MPI_ERR_ARG, "errhandler is a session's, not a communicator's");
    if (out == NULL)
        return ERR(fn, MPI_ERR_ARG, "the output communicator is NULL");
    return MPI_SUCCESS;
}

/* A group argument that must hold the calling rank: MPI_SUCCESS or the reported class. */
static int check_member(const char *fn, const char *what, MPI_Group g)
{
    const char *why = loom__group_invalid_reason(g);
    if (why != NULL)
        return ERR(fn, MPI_ERR_GROUP, "%s: %s", what, why);
    if (loom__group_rank_of(g, loom__self->world_rank) == MPI_UNDEFINED)
        return ERR(fn, MPI_ERR_GROUP, "the calling rank is not in %s", what);
    return MPI_SUCCESS;
}

/* A communicator made from a group derived from a session derives from that session: its
 * buffered sends use the session's buffer when it has none of its own (MPI 4.1 section 3.6).
 * c is new and not yet returned. */
static void derive_session(struct loom_comm *c, struct loom_group *g)
{
    if (g->session_bsend == NULL || c->session_bsend != NULL)
        return;
    loom__bsend_retain(g->session_bsend);
    c->session_bsend = g->session_bsend;
}

int loom__mpi_comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                                     MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
    LOOM_API_ENTER("MPI_Comm_create_from_group");
    const char *fn = "MPI_Comm_create_from_group";
    const char *why = loom__group_invalid_reason(group);
    if (why != NULL)
        return ERR(fn, MPI_ERR_GROUP, "%s", why);
    int rc = check_common(fn, stringtag, info, errhandler, newcomm);
    if (rc != MPI_SUCCESS)
        return rc;
    if (group->size == 0) { /* a local operation (MPI 4.1) */
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    if ((rc = check_member(fn, "group", group)) != MPI_SUCCESS)
        return rc;
    struct loom_comm *c;
    rc = loom__comm_create_from_group(group, stringtag, info, errhandler, &c);
    if (rc != 0) {
        *newcomm = MPI_COMM_NULL;
        return loom__api_error_code(MPI_COMM_WORLD, fn, rc);
    }
    derive_session(c, group);
    *newcomm = c;
    return MPI_SUCCESS;
}

int loom__mpi_intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                           MPI_Group remote_group, int remote_leader,
                                           const char *stringtag, MPI_Info info,
                                           MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    LOOM_API_ENTER("MPI_Intercomm_create_from_groups");
    const char *fn = "MPI_Intercomm_create_from_groups";
    int rc = check_member(fn, "local_group", local_group);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *why = loom__group_invalid_reason(remote_group);
    if (why != NULL)
        return ERR(fn, MPI_ERR_GROUP, "remote_group: %s", why);
    if (remote_group->size == 0)
        return ERR(fn, MPI_ERR_GROUP, "remote_group is empty");
    if (loom__group_rank_of(remote_group, loom__self->world_rank) != MPI_UNDEFINED)
        return ERR(fn, MPI_ERR_GROUP, "the calling rank is in remote_group too");
    /* checked here, before any member meets another: the groups must be disjoint */
    struct loom_group *common;
    if (loom__group_intersection(local_group, remote_group, &common) != 0)
        return loom__api_error_code(MPI_COMM_WORLD, fn, LOOM_ERR_NOMEM);
    int shared = common->size;
    loom__group_release(common);
    if (shared > 0)
        return ERR(fn, MPI_ERR_GROUP, "local_group and remote_group overlap (%d ranks in both)",
                   shared);
    if (local_leader < 0 || local_leader >= local_group->size)
        return ERR(fn, MPI_ERR_RANK, "local_leader %d out of range (local_group size %d)",
                   local_leader, local_group->size);
    if (remote_leader < 0 || remote_leader >= remote_group->size)
        return ERR(fn, MPI_ERR_RANK, "remote_leader %d out of range (remote_group size %d)",
                   remote_leader, remote_group->size);
    if ((rc = check_common(fn, stringtag, info, errhandler, newintercomm)) != MPI_SUCCESS)
        return rc;
    struct loom_comm *c;
    rc = loom__intercomm_create_from_groups(local_group, local_leader, remote_group,
                                            remote_leader, stringtag, info, errhandler, &c);
    if (rc != 0) {
        *newintercomm = MPI_COMM_NULL;
        return loom__api_error_code(MPI_COMM_WORLD, fn, rc);
    }
    derive_session(c, local_group);
    *newintercomm = c;
    return MPI_SUCCESS;
}
