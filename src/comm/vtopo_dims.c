/* comm/vtopo_dims.c — MPI_Dims_create: split nnodes into the free dimensions as evenly as
 * possible.
 *
 * "As close to each other as possible" is taken as: the smallest difference between the
 * largest and the smallest free dimension; among equals, the one with the smallest largest
 * dimension (so 8 in 2 dimensions is 4 x 2). The search places the dimensions largest first,
 * each a divisor of what is left and no larger than the one before, trying small divisors
 * first, and cuts branches that cannot beat the best found. The divisors of m number at most a few
 * thousand for any int, so this is cheap for any ndims. */
#include <stdlib.h>
#include "comm/vtopo.h"
#include "core/error.h"

struct search {
    const int *div; /* divisors of the number to split, increasing */
    int ndiv;
    int k;          /* free dimensions */
    int *cur, *best;
    int best_spread;
};

/* Place dimension `pos` (of s->k) for m left to split, each dimension <= maxd. */
static void place(struct search *s, int pos, int m, int maxd)
{
    int left = s->k - pos;
    if (left == 1) {
        if (m > maxd)
            return;
        s->cur[pos] = m;
        int spread = s->cur[0] - m;
        if (s->best_spread < 0 || spread < s->best_spread) {
            s->best_spread = spread;
            for (int i = 0; i < s->k; i++)
                s->best[i] = s->cur[i];
        }
        return;
    }
    for (int i = 0; i < s->ndiv; i++) {
        int d = s->div[i];
        if (d > maxd)
            break;
        if (m % d != 0)
            continue;
        /* d is the largest of the `left` remaining ones: d^left >= m */
        long long p = 1;
        for (int j = 0; j < left && p < m; j++)
            p *= d;
        if (p < m)
            continue;
        if (s->best_spread >= 0 && (pos > 0 ? s->cur[0] : d) - d > s->best_spread)
            continue; /* the smallest will be <= d: no better than the best */
        s->cur[pos] = d;
        place(s, pos + 1, m / d, d);
    }
}

int loom__vtopo_dims_create(int nnodes, int ndims, int *dims)
{
    int fixed = 1, k = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] > 0)
            fixed *= dims[i];
        else
            k++;
    }
    if (k == 0)
        return 0;
    int m = nnodes / fixed;
    int ndiv = 0;
    for (long long d = 1; d * d <= m; d++)
        if (m % d == 0)
            ndiv += d * d == m ? 1 : 2;
    int *div = malloc((size_t)ndiv * sizeof *div);   /* freed below */
    int *cur = malloc((size_t)k * 2 * sizeof *cur);  /* cur[k] then best[k]; freed below */
    if (div == NULL || cur == NULL) {
        free(div), free(cur);
        return LOOM_ERR_NOMEM;
    }
    int lo = 0, hi = ndiv - 1;
    for (long long d = 1; d * d <= m; d++) {
        if (m % d != 0)
            continue;
        div[lo++] = (int)d;
        if (d * d != m)
            div[hi--] = (int)(m / d);
    }
    struct search s = {div, ndiv, k, cur, cur + k, -1};
    place(&s, 0, m, m);
    for (int i = 0, j = 0; i < ndims; i++)
        if (dims[i] <= 0)
            dims[i] = s.best[j++];
    free(div), free(cur);
    return 0;
}
