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

struct loom_dt_contents *loom__dt_contents_new(int combiner, int ni, int na, int nd)
{
    /* one allocation: the header, then the addresses, the types and the ints (in order of
     * alignment); freed by loom__dt_contents_release / _discard */
    size_t bytes = sizeof(struct loom_dt_contents) + (size_t)na * sizeof(MPI_Aint) +
                   (size_t)nd * sizeof(struct loom_datatype *) + (size_t)ni * sizeof(int);
    struct loom_dt_contents *c = malloc(bytes);
    if (!c)
        return NULL;
    atomic_init(&c->refs, 1);
    c->combiner = combiner;
    c->ni = ni;
    c->na = na;
    c->nd = nd;
    c->addrs = (MPI_Aint *)(c + 1);
    c->types = (struct loom_datatype **)(c->addrs + na);
    c->ints = (int *)(c->types + nd);
    return c;
}

void loom__dt_contents_attach(struct loom_datatype *t, struct loom_dt_contents *c)
{
    for (int i = 0; i < c->nd; i++)
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
    for (int i = 0; i < c->nd; i++)
        loom__dt_release(c->types[i]);
    free(c);
}

int loom__dt_combiner(const struct loom_datatype *t)
{
    return t->contents ? t->contents->combiner : MPI_COMBINER_NAMED;
}
