/* api/hier.c — the 2018 paper's extra functions for hierarchical communicators, as MPIX
 * (issue 6; docs/hierarchy.md): MPIX_Comm_hsplit_with_roots, MPIX_Comm_get_hlevel_info and
 * MPIX_Comm_get_min_hlevel. The splits themselves live in comm/split_hw.c and comm/hsplit.c;
 * this file checks arguments and turns results into MPI errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "api/api.h"
#include "comm/comm.h"
#include "comm/split_hw.h"

static struct loom_comm *get_comm(MPI_Comm comm, const char *fn, int *rc)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL)
        *rc = loom__api_error(comm, fn, MPI_ERR_COMM, "%s", loom__comm_invalid_reason(comm));
    else if (loom__comm_is_inter(c)) /* the hierarchy is a local group's */
        *rc = loom__api_error(comm, fn, MPI_ERR_COMM, "not defined on an intercommunicator");
    return c != NULL && !loom__comm_is_inter(c) ? c : NULL;
}

int MPIX_Comm_hsplit_with_roots(MPI_Comm oldcomm, MPI_Info info, MPI_Comm *newcomm,
                                MPI_Comm *rootscomm)
{
    LOOM_API_ENTER("MPIX_Comm_hsplit_with_roots");
    const char *fn = "MPIX_Comm_hsplit_with_roots";
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(oldcomm, fn, &rc);
    if (c == NULL)
        return rc;
    if (newcomm == NULL)
        return loom__api_error(oldcomm, fn, MPI_ERR_ARG, "newcomm is NULL");
    if (rootscomm == NULL)
        return loom__api_error(oldcomm, fn, MPI_ERR_ARG, "rootscomm is NULL");
    if (info != MPI_INFO_NULL && loom__info_invalid_reason(info) != NULL)
        return loom__api_error(oldcomm, fn, MPI_ERR_INFO, "%s", loom__info_invalid_reason(info));
    /* info: no hint changes the split yet (the paper leaves it for future hints). */
    struct loom_comm *nc, *rc_;
    rc = loom__comm_hsplit(c, &nc, &rc_);
    if (rc != 0) {
        *newcomm = *rootscomm = MPI_COMM_NULL;
        return loom__api_error_code(oldcomm, fn, rc);
    }
    *newcomm = nc ? nc : MPI_COMM_NULL;
    *rootscomm = rc_ ? rc_ : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* Read integer key `key` of info i into *v: 1 if present and a number, else 0. */
static int info_int(struct loom_info *i, const char *key, int *v)
{
    char buf[MPI_MAX_INFO_VAL + 1], *end;
    if (loom__info_get(i, key, buf, sizeof buf) < 0)
        return 0;
    long x = strtol(buf, &end, 10);
    if (end == buf || *end != '\0' || x < 0 || x > 0x7fffffff)
        return 0;
    *v = (int)x;
    return 1;
}

int MPIX_Comm_get_hlevel_info(MPI_Comm comm, int *num_comms, int *index, char *type,
                              int *resultlen)
{
    LOOM_API_ENTER("MPIX_Comm_get_hlevel_info");
    const char *fn = "MPIX_Comm_get_hlevel_info";
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(comm, fn, &rc);
    if (c == NULL)
        return rc;
    if (num_comms == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "num_comms is NULL");
    if (index == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "index is NULL");
    if (type == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "type is NULL");
    if (resultlen == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "resultlen is NULL");
    char t[MPI_MAX_INFO_VAL + 1];
    int num = 0, idx = 0, len = -1;
    pthread_mutex_lock(&c->attr_lock);
    int ok = c->info != NULL &&
             (len = loom__info_get(c->info, LOOM_HW_KEY_TYPE, t, sizeof t)) >= 0 &&
             info_int(c->info, LOOM_HW_KEY_NUM, &num) &&
             info_int(c->info, LOOM_HW_KEY_INDEX, &idx);
    pthread_mutex_unlock(&c->attr_lock);
    if (!ok)
        return loom__api_error(comm, fn, MPI_ERR_ARG,
                               "the communicator was not made by a hardware split (its info "
                               "lacks " LOOM_HW_KEY_TYPE ", " LOOM_HW_KEY_NUM " or "
                               LOOM_HW_KEY_INDEX ")");
    *num_comms = num;
    *index = idx;
    memcpy(type, t, (size_t)len + 1);
    *resultlen = len;
    return MPI_SUCCESS;
}

int MPIX_Comm_get_min_hlevel(MPI_Comm comm, int nranks, const int ranks[], char *type,
                             int *resultlen)
{
    LOOM_API_ENTER("MPIX_Comm_get_min_hlevel");
    const char *fn = "MPIX_Comm_get_min_hlevel";
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(comm, fn, &rc);
    if (c == NULL)
        return rc;
    if (nranks < 0)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "nranks %d is negative", nranks);
    if (nranks > 0 && ranks == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "ranks is NULL (nranks %d)", nranks);
    if (type == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "type is NULL");
    if (resultlen == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "resultlen is NULL");
    int size = c->sh->size;
    for (int i = 0; i < nranks; i++)
        if (ranks[i] < 0 || ranks[i] >= size)
            return loom__api_error(comm, fn, MPI_ERR_RANK,
                                   "ranks[%d] = %d is out of range (size %d)", i, ranks[i],
                                   size);
    /* Duplicates, as MPI_Group_incl reports them: one mark per rank of the communicator. */
    unsigned char *seen = calloc((size_t)size, 1);
    if (seen == NULL)
        return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
    for (int i = 0; i < nranks; i++) {
        if (seen[ranks[i]]++) {
            free(seen);
            return loom__api_error(comm, fn, MPI_ERR_RANK, "ranks[%d] = %d appears twice", i,
                                   ranks[i]);
        }
    }
    free(seen);
    char t[MPI_MAX_INFO_VAL + 1];
    rc = loom__comm_min_hlevel(c, nranks, ranks, t);
    if (rc != 0)
        return loom__api_error_code(comm, fn, rc);
    size_t len = strlen(t);
    memcpy(type, t, len + 1);
    *resultlen = (int)len;
    return MPI_SUCCESS;
}
