/* Decoding the types the big-count constructors make: MPI_Type_get_envelope_c and
 * MPI_Type_get_contents_c give back the arguments (count-valued ones as large counts, MPI 4.1
 * 5.1.13), and rebuilding a type from them alone -- recursively through the returned member
 * types, with the _c constructor where the record has large counts and the int one where it
 * has none -- gives the original type map. Includes arguments beyond INT_MAX (types larger
 * than memory: only their bounds and sizes are compared), dups of large-count types, and the
 * int decoding calls' refusal of them. Datatype calls are local: every rank runs the same. */
#include "dt_common.h"

#define MAXN 64
#define BIG ((MPI_Count)INT_MAX + 9) /* beyond an int */

/* Rebuild t from its envelope and contents (_c forms); named types are themselves. Frees the
 * member handles get_contents_c returned. */
static MPI_Datatype rebuild(MPI_Datatype t)
{
    MPI_Count ni, na, nl, nd;
    int comb;
    OK(MPI_Type_get_envelope_c(t, &ni, &na, &nl, &nd, &comb));
    if (comb == MPI_COMBINER_NAMED) {
        CHECK_INT(ni + na + nl + nd, 0);
        return t;
    }
    CHECK(ni <= MAXN && na <= MAXN && nl <= MAXN && nd <= MAXN);
    int iv[MAXN];
    MPI_Aint av[MAXN];
    MPI_Count lc[MAXN];
    MPI_Datatype dv[MAXN], mv[MAXN];
    OK(MPI_Type_get_contents_c(t, ni, na, nl, nd, iv, av, lc, dv));
    for (int i = 0; i < nd; i++)
        mv[i] = rebuild(dv[i]);
    MPI_Datatype r = MPI_DATATYPE_NULL;
    int large = nl > 0;
    MPI_Count n = large ? lc[0] : iv[0];
    switch (comb) {
    case MPI_COMBINER_DUP:
        OK(MPI_Type_dup(mv[0], &r));
        break;
    case MPI_COMBINER_CONTIGUOUS:
        OK(large ? MPI_Type_contiguous_c(n, mv[0], &r)
                 : MPI_Type_contiguous(iv[0], mv[0], &r));
        break;
    case MPI_COMBINER_VECTOR:
        OK(large ? MPI_Type_vector_c(lc[0], lc[1], lc[2], mv[0], &r)
                 : MPI_Type_vector(iv[0], iv[1], iv[2], mv[0], &r));
        break;
    case MPI_COMBINER_HVECTOR:
        OK(large ? MPI_Type_create_hvector_c(lc[0], lc[1], lc[2], mv[0], &r)
                 : MPI_Type_create_hvector(iv[0], iv[1], av[0], mv[0], &r));
        break;
    case MPI_COMBINER_INDEXED:
        CHECK(large);
        OK(MPI_Type_indexed_c(n, lc + 1, lc + 1 + n, mv[0], &r));
        break;
    case MPI_COMBINER_HINDEXED:
        CHECK(large);
        OK(MPI_Type_create_hindexed_c(n, lc + 1, lc + 1 + n, mv[0], &r));
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        CHECK(large);
        OK(MPI_Type_create_indexed_block_c(n, lc[1], lc + 2, mv[0], &r));
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        CHECK(large);
        OK(MPI_Type_create_hindexed_block_c(n, lc[1], lc + 2, mv[0], &r));
        break;
    case MPI_COMBINER_STRUCT:
        CHECK(large);
        OK(MPI_Type_create_struct_c(n, lc + 1, lc + 1 + n, mv, &r));
        break;
    case MPI_COMBINER_SUBARRAY: {
        CHECK(large && ni == 2);
        int k = iv[0];
        OK(MPI_Type_create_subarray_c(k, lc, lc + k, lc + 2 * k, iv[1], mv[0], &r));
        break;
    }
    case MPI_COMBINER_DARRAY: {
        CHECK(large);
        int k = iv[2];
        OK(MPI_Type_create_darray_c(iv[0], iv[1], k, lc, iv + 3, iv + 3 + k, iv + 3 + 2 * k,
                                    iv[3 + 3 * k], mv[0], &r));
        break;
    }
    case MPI_COMBINER_RESIZED:
        OK(large ? MPI_Type_create_resized_c(mv[0], lc[0], lc[1], &r)
                 : MPI_Type_create_resized(mv[0], av[0], av[1], &r));
        break;
    default:
        CHECK_INT(comb, -1);
    }
    for (int i = 0; i < nd; i++) {
        int k;
        MPI_Count a, b, c, e;
        OK(MPI_Type_get_envelope_c(dv[i], &a, &b, &c, &e, &k));
        if (mv[i] != dv[i])
            OK(MPI_Type_free(&mv[i]));
        if (k != MPI_COMBINER_NAMED)
            OK(MPI_Type_free(&dv[i]));
    }
    return r;
}

