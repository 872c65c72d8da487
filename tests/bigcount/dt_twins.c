/* Every big-count constructor (MPI_Type_xxx_c) builds the type its int twin builds from the
 * same arguments: same bounds, size and type map, read through both forms of every query
 * (extent, true extent, size, pack, unpack, pack size) and through the external32 calls.
 * The envelope and contents: the int form's arguments as integers and addresses, the _c
 * form's count-valued arguments as large counts, in the same order (MPI 4.1 5.1.13), also
 * for the four constructors whose two forms share one implementation (contiguous, vector,
 * hvector, resized: it is told which call was made). Datatype calls are local: every rank
 * runs the same checks. */
#include "dt_common.h"

#define MAXN 32

/* a (int form) and b (_c form) of an indexed-family, subarray or darray constructor: b's
 * large counts are a's count-valued arguments, its integers the rest. */
static void large_twin(MPI_Datatype a, MPI_Datatype b, int comb)
{
    int ni, na, nd, k;
    OK(MPI_Type_get_envelope(a, &ni, &na, &nd, &k));
    CHECK_INT(k, comb);
    CHECK(ni <= MAXN && na <= MAXN && nd <= MAXN);
    int iv[MAXN], biv[MAXN];
    MPI_Aint av[MAXN], bav[MAXN];
    MPI_Count lc[MAXN];
    MPI_Datatype dv[MAXN], bdv[MAXN];
    OK(MPI_Type_get_contents(a, ni, na, nd, iv, av, dv));
    /* the int form's own type seen through the _c calls: no large counts */
    envelope_c_is(a, ni, na, 0, nd, comb);
    MPI_Count cni, cna, cnl, cnd;
    OK(MPI_Type_get_envelope_c(b, &cni, &cna, &cnl, &cnd, &k));
    CHECK_INT(k, comb);
    CHECK_INT(cnd, nd);
    CHECK_INT(cna, 0);
    OK(MPI_Type_get_contents_c(b, cni, cna, cnl, cnd, biv, bav, lc, bdv));
    if (comb == MPI_COMBINER_SUBARRAY) {
        int n = iv[0];
        CHECK_INT(cni, 2);
        CHECK_INT(cnl, 3 * n);
        CHECK_INT(biv[0], n);
        CHECK_INT(biv[1], iv[1 + 3 * n]);
        for (int i = 0; i < 3 * n; i++)
            CHECK_INT(lc[i], iv[1 + i]);
    } else if (comb == MPI_COMBINER_DARRAY) {
        int n = iv[2];
        CHECK_INT(cni, 3 * n + 4);
        CHECK_INT(cnl, n);
        for (int i = 0; i < 3; i++)
            CHECK_INT(biv[i], iv[i]);
        for (int i = 0; i < n; i++)
            CHECK_INT(lc[i], iv[3 + i]);
        for (int i = 0; i < 3 * n + 1; i++)
            CHECK_INT(biv[3 + i], iv[3 + n + i]);
    } else {
        /* count, block lengths, displacements: the int form splits them between integers
         * and addresses, the _c form keeps them all as large counts */
        CHECK_INT(cni, 0);
        CHECK_INT(cnl, ni + na);
        for (int i = 0; i < ni; i++)
            CHECK_INT(lc[i], iv[i]);
        for (int i = 0; i < na; i++)
            CHECK_INT(lc[ni + i], av[i]);
    }
    for (int i = 0; i < nd; i++) {
        CHECK(bdv[i] == dv[i] || comb == MPI_COMBINER_STRUCT);
        int e1, e2, e3, kk;
        OK(MPI_Type_get_envelope(dv[i], &e1, &e2, &e3, &kk));
        if (kk != MPI_COMBINER_NAMED) {
            OK(MPI_Type_free(&dv[i]));
            OK(MPI_Type_free(&bdv[i]));
        }
    }
    /* the int decoding calls cannot return large counts: they refuse b */
    EXPECT(MPI_Type_get_envelope(b, &ni, &na, &nd, &k), MPI_ERR_TYPE);
    EXPECT(MPI_Type_get_contents(b, MAXN, MAXN, MAXN, iv, av, dv), MPI_ERR_TYPE);
}

/* Build the pair, compare, free. */
#define TWIN(int_call, c_call, check)                                                         \
    do {                                                                                       \
        MPI_Datatype a_, b_;                                                                   \
        OK(int_call(&a_));                                                                     \
        OK(c_call(&b_));                                                                       \
        same_map(a_, b_);                                                                      \
        check;                                                                                 \
        OK(MPI_Type_free(&a_));                                                                \
        OK(MPI_Type_free(&b_));                                                                \
    } while (0)

