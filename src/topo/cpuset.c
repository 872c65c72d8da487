/* topo/cpuset.c — loom's CPU sets: a thin owner of an hwloc bitmap with loom's own text form.
 * The text form is ours rather than hwloc's list syntax because LOOM_BIND=user:... and
 * MPICH Hydra write one set per rank joined by '+', with ',' separating ranks; parsing is
 * strict (no spaces, no reversed ranges) so that a typo in a binding stops the job instead of
 * silently binding elsewhere. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "topo/hw.h"

/* Highest index a parsed set may hold: far above any node, low enough that a typo such as
 * "40000000000" cannot make us allocate a huge bitmap. */
#define MAX_INDEX 1048575L

struct loom_cpuset *loom__cpuset_new(void)
{
    struct loom_cpuset *s = malloc(sizeof(*s));
    if (!s)
        return NULL;
    s->bits = hwloc_bitmap_alloc();
    if (!s->bits) {
        free(s);
        return NULL;
    }
    return s;
}

struct loom_cpuset *loom__cpuset_dup(const struct loom_cpuset *s)
{
    struct loom_cpuset *d = malloc(sizeof(*d));
    if (!d)
        return NULL;
    d->bits = hwloc_bitmap_dup(s->bits);
    if (!d->bits) {
        free(d);
        return NULL;
    }
    return d;
}

void loom__cpuset_free(struct loom_cpuset *s)
{
    if (!s)
        return;
    hwloc_bitmap_free(s->bits);
    free(s);
}

/* Read a decimal index at *p into *v and advance *p; -1 if none or out of range. */
static int number(const char **p, long *v)
{
    const char *q = *p;
    long n = 0;
    if (!isdigit((unsigned char)*q))
        return -1;
    while (isdigit((unsigned char)*q)) {
        n = n * 10 + (*q - '0');
        if (n > MAX_INDEX)
            return -1;
        q++;
    }
    *p = q;
    *v = n;
    return 0;
}

int loom__cpuset_parse(struct loom_cpuset *s, const char *text)
{
    if (!s || !text || !*text)
        return -1;
    hwloc_bitmap_t b = hwloc_bitmap_alloc();
    if (!b)
        return -1;
    const char *p = text;
    for (;;) {
        long lo, hi;
        if (number(&p, &lo) < 0)
            goto out_with_bitmap;
        hi = lo;
        if (*p == '-') {
            p++;
            if (number(&p, &hi) < 0 || hi < lo)
                goto out_with_bitmap;
        }
        if (hwloc_bitmap_set_range(b, (unsigned)lo, (int)hi) < 0)
            goto out_with_bitmap;
        if (*p == '\0')
            break;
        if (*p != '+' && *p != ',')
            goto out_with_bitmap;
        p++;
    }
    if (hwloc_bitmap_copy(s->bits, b) < 0)
        goto out_with_bitmap;
    hwloc_bitmap_free(b);
    return 0;
out_with_bitmap:
    hwloc_bitmap_free(b);
    return -1;
}

int loom__cpuset_format(const struct loom_cpuset *s, char *buf, size_t len)
{
    if (!s || (!buf && len) || hwloc_bitmap_weight(s->bits) < 0)
        return -1;
    size_t total = 0;
    char piece[48];
    if (len)
        buf[0] = '\0';
    int i = hwloc_bitmap_first(s->bits);
    while (i >= 0) {
        int j = i;
        while (hwloc_bitmap_isset(s->bits, (unsigned)j + 1))
            j++;
        int n = j > i ? snprintf(piece, sizeof(piece), "%s%d-%d", total ? "," : "", i, j)
                      : snprintf(piece, sizeof(piece), "%s%d", total ? "," : "", i);
        /* copy what fits, keep counting what does not (snprintf's contract) */
        for (int k = 0; k < n; k++, total++)
            if (total + 1 < len) {
                buf[total] = piece[k];
                buf[total + 1] = '\0';
            }
        i = hwloc_bitmap_next(s->bits, j);
    }
    return (int)total;
}

int loom__cpuset_weight(const struct loom_cpuset *s)
{
    return hwloc_bitmap_weight(s->bits);
}

int loom__cpuset_first(const struct loom_cpuset *s)
{
    return hwloc_bitmap_first(s->bits);
}

int loom__cpuset_is_subset(const struct loom_cpuset *sub, const struct loom_cpuset *super)
{
    return hwloc_bitmap_isincluded(sub->bits, super->bits) ? 1 : 0;
}

int loom__cpuset_equal(const struct loom_cpuset *a, const struct loom_cpuset *b)
{
    return hwloc_bitmap_isequal(a->bits, b->bits) ? 1 : 0;
}

int loom__cpuset_intersects(const struct loom_cpuset *a, const struct loom_cpuset *b)
{
    return hwloc_bitmap_intersects(a->bits, b->bits) ? 1 : 0;
}

void loom__cpuset_or(struct loom_cpuset *dst, const struct loom_cpuset *src)
{
    hwloc_bitmap_or(dst->bits, dst->bits, src->bits);
}

int loom__cpuset_only(struct loom_cpuset *s, int i)
{
    if (i < 0)
        return -1;
    return hwloc_bitmap_only(s->bits, (unsigned)i) < 0 ? -1 : 0;
}
