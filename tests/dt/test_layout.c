/* tests/dt/test_layout.c — every constructor's size, lb, extent, true lb and true extent
 * against values computed by hand, and the flags (contig, dense) the copy engine relies on. */
#include "dt_check.h"

#define INT (&loom_mpi_int)
#define DBL (&loom_mpi_double)
#define CHR (&loom_mpi_char)

static void predefined(void)
{
    CHECK_SHAPE(INT, 0, 4, 0, 4, 4);
    CHECK(INT->contig && INT->predefined && INT->committed);
    CHECK_SHAPE(&loom_mpi_long_double, 0, (ptrdiff_t)sizeof(long double), 0,
                (ptrdiff_t)sizeof(long double), sizeof(long double));
    CHECK_SHAPE(&loom_mpi_c_double_complex, 0, 16, 0, 16, 16);
    CHECK_SHAPE(&loom_mpi_c_bool, 0, (ptrdiff_t)sizeof(_Bool), 0, (ptrdiff_t)sizeof(_Bool),
                sizeof(_Bool));
    /* pair types: the C struct's layout */
    CHECK_SHAPE(&loom_mpi_float_int, 0, 8, 0, 8, 8);
    CHECK(loom_mpi_float_int.contig);
    CHECK_SHAPE(&loom_mpi_double_int, 0, 16, 0, 12, 12);
    CHECK(!loom_mpi_double_int.contig && loom_mpi_double_int.dense);
    CHECK_SHAPE(&loom_mpi_long_int, 0, 16, 0, 12, 12);
    CHECK_SHAPE(&loom_mpi_short_int, 0, 8, 0, 8, 6);
    CHECK(!loom_mpi_short_int.dense && !loom_mpi_short_int.contig);
    CHECK_SHAPE(&loom_mpi_2int, 0, 8, 0, 8, 8);
    CHECK(loom_mpi_2int.contig);
    struct ldi {
        long double a;
        int b;
    };
    CHECK_SHAPE(&loom_mpi_long_double_int, 0, (ptrdiff_t)sizeof(struct ldi), 0,
                (ptrdiff_t)(offsetof(struct ldi, b) + sizeof(int)),
                sizeof(long double) + sizeof(int));
    CHECK(!loom_mpi_long_double_int.contig);
    CHECK_INT(loom_mpi_short_int.nbasic, 2);
    CHECK(loom_mpi_2int.basic == INT);
    CHECK(loom_mpi_double_int.basic == NULL);
    CHECK(loom_mpi_byte.basic == &loom_mpi_byte);
}

static void contiguous(void)
{
    struct loom_datatype *t = dt_contig(3, INT);
    CHECK_SHAPE(t, 0, 12, 0, 12, 12);
    CHECK(t->contig && !t->committed && !t->predefined);
    CHECK(t->basic == INT);
    CHECK_INT(t->nbasic, 3);
    loom__dt_free(t);

    t = dt_contig(0, INT);
    CHECK_SHAPE(t, 0, 0, 0, 0, 0);
    loom__dt_free(t);

    /* of a type with holes: extent multiples */
    struct loom_datatype *v = dt_hvector(2, 1, 12, INT); /* ints at 0 and 12, extent 16 */
    t = dt_contig(3, v);
    CHECK_SHAPE(t, 0, 48, 0, 48, 24);
    CHECK(!t->contig && !t->dense);
    loom__dt_free(t);
    loom__dt_free(v);
}

