/* MPI_Type_get_envelope / MPI_Type_get_contents for every constructor: the envelope's counts
 * and combiner, the contents as passed, and a rebuild of the type from its contents alone
 * (recursively, through the returned member types) whose type map -- compared by packing a
 * buffer of distinct bytes and by its bounds -- is the original's. Returned derived types are
 * new handles: they stay valid after the originals are freed, and are freed by the test.
 * Datatype calls are local: every rank runs the same checks. */
#include <mpi.h>
#include "comm_check.h"

#define MAXN 64

/* Rebuild a type from its envelope and contents; predefined (named) types are themselves.
 * Frees the member handles get_contents returned. */
static MPI_Datatype rebuild(MPI_Datatype t)
{
    int ni, na, nd, comb;
    OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    if (comb == MPI_COMBINER_NAMED) {
        CHECK_INT(ni + na + nd, 0);
        return t;
    }
    CHECK(ni <= MAXN && na <= MAXN && nd <= MAXN);
    int iv[MAXN];
    MPI_Aint av[MAXN];
    MPI_Datatype dv[MAXN], mv[MAXN];
    OK(MPI_Type_get_contents(t, ni, na, nd, iv, av, dv));
    for (int i = 0; i < nd; i++)
        mv[i] = rebuild(dv[i]);
    MPI_Datatype r = MPI_DATATYPE_NULL;
    switch (comb) {
    case MPI_COMBINER_DUP:
        OK(MPI_Type_dup(mv[0], &r));
        break;
    case MPI_COMBINER_CONTIGUOUS:
        OK(MPI_Type_contiguous(iv[0], mv[0], &r));
        break;
    case MPI_COMBINER_VECTOR:
        OK(MPI_Type_vector(iv[0], iv[1], iv[2], mv[0], &r));
        break;
    case MPI_COMBINER_HVECTOR:
        OK(MPI_Type_create_hvector(iv[0], iv[1], av[0], mv[0], &r));
        break;
    case MPI_COMBINER_INDEXED:
        OK(MPI_Type_indexed(iv[0], iv + 1, iv + 1 + iv[0], mv[0], &r));
        break;
    case MPI_COMBINER_HINDEXED:
        OK(MPI_Type_create_hindexed(iv[0], iv + 1, av, mv[0], &r));
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        OK(MPI_Type_create_indexed_block(iv[0], iv[1], iv + 2, mv[0], &r));
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        OK(MPI_Type_create_hindexed_block(iv[0], iv[1], av, mv[0], &r));
        break;
    case MPI_COMBINER_STRUCT:
        OK(MPI_Type_create_struct(iv[0], iv + 1, av, mv, &r));
        break;
    case MPI_COMBINER_SUBARRAY: {
        int n = iv[0];
        OK(MPI_Type_create_subarray(n, iv + 1, iv + 1 + n, iv + 1 + 2 * n, iv[1 + 3 * n], mv[0],
                                    &r));
        break;
    }
    case MPI_COMBINER_DARRAY: {
        int n = iv[2];
        OK(MPI_Type_create_darray(iv[0], iv[1], n, iv + 3, iv + 3 + n, iv + 3 + 2 * n,
                                  iv + 3 + 3 * n, iv[3 + 4 * n], mv[0], &r));
        break;
    }
    case MPI_COMBINER_RESIZED:
        OK(MPI_Type_create_resized(mv[0], av[0], av[1], &r));
        break;
    case MPI_COMBINER_F90_INTEGER:
        OK(MPI_Type_create_f90_integer(iv[0], &r));
        break;
    case MPI_COMBINER_F90_REAL:
        OK(MPI_Type_create_f90_real(iv[0], iv[1], &r));
        break;
    case MPI_COMBINER_F90_COMPLEX:
        OK(MPI_Type_create_f90_complex(iv[0], iv[1], &r));
        break;
    default:
        CHECK_INT(comb, -1);
    }
    for (int i = 0; i < nd; i++) {
        /* predefined members come back as themselves; derived ones are handles to free */
        int mni, mna, mnd, mcomb;
        OK(MPI_Type_get_envelope(dv[i], &mni, &mna, &mnd, &mcomb));
        if (mv[i] != dv[i])
            OK(MPI_Type_free(&mv[i]));
        if (mcomb != MPI_COMBINER_NAMED && mcomb != MPI_COMBINER_F90_INTEGER &&
            mcomb != MPI_COMBINER_F90_REAL && mcomb != MPI_COMBINER_F90_COMPLEX)
            OK(MPI_Type_free(&dv[i]));
    }
    return r;
}

/* The type maps of a and b are the same: same bounds and size, and the same bytes packed
 * from a buffer where every byte differs from its neighbours. */
