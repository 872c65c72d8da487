/* tests/dt/test_big.c — a vector of 1M single ints: the type takes constant memory (no list
 * of a million blocks), copies to and from a contiguous buffer are right, also from the
 * middle of the stream; an indexed type of many blocks is found by binary search. */
#include <malloc.h>
#include "dt_check.h"

#define N (1u << 20)

int main(void)
{
    struct mallinfo2 before = mallinfo2();
    struct loom_datatype *v = dt_hvector(N, 1, 3 * sizeof(int), &loom_mpi_int);
    struct mallinfo2 after = mallinfo2();
    CHECK_INT(loom__dt_footprint(v), 0);
    CHECK(after.uordblks - before.uordblks < 4096);
    CHECK_INT(v->size, (long long)N * 4);
    CHECK_INT(v->extent, (long long)(N - 1) * 12 + 4);
    CHECK_INT(v->nblocks, N);

    int *strided = malloc((size_t)N * 3 * sizeof(int));
    int *flat = malloc((size_t)N * sizeof(int));
    if (!strided || !flat)
        return 1;
    for (unsigned k = 0; k < N * 3; k++)
        strided[k] = (int)k;
    loom__dt_pack(flat, strided, v, 1, 0, (size_t)N * 4);
    int bad = 0;
    for (unsigned k = 0; k < N && bad < 5; k++)
        if (flat[k] != (int)(3 * k)) {
            fprintf(stderr, "flat[%u]: got %d, expected %u\n", k, flat[k], 3 * k);
            bad++;
        }
    dt_failures += bad;

    /* from the middle: a range starting and ending inside ints */
    char *full = malloc((size_t)N * 4);
    memcpy(full, flat, (size_t)N * 4);
    memset(flat, 0, (size_t)N * 4);
    size_t off = 500000 * 4 + 2, len = 1000 * 4;
    loom__dt_pack(flat, strided, v, 1, off, len);
    CHECK(memcmp((char *)flat + off, full + off, len) == 0);
    char zero[8] = {0};
    CHECK(memcmp((char *)flat + off - 2, zero, 2) == 0);   /* before the range */
    CHECK(memcmp((char *)flat + off + len, zero, 8) == 0); /* after it */
    free(full);

    /* back: unpack into a zeroed strided buffer, the gaps stay zero */
    for (unsigned k = 0; k < N; k++)
        flat[k] = (int)k + 1;
    memset(strided, 0, (size_t)N * 3 * sizeof(int));
    loom__dt_unpack(strided, v, 1, flat, 0, (size_t)N * 4);
    bad = 0;
    for (unsigned k = 0; k < N * 3 && bad < 5; k++) {
        int want = k % 3 ? 0 : (int)(k / 3) + 1;
        if (strided[k] != want) {
            fprintf(stderr, "strided[%u]: got %d, expected %d\n", k, strided[k], want);
            bad++;
        }
    }
    dt_failures += bad;

    /* an indexed type of 100000 blocks of 1..3 ints with gaps: its footprint is its blocks,
     * and a copy from any offset lands right */
    enum { B = 100000 };
    size_t *bl = malloc(B * sizeof(size_t));
    ptrdiff_t *d = malloc(B * sizeof(ptrdiff_t));
    size_t *first = malloc(B * sizeof(size_t)); /* stream index of each block's first int */
    ptrdiff_t at = 0;
    size_t ints = 0;
    for (size_t b = 0; b < B; b++) {
        bl[b] = 1 + b % 3;
        d[b] = at;
        first[b] = ints;
        ints += bl[b];
        at += (ptrdiff_t)(bl[b] + 1) * 4;
    }
    struct loom_datatype *ix = dt_hindexed(B, bl, d, &loom_mpi_int);
    CHECK(loom__dt_footprint(ix) < B * 64);
    CHECK_INT(ix->size, ints * 4);
    int *area = calloc((size_t)at / 4, sizeof(int));
    for (size_t b = 0; b < B; b++)
        for (size_t j = 0; j < bl[b]; j++)
            area[d[b] / 4 + (ptrdiff_t)j] = (int)(first[b] + j);
    int *packed = malloc(ints * sizeof(int));
    unsigned long long seed = 12345;
    for (int round = 0; round < 200; round++) {
        size_t k = dt_rand(&seed) % ints, n = 1 + dt_rand(&seed) % 50;
        if (k + n > ints)
            n = ints - k;
        memset(packed + k, 0xff, n * 4);
        loom__dt_pack(packed, area, ix, 1, k * 4, n * 4);
        for (size_t j = 0; j < n; j++)
            if (packed[k + j] != (int)(k + j)) {
                fprintf(stderr, "indexed from int %zu: int %zu got %d\n", k, j, packed[k + j]);
                dt_failures++;
                break;
            }
    }
    loom__dt_free(ix);
    free(area);
    free(bl);
    free(d);
    free(first);
    free(packed);
    loom__dt_free(v);
    free(strided);
    free(flat);
    return dt_result();
}