/* t's _c envelope is (ni, na, nl, nd, comb), the int calls refuse it when nl > 0, and
 * rebuilding it from its contents gives its type map (`small`: compared byte by byte, else
 * its bounds and size only). Frees t. */
static void round_trip(MPI_Datatype t, MPI_Count ni, MPI_Count na, MPI_Count nl, MPI_Count nd,
                       int comb, int small)
{
    envelope_c_is(t, ni, na, nl, nd, comb);
    int a, b, c, k;
    if (nl > 0)
        EXPECT(MPI_Type_get_envelope(t, &a, &b, &c, &k), MPI_ERR_TYPE);
    else {
        OK(MPI_Type_get_envelope(t, &a, &b, &c, &k));
        CHECK(a == ni && b == na && c == nd && k == comb);
    }
    MPI_Datatype r = rebuild(t);
    envelope_c_is(r, ni, na, nl, nd, comb);
    if (small)
        same_map(t, r);
    else
        same_shape(r, t);
    OK(MPI_Type_free(&r));
    OK(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Datatype t, u, v;
    int iv[MAXN];
    MPI_Aint av[MAXN];
    MPI_Count lc[MAXN];
    MPI_Datatype dv[MAXN];

    /* every _c constructor records large counts whatever their values, also those whose
     * two forms share one implementation */
    OK(MPI_Type_contiguous_c(3, MPI_INT, &t));
    OK(MPI_Type_get_contents_c(t, 0, 0, 1, 1, iv, av, lc, dv));
    CHECK(lc[0] == 3 && dv[0] == MPI_INT);
    round_trip(t, 0, 0, 1, 1, MPI_COMBINER_CONTIGUOUS, 1);
    OK(MPI_Type_vector_c(3, 2, -4, MPI_SHORT, &t));
    round_trip(t, 0, 0, 3, 1, MPI_COMBINER_VECTOR, 1);
    OK(MPI_Type_create_hvector_c(4, 1, 24, MPI_DOUBLE, &t));
    OK(MPI_Type_get_contents_c(t, 0, 0, 3, 1, iv, av, lc, dv));
    CHECK(lc[0] == 4 && lc[1] == 1 && lc[2] == 24);
    round_trip(t, 0, 0, 3, 1, MPI_COMBINER_HVECTOR, 1);
    OK(MPI_Type_create_resized_c(MPI_INT, 4, 12, &t));
    round_trip(t, 0, 0, 2, 1, MPI_COMBINER_RESIZED, 1);
    /* their int forms record integers and addresses */
    OK(MPI_Type_create_hvector(4, 1, 24, MPI_DOUBLE, &t));
    round_trip(t, 2, 1, 0, 1, MPI_COMBINER_HVECTOR, 1);
    OK(MPI_Type_create_resized(MPI_INT, 4, 12, &t));
    round_trip(t, 0, 2, 0, 1, MPI_COMBINER_RESIZED, 1);

    MPI_Count bl[] = {2, 0, 3}, d[] = {5, 1, 0}, ad[] = {40, 0, 13};
    OK(MPI_Type_indexed_c(3, bl, d, MPI_INT, &t));
    OK(MPI_Type_get_contents_c(t, 0, 0, 7, 1, iv, av, lc, dv));
    CHECK(lc[0] == 3 && lc[1] == 2 && lc[3] == 3 && lc[4] == 5 && lc[6] == 0 && dv[0] == MPI_INT);
    round_trip(t, 0, 0, 7, 1, MPI_COMBINER_INDEXED, 1);
    OK(MPI_Type_create_hindexed_c(3, bl, ad, MPI_CHAR, &t));
    round_trip(t, 0, 0, 7, 1, MPI_COMBINER_HINDEXED, 1);
    OK(MPI_Type_create_indexed_block_c(3, 2, d, MPI_FLOAT, &t));
    OK(MPI_Type_get_contents_c(t, 0, 0, 5, 1, iv, av, lc, dv));
    CHECK(lc[0] == 3 && lc[1] == 2 && lc[2] == 5 && lc[3] == 1 && lc[4] == 0);
    round_trip(t, 0, 0, 5, 1, MPI_COMBINER_INDEXED_BLOCK, 1);
    OK(MPI_Type_create_hindexed_block_c(3, 1, ad, MPI_INT, &t));
    round_trip(t, 0, 0, 5, 1, MPI_COMBINER_HINDEXED_BLOCK, 1);

    /* a struct of large-count members: the members come back as new handles that decode
     * with the _c calls too, and stay valid once the originals are freed */
    MPI_Count three[] = {0, 4, 8};
    OK(MPI_Type_indexed_c(3, bl, three, MPI_INT, &u));
    OK(MPI_Type_create_resized_c(MPI_CHAR, -2, 6, &v));
    MPI_Datatype ty[] = {u, v, MPI_DOUBLE_INT};
    MPI_Count sbl[] = {1, 3, 2}, sd[] = {0, 80, 104};
    OK(MPI_Type_create_struct_c(3, sbl, sd, ty, &t));
    OK(MPI_Type_free(&u));
    OK(MPI_Type_free(&v));
    OK(MPI_Type_get_contents_c(t, 0, 0, 7, 3, iv, av, lc, dv));
    CHECK(lc[0] == 3 && lc[1] == 1 && lc[3] == 2 && lc[4] == 0 && lc[5] == 80 && lc[6] == 104);
    CHECK(dv[2] == MPI_DOUBLE_INT);
    envelope_c_is(dv[0], 0, 0, 7, 1, MPI_COMBINER_INDEXED);
    envelope_c_is(dv[1], 0, 0, 2, 1, MPI_COMBINER_RESIZED);
    OK(MPI_Type_free(&dv[0]));
    OK(MPI_Type_free(&dv[1]));
    round_trip(t, 0, 0, 7, 3, MPI_COMBINER_STRUCT, 1);

    MPI_Count sizes[] = {5, 6, 7}, subs[] = {2, 3, 1}, starts[] = {1, 0, 4};
    OK(MPI_Type_create_subarray_c(3, sizes, subs, starts, MPI_ORDER_FORTRAN, MPI_SHORT, &t));
    OK(MPI_Type_get_contents_c(t, 2, 0, 9, 1, iv, av, lc, dv));
    CHECK(iv[0] == 3 && iv[1] == MPI_ORDER_FORTRAN && lc[0] == 5 && lc[3] == 2 && lc[8] == 4);
    round_trip(t, 2, 0, 9, 1, MPI_COMBINER_SUBARRAY, 1);

    MPI_Count gs[] = {7, 5};
    int dist[] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK},
        darg[] = {2, MPI_DISTRIBUTE_DFLT_DARG}, ps[] = {3, 2};
    OK(MPI_Type_create_darray_c(6, 4, 2, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &t));
    OK(MPI_Type_get_contents_c(t, 10, 0, 2, 1, iv, av, lc, dv));
    CHECK(iv[0] == 6 && iv[1] == 4 && iv[2] == 2 && iv[3] == MPI_DISTRIBUTE_CYCLIC &&
          iv[6] == MPI_DISTRIBUTE_DFLT_DARG && iv[7] == 3 && iv[9] == MPI_ORDER_C);
    CHECK(lc[0] == 7 && lc[1] == 5);
    round_trip(t, 10, 0, 2, 1, MPI_COMBINER_DARRAY, 1);

    /* a dup of a large-count type: the dup itself decodes with the int calls (no counts),
     * its member is a new handle on the large-count type */
    OK(MPI_Type_indexed_c(3, bl, d, MPI_INT, &u));
    OK(MPI_Type_dup(u, &t));
    OK(MPI_Type_free(&u));
    int ni, na, nd, comb;
    OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    CHECK(ni == 0 && na == 0 && nd == 1 && comb == MPI_COMBINER_DUP);
    OK(MPI_Type_get_contents(t, 0, 0, 1, iv, av, dv));
    EXPECT(MPI_Type_get_envelope(dv[0], &ni, &na, &nd, &comb), MPI_ERR_TYPE);
    OK(MPI_Type_free(&dv[0]));
    round_trip(t, 0, 0, 0, 1, MPI_COMBINER_DUP, 1);

    /* arguments beyond INT_MAX (types far larger than memory; nothing is accessed) */
    OK(MPI_Type_contiguous_c(BIG, MPI_BYTE, &t));
    OK(MPI_Type_get_contents_c(t, 0, 0, 1, 1, iv, av, lc, dv));
    CHECK_INT(lc[0], BIG);
    round_trip(t, 0, 0, 1, 1, MPI_COMBINER_CONTIGUOUS, 0);
    OK(MPI_Type_vector_c(BIG, 1, 2, MPI_INT, &t));
    round_trip(t, 0, 0, 3, 1, MPI_COMBINER_VECTOR, 0);
    OK(MPI_Type_vector_c(2, 1, BIG, MPI_INT, &t)); /* a stride beyond an int */
    round_trip(t, 0, 0, 3, 1, MPI_COMBINER_VECTOR, 0);
    OK(MPI_Type_create_hvector_c(3, BIG, 1, MPI_CHAR, &t));
    OK(MPI_Type_get_contents_c(t, 0, 0, 3, 1, iv, av, lc, dv));
    CHECK(lc[0] == 3 && lc[1] == BIG && lc[2] == 1);
    round_trip(t, 0, 0, 3, 1, MPI_COMBINER_HVECTOR, 0);
    MPI_Count far[] = {0, 4 * BIG}, ones[] = {1, 1};
    OK(MPI_Type_create_hindexed_c(2, ones, far, MPI_INT, &t));
    round_trip(t, 0, 0, 5, 1, MPI_COMBINER_HINDEXED, 0);
    MPI_Count bigsizes[] = {BIG, 4}, bigsubs[] = {2, 4}, bigstarts[] = {BIG - 2, 0};
    OK(MPI_Type_create_subarray_c(2, bigsizes, bigsubs, bigstarts, MPI_ORDER_C, MPI_INT, &t));
    round_trip(t, 2, 0, 6, 1, MPI_COMBINER_SUBARRAY, 0);
    MPI_Count biggs[] = {BIG};
    int bdist[] = {MPI_DISTRIBUTE_BLOCK}, bdarg[] = {MPI_DISTRIBUTE_DFLT_DARG}, bps[] = {2};
    OK(MPI_Type_create_darray_c(2, 1, 1, biggs, bdist, bdarg, bps, MPI_ORDER_C, MPI_BYTE, &t));
    round_trip(t, 7, 0, 1, 1, MPI_COMBINER_DARRAY, 0);
    MPI_Finalize();
    return 0;
}
