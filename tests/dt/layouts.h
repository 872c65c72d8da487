/* tests/dt/layouts.h — the layouts the copy tests move data between: each is 24 ints in
 * `count` elements of a type built by the engine, with the byte offsets of those ints
 * computed here from the type's parameters, without the engine (the reference). Buffers are
 * addressed from the middle of a large area so negative displacements stay inside. */
#ifndef LOOM_TESTS_DT_LAYOUTS_H
#define LOOM_TESTS_DT_LAYOUTS_H
#include "dt_check.h"

#define NINTS 24
#define AREA 8192    /* bytes of each test buffer */
#define ORIGIN 4096  /* where the buffer address points inside the area */
#define NLAYOUTS 13

static struct dt_ref layouts[NLAYOUTS];

static void add(int i, const char *name, struct loom_datatype *t, size_t count)
{
    layouts[i].name = name;
    layouts[i].type = t;
    layouts[i].count = count;
    layouts[i].nints = 0;
    layouts[i].off = calloc(NINTS, sizeof(ptrdiff_t));
}

static void put(int i, ptrdiff_t off)
{
    struct dt_ref *r = &layouts[i];
    if (r->nints < NINTS)
        r->off[r->nints] = off;
    r->nints++;
}

static void build_layouts(void)
{
    struct loom_datatype *INT = &loom_mpi_int;
    int i = 0;

    /* 0: 24 MPI_INT */
    add(i, "int x24", INT, 24);
    for (int k = 0; k < 24; k++)
        put(i, 4 * k);
    i++;

    /* 1: vector(6, 2, 5 ints) x2: extent 5*20 + 8 = 108 */
    add(i, "vector", dt_hvector(6, 2, 20, INT), 2);
    for (int e = 0; e < 2; e++)
        for (int b = 0; b < 6; b++)
            for (int j = 0; j < 2; j++)
                put(i, e * 108 + b * 20 + j * 4);
    i++;

    /* 2: hvector(4, 3, -16) x2: lb -48, ub 12, extent 60 */
    add(i, "negative stride", dt_hvector(4, 3, -16, INT), 2);
    for (int e = 0; e < 2; e++)
        for (int b = 0; b < 4; b++)
            for (int j = 0; j < 3; j++)
                put(i, e * 60 - b * 16 + j * 4);
    i++;

    /* 3: indexed {3,1,4,2,2} at ints {10,0,4,20,15} x2: extent 22 ints */
    {
        size_t bl[] = {3, 1, 4, 2, 2};
        ptrdiff_t d[] = {40, 0, 16, 80, 60};
        add(i, "indexed", dt_hindexed(5, bl, d, INT), 2);
        for (int e = 0; e < 2; e++)
            for (int b = 0; b < 5; b++)
                for (size_t j = 0; j < bl[b]; j++)
                    put(i, e * 88 + d[b] + 4 * (ptrdiff_t)j);
    }
    i++;

    /* 4: struct { int[2] at 0; contig(3) at 12; vector(2,1,2) at 40; int at 60 } x3:
     * 8 ints, extent 64 */
    {
        struct loom_datatype *c3 = dt_contig(3, INT), *v = dt_hvector(2, 1, 8, INT);
        size_t bl[] = {2, 1, 1, 1};
        ptrdiff_t d[] = {0, 12, 40, 60};
        struct loom_datatype *ty[] = {INT, c3, v, INT};
        add(i, "struct", dt_struct(4, bl, d, ty), 3);
        loom__dt_free(c3);
        loom__dt_free(v);
        for (int e = 0; e < 3; e++) {
            int b = e * 64;
            put(i, b), put(i, b + 4);
            put(i, b + 12), put(i, b + 16), put(i, b + 20);
            put(i, b + 40), put(i, b + 48);
            put(i, b + 60);
        }
    }
    i++;

    /* 5: subarray C {6,8} sub {3,4} starts {2,1} x2: extent 192 */
    {
        int sz[] = {6, 8}, sub[] = {3, 4}, st[] = {2, 1};
        add(i, "subarray C", dt_subarray(2, sz, sub, st, MPI_ORDER_C, INT), 2);
        for (int e = 0; e < 2; e++)
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 4; c++)
                    put(i, e * 192 + ((st[0] + r) * 8 + st[1] + c) * 4);
    }
    i++;

    /* 6: a column of a 4x6 matrix, resized to one int: x6 walks the transpose */
    {
        struct loom_datatype *col = dt_hvector(4, 1, 24, INT);
        add(i, "resized column", dt_resized(col, 0, 4), 6);
        loom__dt_free(col);
        for (int e = 0; e < 6; e++)
            for (int r = 0; r < 4; r++)
                put(i, e * 4 + r * 24);
    }
    i++;

    /* 7: hvector(2, 1, 100, vector(3, 2, 3 ints)) x2: inner extent 32, outer 132 */
    {
        struct loom_datatype *in = dt_hvector(3, 2, 12, INT);
        add(i, "nested vectors", dt_hvector(2, 1, 100, in), 2);
        loom__dt_free(in);
        for (int e = 0; e < 2; e++)
            for (int o = 0; o < 2; o++)
                for (int b = 0; b < 3; b++)
                    for (int j = 0; j < 2; j++)
                        put(i, e * 132 + o * 100 + b * 12 + j * 4);
    }
    i++;

    /* 8: contig(3) resized to extent 20 (dense, not contiguous) x8 */
    {
        struct loom_datatype *c3 = dt_contig(3, INT);
        add(i, "dense resized", dt_resized(c3, 0, 20), 8);
        loom__dt_free(c3);
        for (int e = 0; e < 8; e++)
            for (int j = 0; j < 3; j++)
                put(i, e * 20 + j * 4);
    }
    i++;

    /* 9: subarray Fortran {5,4,3} sub {2,3,2} starts {1,0,1} x2: extent 240 */
    {
        int sz[] = {5, 4, 3}, sub[] = {2, 3, 2}, st[] = {1, 0, 1};
        add(i, "subarray Fortran", dt_subarray(3, sz, sub, st, MPI_ORDER_FORTRAN, INT), 2);
        for (int e = 0; e < 2; e++)
            for (int z = 0; z < 2; z++)
                for (int y = 0; y < 3; y++)
                    for (int x = 0; x < 2; x++)
                        put(i, e * 240 + (((st[2] + z) * 4 + st[1] + y) * 5 + st[0] + x) * 4);
    }
    i++;

    /* 10: indexed_block(2) at ints {0,2,6,9,12,20} (first two merge) x2: extent 22 ints */
    {
        size_t bl[] = {2, 2, 2, 2, 2, 2};
        ptrdiff_t d[] = {0, 8, 24, 36, 48, 80};
        add(i, "indexed block", dt_hindexed(6, bl, d, INT), 2);
        for (int e = 0; e < 2; e++)
            for (int b = 0; b < 6; b++)
                for (int j = 0; j < 2; j++)
                    put(i, e * 88 + d[b] + 4 * j);
    }
    i++;

    /* 11: vector of a struct of two ints 12 bytes apart (struct not dense): hvector(3, 2,
     * 40, s) x2; s extent 16 (ints at 0 and 12); vector extent 2*40 + 32 = 112 */
    {
        size_t bl[] = {1, 1};
        ptrdiff_t d[] = {0, 12};
        struct loom_datatype *ty[] = {INT, INT};
        struct loom_datatype *s = dt_struct(2, bl, d, ty);
        add(i, "vector of struct", dt_hvector(3, 2, 40, s), 2);
        loom__dt_free(s);
        for (int e = 0; e < 2; e++)
            for (int b = 0; b < 3; b++)
                for (int j = 0; j < 2; j++)
                    put(i, e * 112 + b * 40 + j * 16), put(i, e * 112 + b * 40 + j * 16 + 12);
    }
    i++;

    /* 12: indexed with blocks out of memory order and a negative displacement, of a dense
     * resized int (extent 8): blocks {2 at -24, 3 at 40, 1 at 0} x4: lb -24, ub 64 */
    {
        struct loom_datatype *r = dt_resized(INT, 0, 8);
        size_t bl[] = {2, 3, 1};
        ptrdiff_t d[] = {-24, 40, 0};
        add(i, "indexed of resized", dt_hindexed(3, bl, d, r), 4);
        loom__dt_free(r);
        for (int e = 0; e < 4; e++)
            for (int b = 0; b < 3; b++)
                for (size_t j = 0; j < bl[b]; j++)
                    put(i, e * 88 + d[b] + 8 * (ptrdiff_t)j);
    }
    i++;

    for (int k = 0; k < NLAYOUTS; k++) {
        if (layouts[k].nints != NINTS) {
            fprintf(stderr, "layout %s has %zu ints, expected %d\n", layouts[k].name,
                    layouts[k].nints, NINTS);
            exit(1);
        }
        if (loom__dt_stream_size(layouts[k].type, layouts[k].count) != NINTS * sizeof(int)) {
            fprintf(stderr, "layout %s: engine size %zu, expected %zu\n", layouts[k].name,
                    loom__dt_stream_size(layouts[k].type, layouts[k].count),
                    NINTS * sizeof(int));
            exit(1);
        }
        layouts[k].type->committed = 1;
    }
}

static void free_layouts(void)
{
    for (int k = 0; k < NLAYOUTS; k++) {
        if (!layouts[k].type->predefined)
            loom__dt_free(layouts[k].type);
        free(layouts[k].off);
    }
}

/* A source area: every byte a function of its position, so misplaced bytes show. */
static void fill_source(unsigned char *area)
{
    for (int k = 0; k < AREA; k++)
        area[k] = (unsigned char)(k * 7 + 3);
}
#endif
