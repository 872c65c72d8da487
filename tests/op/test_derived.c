/* tests/op/test_derived.c — predefined operations on derived datatypes: applied element-wise
 * over the type's layout (vector, contiguous, resized, homogeneous struct, pairs in a
 * contiguous, data over several pack chunks, misaligned blocks), gaps left untouched; and the
 * rules: a type made of one basic type takes the operations of that type, a struct that mixes
 * types takes only REPLACE and NO_OP. */
#include <stdint.h>
#include "op_check.h"

#define INT (&loom_mpi_int)
#define DBL (&loom_mpi_double)

/* Fill a and b with distinct values, apply SUM over `count` of t, then check that exactly the
 * ints at offsets[0..n) changed (to a+b) and nothing else did. */
static void sum_ints(const char *what, struct loom_datatype *t, size_t count,
                     const size_t *offsets, size_t n, size_t nints)
{
    int a[256], b[256], b0[256];
    for (size_t i = 0; i < nints; i++) {
        a[i] = (int)(i * 3) - 100;
        b[i] = b0[i] = (int)(1000 + i);
    }
    loom__op_apply(&loom_mpi_sum, a, b, count, t);
    char touched[256] = {0};
    for (size_t k = 0; k < n; k++) {
        size_t i = offsets[k];
        touched[i] = 1;
        if (b[i] != a[i] + b0[i]) {
            fprintf(stderr, "%s: int %zu is %d, expected %d\n", what, i, b[i], a[i] + b0[i]);
            op_failures++;
        }
    }
    for (size_t i = 0; i < nints; i++) {
        if (!touched[i] && b[i] != b0[i]) {
            fprintf(stderr, "%s: gap int %zu changed to %d\n", what, i, b[i]);
            op_failures++;
        }
    }
}

