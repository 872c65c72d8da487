/* dt/contents.c — what a type remembers of its construction, for MPI_Type_get_envelope and
 * MPI_Type_get_contents.
 *
 * The layout of dt.h is normalized (merged blocks, folded vectors), so it cannot say how the
 * user built the type; the API layer records the constructor's arguments here once the type
 * is built. The record holds a reference on every type it names, so the user may free those
 * types at once and get_contents can still hand them back. */
#include <stdlib.h>
#include "core/atomic.h"
#include "dt/dt.h"

struct loom_dt_contents *loom__dt_contents_new(int combiner, MPI_Count ni, MPI_Count na,
                                               MPI_Count nl, MPI_Count nd)
{
    /* one allocation: the header, then the addresses, the large counts, the types and the
     * ints (in order of alignment); freed by loom__dt_contents_release / _discard */
    size_t bytes = sizeof(struct loom_dt_contents), part;
    const MPI_Count n[4] = {na, nl, nd, ni};
    const size_t each[4] = {sizeof(MPI_Aint), sizeof(MPI_Count), sizeof(struct loom_datatype *),
                            sizeof(int)};
    for (int k = 0; k < 4; k++)
        if (n[k] < 0 || __builtin_mul_overflow((size_t)n[k], each[k], &part) ||
            __builtin_add_overflow(bytes, part, &bytes))
            return NULL;
    struct loom_dt_contents *c = malloc(bytes);
    if (!c)
        return NULL;
    atomic_init(&c->refs, 1);
    c->combiner = combiner;
    c->ni = ni;
    c->na = na;
    c->nl = nl;
    c->nd = nd;
    c->addrs = (MPI_Aint *)(c + 1);
    c->large = (MPI_Count *)(c->addrs + na);
    c->types = (struct loom_datatype **)(c->large + nl);
    c->ints = (int *)(c->types + nd);
    return c;
}

void loom__dt_contents_attach(struct loom_datatype *t, struct loom_dt_contents *c)
{
    for (MPI_Count i = 0; i < c->nd; i++)
        loom__dt_retain(c->types[i]);
    t->contents = c;
}

void loom__dt_contents_discard(struct loom_dt_contents *c)
{
    free(c);
}

void loom__dt_contents_release(struct loom_dt_contents *c)
{
    if (c == NULL)
        return;
    /* acq_rel: the last releaser sees the record as every holder left it (read-only) */
    if (loom__fetch_sub_acq_rel(&c->refs, 1) != 1)
        return;
    for (MPI_Count i = 0; i < c->nd; i++)
        loom__dt_release(c->types[i]);
    free(c);
}

int loom__dt_combiner(const struct loom_datatype *t)
{
    return t->contents ? t->contents->combiner : MPI_COMBINER_NAMED;
}