static void vectors(void)
{
    /* MPI_Type_vector(3, 2, 4, MPI_INT): blocks at 0, 16, 32, 8 bytes each */
    struct loom_datatype *t = dt_hvector(3, 2, 16, INT);
    CHECK_SHAPE(t, 0, 40, 0, 40, 24);
    CHECK(!t->contig && !t->dense);
    CHECK_INT(t->depth, 1);
    loom__dt_free(t);

    /* negative stride: blocks at 0, -8, -16 */
    t = dt_hvector(3, 1, -8, INT);
    CHECK_SHAPE(t, -16, 20, -16, 20, 12);
    loom__dt_free(t);

    /* a stride that tiles the blocks is contiguous */
    t = dt_hvector(4, 2, 8, INT);
    CHECK_SHAPE(t, 0, 32, 0, 32, 32);
    CHECK(t->contig);
    loom__dt_free(t);

    /* count 0 and blocklength 0 */
    t = dt_hvector(0, 3, 100, INT);
    CHECK_SHAPE(t, 0, 0, 0, 0, 0);
    loom__dt_free(t);
    t = dt_hvector(5, 0, 100, INT);
    CHECK_SHAPE(t, 0, 0, 0, 0, 0);
    loom__dt_free(t);

    /* of a resized type with an lb: MPI_Type_vector(2, 2, 3, r), r = (int, lb -4, ext 8) */
    struct loom_datatype *r = dt_resized(INT, -4, 8);
    t = dt_hvector(2, 2, 24, r);
    /* instances at 0, 8, 24, 32; lb -4, ub 32 + 4 = 36; data 0..36 */
    CHECK_SHAPE(t, -4, 40, 0, 36, 16);
    CHECK(t->marked);
    loom__dt_free(t);
    loom__dt_free(r);
}

static void indexed(void)
{
    /* MPI_Type_indexed(2, {2, 1}, {4, 0}, MPI_INT): ints at 16, 20, then 0 */
    size_t bl[] = {2, 1};
    ptrdiff_t d[] = {16, 0};
    struct loom_datatype *t = dt_hindexed(2, bl, d, INT);
    CHECK_SHAPE(t, 0, 24, 0, 24, 12);
    CHECK(!t->dense); /* stream order is not memory order */
    loom__dt_free(t);

    /* adjacent blocks merge: one block, contiguous */
    size_t bl2[] = {1, 2, 1};
    ptrdiff_t d2[] = {8, 12, 20};
    t = dt_hindexed(3, bl2, d2, INT);
    CHECK_SHAPE(t, 8, 16, 8, 16, 16);
    CHECK(t->contig);
    CHECK_INT(t->nblocks, 1);
    loom__dt_free(t);

    /* zero-length blocks do not count for the bounds */
    size_t bl3[] = {0, 1, 0};
    ptrdiff_t d3[] = {-100, 4, 100};
    t = dt_hindexed(3, bl3, d3, INT);
    CHECK_SHAPE(t, 4, 4, 4, 4, 4);
    loom__dt_free(t);
}

static void structs(void)
{
    /* struct { double; char; }: size 9, padded extent 16 */
    size_t bl[] = {1, 1};
    ptrdiff_t d[] = {0, 8};
    struct loom_datatype *ty[] = {DBL, CHR};
    struct loom_datatype *t = dt_struct(2, bl, d, ty);
    CHECK_SHAPE(t, 0, 16, 0, 9, 9);
    CHECK(t->dense && !t->contig);
    CHECK(t->basic == NULL);
    CHECK_INT(t->nbasic, 2);
    CHECK_INT(t->align, 8);
    loom__dt_free(t);

    /* struct { int; char; }: extent 8 */
    struct loom_datatype *ty2[] = {INT, CHR};
    ptrdiff_t d2[] = {0, 4};
    t = dt_struct(2, bl, d2, ty2);
    CHECK_SHAPE(t, 0, 8, 0, 5, 5);
    loom__dt_free(t);

    /* a marked member: bounds from it alone, no padding */
    struct loom_datatype *r = dt_resized(CHR, 0, 3);
    struct loom_datatype *ty3[] = {DBL, r};
    ptrdiff_t d3[] = {0, 8};
    t = dt_struct(2, bl, d3, ty3);
    CHECK_SHAPE(t, 8, 3, 0, 9, 9);
    loom__dt_free(t);
    loom__dt_free(r);

    /* same-typed struct members are one basic type */
    struct loom_datatype *ty4[] = {INT, INT};
    ptrdiff_t d4[] = {0, 8};
    t = dt_struct(2, bl, d4, ty4);
    CHECK(t->basic == INT);
    CHECK_SHAPE(t, 0, 12, 0, 12, 8);
    loom__dt_free(t);

    /* empty struct */
    t = dt_struct(0, bl, d, ty);
    CHECK_SHAPE(t, 0, 0, 0, 0, 0);
    loom__dt_free(t);
}

