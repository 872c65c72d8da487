/* Types with more than 2^31 elements or displacements beyond 2^31 bytes, built by the
 * big-count constructors (nothing is accessed: the types are far larger than the buffers
 * a test may have). Their sizes and bounds come back exactly through the _c queries; the
 * int MPI_Type_size answers MPI_UNDEFINED for a size beyond an int, MPI_Type_get_extent
 * (MPI_Aint) the same bounds as _c; the pack sizes come back through MPI_Pack_size_c and
 * MPI_Pack_external_size_c, and MPI_Pack_size answers MPI_ERR_VALUE_TOO_LARGE. Every rank
 * runs the same checks. */
#include "dt_common.h"

#define BIG ((MPI_Count)1 << 31) /* 2^31 = INT_MAX + 1 */

/* t has (lb, extent, true lb, true extent, size) through every query form. */
static void shape_is(MPI_Datatype t, MPI_Count lb, MPI_Count ex, MPI_Count tlb, MPI_Count tex,
                     MPI_Count size)
{
    MPI_Count a, b;
    OK(MPI_Type_get_extent_c(t, &a, &b));
    CHECK_INT(a, lb);
    CHECK_INT(b, ex);
    OK(MPI_Type_get_true_extent_c(t, &a, &b));
    CHECK_INT(a, tlb);
    CHECK_INT(b, tex);
    MPI_Aint al, ae;
    OK(MPI_Type_get_extent(t, &al, &ae));
    CHECK_INT(al, lb);
    CHECK_INT(ae, ex);
    OK(MPI_Type_get_true_extent(t, &al, &ae));
    CHECK_INT(al, tlb);
    CHECK_INT(ae, tex);
    MPI_Count cs;
    OK(MPI_Type_size_c(t, &cs));
    CHECK_INT(cs, size);
    OK(MPI_Type_size_x(t, &cs));
    CHECK_INT(cs, size);
    int s = 0;
    OK(MPI_Type_size(t, &s));
    CHECK_INT(s, size > INT_MAX ? MPI_UNDEFINED : size);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Datatype t, u;

    /* 2^31 + 7 bytes in one contiguous type */
    OK(MPI_Type_contiguous_c(BIG + 7, MPI_BYTE, &t));
    shape_is(t, 0, BIG + 7, 0, BIG + 7, BIG + 7);
    OK(MPI_Type_commit(&t));
    MPI_Count ps;
    OK(MPI_Pack_size_c(1, t, MPI_COMM_WORLD, &ps));
    CHECK_INT(ps, BIG + 7);
    int ips = -1;
    EXPECT(MPI_Pack_size(1, t, MPI_COMM_WORLD, &ips), MPI_ERR_VALUE_TOO_LARGE);
    CHECK_INT(ips, -1); /* nothing written */
    OK(MPI_Pack_external_size_c("external32", 3, t, &ps));
    CHECK_INT(ps, 3 * (BIG + 7));
    OK(MPI_Type_free(&t));

    /* an int count of a type that makes the whole beyond an int */
    EXPECT(MPI_Pack_size(INT_MAX, MPI_INT, MPI_COMM_WORLD, &ips), MPI_ERR_VALUE_TOO_LARGE);
    OK(MPI_Pack_size_c(BIG + 1, MPI_INT, MPI_COMM_WORLD, &ps));
    CHECK_INT(ps, 4 * (BIG + 1));
    OK(MPI_Pack_size_c(INT_MAX, MPI_INT, MPI_COMM_WORLD, &ps));
    CHECK_INT(ps, 4 * (MPI_Count)INT_MAX);

    /* more than 2^31 blocks in a vector of ints, every other one */
    OK(MPI_Type_vector_c(BIG + 1, 1, 2, MPI_INT, &t));
    shape_is(t, 0, 4 * (2 * BIG + 1), 0, 4 * (2 * BIG + 1), 4 * (BIG + 1));
    /* ... and a vector of that: 3 x 2^31-odd blocks, the size beyond 2^34 */
    OK(MPI_Type_vector_c(3, 2, 5, t, &u));
    MPI_Count ex = 4 * (2 * BIG + 1);
    shape_is(u, 0, ex * (2 * 5 + 2), 0, ex * (2 * 5 + 2), 6 * 4 * (BIG + 1));
    OK(MPI_Type_free(&u));
    OK(MPI_Type_free(&t));

    /* a negative stride beyond an int: the bounds go below 0 */
    OK(MPI_Type_create_hvector_c(2, 1, -3 * BIG, MPI_DOUBLE, &t));
    shape_is(t, -3 * BIG, 3 * BIG + 8, -3 * BIG, 3 * BIG + 8, 16);
    OK(MPI_Type_free(&t));

    /* displacements beyond 2^31 bytes, and a block length beyond an int */
    MPI_Count bl[] = {1, BIG + 3}, d[] = {3 * BIG, 0};
    OK(MPI_Type_create_hindexed_c(2, bl, d, MPI_CHAR, &t));
    shape_is(t, 0, 3 * BIG + 1, 0, 3 * BIG + 1, BIG + 4);
    OK(MPI_Type_free(&t));
    MPI_Count idx[] = {BIG, 0};
    OK(MPI_Type_indexed_c(2, bl, idx, MPI_SHORT, &t)); /* displacements in extents */
    shape_is(t, 0, 2 * (BIG + 3), 0, 2 * (BIG + 3), 2 * (BIG + 4));
    OK(MPI_Type_free(&t));
    OK(MPI_Type_create_indexed_block_c(2, 2, idx, MPI_INT, &t));
    shape_is(t, 0, 4 * (BIG + 2), 0, 4 * (BIG + 2), 16);
    OK(MPI_Type_free(&t));
    OK(MPI_Type_create_hindexed_block_c(2, 2, d, MPI_INT, &t));
    shape_is(t, 0, 3 * BIG + 8, 0, 3 * BIG + 8, 16);
    OK(MPI_Type_free(&t));
    MPI_Datatype ty[] = {MPI_INT, MPI_CHAR};
    MPI_Count sbl[] = {1, BIG}, sd[] = {5 * BIG, 0};
    OK(MPI_Type_create_struct_c(2, sbl, sd, ty, &t));
    shape_is(t, 0, 5 * BIG + 4, 0, 5 * BIG + 4, BIG + 4); /* padded to the int's alignment */
    OK(MPI_Type_free(&t));

    /* resized beyond 2^31 */
    OK(MPI_Type_create_resized_c(MPI_INT, -BIG, 4 * BIG, &t));
    shape_is(t, -BIG, 4 * BIG, 0, 4, 4);
    OK(MPI_Type_free(&t));

    /* a subarray of a 2^31 x 3 array of ints: the last two rows */
    MPI_Count sizes[] = {BIG, 3}, subs[] = {2, 3}, starts[] = {BIG - 2, 0};
    OK(MPI_Type_create_subarray_c(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t));
    shape_is(t, 0, 12 * BIG, 12 * (BIG - 2), 24, 24);
    OK(MPI_Type_free(&t));

    /* a block-distributed array of 2^31 + 2 bytes over 2 processes: the second half */
    MPI_Count gs[] = {BIG + 2};
    int dist[] = {MPI_DISTRIBUTE_BLOCK}, darg[] = {MPI_DISTRIBUTE_DFLT_DARG}, psz[] = {2};
    OK(MPI_Type_create_darray_c(2, 1, 1, gs, dist, darg, psz, MPI_ORDER_C, MPI_BYTE, &t));
    shape_is(t, 0, BIG + 2, BIG / 2 + 1, BIG / 2 + 1, BIG / 2 + 1);
    OK(MPI_Type_free(&t));
    MPI_Finalize();
    return 0;
}