static void vector_of_ints(void)
{
    /* MPI_Type_vector(3, 2, 4, MPI_INT): ints 0,1, 4,5, 8,9; extent 10 ints */
    struct loom_datatype *v = mk_hvector(3, 2, 4 * sizeof(int), INT);
    CHECK(loom__op_check(&loom_mpi_sum, v, NULL) == 0);
    CHECK(loom__op_check(&loom_mpi_bxor, v, NULL) == 0);
    size_t off[] = {0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19};
    sum_ints("vector(3,2,4) x2", v, 2, off, 12, 24);
    loom__dt_free(v);

    /* contiguous: the fast path */
    struct loom_datatype *c = mk_contig(3, INT);
    size_t offc[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    sum_ints("contiguous(3) x3", c, 3, offc, 9, 12);
    loom__dt_free(c);

    /* resized to 2 ints: dense elements with a gap, one loop per element */
    struct loom_datatype *r = mk_resized(INT, 0, 2 * sizeof(int));
    size_t offr[] = {0, 2, 4, 6, 8};
    sum_ints("resized(int, 8) x5", r, 5, offr, 5, 12);
    loom__dt_free(r);

    /* a struct of ints only: made of MPI_INT */
    size_t bl[2] = {1, 2};
    ptrdiff_t d[2] = {0, 3 * sizeof(int)};
    struct loom_datatype *ty[2] = {INT, INT};
    struct loom_datatype *s = mk_struct(2, bl, d, ty);
    CHECK(loom__op_check(&loom_mpi_prod, s, NULL) == 0);
    size_t offs[] = {0, 3, 4, 5, 8, 9};
    sum_ints("struct{int; int[2]} x2", s, 2, offs, 6, 12);
    loom__dt_free(s);

    /* blocks not aligned for int (stride 5 bytes): the packed path, memcpy only */
    struct loom_datatype *m = mk_hvector(4, 1, 5, INT);
    unsigned char ba[64], bb[64], b0[64];
    for (int i = 0; i < 64; i++) {
        ba[i] = (unsigned char)(i * 7);
        bb[i] = b0[i] = (unsigned char)(i * 13 + 1);
    }
    loom__op_apply(&loom_mpi_sum, ba + 1, bb + 1, 2, m);
    for (int e = 0; e < 8; e++) {
        size_t pos = 1 + (size_t)(e / 4) * (size_t)m->extent + (size_t)(e % 4) * 5;
        int x, y, z;
        memcpy(&x, ba + pos, 4);
        memcpy(&y, b0 + pos, 4);
        memcpy(&z, bb + pos, 4);
        if (z != (int)((unsigned)x + (unsigned)y)) {
            fprintf(stderr, "misaligned hvector: element %d is %d, expected %d\n", e, z,
                    (int)((unsigned)x + (unsigned)y));
            op_failures++;
        }
    }
    loom__dt_free(m);
}

/* More data than one pack chunk: a vector of 3000 doubles, every other one. */
static void big_vector(void)
{
    enum { NB = 3000 };
    static double a[2 * NB], b[2 * NB], b0[2 * NB];
    for (int i = 0; i < 2 * NB; i++) {
        a[i] = i * 0.5;
        b[i] = b0[i] = -i;
    }
    struct loom_datatype *v = mk_hvector(NB, 1, 2 * sizeof(double), DBL);
    loom__op_apply(&loom_mpi_sum, a, b, 1, v);
    for (int i = 0; i < 2 * NB; i++) {
        double want = i % 2 ? b0[i] : a[i] + b0[i];
        if (b[i] != want) {
            fprintf(stderr, "big vector: double %d is %g, expected %g\n", i, b[i], want);
            op_failures++;
            break;
        }
    }
    /* MAX over the same layout, and LAND is not defined on doubles */
    loom__op_apply(&loom_mpi_max, a, b, 1, v);
    CHECK(b[2] == a[2] && b[1] == b0[1]);
    const char *why = NULL;
    CHECK_INT(loom__op_check(&loom_mpi_land, v, &why), LOOM_ERR_OP);
    CHECK(why && strcmp(why, "MPI_LAND is not defined on a derived datatype made of MPI_DOUBLE")
                     == 0);
    loom__dt_free(v);
}

/* Pair types inside derived types: MINLOC/MAXLOC work, SUM does not; a contiguous of ints
 * does not take MINLOC. */
static void pairs(void)
{
    struct loom_datatype *c2 = mk_contig(2, &loom_mpi_2int);
    const char *why = NULL;
    CHECK(loom__op_check(&loom_mpi_minloc, c2, NULL) == 0);
    CHECK_INT(loom__op_check(&loom_mpi_sum, c2, &why), LOOM_ERR_OP);
    CHECK(why && strstr(why, "MPI_SUM is not defined on a derived datatype made of MPI_2INT"));
    int a[8] = {5, 1, 3, 9, 2, 2, 7, 7}, b[8] = {4, 8, 3, 4, 2, 1, 6, 0};
    loom__op_apply(&loom_mpi_minloc, a, b, 2, c2);
    int want[8] = {4, 8, 3, 4, 2, 1, 6, 0};
    /* (5,1)vs(4,8)->(4,8); (3,9)vs(3,4)->(3,4); (2,2)vs(2,1)->(2,1); (7,7)vs(6,0)->(6,0) */
    for (int i = 0; i < 8; i++)
        CHECK_INT(b[i], want[i]);
    loom__dt_free(c2);

    struct loom_datatype *ci = mk_contig(2, INT);
    CHECK_INT(loom__op_check(&loom_mpi_maxloc, ci, &why), LOOM_ERR_OP);
    CHECK(why && strstr(why, "MPI_MAXLOC is not defined on a derived datatype made of MPI_INT"));
    loom__dt_free(ci);

    /* contiguous of MPI_DOUBLE_INT (padded to 16 bytes): the packed path */
    struct di {
        double v;
        int i;
    };
    struct loom_datatype *cd = mk_contig(3, &loom_mpi_double_int);
    struct di x[6], y[6];
    memset(x, 0, sizeof x);
    memset(y, 0, sizeof y);
    for (int k = 0; k < 6; k++) {
        x[k] = (struct di){k % 3 - 1.0, 10 + k};
        y[k] = (struct di){(k % 2) - 0.5 * (k == 4), 20 - k};
    }
    struct di y0[6];
    memcpy(y0, y, sizeof y);
    loom__op_apply(&loom_mpi_maxloc, x, y, 2, cd);
    for (int k = 0; k < 6; k++) {
        struct di w = x[k].v > y0[k].v ? x[k] : x[k].v < y0[k].v ? y0[k] : x[k];
        if (x[k].v == y0[k].v)
            w.i = x[k].i < y0[k].i ? x[k].i : y0[k].i;
        if (y[k].v != w.v || y[k].i != w.i) {
            fprintf(stderr, "contiguous of DOUBLE_INT: pair %d is (%g,%d), expected (%g,%d)\n",
                    k, y[k].v, y[k].i, w.v, w.i);
            op_failures++;
        }
    }
    loom__dt_free(cd);

    /* MPI_DOUBLE_INT resized to 32 bytes: one dense pair per element */
    struct loom_datatype *rd = mk_resized(&loom_mpi_double_int, 0, 2 * sizeof(struct di));
    memcpy(y, y0, sizeof y);
    loom__op_apply(&loom_mpi_minloc, x, y, 3, rd);
    for (int k = 0; k < 6; k++) {
        struct di w = y0[k];
        if (k % 2 == 0) {
            w = x[k].v < y0[k].v ? x[k] : y0[k];
            if (x[k].v == y0[k].v)
                w.i = x[k].i < y0[k].i ? x[k].i : y0[k].i;
        }
        if (y[k].v != w.v || y[k].i != w.i) {
            fprintf(stderr, "resized DOUBLE_INT: pair %d is (%g,%d), expected (%g,%d)\n", k,
                    y[k].v, y[k].i, w.v, w.i);
            op_failures++;
        }
    }
    loom__dt_free(rd);
}

/* A struct of an int and a double: only REPLACE and NO_OP. */
static void mixed_struct(void)
{
    struct id {
        int i;
        double d;
    };
    size_t bl[2] = {1, 1};
    ptrdiff_t d[2] = {offsetof(struct id, i), offsetof(struct id, d)};
    struct loom_datatype *ty[2] = {INT, DBL};
    struct loom_datatype *s = mk_struct(2, bl, d, ty);
    const char *why = NULL;
    for (int k = 0; k < LOOM_OP_NKINDS; k++) {
        int rc = loom__op_check(op_by_kind[k], s, &why);
        if (k == LOOM_OP_REPLACE || k == LOOM_OP_NO_OP)
            CHECK_INT(rc, 0);
        else
            CHECK_INT(rc, LOOM_ERR_OP);
    }
    CHECK(loom__op_check(&loom_mpi_sum, s, &why) == LOOM_ERR_OP && why &&
          strcmp(why, "MPI_SUM is not defined on a derived datatype that mixes several basic "
                      "types") == 0);
    struct id a[2] = {{1, 1.5}, {2, 2.5}}, b[2] = {{0, 0}, {0, 0}};
    loom__op_apply(&loom_mpi_no_op, a, b, 2, s);
    CHECK(b[1].i == 0 && b[1].d == 0);
    loom__op_apply(&loom_mpi_replace, a, b, 2, s);
    CHECK(b[0].i == 1 && b[0].d == 1.5 && b[1].i == 2 && b[1].d == 2.5);
    loom__dt_free(s);
}

int main(void)
{
    vector_of_ints();
    big_vector();
    pairs();
    mixed_struct();
    return op_result();
}
