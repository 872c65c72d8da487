/* api/comm.c — communicator queries: rank, size, compare, group, test_inter, names. */
#include <string.h>
#include "api/api.h"
#include "comm/comm.h"

/* The calling rank's handle, or NULL after reporting MPI_ERR_COMM through *rc. */
static struct loom_comm *get_comm(MPI_Comm comm, const char *fn, int *rc)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL)
        *rc = loom__api_error(comm, fn, MPI_ERR_COMM, "%s", loom__comm_invalid_reason(comm));
    return c;
}

int loom__mpi_comm_rank(MPI_Comm comm, int *rank)
{
    LOOM_API_ENTER("MPI_Comm_rank");
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(comm, "MPI_Comm_rank", &rc);
    if (c == NULL)
        return rc;
    if (rank == NULL)
        return loom__api_error(comm, "MPI_Comm_rank", MPI_ERR_ARG, "rank is NULL");
    *rank = c->rank;
    return MPI_SUCCESS;
}

int loom__mpi_comm_size(MPI_Comm comm, int *size)
{
    LOOM_API_ENTER("MPI_Comm_size");
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(comm, "MPI_Comm_size", &rc);
    if (c == NULL)
        return rc;
    if (size == NULL)
        return loom__api_error(comm, "MPI_Comm_size", MPI_ERR_ARG, "size is NULL");
    *size = c->sh->size;
    return MPI_SUCCESS;
}

int loom__mpi_comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    LOOM_API_ENTER("MPI_Comm_compare");
    int rc = MPI_SUCCESS;
    struct loom_comm *a = get_comm(comm1, "MPI_Comm_compare", &rc);
    if (a == NULL)
        return rc;
    struct loom_comm *b = get_comm(comm2, "MPI_Comm_compare", &rc);
    if (b == NULL)
        return rc;
    if (result == NULL)
        return loom__api_error(comm1, "MPI_Comm_compare", MPI_ERR_ARG, "result is NULL");
    if (a == b) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (loom__comm_is_inter(a) != loom__comm_is_inter(b)) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    int g = loom__group_compare(a->sh->group, b->sh->group);
    if (loom__comm_is_inter(a)) {
        /* both groups of the pair: the weaker of the two results */
        int r = loom__group_compare(a->sh->remote->group, b->sh->remote->group);
        g = g == MPI_UNEQUAL || r == MPI_UNEQUAL ? MPI_UNEQUAL
            : g == MPI_SIMILAR || r == MPI_SIMILAR ? MPI_SIMILAR
                                                   : MPI_IDENT;
    }
    *result = g == MPI_IDENT ? MPI_CONGRUENT : g;
    return MPI_SUCCESS;
}

int loom__mpi_comm_group(MPI_Comm comm, MPI_Group *group)
{
    LOOM_API_ENTER("MPI_Comm_group");
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(comm, "MPI_Comm_group", &rc);
    if (c == NULL)
        return rc;
    if (group == NULL)
        return loom__api_error(comm, "MPI_Comm_group", MPI_ERR_ARG, "group is NULL");
    /* a group of the user's own (loom__group_copy says why), freed by MPI_Group_free */
    struct loom_group *g = loom__group_copy(c->sh->group);
    if (g == NULL)
        return loom__api_error_code(comm, "MPI_Comm_group", LOOM_ERR_NOMEM);
    *group = g;
    return MPI_SUCCESS;
}

int loom__mpi_comm_test_inter(MPI_Comm comm, int *flag)
{
    LOOM_API_ENTER("MPI_Comm_test_inter");
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(comm, "MPI_Comm_test_inter", &rc);
    if (c == NULL)
        return rc;
    if (flag == NULL)
        return loom__api_error(comm, "MPI_Comm_test_inter", MPI_ERR_ARG, "flag is NULL");
    *flag = loom__comm_is_inter(c);
    return MPI_SUCCESS;
}

int loom__mpi_comm_set_name(MPI_Comm comm, const char *comm_name)
{
    LOOM_API_ENTER("MPI_Comm_set_name");
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(comm, "MPI_Comm_set_name", &rc);
    if (c == NULL)
        return rc;
    if (comm_name == NULL)
        return loom__api_error(comm, "MPI_Comm_set_name", MPI_ERR_ARG, "name is NULL");
    /* names longer than MPI_MAX_OBJECT_NAME - 1 are truncated, as MPICH does */
    pthread_mutex_lock(&c->attr_lock);
    strncpy(c->name, comm_name, MPI_MAX_OBJECT_NAME - 1);
    c->name[MPI_MAX_OBJECT_NAME - 1] = '\0';
    pthread_mutex_unlock(&c->attr_lock);
    return MPI_SUCCESS;
}

int loom__mpi_comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    LOOM_API_ENTER("MPI_Comm_get_name");
    int rc = MPI_SUCCESS;
    struct loom_comm *c = get_comm(comm, "MPI_Comm_get_name", &rc);
    if (c == NULL)
        return rc;
    if (comm_name == NULL || resultlen == NULL)
        return loom__api_error(comm, "MPI_Comm_get_name", MPI_ERR_ARG, "%s is NULL",
                               comm_name == NULL ? "name" : "resultlen");
    pthread_mutex_lock(&c->attr_lock);
    strcpy(comm_name, c->name);
    pthread_mutex_unlock(&c->attr_lock);
    *resultlen = (int)strlen(comm_name);
    return MPI_SUCCESS;
}