static void same_map(MPI_Datatype a, MPI_Datatype b)
{
    MPI_Aint lb1, ex1, lb2, ex2;
    OK(MPI_Type_get_extent(a, &lb1, &ex1));
    OK(MPI_Type_get_extent(b, &lb2, &ex2));
    CHECK_INT(lb2, lb1);
    CHECK_INT(ex2, ex1);
    OK(MPI_Type_get_true_extent(a, &lb1, &ex1));
    OK(MPI_Type_get_true_extent(b, &lb2, &ex2));
    CHECK_INT(lb2, lb1);
    CHECK_INT(ex2, ex1);
    int s1, s2;
    OK(MPI_Type_size(a, &s1));
    OK(MPI_Type_size(b, &s2));
    CHECK_INT(s2, s1);
    MPI_Datatype ca = a, cb = b;
    OK(MPI_Type_commit(&ca));
    OK(MPI_Type_commit(&cb));
    unsigned char src[8192], p1[4096], p2[4096]; /* not static: ranks are threads */
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(i * 7 + i / 251);
    CHECK(lb1 >= -1024 && lb1 + ex1 <= 4096 && 2 * s1 <= (int)sizeof p1);
    int pos1 = 0, pos2 = 0;
    OK(MPI_Pack(src + 2048, 2, ca, p1, sizeof p1, &pos1, MPI_COMM_WORLD));
    OK(MPI_Pack(src + 2048, 2, cb, p2, sizeof p2, &pos2, MPI_COMM_WORLD));
    CHECK_INT(pos2, pos1);
    CHECK(memcmp(p1, p2, (size_t)pos1) == 0);
}

/* t's envelope is (ni, na, nd, comb); rebuilding it from its contents gives its type map.
 * Frees t. */
