/* Reductions on the Fortran named datatypes (MPI 4.1 section 6.9.2's table): every family
 * with known answers through MPI_Reduce_local, the operations the table does not allow
 * refused with MPI_ERR_OP, MINLOC/MAXLOC ties on the Fortran pairs, LOGICAL results as 1/0,
 * then MPI_Allreduce, MPI_Iallreduce and a derived type of pairs across the ranks. */
#include <complex.h>
#include <string.h>
#include <mpi.h>
#include "comm_check.h"

/* One reduction of two elements: inout = in op inout. */
#define LOCAL(type, op, in, inout) OK(MPI_Reduce_local(in, inout, 2, type, op))

static void integers(void)
{
    MPI_Fint a[2] = {6, -3}, b[2] = {5, 12};
    LOCAL(MPI_INTEGER, MPI_SUM, a, b);
    CHECK(b[0] == 11 && b[1] == 9);
    LOCAL(MPI_INTEGER, MPI_PROD, a, b);
    CHECK(b[0] == 66 && b[1] == -27);
    LOCAL(MPI_INTEGER, MPI_MIN, a, b);
    CHECK(b[0] == 6 && b[1] == -27);
    LOCAL(MPI_INTEGER, MPI_MAX, a, b);
    CHECK(b[0] == 6 && b[1] == -3);
    MPI_Fint x[2] = {0x0f0, 0x00f}, y[2] = {0x0ff, 0x0f0};
    LOCAL(MPI_INTEGER, MPI_BAND, x, y);
    CHECK(y[0] == 0x0f0 && y[1] == 0);
    LOCAL(MPI_INTEGER, MPI_BOR, x, y);
    CHECK(y[0] == 0x0f0 && y[1] == 0x00f);
    LOCAL(MPI_INTEGER, MPI_BXOR, x, y);
    CHECK(y[0] == 0 && y[1] == 0);

    signed char i1[2] = {100, -100}, j1[2] = {27, -28};
    LOCAL(MPI_INTEGER1, MPI_SUM, i1, j1); /* wraps modulo 2^8 */
    CHECK(j1[0] == 127 && j1[1] == (signed char)-128);
    short i2[2] = {300, 7}, j2[2] = {2, 9};
    LOCAL(MPI_INTEGER2, MPI_PROD, i2, j2);
    CHECK(j2[0] == 600 && j2[1] == 63);
    int i4[2] = {1, 2}, j4[2] = {3, 1};
    LOCAL(MPI_INTEGER4, MPI_MAX, i4, j4);
    CHECK(j4[0] == 3 && j4[1] == 2);
    long long i8[2] = {1LL << 40, 5}, j8[2] = {1LL << 40, 3};
    LOCAL(MPI_INTEGER8, MPI_SUM, i8, j8);
    CHECK(j8[0] == 1LL << 41 && j8[1] == 8);
    LOCAL(MPI_INTEGER8, MPI_BOR, i8, j8);
    CHECK(j8[0] == (3LL << 40) && j8[1] == 13);
    __int128 i16[2] = {(__int128)1 << 100, -5}, j16[2] = {(__int128)3 << 100, 7};
    LOCAL(MPI_INTEGER16, MPI_SUM, i16, j16);
    CHECK(j16[0] == (__int128)1 << 102 && j16[1] == 2);
    LOCAL(MPI_INTEGER16, MPI_MIN, i16, j16);
    CHECK(j16[0] == (__int128)1 << 100 && j16[1] == -5);
    LOCAL(MPI_INTEGER16, MPI_BXOR, i16, j16);
    CHECK(j16[0] == 0 && j16[1] == 0);
    /* not logical operations: the table allows those on C integers and LOGICAL only */
    CHECK_INT(MPI_Reduce_local(a, b, 2, MPI_INTEGER, MPI_LAND), MPI_ERR_OP);
    CHECK_INT(MPI_Reduce_local(i8, j8, 2, MPI_INTEGER8, MPI_LXOR), MPI_ERR_OP);
}

