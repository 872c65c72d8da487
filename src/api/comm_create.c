/* api/comm_create.c — making and freeing communicators: dup, dup_with_info, split,
 * split_type, create, create_group, free. The protocols are in comm/create.c and
 * comm/create_group.c; this file checks arguments and turns results into MPI errors. */
#include "api/api.h"
#include "comm/comm.h"
#include "p2p/bsend.h"
#include "comm/split_hw.h"
#include "p2p/p2p.h"

static struct loom_comm *get_comm(MPI_Comm comm, const char *fn, int *rc)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL)
        *rc = loom__api_error(comm, fn, MPI_ERR_COMM, "%s", loom__comm_invalid_reason(comm));
    return c;
}

/* The handle of an intracommunicator, or NULL after reporting MPI_ERR_COMM (the calls that
 * the standard defines on intracommunicators only). */
static struct loom_comm *get_intra(MPI_Comm comm, const char *fn, int *rc)
{
    struct loom_comm *c = get_comm(comm, fn, rc);
    if (c != NULL && loom__comm_is_inter(c)) {
        *rc = loom__api_error(comm, fn, MPI_ERR_COMM, "not defined on an intercommunicator");
        return NULL;
    }
    return c;
}

/* Report a constructor's failure: a negative loom code, or the MPI error code that an
 * attribute copy callback returned. */
static int report(MPI_Comm comm, const char *fn, int rc)
{
    if (rc < 0)
        return loom__api_error_code(comm, fn, rc);
    int cls = rc > 0 && rc <= MPI_ERR_LASTCODE ? rc : MPI_ERR_OTHER;
    return loom__api_error(comm, fn, cls, "an attribute copy callback returned error %d", rc);
}

/* Checks shared by the constructors: newcomm not NULL, info NULL or valid. */
static int check_out(MPI_Comm comm, const char *fn, MPI_Comm *newcomm)
{
    if (newcomm == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "newcomm is NULL");
    return MPI_SUCCESS;
}

static int check_info(MPI_Comm comm, const char *fn, MPI_Info info)
{
    if (info != MPI_INFO_NULL && loom__info_invalid_reason(info) != NULL)
        return loom__api_error(comm, fn, MPI_ERR_INFO, "%s", loom__info_invalid_reason(info));
    return MPI_SUCCESS;
}

static int check_group(MPI_Comm comm, const char *fn, struct loom_comm *c, MPI_Group group)
{
    const char *why = loom__group_invalid_reason(group);
    if (why != NULL)
        return loom__api_error(comm, fn, MPI_ERR_GROUP, "%s", why);
    int sub = loom__comm_group_is_subset(c, group);
    if (sub < 0)
        return loom__api_error_code(comm, fn, sub);
    if (!sub)
        return loom__api_error(comm, fn, MPI_ERR_GROUP,
                               "group is not a subset of the communicator's group");
    return MPI_SUCCESS;
}

static int dup_common(MPI_Comm comm, MPI_Info info, int use_info, MPI_Comm *newcomm,
                      const char *fn)
{
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(comm, fn, &rc);
    if (c == NULL)
        return rc;
    if ((rc = check_out(comm, fn, newcomm)) != MPI_SUCCESS)
        return rc;
    if (use_info && (rc = check_info(comm, fn, info)) != MPI_SUCCESS)
        return rc;
    struct loom_comm *nc;
    rc = loom__comm_is_inter(c) ? loom__intercomm_dup(c, comm, info, use_info, &nc)
                                : loom__comm_dup(c, comm, info, use_info, &nc);
    if (rc != 0) {
        *newcomm = MPI_COMM_NULL;
        return report(comm, fn, rc);
    }
    *newcomm = nc;
    return MPI_SUCCESS;
}

int loom__mpi_comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    LOOM_API_ENTER("MPI_Comm_dup");
    return dup_common(comm, MPI_INFO_NULL, 0, newcomm, "MPI_Comm_dup");
}

