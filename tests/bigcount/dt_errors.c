/* The error classes of the big-count datatype and pack calls that the bad-argument walk
 * (tests/bindings) cannot reach: array entries, values that only the wide types can hold,
 * the int decoding calls on a large-count type, results that do not fit an int, positions.
 * Under MPI_ERRORS_RETURN; every rank runs the same checks. */
#include "dt_common.h"

#define BIG ((MPI_Count)1 << 31)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Count ok3[] = {1, 1, 1}, z3[] = {0, 4, 8}, neg[] = {1, -1, 1};

    /* counts and block lengths */
    EXPECT(MPI_Type_contiguous_c(-BIG, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_vector_c(2, -BIG, 1, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT(MPI_Type_create_hvector_c(-1, 1, 8, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_indexed_c(3, neg, z3, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT(MPI_Type_create_hindexed_c(3, neg, z3, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT(MPI_Type_create_indexed_block_c(3, -1, z3, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT(MPI_Type_create_hindexed_block_c(-3, 1, z3, MPI_INT, &t), MPI_ERR_COUNT);
    MPI_Datatype ty[] = {MPI_INT, MPI_DATATYPE_NULL, MPI_INT};
    EXPECT(MPI_Type_create_struct_c(3, ok3, z3, ty, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_create_struct_c(3, neg, z3, ty, &t), MPI_ERR_ARG);
    EXPECT(MPI_Type_indexed_c(3, NULL, z3, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT(MPI_Type_create_hindexed_c(3, ok3, NULL, MPI_INT, &t), MPI_ERR_ARG);
    CHECK(t == MPI_DATATYPE_NULL); /* nothing was made */

    /* sizes only the wide forms can express, beyond the address space */
    MPI_Count huge = (MPI_Count)1 << 61;
    EXPECT(MPI_Type_vector_c(2, 1, huge, MPI_DOUBLE, &t), MPI_ERR_ARG); /* stride * 8 */
    MPI_Count hd[] = {0, huge};
    EXPECT(MPI_Type_indexed_c(2, ok3, hd, MPI_DOUBLE, &t), MPI_ERR_ARG);
    EXPECT(MPI_Type_contiguous_c(huge, MPI_DOUBLE, &t), MPI_ERR_ARG);
    CHECK(t == MPI_DATATYPE_NULL);

    /* subarray and darray arrays */
    MPI_Count sz[] = {4, BIG}, sub[] = {2, 2}, st[] = {3, 0};
    EXPECT(MPI_Type_create_subarray_c(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    st[0] = 1;
    sz[1] = 0;
    EXPECT(MPI_Type_create_subarray_c(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    sz[1] = BIG;
    EXPECT(MPI_Type_create_subarray_c(0, sz, sub, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_DIMS);
    EXPECT(MPI_Type_create_subarray_c(2, sz, sub, st, 77, MPI_INT, &t), MPI_ERR_ARG);
    MPI_Count gs[] = {-5};
    int dist[] = {MPI_DISTRIBUTE_BLOCK}, darg[] = {MPI_DISTRIBUTE_DFLT_DARG}, ps[] = {2};
    EXPECT(MPI_Type_create_darray_c(2, 0, 1, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &t),
           MPI_ERR_ARG);
    gs[0] = BIG;
    int small[] = {4};
    EXPECT(MPI_Type_create_darray_c(2, 0, 1, gs, dist, small, ps, MPI_ORDER_C, MPI_INT, &t),
           MPI_ERR_ARG); /* blocks of 4 do not cover 2^31 elements */
    CHECK(t == MPI_DATATYPE_NULL);

    /* decoding: the int calls refuse a large-count type, the _c calls need room */
    OK(MPI_Type_indexed_c(3, ok3, z3, MPI_INT, &t));
    int ni, na, nd, comb, iv[8];
    MPI_Aint av[8];
    MPI_Count lc[8];
    MPI_Datatype dv[8];
    EXPECT(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb), MPI_ERR_TYPE);
    EXPECT(MPI_Type_get_contents(t, 8, 8, 8, iv, av, dv), MPI_ERR_TYPE);
    EXPECT(MPI_Type_get_contents_c(t, 8, 8, 6, 8, iv, av, lc, dv), MPI_ERR_ARG);
    EXPECT(MPI_Type_get_contents_c(t, 8, 8, 7, 0, iv, av, lc, dv), MPI_ERR_ARG);
    EXPECT(MPI_Type_get_contents_c(t, 8, 8, 7, 8, iv, av, NULL, dv), MPI_ERR_ARG);
    EXPECT(MPI_Type_get_contents_c(MPI_INT, 8, 8, 8, 8, iv, av, lc, dv), MPI_ERR_ARG);
    OK(MPI_Type_get_contents_c(t, 0, 0, 7, 1, NULL, NULL, lc, dv));
    MPI_Count cni, cna, cnl, cnd;
    EXPECT(MPI_Type_get_envelope_c(t, &cni, &cna, NULL, &cnd, &comb), MPI_ERR_ARG);
    /* the contiguous and vector forms record large counts when a value needs them */
    MPI_Datatype v;
    OK(MPI_Type_vector_c(2, 1, BIG, MPI_CHAR, &v));
    EXPECT(MPI_Type_get_envelope(v, &ni, &na, &nd, &comb), MPI_ERR_TYPE);
    OK(MPI_Type_get_envelope_c(v, &cni, &cna, &cnl, &cnd, &comb));
    CHECK(cni == 0 && cnl == 3 && comb == MPI_COMBINER_VECTOR);
    OK(MPI_Type_free(&v));

    /* pack and unpack: sizes, positions, truncation */
    OK(MPI_Type_commit(&t));
    char in[64] = {0}, out[64];
    MPI_Count pos = -1;
    EXPECT(MPI_Pack_c(in, 1, t, out, sizeof out, &pos, MPI_COMM_WORLD), MPI_ERR_ARG);
    pos = 60; /* 12 bytes do not fit after 60 of 64 */
    EXPECT(MPI_Pack_c(in, 1, t, out, sizeof out, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    CHECK_INT(pos, 60);
    pos = BIG; /* beyond the buffer */
    EXPECT(MPI_Pack_c(in, 1, t, out, sizeof out, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    pos = 0;
    EXPECT(MPI_Pack_c(in, huge, MPI_INT, out, sizeof out, &pos, MPI_COMM_WORLD),
           MPI_ERR_TRUNCATE); /* the stream does not even fit the address space */
    EXPECT(MPI_Pack_c(in, 1, t, out, -BIG, &pos, MPI_COMM_WORLD), MPI_ERR_ARG);
    EXPECT(MPI_Unpack_c(out, -1, &pos, in, 1, t, MPI_COMM_WORLD), MPI_ERR_ARG);
    pos = 56;
    EXPECT(MPI_Unpack_c(out, sizeof out, &pos, in, 1, t, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    EXPECT(MPI_Unpack_c(out, sizeof out, &pos, in, -BIG, t, MPI_COMM_WORLD), MPI_ERR_COUNT);
    pos = 0;
    OK(MPI_Pack_c(in, 1, t, out, sizeof out, &pos, MPI_COMM_WORLD));
    CHECK_INT(pos, 12);
    MPI_Count size;
    EXPECT(MPI_Pack_size_c(-1, t, MPI_COMM_WORLD, &size), MPI_ERR_COUNT);
    EXPECT(MPI_Pack_size_c(huge, MPI_INT, MPI_COMM_WORLD, &size), MPI_ERR_ARG);
    int isize;
    EXPECT(MPI_Pack_size(INT_MAX / 2, MPI_INT, MPI_COMM_WORLD, &isize),
           MPI_ERR_VALUE_TOO_LARGE);

    /* external32 */
    MPI_Count epos = -5;
    EXPECT(MPI_Pack_external_c("external32", in, 1, t, out, sizeof out, &epos), MPI_ERR_ARG);
    epos = 0;
    EXPECT(MPI_Pack_external_c("native", in, 1, t, out, sizeof out, &epos), MPI_ERR_ARG);
    EXPECT(MPI_Pack_external_c("external32", in, 1, t, out, -1, &epos), MPI_ERR_ARG);
    epos = BIG;
    EXPECT(MPI_Pack_external_c("external32", in, 1, t, out, sizeof out, &epos),
           MPI_ERR_TRUNCATE);
    EXPECT(MPI_Unpack_external_c("external32", out, sizeof out, &epos, in, 1, t),
           MPI_ERR_TRUNCATE);
    epos = 0;
    EXPECT(MPI_Unpack_external_c("external32", out, sizeof out, &epos, in, -1, t),
           MPI_ERR_COUNT);
    EXPECT(MPI_Pack_external_size_c("external32", -BIG, t, &size), MPI_ERR_COUNT);
    EXPECT(MPI_Pack_external_size_c("external32", huge, MPI_INT, &size), MPI_ERR_ARG);
    OK(MPI_Type_free(&t));
    MPI_Finalize();
    return 0;
}
