/* tests/op/test_predefined.c — every predefined operation on every predefined type it is
 * defined on, against a reference computed here (integers in 128-bit arithmetic reduced
 * modulo 2^bits, so wrap-around is checked; floating and complex values exactly
 * representable), and every (operation, type) pair the standard does not define rejected by
 * loom__op_check with a reason naming both. Arrays hold negative numbers and the extremes of
 * each integer type; a long array checks the vectorized loops and their tails. */
#include <complex.h>
#include <limits.h>
#include <stdint.h>
#include <wchar.h>
#include "op_check.h"

/* The type classes of MPI 3.1 §5.9.2 (plus characters, which loom accepts for arithmetic
 * as MPICH and Open MPI do), written independently of op_kernels.c's table. */
enum cls { C_INT, C_CHAR, C_MULTI, C_FLOAT, C_CPLX, C_BOOL, C_BYTE, C_PACKED, C_PAIR };

static int allowed(int op, enum cls c)
{
    switch (op) {
    case LOOM_OP_MAX:
    case LOOM_OP_MIN:
        return c == C_INT || c == C_CHAR || c == C_MULTI || c == C_FLOAT;
    case LOOM_OP_SUM:
    case LOOM_OP_PROD:
        return c == C_INT || c == C_CHAR || c == C_MULTI || c == C_FLOAT || c == C_CPLX;
    case LOOM_OP_LAND:
    case LOOM_OP_LOR:
    case LOOM_OP_LXOR: /* multi-language: not in the standard's table; MPICH accepts them */
        return c == C_INT || c == C_BOOL || c == C_MULTI;
    case LOOM_OP_BAND:
    case LOOM_OP_BOR:
    case LOOM_OP_BXOR:
        return c == C_INT || c == C_MULTI || c == C_BYTE;
    case LOOM_OP_MINLOC:
    case LOOM_OP_MAXLOC:
        return c == C_PAIR;
    default: /* REPLACE, NO_OP */
        return 1;
    }
}

/* ---- integers: reference in 128-bit arithmetic ---- */

typedef __int128 i128;
typedef unsigned __int128 u128;

/* x op y for a type of `bits` bits (signed or not), the operands given by value. */
static i128 iref(int op, i128 x, i128 y, int bits, int is_signed)
{
    u128 mask = ((u128)1 << bits) - 1, r;
    switch (op) {
    case LOOM_OP_MAX: return x > y ? x : y;
    case LOOM_OP_MIN: return x < y ? x : y;
    case LOOM_OP_LAND: return x != 0 && y != 0;
    case LOOM_OP_LOR: return x != 0 || y != 0;
    case LOOM_OP_LXOR: return (x != 0) != (y != 0);
    case LOOM_OP_SUM: r = ((u128)x + (u128)y) & mask; break;
    case LOOM_OP_PROD: r = ((u128)x * (u128)y) & mask; break;
    case LOOM_OP_BAND: r = ((u128)x & (u128)y) & mask; break;
    case LOOM_OP_BOR: r = ((u128)x | (u128)y) & mask; break;
    case LOOM_OP_BXOR: r = ((u128)x ^ (u128)y) & mask; break;
    default: return 0;
    }
    if (is_signed && ((r >> (bits - 1)) & 1))
        return (i128)r - ((i128)1 << bits);
    return (i128)r;
}

static const long long candidates[] = {0, 1, -1, 2, 3, -7, 100, -128, 127, 255, 12345, -32768,
                                        65535, 0x7fffffff, 1234567890123LL};
#define NCAND (int)(sizeof candidates / sizeof candidates[0])
#define NV (NCAND + 2)
#define N 37 /* odd: vector loops have a tail */