int loom__mpi_comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    LOOM_API_ENTER("MPI_Comm_dup_with_info");
    return dup_common(comm, info, 1, newcomm, "MPI_Comm_dup_with_info");
}

static int split_common(MPI_Comm comm, struct loom_comm *c, int color, int key,
                        MPI_Comm *newcomm, const char *fn)
{
    struct loom_comm *nc;
    /* on an intercommunicator: the intercommunicator of the colour's members of both groups */
    int rc = loom__comm_is_inter(c) ? loom__intercomm_split(c, color, key, &nc)
                                    : loom__comm_split(c, color, key, &nc);
    if (rc != 0) {
        *newcomm = MPI_COMM_NULL;
        return report(comm, fn, rc);
    }
    *newcomm = nc ? nc : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int loom__mpi_comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    LOOM_API_ENTER("MPI_Comm_split");
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(comm, "MPI_Comm_split", &rc);
    if (c == NULL)
        return rc;
    if ((rc = check_out(comm, "MPI_Comm_split", newcomm)) != MPI_SUCCESS)
        return rc;
    if (color < 0 && color != MPI_UNDEFINED)
        return loom__api_error(comm, "MPI_Comm_split", MPI_ERR_ARG,
                               "color %d is negative (and not MPI_UNDEFINED)", color);
    return split_common(comm, c, color, key, newcomm, "MPI_Comm_split");
}

static const char *split_type_name(int t)
{
    switch (t) {
    case MPI_COMM_TYPE_SHARED: return "MPI_COMM_TYPE_SHARED";
    case MPI_COMM_TYPE_HW_UNGUIDED: return "MPI_COMM_TYPE_HW_UNGUIDED";
    case MPI_COMM_TYPE_HW_GUIDED: return "MPI_COMM_TYPE_HW_GUIDED";
    }
    return "";
}

int loom__mpi_comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                              MPI_Comm *newcomm)
{
    LOOM_API_ENTER("MPI_Comm_split_type");
    const char *fn = "MPI_Comm_split_type";
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_intra(comm, fn, &rc);
    if (c == NULL)
        return rc;
    if ((rc = check_out(comm, fn, newcomm)) != MPI_SUCCESS)
        return rc;
    if ((rc = check_info(comm, fn, info)) != MPI_SUCCESS)
        return rc;
    char why[256];
    if (loom__comm_split_type_check(split_type, info, why, sizeof why) != 0)
        return loom__api_error(comm, fn, MPI_ERR_INFO_VALUE, "%s", why);
    struct loom_hw_split plan = {.color = MPI_UNDEFINED};
    if (split_type != MPI_UNDEFINED) {
        rc = loom__comm_split_type_color(c, split_type, info, &plan);
        if (rc == LOOM_ERR_UNSUPPORTED)
            return loom__api_error(comm, fn, MPI_ERR_ARG, "split type %s (%d) not supported yet",
                                   split_type_name(split_type), split_type);
        if (rc == LOOM_ERR_ARG)
            return loom__api_error(comm, fn, MPI_ERR_ARG, "%d is not a split type", split_type);
        if (rc != 0)
            return loom__api_error_code(comm, fn, rc);
    }
    rc = split_common(comm, c, plan.color, key, newcomm, fn);
    if (rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL) {
        /* what the split type records on the new communicator (hardware types: info keys) */
        int frc = loom__comm_split_type_finish(&plan, *newcomm);
        if (frc != 0)
            return loom__api_error_code(comm, fn, frc);
    }
    return rc;
}