/* External32: both forms of pack, unpack and size give the same bytes and values. */
static void external32(MPI_Datatype t)
{
    MPI_Datatype ct = t;
    OK(MPI_Type_commit(&ct));
    int v[64];
    for (int i = 0; i < 64; i++)
        v[i] = i * 1000003 - 7;
    MPI_Aint size;
    MPI_Count csize;
    OK(MPI_Pack_external_size("external32", 3, ct, &size));
    OK(MPI_Pack_external_size_c("external32", 3, ct, &csize));
    CHECK_INT(csize, size);
    CHECK(size > 0 && size <= 512);
    unsigned char p1[512], p2[512];
    MPI_Aint pos1 = 8;
    MPI_Count pos2 = 8;
    OK(MPI_Pack_external("external32", v, 3, ct, p1, sizeof p1, &pos1));
    OK(MPI_Pack_external_c("external32", v, 3, ct, p2, sizeof p2, &pos2));
    CHECK_INT(pos1, 8 + size);
    CHECK_INT(pos2, pos1);
    CHECK(memcmp(p1 + 8, p2 + 8, (size_t)size) == 0);
    int u1[64] = {0}, u2[64] = {0};
    pos1 = 8;
    pos2 = 8;
    OK(MPI_Unpack_external("external32", p1, sizeof p1, &pos1, u1, 3, ct));
    OK(MPI_Unpack_external_c("external32", p2, sizeof p2, &pos2, u2, 3, ct));
    CHECK_INT(pos2, pos1);
    CHECK(memcmp(u1, u2, sizeof u1) == 0);
    int any = 0;
    for (int i = 0; i < 64; i++)
        any |= u1[i] != 0;
    CHECK(any);
}

/* the constructors of each pair, as functions of the output handle */
static int contig(MPI_Datatype *t) { return MPI_Type_contiguous(3, MPI_INT, t); }
static int contig_c(MPI_Datatype *t) { return MPI_Type_contiguous_c(3, MPI_INT, t); }
static int vec(MPI_Datatype *t) { return MPI_Type_vector(3, 2, -4, MPI_SHORT, t); }
static int vec_c(MPI_Datatype *t) { return MPI_Type_vector_c(3, 2, -4, MPI_SHORT, t); }
static int hvec(MPI_Datatype *t) { return MPI_Type_create_hvector(4, 1, 24, MPI_DOUBLE, t); }
static int hvec_c(MPI_Datatype *t) { return MPI_Type_create_hvector_c(4, 1, 24, MPI_DOUBLE, t); }
static int rsz(MPI_Datatype *t) { return MPI_Type_create_resized(MPI_INT, -4, 12, t); }
static int rsz_c(MPI_Datatype *t) { return MPI_Type_create_resized_c(MPI_INT, -4, 12, t); }

static const int bl[] = {2, 0, 3}, d[] = {5, 1, 0};
static const MPI_Count cbl[] = {2, 0, 3}, cd[] = {5, 1, 0};
static const MPI_Aint ad[] = {40, 0, 13};
static const MPI_Count cad[] = {40, 0, 13};

static int idx(MPI_Datatype *t) { return MPI_Type_indexed(3, bl, d, MPI_INT, t); }
static int idx_c(MPI_Datatype *t) { return MPI_Type_indexed_c(3, cbl, cd, MPI_INT, t); }
static int hidx(MPI_Datatype *t) { return MPI_Type_create_hindexed(3, bl, ad, MPI_CHAR, t); }
static int hidx_c(MPI_Datatype *t) { return MPI_Type_create_hindexed_c(3, cbl, cad, MPI_CHAR, t); }
static int iblk(MPI_Datatype *t) { return MPI_Type_create_indexed_block(3, 2, d, MPI_FLOAT, t); }
static int iblk_c(MPI_Datatype *t)
{
    return MPI_Type_create_indexed_block_c(3, 2, cd, MPI_FLOAT, t);
}
static int hblk(MPI_Datatype *t) { return MPI_Type_create_hindexed_block(3, 1, ad, MPI_INT, t); }
static int hblk_c(MPI_Datatype *t)
{
    return MPI_Type_create_hindexed_block_c(3, 1, cad, MPI_INT, t);
}

