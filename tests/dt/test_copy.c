/* tests/dt/test_copy.c — loom__dt_copy between every pair of layouts of the same signature
 * (contiguous, vectors, indexed, struct, subarrays, resized, nested), compared with a naive
 * int-by-int copy computed from offsets the test derives itself; the bytes the destination
 * type does not cover must stay untouched. */
#include "layouts.h"

static unsigned char src[AREA], dst[AREA], ref[AREA];

static void one_pair(const struct dt_ref *a, const struct dt_ref *b)
{
    memset(dst, 0xee, AREA);
    memset(ref, 0xee, AREA);
    loom__dt_copy(dst + ORIGIN, b->type, b->count, src + ORIGIN, a->type, a->count, 0,
                  NINTS * sizeof(int));
    dt_ref_copy((char *)ref + ORIGIN, b, (const char *)src + ORIGIN, a);
    if (memcmp(dst, ref, AREA) != 0) {
        size_t k = 0;
        while (dst[k] == ref[k])
            k++;
        fprintf(stderr, "copy %s -> %s: byte %td differs: got 0x%02x, expected 0x%02x\n",
                a->name, b->name, (ptrdiff_t)k - ORIGIN, dst[k], ref[k]);
        dt_failures++;
    }
}

/* A prefix of the stream only (a short message into a larger receive). */
static void prefix(const struct dt_ref *a, const struct dt_ref *b, size_t ints)
{
    memset(dst, 0xee, AREA);
    memset(ref, 0xee, AREA);
    loom__dt_copy(dst + ORIGIN, b->type, b->count, src + ORIGIN, a->type, a->count, 0,
                  ints * sizeof(int));
    for (size_t k = 0; k < ints; k++)
        memcpy(ref + ORIGIN + b->off[k], src + ORIGIN + a->off[k], sizeof(int));
    if (memcmp(dst, ref, AREA) != 0) {
        fprintf(stderr, "prefix of %zu ints %s -> %s differs\n", ints, a->name, b->name);
        dt_failures++;
    }
}

/* Two layouts with a mixed signature: struct { double; int; char[3]; } in C layout, and the
 * same members in another order in memory (stream order stays double, int, chars). */
static void mixed(void)
{
    struct rec {
        double d;
        int i;
        char c[3];
    } in[5], out[5];
    struct loom_datatype *ty[] = {&loom_mpi_double, &loom_mpi_int, &loom_mpi_char};
    size_t bl[] = {1, 1, 3};
    ptrdiff_t da[] = {offsetof(struct rec, d), offsetof(struct rec, i), offsetof(struct rec, c)};
    ptrdiff_t db[] = {16, 4, 8}; /* double at 16, int at 4, chars at 8..10: extent 24 */
    struct loom_datatype *a = dt_struct(3, bl, da, ty), *b = dt_struct(3, bl, db, ty);
    CHECK_INT(a->extent, (ptrdiff_t)sizeof(struct rec));
    CHECK_INT(b->lb, 4);
    CHECK_INT(b->extent, 24); /* 4..24 is 20, padded to a multiple of 8 */
    unsigned char mid[5 * 24 + 8];
    for (int k = 0; k < 5; k++) {
        in[k].d = k + 0.5;
        in[k].i = 100 + k;
        memcpy(in[k].c, "xyz", 3);
        in[k].c[0] = (char)('a' + k);
    }
    memset(mid, 0, sizeof mid);
    memset(out, 0, sizeof out);
    loom__dt_copy(mid, b, 5, in, a, 5, 0, 5 * 15);
    loom__dt_copy(out, a, 5, mid, b, 5, 0, 5 * 15);
    for (int k = 0; k < 5; k++) {
        double d;
        int i;
        memcpy(&d, mid + k * 24 + 16, sizeof d);
        memcpy(&i, mid + k * 24 + 4, sizeof i);
        CHECK(d == k + 0.5);
        CHECK_INT(i, 100 + k);
        CHECK_INT(mid[k * 24 + 8], 'a' + k);
        CHECK(out[k].d == in[k].d);
        CHECK_INT(out[k].i, in[k].i);
        CHECK(memcmp(out[k].c, in[k].c, 3) == 0);
    }
    loom__dt_free(a);
    loom__dt_free(b);
}

/* MPI_SHORT_INT (not dense) to the same stream packed, and back. */
static void short_int(void)
{
    struct si {
        short s;
        int i;
    } in[4], out[4];
    memset(in, 0, sizeof in);
    memset(out, 0, sizeof out);
    for (int k = 0; k < 4; k++) {
        in[k].s = (short)(k + 1);
        in[k].i = -k;
    }
    unsigned char packed[24];
    loom__dt_pack(packed, in, &loom_mpi_short_int, 4, 0, 24);
    for (int k = 0; k < 4; k++) {
        short s;
        int i;
        memcpy(&s, packed + 6 * k, 2);
        memcpy(&i, packed + 6 * k + 2, 4);
        CHECK_INT(s, k + 1);
        CHECK_INT(i, -k);
    }
    loom__dt_unpack(out, &loom_mpi_short_int, 4, packed, 0, 24);
    for (int k = 0; k < 4; k++) {
        CHECK_INT(out[k].s, k + 1);
        CHECK_INT(out[k].i, -k);
    }
}

int main(void)
{
    build_layouts();
    fill_source(src);
    for (int a = 0; a < NLAYOUTS; a++)
        for (int b = 0; b < NLAYOUTS; b++) {
            one_pair(&layouts[a], &layouts[b]);
            prefix(&layouts[a], &layouts[b], 7);
        }
    mixed();
    short_int();
    free_layouts();
    return dt_result();
}
