/* dt_common.h — helpers of the big-count datatype tests (dt_*.c): the two forms of a
 * constructor must build the same type, checked through both forms of every query. */
#ifndef LOOM_TESTS_BIGCOUNT_DT_COMMON_H
#define LOOM_TESTS_BIGCOUNT_DT_COMMON_H
#include <limits.h>
#include <string.h>
#include <mpi.h>
#include "class_check.h"
#include "comm_check.h"

/* Bounds and size of a and b agree, each read through the int, _x and _c queries. */
static inline void same_shape(MPI_Datatype a, MPI_Datatype b)
{
    MPI_Aint lb, ex, tlb, tex;
    MPI_Count clb, cex, xlb, xex;
    OK(MPI_Type_get_extent(a, &lb, &ex));
    OK(MPI_Type_get_extent_c(b, &clb, &cex));
    OK(MPI_Type_get_extent_x(b, &xlb, &xex));
    CHECK_INT(clb, lb);
    CHECK_INT(cex, ex);
    CHECK_INT(xlb, lb);
    CHECK_INT(xex, ex);
    OK(MPI_Type_get_true_extent(a, &tlb, &tex));
    OK(MPI_Type_get_true_extent_c(b, &clb, &cex));
    OK(MPI_Type_get_true_extent_x(b, &xlb, &xex));
    CHECK_INT(clb, tlb);
    CHECK_INT(cex, tex);
    CHECK_INT(xlb, tlb);
    CHECK_INT(xex, tex);
    int s;
    MPI_Count cs, ca;
    OK(MPI_Type_size(a, &s));
    OK(MPI_Type_size_c(b, &cs));
    OK(MPI_Type_size_c(a, &ca));
    CHECK_INT(cs, ca);
    /* the int query answers MPI_UNDEFINED for a size beyond an int */
    CHECK_INT(s, ca > INT_MAX ? MPI_UNDEFINED : ca);
}

/* The type maps of a and b (small: they fit [-1024, 4096) around the buffer) are the same:
 * same shape, and the same bytes packed by MPI_Pack (a) and MPI_Pack_c (b) from a buffer
 * where neighbouring bytes differ; unpacking those bytes with MPI_Unpack (a) and
 * MPI_Unpack_c (b) writes the same bytes. */
static inline void same_map(MPI_Datatype a, MPI_Datatype b)
{
    same_shape(a, b);
    MPI_Datatype ca = a, cb = b;
    OK(MPI_Type_commit(&ca));
    OK(MPI_Type_commit(&cb));
    unsigned char src[8192], p1[4096], p2[4096], u1[8192], u2[8192]; /* ranks are threads */
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(i * 7 + i / 251);
    int s1;
    OK(MPI_Type_size(a, &s1));
    CHECK(2 * s1 <= (int)sizeof p1);
    int pos1 = 0;
    MPI_Count pos2 = 0;
    OK(MPI_Pack(src + 2048, 2, ca, p1, sizeof p1, &pos1, MPI_COMM_WORLD));
    OK(MPI_Pack_c(src + 2048, 2, cb, p2, sizeof p2, &pos2, MPI_COMM_WORLD));
    CHECK_INT(pos1, 2 * s1);
    CHECK_INT(pos2, pos1);
    CHECK(memcmp(p1, p2, (size_t)pos1) == 0);
    int size1;
    MPI_Count size2;
    OK(MPI_Pack_size(2, ca, MPI_COMM_WORLD, &size1));
    OK(MPI_Pack_size_c(2, cb, MPI_COMM_WORLD, &size2));
    CHECK_INT(size2, size1);
    memset(u1, 0, sizeof u1);
    memset(u2, 0, sizeof u2);
    pos1 = 0;
    pos2 = 0;
    OK(MPI_Unpack(p1, (int)sizeof p1, &pos1, u1 + 2048, 2, ca, MPI_COMM_WORLD));
    OK(MPI_Unpack_c(p2, sizeof p2, &pos2, u2 + 2048, 2, cb, MPI_COMM_WORLD));
    CHECK_INT(pos2, pos1);
    CHECK(memcmp(u1, u2, sizeof u1) == 0);
}

/* t's envelope through MPI_Type_get_envelope_c is (ni, na, nl, nd, comb). */
static inline void envelope_c_is(MPI_Datatype t, MPI_Count ni, MPI_Count na, MPI_Count nl,
                                 MPI_Count nd, int comb)
{
    MPI_Count a = -1, b = -1, c = -1, d = -1;
    int k = -1;
    OK(MPI_Type_get_envelope_c(t, &a, &b, &c, &d, &k));
    CHECK_INT(k, comb);
    CHECK_INT(a, ni);
    CHECK_INT(b, na);
    CHECK_INT(c, nl);
    CHECK_INT(d, nd);
}
#endif