static void round_trip(MPI_Datatype t, int ni, int na, int nd, int comb)
{
    int a, b, c, k;
    OK(MPI_Type_get_envelope(t, &a, &b, &c, &k));
    CHECK_INT(k, comb);
    CHECK_INT(a, ni);
    CHECK_INT(b, na);
    CHECK_INT(c, nd);
    MPI_Datatype r = rebuild(t);
    same_map(t, r);
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
    MPI_Datatype dv[MAXN];

    /* named: the envelope says so, contents are erroneous */
    int ni, na, nd, comb;
    OK(MPI_Type_get_envelope(MPI_DOUBLE_INT, &ni, &na, &nd, &comb));
    CHECK_INT(comb, MPI_COMBINER_NAMED);
    CHECK_INT(ni + na + nd, 0);
    CHECK_INT(MPI_Type_get_contents(MPI_INT, 0, 0, 0, iv, av, dv), MPI_ERR_ARG);

    OK(MPI_Type_contiguous(3, MPI_INT, &t));
    OK(MPI_Type_get_contents(t, 1, 0, 1, iv, av, dv));
    CHECK_INT(iv[0], 3);
    CHECK(dv[0] == MPI_INT); /* predefined: the handle itself */
    round_trip(t, 1, 0, 1, MPI_COMBINER_CONTIGUOUS);

    OK(MPI_Type_vector(3, 2, -4, MPI_SHORT, &t));
    OK(MPI_Type_get_contents(t, 3, 0, 1, iv, av, dv));
    CHECK(iv[0] == 3 && iv[1] == 2 && iv[2] == -4);
    round_trip(t, 3, 0, 1, MPI_COMBINER_VECTOR);

    OK(MPI_Type_create_hvector(4, 1, 24, MPI_DOUBLE, &t));
    OK(MPI_Type_get_contents(t, 2, 1, 1, iv, av, dv));
    CHECK(iv[0] == 4 && iv[1] == 1 && av[0] == 24);
    round_trip(t, 2, 1, 1, MPI_COMBINER_HVECTOR);

    int bl[] = {2, 0, 3}, d[] = {5, 1, 0};
    OK(MPI_Type_indexed(3, bl, d, MPI_INT, &t));
    OK(MPI_Type_get_contents(t, 7, 0, 1, iv, av, dv));
    CHECK(iv[0] == 3 && iv[1] == 2 && iv[2] == 0 && iv[3] == 3 && iv[4] == 5 && iv[6] == 0);
    round_trip(t, 7, 0, 1, MPI_COMBINER_INDEXED);

    MPI_Aint ad[] = {40, 0, 13};
    OK(MPI_Type_create_hindexed(3, bl, ad, MPI_CHAR, &t));
    round_trip(t, 4, 3, 1, MPI_COMBINER_HINDEXED);

    OK(MPI_Type_create_indexed_block(3, 2, d, MPI_FLOAT, &t));
    OK(MPI_Type_get_contents(t, 5, 0, 1, iv, av, dv));
    CHECK(iv[0] == 3 && iv[1] == 2 && iv[2] == 5 && iv[3] == 1 && iv[4] == 0);
    round_trip(t, 5, 0, 1, MPI_COMBINER_INDEXED_BLOCK);

    OK(MPI_Type_create_hindexed_block(3, 1, ad, MPI_INT, &t));
    round_trip(t, 2, 3, 1, MPI_COMBINER_HINDEXED_BLOCK);

    /* a struct of derived members: vector, resized and a predefined pair type */
    OK(MPI_Type_vector(2, 1, 3, MPI_INT, &u));
    OK(MPI_Type_create_resized(MPI_CHAR, -2, 6, &v));
    MPI_Datatype ty[] = {u, v, MPI_DOUBLE_INT};
    int sbl[] = {1, 3, 2};
    MPI_Aint sd[] = {0, 40, 64};
    OK(MPI_Type_create_struct(3, sbl, sd, ty, &t));
    OK(MPI_Type_get_contents(t, 4, 3, 3, iv, av, dv));
    CHECK(iv[0] == 3 && iv[1] == 1 && iv[2] == 3 && iv[3] == 2);
    CHECK(av[0] == 0 && av[1] == 40 && av[2] == 64);
    CHECK(dv[0] != u && dv[0] != MPI_DATATYPE_NULL); /* a new handle on the same type */
    CHECK(dv[2] == MPI_DOUBLE_INT);
    /* the originals go; the returned handles stay valid and describe the same types */
    OK(MPI_Type_free(&u));
    OK(MPI_Type_free(&v));
    OK(MPI_Type_get_envelope(dv[0], &ni, &na, &nd, &comb));
    CHECK_INT(comb, MPI_COMBINER_VECTOR);
    OK(MPI_Type_get_envelope(dv[1], &ni, &na, &nd, &comb));
    CHECK_INT(comb, MPI_COMBINER_RESIZED);
    OK(MPI_Type_get_contents(dv[1], 0, 2, 1, iv, av, &u));
    CHECK(av[0] == -2 && av[1] == 6 && u == MPI_CHAR);
    OK(MPI_Type_free(&dv[0]));
    OK(MPI_Type_free(&dv[1]));
    round_trip(t, 4, 3, 3, MPI_COMBINER_STRUCT);

    int sizes[] = {5, 6, 7}, subs[] = {2, 3, 1}, starts[] = {1, 0, 4};
    OK(MPI_Type_create_subarray(3, sizes, subs, starts, MPI_ORDER_FORTRAN, MPI_SHORT, &t));
    OK(MPI_Type_get_contents(t, 11, 0, 1, iv, av, dv));
    CHECK(iv[0] == 3 && iv[1] == 5 && iv[4] == 2 && iv[7] == 1 && iv[9] == 4 &&
          iv[10] == MPI_ORDER_FORTRAN);
    round_trip(t, 11, 0, 1, MPI_COMBINER_SUBARRAY);

    int gs[] = {7, 5}, dist[] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK},
        darg[] = {2, MPI_DISTRIBUTE_DFLT_DARG}, ps[] = {3, 2};
    OK(MPI_Type_create_darray(6, 4, 2, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &t));
    OK(MPI_Type_get_contents(t, 12, 0, 1, iv, av, dv));
    CHECK(iv[0] == 6 && iv[1] == 4 && iv[2] == 2 && iv[3] == 7 && iv[5] == MPI_DISTRIBUTE_CYCLIC &&
          iv[8] == MPI_DISTRIBUTE_DFLT_DARG && iv[9] == 3 && iv[11] == MPI_ORDER_C);
    round_trip(t, 12, 0, 1, MPI_COMBINER_DARRAY);

    OK(MPI_Type_create_resized(MPI_INT, 4, 12, &t));
    round_trip(t, 0, 2, 1, MPI_COMBINER_RESIZED);

    /* dup of a derived type: its member is a new handle on the original */
    OK(MPI_Type_contiguous(2, MPI_DOUBLE, &u));
    OK(MPI_Type_dup(u, &t));
    OK(MPI_Type_free(&u));
    round_trip(t, 0, 0, 1, MPI_COMBINER_DUP);

    /* f90 types: predefined, with their parameters */
    OK(MPI_Type_create_f90_integer(5, &t));
    OK(MPI_Type_get_contents(t, 1, 0, 0, iv, av, dv));
    CHECK_INT(iv[0], 5);
    OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_F90_INTEGER && ni == 1 && na == 0 && nd == 0);
    u = rebuild(t);
    CHECK(u == t); /* same parameters, same handle */
    OK(MPI_Type_create_f90_real(MPI_UNDEFINED, 200, &t));
    OK(MPI_Type_get_contents(t, 2, 0, 0, iv, av, dv));
    CHECK(iv[0] == MPI_UNDEFINED && iv[1] == 200);
    OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_F90_REAL && ni == 2 && na == 0 && nd == 0);
    CHECK(rebuild(t) == t);
    OK(MPI_Type_create_f90_complex(6, MPI_UNDEFINED, &t));
    OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_F90_COMPLEX && ni == 2);
    CHECK(rebuild(t) == t);

    /* a vector of an f90 type: the member comes back as the f90 handle itself */
    OK(MPI_Type_vector(2, 1, 2, t, &u));
    OK(MPI_Type_get_contents(u, 3, 0, 1, iv, av, dv));
    CHECK(dv[0] == t);
    round_trip(u, 3, 0, 1, MPI_COMBINER_VECTOR);

    /* too small arrays */
    OK(MPI_Type_contiguous(3, MPI_INT, &t));
    CHECK_INT(MPI_Type_get_contents(t, 0, 0, 1, iv, av, dv), MPI_ERR_ARG);
    CHECK_INT(MPI_Type_get_contents(t, 1, 0, 0, iv, av, dv), MPI_ERR_ARG);
    OK(MPI_Type_free(&t));
    MPI_Finalize();
    return 0;
}