int loom__mpi_comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    LOOM_API_ENTER("MPI_Comm_create");
    const char *fn = "MPI_Comm_create";
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(comm, fn, &rc);
    if (c == NULL)
        return rc;
    if ((rc = check_out(comm, fn, newcomm)) != MPI_SUCCESS)
        return rc;
    if ((rc = check_group(comm, fn, c, group)) != MPI_SUCCESS)
        return rc;
    struct loom_comm *nc;
    /* on an intercommunicator, group is a subgroup of the local group; the remote group is
     * the one the other group's members give */
    rc = loom__comm_is_inter(c) ? loom__intercomm_create_sub(c, group, &nc)
                                : loom__comm_create(c, group, &nc);
    if (rc != 0) {
        *newcomm = MPI_COMM_NULL;
        return report(comm, fn, rc);
    }
    *newcomm = nc ? nc : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int loom__mpi_comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    LOOM_API_ENTER("MPI_Comm_create_group");
    const char *fn = "MPI_Comm_create_group";
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_intra(comm, fn, &rc);
    if (c == NULL)
        return rc;
    if ((rc = check_out(comm, fn, newcomm)) != MPI_SUCCESS)
        return rc;
    if ((rc = check_group(comm, fn, c, group)) != MPI_SUCCESS)
        return rc;
    if (tag < 0 || tag > LOOM_TAG_UB)
        return loom__api_error(comm, fn, MPI_ERR_TAG, "tag %d is out of range (0..%d)", tag,
                               LOOM_TAG_UB);
    struct loom_comm *nc;
    rc = loom__comm_create_group(c, group, tag, &nc);
    if (rc != 0) {
        *newcomm = MPI_COMM_NULL;
        return report(comm, fn, rc);
    }
    *newcomm = nc ? nc : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* MPI_Comm_free, and MPI_Comm_disconnect (collective) when `disconnect`. */
static int release(const char *fn, MPI_Comm *comm, int disconnect)
{
    if (comm == NULL)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "comm is NULL");
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(*comm, fn, &rc);
    if (c == NULL)
        return rc;
    if (c->is_predefined)
        return loom__api_error(*comm, fn, MPI_ERR_COMM, "%s cannot be %s",
                               loom__comm_user_handle(c) == MPI_COMM_SELF ? "MPI_COMM_SELF"
                                                                          : "MPI_COMM_WORLD",
                               disconnect ? "disconnected" : "freed");
    /* A disconnect returns once every member has called it: every message of the program on
     * the communicator has then been sent and received or is being moved by a request that
     * completes on its own, as after MPI_Comm_free (MPI 4.1, 11.10.4). */
    if (disconnect && (rc = loom__mpi_barrier(*comm)) != MPI_SUCCESS)
        return rc;
    rc = loom__attr_delete_all(c);
    if (rc != 0) {
        int cls = rc > 0 && rc <= MPI_ERR_LASTCODE ? rc : MPI_ERR_OTHER;
        return loom__api_error(*comm, fn, cls,
                               "an attribute delete callback returned error %d", rc);
    }
    /* A buffer still attached to the handle is detached, as MPI_Comm_detach_buffer does:
     * once MPI_Comm_free returns, its messages have left it and the program may reuse it
     * (docs/p2p.md says why loom waits here). */
    loom__bsend_drain(atomic_load_explicit(&c->bsend, memory_order_acquire));
    loom__comm_handle_free(c);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int loom__mpi_comm_free(MPI_Comm *comm)
{
    LOOM_API_ENTER("MPI_Comm_free");
    return release("MPI_Comm_free", comm, 0);
}

int loom__mpi_comm_disconnect(MPI_Comm *comm)
{
    LOOM_API_ENTER("MPI_Comm_disconnect");
    return release("MPI_Comm_disconnect", comm, 1);
}

/* loom starts no processes: no rank has a parent (MPI 4.1, 11.8.2: MPI_COMM_NULL then). */
int loom__mpi_comm_get_parent(MPI_Comm *parent)
{
    LOOM_API_ENTER("MPI_Comm_get_parent");
    if (parent == NULL)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Comm_get_parent", MPI_ERR_ARG,
                               "parent is NULL");
    *parent = MPI_COMM_NULL;
    return MPI_SUCCESS;
}
