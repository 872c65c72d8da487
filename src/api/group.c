/* api/group.c — group queries and freeing: size, rank, translate_ranks, compare, free.
 * Group errors are reported through MPI_COMM_WORLD's handler (no communicator is involved). */
#include <stdlib.h>
#include "api/api.h"
#include "comm/comm.h"

/* The group, or NULL after reporting MPI_ERR_GROUP through *rc. */
static struct loom_group *get_group(MPI_Group g, const char *fn, int *rc)
{
    const char *why = loom__group_invalid_reason(g);
    if (why != NULL) {
        *rc = loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_GROUP, "%s", why);
        return NULL;
    }
    return g;
}

int loom__mpi_group_size(MPI_Group group, int *size)
{
    LOOM_API_ENTER("MPI_Group_size");
    int rc = MPI_SUCCESS;
    struct loom_group *g = get_group(group, "MPI_Group_size", &rc);
    if (g == NULL)
        return rc;
    if (size == NULL)
        return loom__api_error(MPI_COMM_NULL, "MPI_Group_size", MPI_ERR_ARG, "size is NULL");
    *size = g->size;
    return MPI_SUCCESS;
}

int loom__mpi_group_rank(MPI_Group group, int *rank)
{
    LOOM_API_ENTER("MPI_Group_rank");
    int rc = MPI_SUCCESS;
    struct loom_group *g = get_group(group, "MPI_Group_rank", &rc);
    if (g == NULL)
        return rc;
    if (rank == NULL)
        return loom__api_error(MPI_COMM_NULL, "MPI_Group_rank", MPI_ERR_ARG, "rank is NULL");
    *rank = loom__group_rank_of(g, loom__self->world_rank);
    return MPI_SUCCESS;
}

int loom__mpi_group_translate_ranks(MPI_Group g1, int n, const int ranks1[], MPI_Group g2,
                                    int ranks2[])
{
    LOOM_API_ENTER("MPI_Group_translate_ranks");
    const char *fn = "MPI_Group_translate_ranks";
    int rc = MPI_SUCCESS;
    struct loom_group *a = get_group(g1, fn, &rc);
    if (a == NULL)
        return rc;
    struct loom_group *b = get_group(g2, fn, &rc);
    if (b == NULL)
        return rc;
    if (n < 0)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "n %d is negative", n);
    if (n > 0 && (ranks1 == NULL || ranks2 == NULL))
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "%s is NULL",
                               ranks1 == NULL ? "ranks1" : "ranks2");
    for (int i = 0; i < n; i++)
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= a->size))
            return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_RANK,
                                   "ranks1[%d] = %d is out of range (group size %d)", i,
                                   ranks1[i], a->size);
    /* b's rank of each world rank, through a table as large as the job */
    int *rank_in_b = malloc((size_t)loom__job.nranks * sizeof *rank_in_b);
    if (rank_in_b == NULL)
        return loom__api_error_code(MPI_COMM_NULL, fn, LOOM_ERR_NOMEM);
    for (int w = 0; w < loom__job.nranks; w++)
        rank_in_b[w] = MPI_UNDEFINED;
    for (int j = 0; j < b->size; j++)
        rank_in_b[b->world[j]] = j;
    for (int i = 0; i < n; i++)
        ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL : rank_in_b[a->world[ranks1[i]]];
    free(rank_in_b);
    return MPI_SUCCESS;
}

int loom__mpi_group_compare(MPI_Group g1, MPI_Group g2, int *result)
{
    LOOM_API_ENTER("MPI_Group_compare");
    int rc = MPI_SUCCESS;
    struct loom_group *a = get_group(g1, "MPI_Group_compare", &rc);
    if (a == NULL)
        return rc;
    struct loom_group *b = get_group(g2, "MPI_Group_compare", &rc);
    if (b == NULL)
        return rc;
    if (result == NULL)
        return loom__api_error(MPI_COMM_NULL, "MPI_Group_compare", MPI_ERR_ARG,
                               "result is NULL");
    *result = loom__group_compare(a, b);
    return MPI_SUCCESS;
}

int loom__mpi_group_free(MPI_Group *group)
{
    LOOM_API_ENTER("MPI_Group_free");
    if (group == NULL)
        return loom__api_error(MPI_COMM_NULL, "MPI_Group_free", MPI_ERR_ARG, "group is NULL");
    int rc = MPI_SUCCESS;
    struct loom_group *g = get_group(*group, "MPI_Group_free", &rc);
    if (g == NULL)
        return rc;
    loom__group_release(g); /* a no-op for MPI_GROUP_EMPTY, which MPICH lets users free */
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