static void floating(void)
{
    float r[2] = {1.5f, -2}, s[2] = {2, 4};
    LOCAL(MPI_REAL, MPI_PROD, r, s);
    CHECK(s[0] == 3 && s[1] == -8);
    LOCAL(MPI_REAL4, MPI_MIN, r, s);
    CHECK(s[0] == 1.5f && s[1] == -8);
    double d[2] = {0.25, 10}, e[2] = {0.5, -10};
    LOCAL(MPI_DOUBLE_PRECISION, MPI_SUM, d, e);
    CHECK(e[0] == 0.75 && e[1] == 0);
    LOCAL(MPI_REAL8, MPI_MAX, d, e);
    CHECK(e[0] == 0.75 && e[1] == 10);
    _Float128 q[2] = {1, 3}, p[2] = {2, 1.0f / 4};
    q[0] /= 3; /* a value with more digits than a long double */
    p[0] = q[0];
    LOCAL(MPI_REAL16, MPI_SUM, q, p);
    CHECK(p[0] == 2 * q[0] && p[1] == 3.25f);
    LOCAL(MPI_REAL16, MPI_MAX, q, p);
    CHECK(p[0] == 2 * q[0] && p[1] == 3.25f);
    CHECK_INT(MPI_Reduce_local(r, s, 2, MPI_REAL, MPI_LAND), MPI_ERR_OP);
    CHECK_INT(MPI_Reduce_local(d, e, 2, MPI_DOUBLE_PRECISION, MPI_BAND), MPI_ERR_OP);
    CHECK_INT(MPI_Reduce_local(q, p, 2, MPI_REAL16, MPI_MAXLOC), MPI_ERR_OP);
}

static void complexes(void)
{
    float _Complex c[2] = {1 + 2 * I, 3}, c2[2] = {1 - 2 * I, 2 * I};
    LOCAL(MPI_COMPLEX, MPI_PROD, c, c2);
    CHECK(c2[0] == 5 && c2[1] == 6 * I);
    LOCAL(MPI_COMPLEX8, MPI_SUM, c, c2);
    CHECK(c2[0] == 6 + 2 * I && c2[1] == 3 + 6 * I);
    double _Complex z[2] = {I, 2}, z2[2] = {I, 0.5 + I};
    LOCAL(MPI_DOUBLE_COMPLEX, MPI_PROD, z, z2);
    CHECK(z2[0] == -1 && z2[1] == 1 + 2 * I);
    LOCAL(MPI_COMPLEX16, MPI_SUM, z, z2);
    CHECK(z2[0] == -1 + I && z2[1] == 3 + 2 * I);
    _Complex _Float128 w[2] = {1 + I, 2}, w2[2] = {1 - I, 3};
    LOCAL(MPI_COMPLEX32, MPI_PROD, w, w2);
    CHECK(w2[0] == 2 && w2[1] == 6);
    LOCAL(MPI_COMPLEX32, MPI_SUM, w, w2);
    CHECK(w2[0] == 3 + I && w2[1] == 8);
    CHECK_INT(MPI_Reduce_local(c, c2, 2, MPI_COMPLEX, MPI_MAX), MPI_ERR_OP);
    CHECK_INT(MPI_Reduce_local(z, z2, 2, MPI_DOUBLE_COMPLEX, MPI_MIN), MPI_ERR_OP);
}

static void logicals(void)
{
    /* any non-zero is .TRUE. (a C program may pass 7); results are 1 and 0 */
    MPI_Fint t[4] = {1, 7, 0, 0}, u[4];
    const MPI_Fint u0[4] = {1, 0, 5, 0};
    memcpy(u, u0, sizeof u);
    OK(MPI_Reduce_local(t, u, 4, MPI_LOGICAL, MPI_LAND));
    CHECK(u[0] == 1 && u[1] == 0 && u[2] == 0 && u[3] == 0);
    memcpy(u, u0, sizeof u);
    OK(MPI_Reduce_local(t, u, 4, MPI_LOGICAL, MPI_LOR));
    CHECK(u[0] == 1 && u[1] == 1 && u[2] == 1 && u[3] == 0);
    memcpy(u, u0, sizeof u);
    OK(MPI_Reduce_local(t, u, 4, MPI_LOGICAL, MPI_LXOR));
    CHECK(u[0] == 0 && u[1] == 1 && u[2] == 1 && u[3] == 0);
    CHECK_INT(MPI_Reduce_local(t, u, 4, MPI_LOGICAL, MPI_SUM), MPI_ERR_OP);
    CHECK_INT(MPI_Reduce_local(t, u, 4, MPI_LOGICAL, MPI_BAND), MPI_ERR_OP);
    char s[2] = "a", s2[2] = "b";
    CHECK_INT(MPI_Reduce_local(s, s2, 2, MPI_CHARACTER, MPI_MAX), MPI_ERR_OP);
}

