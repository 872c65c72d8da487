/* dt/elements.c — counting basic elements in a byte stream, for MPI_Get_elements and
 * MPI_Status_set_elements (and, later, reductions that need to know what they combine).
 *
 * A type made of one basic type (t->basic) is a division. A type that mixes several walks its
 * layout down to the partial element: whole blocks and whole instances are counted from
 * nbasic, only the one element the bytes end in is visited, level by level. */
#include <limits.h>
#include "dt/dt.h"

/* Basic elements in the first r bytes of one element of t (r <= t->size); -1 when r ends
 * inside a basic element. */
static long long elements_in(const struct loom_datatype *t, size_t r)
{
    if (r == t->size)
        return (long long)t->nbasic;
    if (r == 0)
        return 0;
    if (t->basic)
        return r % t->basic->size ? -1 : (long long)(r / t->basic->size);
    /* mixed types are layouts (basic types are their own t->basic) */
    size_t b = loom__dt_find_block(t, r);
    long long e = 0;
    if (t->kind == LOOM_DT_VECTOR) {
        r -= b * t->blen * t->child->size;
        e = (long long)(b * t->blen * t->child->nbasic);
    } else {
        r -= t->prefix[b];
        for (size_t i = 0; i < b; i++) {
            const struct loom_datatype *m = t->children ? t->children[i] : t->child;
            e += (long long)(t->blens[i] * m->nbasic);
        }
    }
    ptrdiff_t d;
    size_t n;
    const struct loom_datatype *m;
    loom__dt_block(t, b, &d, &n, &m);
    e += (long long)(r / m->size * m->nbasic);
    long long x = elements_in(m, r % m->size);
    return x < 0 ? -1 : e + x;
}

long long loom__dt_elements(const struct loom_datatype *t, size_t bytes)
{
    if (t->size == 0)
        return 0;
    long long x = elements_in(t, bytes % t->size);
    if (x < 0)
        return -1;
    return (long long)(bytes / t->size * t->nbasic) + x;
}

/* Bytes of the first e basic elements of one element of t (e <= t->nbasic). */
static size_t bytes_in(const struct loom_datatype *t, size_t e)
{
    if (e == t->nbasic)
        return t->size;
    if (e == 0)
        return 0;
    if (t->basic)
        return e * t->basic->size;
    size_t bytes = 0, b = 0;
    if (t->kind == LOOM_DT_VECTOR) {
        size_t per = t->blen * t->child->nbasic;
        b = e / per;
        bytes = b * t->blen * t->child->size;
        e -= b * per;
    } else {
        for (;; b++) {
            const struct loom_datatype *m = t->children ? t->children[b] : t->child;
            size_t per = t->blens[b] * m->nbasic;
            if (e < per)
                break;
            e -= per;
            bytes += t->blens[b] * m->size;
        }
    }
    ptrdiff_t d;
    size_t n;
    const struct loom_datatype *m;
    loom__dt_block(t, b, &d, &n, &m);
    return bytes + e / m->nbasic * m->size + bytes_in(m, e % m->nbasic);
}

size_t loom__dt_elements_bytes(const struct loom_datatype *t, size_t elements)
{
    if (t->nbasic == 0)
        return 0;
    return elements / t->nbasic * t->size + bytes_in(t, elements % t->nbasic);
}