static const int sizes[] = {5, 6, 7}, subs[] = {2, 3, 1}, starts[] = {1, 0, 4};
static const MPI_Count csizes[] = {5, 6, 7}, csubs[] = {2, 3, 1}, cstarts[] = {1, 0, 4};
static int sub(MPI_Datatype *t)
{
    return MPI_Type_create_subarray(3, sizes, subs, starts, MPI_ORDER_FORTRAN, MPI_SHORT, t);
}
static int sub_c(MPI_Datatype *t)
{
    return MPI_Type_create_subarray_c(3, csizes, csubs, cstarts, MPI_ORDER_FORTRAN, MPI_SHORT,
                                      t);
}
static int subc(MPI_Datatype *t)
{
    return MPI_Type_create_subarray(3, sizes, subs, starts, MPI_ORDER_C, MPI_INT, t);
}
static int subc_c(MPI_Datatype *t)
{
    return MPI_Type_create_subarray_c(3, csizes, csubs, cstarts, MPI_ORDER_C, MPI_INT, t);
}

static const int gs[] = {7, 5}, dist[] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK},
                 darg[] = {2, MPI_DISTRIBUTE_DFLT_DARG}, ps[] = {3, 2};
static const MPI_Count cgs[] = {7, 5};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    TWIN(contig, contig_c, large_twin(a_, b_, MPI_COMBINER_CONTIGUOUS));
    TWIN(vec, vec_c, large_twin(a_, b_, MPI_COMBINER_VECTOR));
    TWIN(hvec, hvec_c, large_twin(a_, b_, MPI_COMBINER_HVECTOR));
    TWIN(rsz, rsz_c, large_twin(a_, b_, MPI_COMBINER_RESIZED));

    TWIN(idx, idx_c, large_twin(a_, b_, MPI_COMBINER_INDEXED));
    TWIN(hidx, hidx_c, large_twin(a_, b_, MPI_COMBINER_HINDEXED));
    TWIN(iblk, iblk_c, large_twin(a_, b_, MPI_COMBINER_INDEXED_BLOCK));
    TWIN(hblk, hblk_c, large_twin(a_, b_, MPI_COMBINER_HINDEXED_BLOCK));
    TWIN(sub, sub_c, large_twin(a_, b_, MPI_COMBINER_SUBARRAY));
    TWIN(subc, subc_c, large_twin(a_, b_, MPI_COMBINER_SUBARRAY));

    /* darray: every grid position of a 3 x 2 grid */
    for (int r = 0; r < 6; r++) {
        MPI_Datatype a, b;
        OK(MPI_Type_create_darray(6, r, 2, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &a));
        OK(MPI_Type_create_darray_c(6, r, 2, cgs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &b));
        same_map(a, b);
        large_twin(a, b, MPI_COMBINER_DARRAY);
        OK(MPI_Type_free(&a));
        OK(MPI_Type_free(&b));
    }

    /* struct of derived members (a vector and a resized char) and a predefined pair type */
    MPI_Datatype u, v, a, b;
    OK(MPI_Type_vector(2, 1, 3, MPI_INT, &u));
    OK(MPI_Type_create_resized(MPI_CHAR, -2, 6, &v));
    MPI_Datatype ty[] = {u, v, MPI_DOUBLE_INT};
    int sbl[] = {1, 3, 2};
    MPI_Count csbl[] = {1, 3, 2}, csd[] = {0, 40, 64};
    MPI_Aint sd[] = {0, 40, 64};
    OK(MPI_Type_create_struct(3, sbl, sd, ty, &a));
    OK(MPI_Type_create_struct_c(3, csbl, csd, ty, &b));
    same_map(a, b);
    large_twin(a, b, MPI_COMBINER_STRUCT);
    OK(MPI_Type_free(&a));
    OK(MPI_Type_free(&b));
    OK(MPI_Type_free(&u));
    OK(MPI_Type_free(&v));

    /* external32 through both forms: a contiguous of ints and a struct of int and short */
    OK(MPI_Type_contiguous_c(5, MPI_INT, &a));
    external32(a);
    OK(MPI_Type_free(&a));
    int ebl[] = {2, 1};
    MPI_Aint ed[] = {0, 8};
    MPI_Datatype ety[] = {MPI_INT, MPI_SHORT};
    OK(MPI_Type_create_struct(2, ebl, ed, ety, &a));
    external32(a);
    OK(MPI_Type_free(&a));

    /* the predefined types: the same through both forms */
    same_map(MPI_DOUBLE, MPI_DOUBLE);
    same_map(MPI_SHORT_INT, MPI_SHORT_INT);
    envelope_c_is(MPI_INT, 0, 0, 0, 0, MPI_COMBINER_NAMED);
    MPI_Finalize();
    return 0;
}