static void pairs(void)
{
    /* value, index: the better value wins with its index; on a tie, the smaller index */
    float r[6] = {1, 5, 3, 9, 2, 4}, s[6] = {2, 1, 3, 2, 2, 8};
    OK(MPI_Reduce_local(r, s, 3, MPI_2REAL, MPI_MINLOC));
    CHECK(s[0] == 1 && s[1] == 5 && s[2] == 3 && s[3] == 2 && s[4] == 2 && s[5] == 4);
    double d[6] = {1, 5, 3, 9, 2, 4}, e[6] = {2, 1, 3, 2, 2, 8};
    OK(MPI_Reduce_local(d, e, 3, MPI_2DOUBLE_PRECISION, MPI_MAXLOC));
    CHECK(e[0] == 2 && e[1] == 1 && e[2] == 3 && e[3] == 2 && e[4] == 2 && e[5] == 4);
    MPI_Fint i[4] = {-1, 9, 7, 1}, j[4] = {-1, 3, 7, 2};
    OK(MPI_Reduce_local(i, j, 2, MPI_2INTEGER, MPI_MAXLOC));
    CHECK(j[0] == -1 && j[1] == 3 && j[2] == 7 && j[3] == 1);
    CHECK_INT(MPI_Reduce_local(i, j, 2, MPI_2INTEGER, MPI_SUM), MPI_ERR_OP);
    /* the pair type of a value and an index type */
    MPI_Datatype p;
    OK(MPI_Type_get_value_index(MPI_REAL, MPI_REAL, &p));
    CHECK(p == MPI_2REAL);
    OK(MPI_Type_get_value_index(MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, &p));
    CHECK(p == MPI_2DOUBLE_PRECISION);
    OK(MPI_Type_get_value_index(MPI_INTEGER, MPI_INTEGER, &p));
    CHECK(p == MPI_2INTEGER);
    OK(MPI_Type_get_value_index(MPI_REAL, MPI_INT, &p));
    CHECK(p == MPI_DATATYPE_NULL);
    OK(MPI_Type_get_value_index(MPI_INT, MPI_INTEGER, &p));
    CHECK(p == MPI_DATATYPE_NULL);
}

/* Across the ranks: rank r gives value r % 2 (ties) and index r; plus a derived type. */
static void collective(int rank, int size)
{
    double loc[2] = {(double)(rank % 2), (double)rank}, best[2];
    OK(MPI_Allreduce(loc, best, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD));
    CHECK(best[0] == (size > 1 ? 1 : 0) && best[1] == (size > 1 ? 1 : 0));
    OK(MPI_Allreduce(loc, best, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, MPI_COMM_WORLD));
    CHECK(best[0] == 0 && best[1] == 0);

    MPI_Fint l[2] = {1, rank == size - 1}, all[2];
    OK(MPI_Allreduce(l, all, 2, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD));
    CHECK(all[0] == 1 && all[1] == (size == 1));
    OK(MPI_Allreduce(l, all, 2, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD));
    CHECK(all[0] == 1 && all[1] == 1);

    MPI_Fint n = rank + 1, total;
    OK(MPI_Allreduce(&n, &total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD));
    CHECK_INT(total, size * (size + 1) / 2);

    _Float128 q = (_Float128)rank / 3, qs;
    MPI_Request req;
    OK(MPI_Iallreduce(&q, &qs, 1, MPI_REAL16, MPI_SUM, MPI_COMM_WORLD, &req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    _Float128 want = 0;
    for (int r = 0; r < size; r++)
        want += (_Float128)r / 3;
    CHECK(qs - want < 1e-30f && want - qs < 1e-30f);

    double _Complex z = rank % 2 ? I : 1, zp;
    OK(MPI_Allreduce(&z, &zp, 1, MPI_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD));
    double _Complex zw = 1;
    for (int r = 0; r < size; r++)
        zw *= r % 2 ? I : 1;
    CHECK(zp == zw);

    /* a contiguous of two MPI_2INTEGER: MINLOC element by element */
    MPI_Datatype two;
    OK(MPI_Type_contiguous(2, MPI_2INTEGER, &two));
    OK(MPI_Type_commit(&two));
    MPI_Fint v[4] = {size - rank, rank, 5, rank}, w[4];
    OK(MPI_Allreduce(v, w, 1, two, MPI_MINLOC, MPI_COMM_WORLD));
    CHECK(w[0] == 1 && w[1] == size - 1 && w[2] == 5 && w[3] == 0);
    OK(MPI_Type_free(&two));
    CHECK_INT(MPI_Allreduce(v, w, 2, MPI_REAL, MPI_LOR, MPI_COMM_WORLD), MPI_ERR_OP);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    integers();
    floating();
    complexes();
    logicals();
    pairs();
    collective(world_rank(), world_size());
    MPI_Finalize();
    return 0;
}
