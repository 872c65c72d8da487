/* api/group_ops.c — group constructors: incl, excl, range_incl, range_excl, union,
 * intersection, difference. Rank lists are checked here (range, duplicates), with the
 * classes MPICH uses: MPI_ERR_ARG for counts and strides, MPI_ERR_RANK for ranks. */
#include <stdlib.h>
#include "api/api.h"
#include "comm/comm.h"
#include "p2p/bsend.h"

static struct loom_group *get_group(MPI_Group g, const char *fn, int *rc)
{
    const char *why = loom__group_invalid_reason(g);
    if (why != NULL) {
        *rc = loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_GROUP, "%s", why);
        return NULL;
    }
    return g;
}

/* Check ranks[0..n-1] are ranks of g, each at most once. MPI_SUCCESS or the reported error. */
static int check_ranks(const char *fn, struct loom_group *g, int n, const int *ranks)
{
    if (n < 0)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "n %d is negative", n);
    if (n > g->size)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG,
                               "n %d is larger than the group size %d", n, g->size);
    if (n > 0 && ranks == NULL)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "ranks is NULL");
    unsigned char *seen = calloc((size_t)g->size + 1, 1);
    if (seen == NULL)
        return loom__api_error_code(MPI_COMM_NULL, fn, LOOM_ERR_NOMEM);
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->size)
            rc = loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_RANK,
                                 "ranks[%d] = %d is out of range (group size %d)", i, ranks[i],
                                 g->size);
        else if (seen[ranks[i]]++)
            rc = loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_RANK,
                                 "ranks[%d] = %d appears twice", i, ranks[i]);
    }
    free(seen);
    return rc;
}

/* The common tail: turn the internal result into the output handle. */
/* A group made from a, b (NULL when one operand) derives from the session the first of them
 * derives from (MPI 4.1 section 3.6: its communicators' buffered sends use that session's
 * buffer); ng is new and nobody else sees it yet. */
static void derive(struct loom_group *ng, const struct loom_group *a, const struct loom_group *b)
{
    struct loom_bsend *sb = a->session_bsend ? a->session_bsend : b ? b->session_bsend : NULL;
    if (sb == NULL || ng == NULL || ng->size == 0) /* MPI_GROUP_EMPTY is everyone's */
        return;
    loom__bsend_retain(sb);
    ng->session_bsend = sb;
}

static int finish(const char *fn, int rc, struct loom_group *ng, MPI_Group *newgroup)
{
    if (rc != 0)
        return loom__api_error_code(MPI_COMM_NULL, fn, rc);
    *newgroup = ng;
    return MPI_SUCCESS;
}

static int incl_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup, int excl,
                     const char *fn)
{
    int rc = MPI_SUCCESS;
    struct loom_group *g = get_group(group, fn, &rc);
    if (g == NULL)
        return rc;
    if (newgroup == NULL)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "newgroup is NULL");
    if ((rc = check_ranks(fn, g, n, ranks)) != MPI_SUCCESS)
        return rc;
    struct loom_group *ng = NULL;
    rc = excl ? loom__group_excl(g, n, ranks, &ng) : loom__group_incl(g, n, ranks, &ng);
    if (rc == 0)
        derive(ng, g, NULL);
    return finish(fn, rc, ng, newgroup);
}

int loom__mpi_group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    LOOM_API_ENTER("MPI_Group_incl");
    return incl_excl(group, n, ranks, newgroup, 0, "MPI_Group_incl");
}

int loom__mpi_group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    LOOM_API_ENTER("MPI_Group_excl");
    return incl_excl(group, n, ranks, newgroup, 1, "MPI_Group_excl");
}

/* Expand ranges into *list (malloc'd, caller frees) of *count ranks of g, checked as
 * check_ranks does. MPI_SUCCESS or the reported error. */
