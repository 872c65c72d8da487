/* tests/dt/test_chunks.c — one message split into random chunks, copied in random order
 * (each chunk starts its cursor mid-stream), must equal the whole copy; the same for pack and
 * unpack of random ranges, and pack then unpack must give back the data. */
#include "layouts.h"

static unsigned char src[AREA], whole[AREA], dst[AREA];
static unsigned long long seed = 0x9e3779b97f4a7c15ull;

#define TOTAL (NINTS * sizeof(int))

/* Cut [0, TOTAL) into random pieces (1..13 bytes, not aligned to ints) in shuffled order. */
static size_t cut(size_t *off, size_t *len)
{
    size_t n = 0;
    for (size_t at = 0; at < TOTAL; n++) {
        size_t l = 1 + dt_rand(&seed) % 13;
        if (l > TOTAL - at)
            l = TOTAL - at;
        off[n] = at;
        len[n] = l;
        at += l;
    }
    for (size_t k = n; k > 1; k--) {
        size_t j = dt_rand(&seed) % k, o = off[k - 1], l = len[k - 1];
        off[k - 1] = off[j];
        len[k - 1] = len[j];
        off[j] = o;
        len[j] = l;
    }
    return n;
}

static void chunks(const struct dt_ref *a, const struct dt_ref *b)
{
    size_t off[TOTAL], len[TOTAL];
    memset(whole, 0xee, AREA);
    loom__dt_copy(whole + ORIGIN, b->type, b->count, src + ORIGIN, a->type, a->count, 0, TOTAL);
    for (int round = 0; round < 3; round++) {
        memset(dst, 0xee, AREA);
        size_t n = cut(off, len);
        for (size_t k = 0; k < n; k++)
            loom__dt_copy(dst + ORIGIN, b->type, b->count, src + ORIGIN, a->type, a->count,
                          off[k], len[k]);
        if (memcmp(dst, whole, AREA) != 0) {
            fprintf(stderr, "chunked copy %s -> %s differs from the whole copy\n", a->name,
                    b->name);
            dt_failures++;
            return;
        }
    }
}

static void pack_unpack(const struct dt_ref *a)
{
    unsigned char packed[TOTAL], expect[TOTAL], chunked[TOTAL];
    for (size_t k = 0; k < NINTS; k++)
        memcpy(expect + 4 * k, src + ORIGIN + a->off[k], 4);
    loom__dt_pack(packed, src + ORIGIN, a->type, a->count, 0, TOTAL);
    if (memcmp(packed, expect, TOTAL) != 0) {
        fprintf(stderr, "pack of %s differs from the reference\n", a->name);
        dt_failures++;
    }
    size_t off[TOTAL], len[TOTAL];
    memset(chunked, 0, TOTAL);
    size_t n = cut(off, len);
    for (size_t k = 0; k < n; k++)
        loom__dt_pack(chunked, src + ORIGIN, a->type, a->count, off[k], len[k]);
    if (memcmp(chunked, expect, TOTAL) != 0) {
        fprintf(stderr, "chunked pack of %s differs from the reference\n", a->name);
        dt_failures++;
    }
    /* unpack in chunks into a fresh area: the type's bytes come back, nothing else moves */
    memset(dst, 0xee, AREA);
    memset(whole, 0xee, AREA);
    for (size_t k = 0; k < NINTS; k++)
        memcpy(whole + ORIGIN + a->off[k], src + ORIGIN + a->off[k], 4);
    n = cut(off, len);
    for (size_t k = 0; k < n; k++)
        loom__dt_unpack(dst + ORIGIN, a->type, a->count, packed, off[k], len[k]);
    if (memcmp(dst, whole, AREA) != 0) {
        fprintf(stderr, "unpack of %s does not give the data back\n", a->name);
        dt_failures++;
    }
}

int main(void)
{
    build_layouts();
    fill_source(src);
    for (int a = 0; a < NLAYOUTS; a++) {
        pack_unpack(&layouts[a]);
        for (int b = 0; b < NLAYOUTS; b++)
            chunks(&layouts[a], &layouts[b]);
    }
    free_layouts();
    return dt_result();
}
