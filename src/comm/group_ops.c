/* comm/group_ops.c — building groups from groups: incl, excl and the set operations.
 * Arguments are already checked by the API layer (ranks valid and distinct). Membership tests
 * use a scratch array indexed by world rank, so each operation is linear in the group sizes
 * plus the job size. */
#include <stdlib.h>
#include "comm/comm.h"
#include "core/error.h"
#include "core/rank.h"

/* A zeroed array of one byte per world rank (freed by the caller), NULL on ENOMEM. */
static unsigned char *world_marks(void)
{
    return calloc((size_t)loom__job.nranks, 1);
}

/* *out = a group of the n world ranks in list (copied). */
static int make(const int *list, int n, struct loom_group **out)
{
    struct loom_group *g = loom__group_new(n);
    if (g == NULL)
        return LOOM_ERR_NOMEM;
    for (int i = 0; i < n; i++)
        g->world[i] = list[i];
    *out = g;
    return 0;
}

int loom__group_incl(const struct loom_group *g, int n, const int *ranks,
                     struct loom_group **out)
{
    struct loom_group *ng = loom__group_new(n);
    if (ng == NULL)
        return LOOM_ERR_NOMEM;
    for (int i = 0; i < n; i++)
        ng->world[i] = g->world[ranks[i]];
    *out = ng;
    return 0;
}

int loom__group_excl(const struct loom_group *g, int n, const int *ranks,
                     struct loom_group **out)
{
    unsigned char *drop = calloc((size_t)g->size + 1, 1);
    if (drop == NULL)
        return LOOM_ERR_NOMEM;
    for (int i = 0; i < n; i++)
        drop[ranks[i]] = 1;
    struct loom_group *ng = loom__group_new(g->size - n);
    if (ng == NULL) {
        free(drop);
        return LOOM_ERR_NOMEM;
    }
    int k = 0;
    for (int i = 0; i < g->size; i++)
        if (!drop[i])
            ng->world[k++] = g->world[i];
    free(drop);
    *out = ng;
    return 0;
}

/* The three set operations share one walk: keep a's members whose presence in b is
 * `want_in_b` (-1: keep all of a), then, for union, append b's members absent from a. */
static int set_op(const struct loom_group *a, const struct loom_group *b, int want_in_b,
                  int append_b, struct loom_group **out)
{
    unsigned char *mark = world_marks();
    int *list = malloc(((size_t)a->size + (size_t)b->size + 1) * sizeof *list);
    int rc = LOOM_ERR_NOMEM;
    if (mark == NULL || list == NULL)
        goto out_with_scratch;
    for (int i = 0; i < b->size; i++)
        mark[b->world[i]] = 1;
    int n = 0;
    for (int i = 0; i < a->size; i++)
        if (want_in_b < 0 || mark[a->world[i]] == want_in_b)
            list[n++] = a->world[i];
    if (append_b) {
        for (int i = 0; i < b->size; i++)
            mark[b->world[i]] = 0;
        for (int i = 0; i < a->size; i++)
            mark[a->world[i]] = 1;
        for (int i = 0; i < b->size; i++)
            if (!mark[b->world[i]])
                list[n++] = b->world[i];
    }
    rc = make(list, n, out);
out_with_scratch:
    free(mark);
    free(list);
    return rc;
}

int loom__group_union(const struct loom_group *a, const struct loom_group *b,
                      struct loom_group **out)
{
    return set_op(a, b, -1, 1, out);
}

int loom__group_intersection(const struct loom_group *a, const struct loom_group *b,
                             struct loom_group **out)
{
    return set_op(a, b, 1, 0, out);
}

int loom__group_difference(const struct loom_group *a, const struct loom_group *b,
                           struct loom_group **out)
{
    return set_op(a, b, 0, 0, out);
}