#define DEF_INT_TEST(fname, T)                                                                 \
    static void fname(struct loom_datatype *dt, enum cls c)                                    \
    {                                                                                          \
        const int is_signed = (T)-1 < (T)1, bits = (int)(8 * sizeof(T));                       \
        T v[NV];                                                                               \
        for (int k = 0; k < NCAND; k++)                                                        \
            v[k] = (T)(unsigned long long)candidates[k]; /* modulo 2^bits */              \
        /* the extremes */                                                                     \
        u128 umax = ((u128)1 << (bits - is_signed)) - 1;                                       \
        v[NCAND] = (T)(unsigned long long)umax;                                                \
        v[NCAND + 1] = is_signed ? (T)(-(i128)umax - 1) : (T)0;                                \
        for (int op = 0; op <= LOOM_OP_MAXLOC; op++) {                                         \
            if (!allowed(op, c))                                                               \
                continue;                                                                      \
            T a[N], b[N], b0[N];                                                               \
            for (int i = 0; i < N; i++) {                                                      \
                a[i] = v[i % NV];                                                              \
                b[i] = b0[i] = v[(i * 5 + 3) % NV];                                            \
            }                                                                                  \
            loom__op_apply(op_by_kind[op], a, b, N, dt);                                       \
            for (int i = 0; i < N; i++) {                                                      \
                i128 want = iref(op, (i128)a[i], (i128)b0[i], bits, is_signed);                \
                if ((i128)b[i] != want) {                                                      \
                    fprintf(stderr, "%s on %s: %lld op %lld gave %lld, expected %lld\n",       \
                            op_by_kind[op]->name, dt->name, (long long)a[i], (long long)b0[i], \
                            (long long)b[i], (long long)want);                                 \
                    op_failures++;                                                             \
                    break;                                                                     \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
    }

DEF_INT_TEST(t_schar, signed char)
DEF_INT_TEST(t_uchar, unsigned char)
DEF_INT_TEST(t_char, char)
DEF_INT_TEST(t_wchar, wchar_t)
DEF_INT_TEST(t_short, short)
DEF_INT_TEST(t_ushort, unsigned short)
DEF_INT_TEST(t_int, int)
DEF_INT_TEST(t_uint, unsigned)
DEF_INT_TEST(t_long, long)
DEF_INT_TEST(t_ulong, unsigned long)
DEF_INT_TEST(t_llong, long long)
DEF_INT_TEST(t_ullong, unsigned long long)
DEF_INT_TEST(t_i8, int8_t)
DEF_INT_TEST(t_i16, int16_t)
DEF_INT_TEST(t_i32, int32_t)
DEF_INT_TEST(t_i64, int64_t)
DEF_INT_TEST(t_u8, uint8_t)
DEF_INT_TEST(t_u16, uint16_t)
DEF_INT_TEST(t_u32, uint32_t)
DEF_INT_TEST(t_u64, uint64_t)
DEF_INT_TEST(t_aint, MPI_Aint)
DEF_INT_TEST(t_count, MPI_Count)
DEF_INT_TEST(t_offset, MPI_Offset)

/* ---- floating: values exactly representable, no NaN ---- */

static const double fvals[] = {0.5, -1.25, 3.0, 1e30, -1e30, 2.5, 0.0, -7.75, 1024.0, -0.125, 6.0};
#define NF (int)(sizeof fvals / sizeof fvals[0])

#define DEF_FLOAT_TEST(fname, T)                                                               \
    static void fname(struct loom_datatype *dt)                                                \
    {                                                                                          \
        for (int op = 0; op <= LOOM_OP_MAXLOC; op++) {                                         \
            if (!allowed(op, C_FLOAT))                                                         \
                continue;                                                                      \
            T a[N], b[N], b0[N];                                                               \
            for (int i = 0; i < N; i++) {                                                      \
                a[i] = (T)fvals[i % NF];                                                       \
                b[i] = b0[i] = (T)fvals[(i * 7 + 2) % NF];                                     \
            }                                                                                  \
            loom__op_apply(op_by_kind[op], a, b, N, dt);                                       \
            for (int i = 0; i < N; i++) {                                                      \
                T x = a[i], y = b0[i], want;                                                   \
                switch (op) {                                                                  \
                case LOOM_OP_MAX: want = x < y ? y : x; break;                                 \
                case LOOM_OP_MIN: want = y < x ? y : x; break;                                 \
                case LOOM_OP_SUM: want = x + y; break;                                         \
                default: want = x * y; break;                                                  \
                }                                                                              \
                if (b[i] != want) {                                                            \
                    fprintf(stderr, "%s on %s: %Lg op %Lg gave %Lg, expected %Lg\n",           \
                            op_by_kind[op]->name, dt->name, (long double)x, (long double)y,    \
                            (long double)b[i], (long double)want);                             \
                    op_failures++;                                                             \
                    break;                                                                     \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
    }

DEF_FLOAT_TEST(t_float, float)
DEF_FLOAT_TEST(t_double, double)
DEF_FLOAT_TEST(t_ldouble, long double)

/* ---- complex: SUM and PROD, the product by its formula ---- */

static const double cvals[] = {0.5, -1.25, 3.0, 2.5, 0.0, -7.75, 1024.0, -0.125, 6.0};
#define NC (int)(sizeof cvals / sizeof cvals[0])

#define DEF_CPLX_TEST(fname, T, R)                                                             \
    static void fname(struct loom_datatype *dt)                                                \
    {                                                                                          \
        for (int op = LOOM_OP_SUM; op <= LOOM_OP_PROD; op++) {                                 \
            T a[N], b[N], b0[N];                                                               \
            for (int i = 0; i < N; i++) {                                                      \
                a[i] = CMPLX_##R((R)cvals[i % NC], (R)cvals[(i + 3) % NC]);                    \
                b[i] = b0[i] = CMPLX_##R((R)cvals[(i * 7 + 2) % NC], (R)(i % 5) - (R)2);       \
            }                                                                                  \
            loom__op_apply(op_by_kind[op], a, b, N, dt);                                       \
            for (int i = 0; i < N; i++) {                                                      \
                R xr = CREAL_##R(a[i]), xi = CIMAG_##R(a[i]);                                  \
                R yr = CREAL_##R(b0[i]), yi = CIMAG_##R(b0[i]);                                \
                R wr = op == LOOM_OP_SUM ? xr + yr : xr * yr - xi * yi;                        \
                R wi = op == LOOM_OP_SUM ? xi + yi : xr * yi + xi * yr;                        \
                if (CREAL_##R(b[i]) != wr || CIMAG_##R(b[i]) != wi) {                          \
                    fprintf(stderr, "%s on %s: element %d gave (%Lg,%Lg), expected (%Lg,%Lg)\n", \
                            op_by_kind[op]->name, dt->name, i, (long double)CREAL_##R(b[i]),  \
                            (long double)CIMAG_##R(b[i]), (long double)wr, (long double)wi);   \
                    op_failures++;                                                             \
                    break;                                                                     \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
    }
#define CMPLX_float CMPLXF
#define CMPLX_double CMPLX
#define CMPLX_ldouble CMPLXL
#define CREAL_float crealf
#define CREAL_double creal
#define CREAL_ldouble creall
#define CIMAG_float cimagf
#define CIMAG_double cimag
#define CIMAG_ldouble cimagl
typedef long double ldouble;

DEF_CPLX_TEST(t_cfloat, float _Complex, float)
DEF_CPLX_TEST(t_cdouble, double _Complex, double)
DEF_CPLX_TEST(t_cldouble, long double _Complex, ldouble)

/* ---- MPI_C_BOOL: the four combinations ---- */

static void t_bool(struct loom_datatype *dt)
{
    for (int op = LOOM_OP_LAND; op <= LOOM_OP_LXOR; op++) {
        if (!allowed(op, C_BOOL))
            continue;
        _Bool a[4] = {0, 0, 1, 1}, b[4] = {0, 1, 0, 1};
        loom__op_apply(op_by_kind[op], a, b, 4, dt);
        for (int i = 0; i < 4; i++) {
            int x = i >> 1, y = i & 1;
            int want = op == LOOM_OP_LAND ? (x && y) : op == LOOM_OP_LOR ? (x || y) : x != y;
            if (b[i] != want) {
                fprintf(stderr, "%s on MPI_C_BOOL: %d op %d gave %d\n", op_by_kind[op]->name, x,
                        y, b[i]);
                op_failures++;
            }
        }
    }
}

/* ---- pairs: MINLOC/MAXLOC, ties go to the smaller index ---- */

#define DEF_PAIR_TEST(fname, A)                                                                \
    static void fname(struct loom_datatype *dt)                                                \
    {                                                                                          \
        struct p {                                                                             \
            A v;                                                                               \
            int i;                                                                             \
        };                                                                                     \
        CHECK_INT(dt->extent, sizeof(struct p));                                               \
        /* values: less, greater, equal with smaller / larger / same index, negatives */       \
        static const int av[] = {1, 5, 3, 3, 3, -4, -4, 0, 100, -100, 7};                      \
        static const int ai[] = {10, 2, 7, 1, 9, 3, 8, 0, 4, 6, 5};                            \
        static const int bv[] = {2, 4, 3, 3, 3, -4, -5, 0, 100, -99, 7};                       \
        static const int bi[] = {1, 20, 3, 5, 9, 6, 2, 1, 40, 6, 4};                           \
        enum { M = (int)(sizeof av / sizeof av[0]) };                                          \
        for (int op = LOOM_OP_MINLOC; op <= LOOM_OP_MAXLOC; op++) {                            \
            struct p a[M], b[M], b0[M];                                                        \
            memset(a, 0, sizeof a);                                                            \
            memset(b, 0, sizeof b);                                                            \
            for (int k = 0; k < M; k++) {                                                      \
                a[k].v = (A)av[k];                                                             \
                a[k].i = ai[k];                                                                \
                b[k].v = (A)bv[k];                                                             \
                b[k].i = bi[k];                                                                \
            }                                                                                  \
            memcpy(b0, b, sizeof b);                                                           \
            loom__op_apply(op_by_kind[op], a, b, M, dt);                                       \
            for (int k = 0; k < M; k++) {                                                      \
                int better = op == LOOM_OP_MINLOC ? av[k] < bv[k] : av[k] > bv[k];             \
                int wv = better ? av[k] : av[k] == bv[k] ? av[k] : bv[k];                      \
                int wi = better ? ai[k] : av[k] == bv[k] ? (ai[k] < bi[k] ? ai[k] : bi[k])     \
                                                         : bi[k];                              \
                if (b[k].v != (A)wv || b[k].i != wi) {                                         \
                    fprintf(stderr, "%s on %s: (%d,%d) op (%d,%d) gave (%d,%d), expected "     \
                                    "(%d,%d)\n",                                               \
                            op_by_kind[op]->name, dt->name, av[k], ai[k], (int)b0[k].v,        \
                            b0[k].i, (int)b[k].v, b[k].i, wv, wi);                             \
                    op_failures++;                                                             \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
    }

DEF_PAIR_TEST(t_float_int, float)
DEF_PAIR_TEST(t_double_int, double)
DEF_PAIR_TEST(t_long_int, long)
DEF_PAIR_TEST(t_2int, int)
DEF_PAIR_TEST(t_short_int, short)
DEF_PAIR_TEST(t_ldouble_int, long double)

/* ---- every predefined type with its class ---- */

struct tcase {
    struct loom_datatype *dt;
    enum cls c;
};
static const struct tcase all[] = {
    {&loom_mpi_char, C_CHAR},
    {&loom_mpi_signed_char, C_INT},
    {&loom_mpi_unsigned_char, C_INT},
    {&loom_mpi_wchar, C_CHAR},
    {&loom_mpi_short, C_INT},
    {&loom_mpi_unsigned_short, C_INT},
    {&loom_mpi_int, C_INT},
    {&loom_mpi_unsigned, C_INT},
    {&loom_mpi_long, C_INT},
    {&loom_mpi_unsigned_long, C_INT},
    {&loom_mpi_long_long_int, C_INT},
    {&loom_mpi_unsigned_long_long, C_INT},
    {&loom_mpi_float, C_FLOAT},
    {&loom_mpi_double, C_FLOAT},
    {&loom_mpi_long_double, C_FLOAT},
    {&loom_mpi_c_bool, C_BOOL},
    {&loom_mpi_int8_t, C_INT},
    {&loom_mpi_int16_t, C_INT},
    {&loom_mpi_int32_t, C_INT},
    {&loom_mpi_int64_t, C_INT},
    {&loom_mpi_uint8_t, C_INT},
    {&loom_mpi_uint16_t, C_INT},
    {&loom_mpi_uint32_t, C_INT},
    {&loom_mpi_uint64_t, C_INT},
    {&loom_mpi_aint, C_MULTI},
    {&loom_mpi_count, C_MULTI},
    {&loom_mpi_offset, C_MULTI},
    {&loom_mpi_c_float_complex, C_CPLX},
    {&loom_mpi_c_double_complex, C_CPLX},
    {&loom_mpi_c_long_double_complex, C_CPLX},
    {&loom_mpi_byte, C_BYTE},
    {&loom_mpi_packed, C_PACKED},
    {&loom_mpi_float_int, C_PAIR},
    {&loom_mpi_double_int, C_PAIR},
    {&loom_mpi_long_int, C_PAIR},
    {&loom_mpi_2int, C_PAIR},
    {&loom_mpi_short_int, C_PAIR},
    {&loom_mpi_long_double_int, C_PAIR},
};
#define NALL (int)(sizeof all / sizeof all[0])

static void check_matrix(void)
{
    for (int k = 0; k < LOOM_OP_NKINDS; k++)
        CHECK_INT(op_by_kind[k]->kind, k);
    int rejected = 0;
    for (int t = 0; t < NALL; t++) {
        for (int op = 0; op < LOOM_OP_NKINDS; op++) {
            const char *why = NULL;
            int rc = loom__op_check(op_by_kind[op], all[t].dt, &why);
            int want = allowed(op, all[t].c) ? 0 : LOOM_ERR_OP;
            if (rc != want) {
                fprintf(stderr, "loom__op_check(%s, %s) = %d, expected %d\n",
                        op_by_kind[op]->name, all[t].dt->name, rc, want);
                op_failures++;
            }
            if (rc == LOOM_ERR_OP) {
                rejected++;
                char expect[320];
                snprintf(expect, sizeof expect, "%s is not defined on %s", op_by_kind[op]->name,
                         all[t].dt->name);
                if (why == NULL || strcmp(why, expect) != 0) {
                    fprintf(stderr, "reason \"%s\", expected \"%s\"\n", why ? why : "(null)",
                            expect);
                    op_failures++;
                }
            }
        }
    }
    /* sanity: the matrix is not trivially all-allowed */
    CHECK(rejected > 200);
}

static void check_values(void)
{
    t_char(&loom_mpi_char, C_CHAR);
    t_schar(&loom_mpi_signed_char, C_INT);
    t_uchar(&loom_mpi_unsigned_char, C_INT);
    t_wchar(&loom_mpi_wchar, C_CHAR);
    t_short(&loom_mpi_short, C_INT);
    t_ushort(&loom_mpi_unsigned_short, C_INT);
    t_int(&loom_mpi_int, C_INT);
    t_uint(&loom_mpi_unsigned, C_INT);
    t_long(&loom_mpi_long, C_INT);
    t_ulong(&loom_mpi_unsigned_long, C_INT);
    t_llong(&loom_mpi_long_long_int, C_INT);
    t_ullong(&loom_mpi_unsigned_long_long, C_INT);
    t_i8(&loom_mpi_int8_t, C_INT);
    t_i16(&loom_mpi_int16_t, C_INT);
    t_i32(&loom_mpi_int32_t, C_INT);
    t_i64(&loom_mpi_int64_t, C_INT);
    t_u8(&loom_mpi_uint8_t, C_INT);
    t_u16(&loom_mpi_uint16_t, C_INT);
    t_u32(&loom_mpi_uint32_t, C_INT);
    t_u64(&loom_mpi_uint64_t, C_INT);
    t_aint(&loom_mpi_aint, C_MULTI);
    t_count(&loom_mpi_count, C_MULTI);
    t_offset(&loom_mpi_offset, C_MULTI);
    t_uchar(&loom_mpi_byte, C_BYTE);
    t_float(&loom_mpi_float);
    t_double(&loom_mpi_double);
    t_ldouble(&loom_mpi_long_double);
    t_cfloat(&loom_mpi_c_float_complex);
    t_cdouble(&loom_mpi_c_double_complex);
    t_cldouble(&loom_mpi_c_long_double_complex);
    t_bool(&loom_mpi_c_bool);
    t_float_int(&loom_mpi_float_int);
    t_double_int(&loom_mpi_double_int);
    t_long_int(&loom_mpi_long_int);
    t_2int(&loom_mpi_2int);
    t_short_int(&loom_mpi_short_int);
    t_ldouble_int(&loom_mpi_long_double_int);
}

/* A long array: the vector body and its tail, for the hot pairs. */
static void check_long(void)
{
    enum { L = 1003 };
    static double da[L], db[L], dw[L];
    static int ia[L], ib[L], iw[L];
    for (int i = 0; i < L; i++) {
        da[i] = (double)(i % 17) - 8.5;
        db[i] = (double)(i % 13) * 0.25;
        dw[i] = da[i] + db[i];
        ia[i] = i * 7919 - 4000000;
        ib[i] = INT_MAX - i;
        iw[i] = (int)((unsigned)ia[i] + (unsigned)ib[i]);
    }
    loom__op_apply(&loom_mpi_sum, da, db, L, &loom_mpi_double);
    loom__op_apply(&loom_mpi_sum, ia, ib, L, &loom_mpi_int);
    for (int i = 0; i < L; i++) {
        if (db[i] != dw[i] || ib[i] != iw[i]) {
            fprintf(stderr, "long SUM at %d: double %g (want %g), int %d (want %d)\n", i, db[i],
                    dw[i], ib[i], iw[i]);
            op_failures++;
            break;
        }
    }
    /* MAX on doubles, misaligned by one byte: takes the packed path, same answer */
    static unsigned char ra[L * sizeof(double) + 1], rb[L * sizeof(double) + 1];
    for (int i = 0; i < L; i++) {
        double x = (double)(i % 11) - 5, y = (double)(i % 7) - 3;
        memcpy(ra + 1 + i * sizeof(double), &x, sizeof x);
        memcpy(rb + 1 + i * sizeof(double), &y, sizeof y);
    }
    loom__op_apply(&loom_mpi_max, ra + 1, rb + 1, L, &loom_mpi_double);
    for (int i = 0; i < L; i++) {
        double x = (double)(i % 11) - 5, y = (double)(i % 7) - 3, got;
        memcpy(&got, rb + 1 + i * sizeof(double), sizeof got);
        if (got != (x > y ? x : y)) {
            fprintf(stderr, "misaligned MAX at %d: got %g\n", i, got);
            op_failures++;
            break;
        }
    }
}

/* REPLACE copies in to inout; NO_OP leaves inout; count 0 touches nothing. */
static void check_replace(void)
{
    int a[5] = {1, -2, 3, -4, 5}, b[5] = {9, 9, 9, 9, 9};
    loom__op_apply(&loom_mpi_no_op, a, b, 5, &loom_mpi_int);
    for (int i = 0; i < 5; i++)
        CHECK_INT(b[i], 9);
    loom__op_apply(&loom_mpi_sum, a, b, 0, &loom_mpi_int);
    CHECK_INT(b[0], 9);
    loom__op_apply(&loom_mpi_replace, a, b, 5, &loom_mpi_int);
    for (int i = 0; i < 5; i++)
        CHECK_INT(b[i], a[i]);
    struct {
        short v;
        int i;
    } pa[2] = {{1, 2}, {3, 4}}, pb[2] = {{0, 0}, {0, 0}};
    loom__op_apply(&loom_mpi_replace, pa, pb, 2, &loom_mpi_short_int);
    CHECK_INT(pb[1].v, 3);
    CHECK_INT(pb[1].i, 4);
    CHECK_INT(pb[0].v, 1);
}

int main(void)
{
    check_matrix();
    check_values();
    check_long();
    check_replace();
    return op_result();
}