static void resized(void)
{
    struct loom_datatype *t = dt_resized(INT, -4, 16);
    CHECK_SHAPE(t, -4, 16, 0, 4, 4);
    CHECK(t->dense && !t->contig && t->marked);
    struct loom_datatype *u = dt_resized(t, 0, 4); /* back to a contiguous int */
    CHECK(u->contig);
    loom__dt_free(t); /* u shares t's layout and keeps it */
    CHECK_SHAPE(u, 0, 4, 0, 4, 4);
    loom__dt_free(u);
}

static void subarrays(void)
{
    int sizes[] = {4, 5}, sub[] = {2, 3}, starts[] = {1, 2};
    struct loom_datatype *t = dt_subarray(2, sizes, sub, starts, MPI_ORDER_C, INT);
    /* first element (1,2) -> int 7, last (2,4) -> int 14 */
    CHECK_SHAPE(t, 0, 80, 28, 32, 24);
    CHECK_INT(t->combiner, MPI_COMBINER_SUBARRAY);
    loom__dt_free(t);

    t = dt_subarray(2, sizes, sub, starts, MPI_ORDER_FORTRAN, INT);
    /* (i, j) at j*4 + i: first (1,2) -> 9, last (2,4) -> 18 */
    CHECK_SHAPE(t, 0, 80, 36, 40, 24);
    loom__dt_free(t);

    int s3[] = {3, 4, 5}, sub3[] = {3, 4, 5}, st3[] = {0, 0, 0};
    t = dt_subarray(3, s3, sub3, st3, MPI_ORDER_C, DBL);
    CHECK_SHAPE(t, 0, 480, 0, 480, 480);
    CHECK(t->contig);
    loom__dt_free(t);

    int sub0[] = {0, 3};
    t = dt_subarray(2, sizes, sub0, starts, MPI_ORDER_C, INT);
    CHECK_SHAPE(t, 0, 80, 0, 0, 0);
    loom__dt_free(t);
}

static void dup(void)
{
    struct loom_datatype *v = dt_hvector(3, 2, 16, INT), *t = NULL;
    v->committed = 1;
    CHECK_INT(loom__dt_dup(v, &t), 0);
    CHECK_SHAPE(t, 0, 40, 0, 40, 24);
    CHECK(t->committed);
    CHECK_INT(t->combiner, MPI_COMBINER_DUP);
    loom__dt_free(v);
    CHECK_SHAPE(t, 0, 40, 0, 40, 24);
    loom__dt_free(t);
}

static void refcounts(void)
{
    struct loom_datatype *v = dt_hvector(3, 2, 16, INT);
    struct loom_datatype *c = dt_contig(2, v);
    CHECK_INT(v->refs, 2); /* the user and c */
    loom__dt_retain(c);    /* an operation in flight */
    loom__dt_free(c);
    CHECK(!loom__dt_valid(c)); /* the handle is gone... */
    CHECK_INT(c->size, 48);    /* ...the type lives on for the operation */
    loom__dt_release(c);
    CHECK_INT(v->refs, 1);
    loom__dt_free(v);
    loom__dt_retain(INT); /* no-ops */
    loom__dt_release(INT);
    CHECK(loom__dt_valid(INT));
    const char *why = NULL;
    CHECK_INT(loom__dt_check_usable(NULL, &why), LOOM_ERR_TYPE);
    CHECK(why != NULL);
    struct loom_datatype *u = dt_contig(2, INT);
    CHECK_INT(loom__dt_check_usable(u, &why), LOOM_ERR_TYPE);
    u->committed = 1;
    CHECK_INT(loom__dt_check_usable(u, &why), 0);
    loom__dt_free(u);
    CHECK_INT(loom__dt_check_usable(u, &why), LOOM_ERR_TYPE);
}

