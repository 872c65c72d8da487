/* comm/group.c — group objects: creation, reference counting, lookups, comparison.
 *
 * A group is an immutable array of world ranks. It is shared by reference between the
 * handles of one rank, the communicators built on it and, through a communicator's shared
 * half, the handles of every member rank; refs is atomic so any thread may retain or release.
 * MPI_GROUP_EMPTY is a static object that is never counted or freed. */
#include <stdlib.h>
#include <string.h>
#include "comm/comm.h"
#include "core/atomic.h"
#include "core/quarantine.h"
#include "core/rank.h"
#include "p2p/bsend.h"

struct loom_group loom_mpi_group_empty = {{LOOM_MAGIC_GROUP, 0}, 1, 0, NULL, NULL};

struct loom_group *loom__group_new(int size)
{
    if (size == 0)
        return &loom_mpi_group_empty;
    struct loom_group *g = calloc(1, sizeof *g);
    if (g == NULL)
        return NULL;
    g->world = malloc((size_t)size * sizeof *g->world); /* freed in loom__group_release */
    if (g->world == NULL) {
        free(g);
        return NULL;
    }
    loom__object_init(&g->obj, LOOM_MAGIC_GROUP);
    atomic_init(&g->refs, 1);
    g->size = size;
    return g;
}

struct loom_group *loom__group_copy(const struct loom_group *g)
{
    struct loom_group *c = loom__group_new(g->size);
    if (c != NULL && c != &loom_mpi_group_empty)
        memcpy(c->world, g->world, (size_t)g->size * sizeof *g->world);
    return c;
}

void loom__group_retain(struct loom_group *g)
{
    if (g != &loom_mpi_group_empty)
        loom__fetch_add_relaxed(&g->refs, 1); /* the caller already holds a reference */
}

void loom__group_release(struct loom_group *g)
{
    if (g == &loom_mpi_group_empty)
        return;
    /* acq_rel: the last release sees every other holder's reads done before it frees */
    if (loom__fetch_sub_acq_rel(&g->refs, 1) == 1) {
        loom__bsend_release(g->session_bsend);
        g->session_bsend = NULL;
        free(g->world);
        g->world = NULL;
        g->size = 0;
        loom__quarantine_put(g, NULL);
    }
}

int loom__group_rank_of(const struct loom_group *g, int world_rank)
{
    for (int i = 0; i < g->size; i++)
        if (g->world[i] == world_rank)
            return i;
    return MPI_UNDEFINED;
}

int loom__group_compare(const struct loom_group *a, const struct loom_group *b)
{
    if (a->size != b->size)
        return MPI_UNEQUAL;
    int same_order = 1;
    for (int i = 0; i < a->size && same_order; i++)
        same_order = a->world[i] == b->world[i];
    if (same_order)
        return MPI_IDENT;
    /* Same members? Groups hold distinct world ranks, so equal sizes and a ⊆ b suffice. */
    int n = loom__job.nranks;
    unsigned char *in_b = calloc((size_t)n, 1);
    if (in_b == NULL) { /* fall back to the quadratic test rather than fail */
        for (int i = 0; i < a->size; i++)
            if (loom__group_rank_of(b, a->world[i]) == MPI_UNDEFINED)
                return MPI_UNEQUAL;
        return MPI_SIMILAR;
    }
    for (int i = 0; i < b->size; i++)
        in_b[b->world[i]] = 1;
    int r = MPI_SIMILAR;
    for (int i = 0; i < a->size; i++)
        if (!in_b[a->world[i]]) {
            r = MPI_UNEQUAL;
            break;
        }
    free(in_b);
    return r;
}

const char *loom__group_invalid_reason(MPI_Group g)
{
    if (g == MPI_GROUP_NULL)
        return "group is MPI_GROUP_NULL";
    if (loom__object_is(g, LOOM_MAGIC_GROUP))
        return NULL;
    if (loom__object_is(g, LOOM_MAGIC_FREED))
        return "group was freed";
    return "not a group handle";
}