static int expand(const char *fn, struct loom_group *g, int n, int ranges[][3], int **list,
                  int *count)
{
    if (n < 0)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "n %d is negative", n);
    if (n > 0 && ranges == NULL)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "ranges is NULL");
    long total = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (first < 0 || first >= g->size || last < 0 || last >= g->size)
            return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_RANK,
                                   "range %d (%d, %d, %d) is out of the group (size %d)", i,
                                   first, last, stride, g->size);
        if (stride == 0)
            return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "range %d has stride 0", i);
        if ((first < last && stride < 0) || (first > last && stride > 0))
            return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG,
                                   "range %d (%d, %d, %d): stride goes away from last", i,
                                   first, last, stride);
        total += (last - first) / stride + 1;
    }
    if (total > g->size)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_RANK,
                               "the ranges name %ld ranks, more than the group's %d: some twice",
                               total, g->size);
    int *l = malloc(((size_t)total + 1) * sizeof *l);
    if (l == NULL)
        return loom__api_error_code(MPI_COMM_NULL, fn, LOOM_ERR_NOMEM);
    int k = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        int steps = (last - first) / stride;
        for (int s = 0; s <= steps; s++)
            l[k++] = first + s * stride;
    }
    int rc = check_ranks(fn, g, k, l);
    if (rc != MPI_SUCCESS) {
        free(l);
        return rc;
    }
    *list = l;
    *count = k;
    return MPI_SUCCESS;
}

static int range_incl_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup,
                           int excl, const char *fn)
{
    int rc = MPI_SUCCESS;
    struct loom_group *g = get_group(group, fn, &rc);
    if (g == NULL)
        return rc;
    if (newgroup == NULL)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "newgroup is NULL");
    int *list = NULL, k = 0;
    if ((rc = expand(fn, g, n, ranges, &list, &k)) != MPI_SUCCESS)
        return rc;
    struct loom_group *ng = NULL;
    rc = excl ? loom__group_excl(g, k, list, &ng) : loom__group_incl(g, k, list, &ng);
    free(list);
    if (rc == 0)
        derive(ng, g, NULL);
    return finish(fn, rc, ng, newgroup);
}

int loom__mpi_group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    LOOM_API_ENTER("MPI_Group_range_incl");
    return range_incl_excl(group, n, ranges, newgroup, 0, "MPI_Group_range_incl");
}

int loom__mpi_group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    LOOM_API_ENTER("MPI_Group_range_excl");
    return range_incl_excl(group, n, ranges, newgroup, 1, "MPI_Group_range_excl");
}

enum set_op { UNION, INTERSECTION, DIFFERENCE };

static int set_op(MPI_Group g1, MPI_Group g2, MPI_Group *newgroup, enum set_op op,
                  const char *fn)
{
    int rc = MPI_SUCCESS;
    struct loom_group *a = get_group(g1, fn, &rc);
    if (a == NULL)
        return rc;
    struct loom_group *b = get_group(g2, fn, &rc);
    if (b == NULL)
        return rc;
    if (newgroup == NULL)
        return loom__api_error(MPI_COMM_NULL, fn, MPI_ERR_ARG, "newgroup is NULL");
    struct loom_group *ng = NULL;
    rc = op == UNION          ? loom__group_union(a, b, &ng)
         : op == INTERSECTION ? loom__group_intersection(a, b, &ng)
                              : loom__group_difference(a, b, &ng);
    if (rc == 0)
        derive(ng, a, b);
    return finish(fn, rc, ng, newgroup);
}

int loom__mpi_group_union(MPI_Group g1, MPI_Group g2, MPI_Group *newgroup)
{
    LOOM_API_ENTER("MPI_Group_union");
    return set_op(g1, g2, newgroup, UNION, "MPI_Group_union");
}

int loom__mpi_group_intersection(MPI_Group g1, MPI_Group g2, MPI_Group *newgroup)
{
    LOOM_API_ENTER("MPI_Group_intersection");
    return set_op(g1, g2, newgroup, INTERSECTION, "MPI_Group_intersection");
}

int loom__mpi_group_difference(MPI_Group g1, MPI_Group g2, MPI_Group *newgroup)
{
    LOOM_API_ENTER("MPI_Group_difference");
    return set_op(g1, g2, newgroup, DIFFERENCE, "MPI_Group_difference");
}