static void elements(void)
{
    CHECK_INT(loom__dt_elements(&loom_mpi_short_int, 6), 2);
    CHECK_INT(loom__dt_elements(&loom_mpi_short_int, 2), 1);
    CHECK_INT(loom__dt_elements(&loom_mpi_short_int, 8), 3);
    CHECK_INT(loom__dt_elements(&loom_mpi_short_int, 3), -1);
    CHECK_INT(loom__dt_elements(&loom_mpi_short_int, 0), 0);
    CHECK_INT(loom__dt_elements(INT, 12), 3);
    CHECK_INT(loom__dt_elements(INT, 13), -1);

    /* struct { double; int[2] } x3: 16 bytes, 3 elements each */
    size_t bl[] = {1, 2};
    ptrdiff_t d[] = {0, 8};
    struct loom_datatype *ty[] = {DBL, INT};
    struct loom_datatype *s = dt_struct(2, bl, d, ty);
    struct loom_datatype *v = dt_hvector(3, 1, 32, s);
    CHECK_INT(v->size, 48);
    CHECK_INT(loom__dt_elements(v, 48), 9);
    CHECK_INT(loom__dt_elements(v, 48 + 16 + 8 + 4), 9 + 3 + 2);
    CHECK_INT(loom__dt_elements(v, 48 + 4), -1);
    CHECK_INT(loom__dt_elements_bytes(v, 9 + 3 + 2), 48 + 16 + 8 + 4);
    CHECK_INT(loom__dt_elements_bytes(v, 1), 8);
    CHECK_INT(loom__dt_elements_bytes(INT, 5), 20);
    CHECK_INT(loom__dt_elements_bytes(&loom_mpi_short_int, 3), 8);
    for (size_t e = 0; e < 30; e++)
        CHECK_INT(loom__dt_elements(v, loom__dt_elements_bytes(v, e)), e);
    struct loom_datatype *z = dt_contig(0, INT);
    CHECK_INT(loom__dt_elements(z, 0), 0);
    CHECK_INT(loom__dt_elements_bytes(z, 4), 0);
    loom__dt_free(z);
    loom__dt_free(v);
    loom__dt_free(s);
}

static void names(void)
{
    char buf[MPI_MAX_OBJECT_NAME];
    CHECK_INT(loom__dt_get_name(INT, buf), 7);
    CHECK(strcmp(buf, "MPI_INT") == 0);
    struct loom_datatype *t = dt_contig(2, INT);
    CHECK_INT(loom__dt_get_name(t, buf), 0);
    char longname[300];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    loom__dt_set_name(t, longname);
    CHECK_INT(loom__dt_get_name(t, buf), MPI_MAX_OBJECT_NAME - 1);
    loom__dt_free(t);
}

static void too_deep(void)
{
    /* non-dense nesting beyond the cursor's depth is refused, not crashed on */
    struct loom_datatype *t = dt_hvector(2, 1, 8, INT), *n = NULL;
    int rc = 0, levels = 1;
    while (rc == 0 && levels < LOOM_DT_MAX_DEPTH + 5) {
        /* struct { t; int with a gap; }: one level more each time */
        size_t bl[] = {1, 1};
        ptrdiff_t d[] = {0, t->extent + 4};
        struct loom_datatype *ty[] = {t, INT};
        rc = loom__dt_blocks(2, bl, d, ty, NULL, MPI_COMBINER_STRUCT, &n);
        if (rc == 0) {
            loom__dt_free(t);
            t = n;
            levels++;
        }
    }
    CHECK_INT(rc, LOOM_ERR_ARG);
    CHECK_INT(levels, LOOM_DT_MAX_DEPTH);
    loom__dt_free(t);
}

int main(void)
{
    predefined();
    contiguous();
    vectors();
    indexed();
    structs();
    resized();
    subarrays();
    dup();
    refcounts();
    elements();
    names();
    too_deep();
    return dt_result();
}
