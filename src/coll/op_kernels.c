/* coll/op_kernels.c — the loops of the predefined reduction operations, one per (operation,
 * predefined type) pair the standard allows, and the table that finds them.
 *
 * Why generated loops: a reduction is on the path of every Reduce/Allreduce/Scan round, so
 * each (op, type) gets its own tight loop over a contiguous array, which the compiler
 * vectorizes (SUM on doubles, MAX on ints ...), instead of one generic loop that switches on
 * the type per element. The table says which pairs exist: an entry with no kernel for a kind
 * is "not defined on this type" (loom__op_check reports it).
 *
 * Which types (MPI 3.1 §5.9.2, plus what MPICH and Open MPI accept and programs rely on):
 *   MAX MIN         C integers, MPI_CHAR, MPI_WCHAR, multi-language (AINT COUNT OFFSET), floating
 *   SUM PROD        the same, and the complex types
 *   LAND LOR LXOR   C integers, MPI_C_BOOL, multi-language (the standard's table lists only C
 *                   integers and logicals; MPICH accepts these and its test coll/allred uses
 *                   them, so loom does too: docs/collectives.md)
 *   BAND BOR BXOR   C integers, multi-language, MPI_BYTE
 *   MINLOC MAXLOC   the pair types (MPI_FLOAT_INT ... MPI_2INT)
 * and the Fortran types (MPI 4.1 section 6.9.2's table, as gfortran lays them out):
 *   MAX MIN         Fortran integers (MPI_INTEGER, MPI_INTEGER1..16), floating (MPI_REAL,
 *                   MPI_DOUBLE_PRECISION, MPI_REAL4..16)
 *   SUM PROD        the same, and complex (MPI_COMPLEX, MPI_DOUBLE_COMPLEX, MPI_COMPLEX8..32)
 *   LAND LOR LXOR   MPI_LOGICAL (any non-zero is .TRUE.; results are 1 or 0, gfortran's
 *                   .TRUE. and .FALSE.)
 *   BAND BOR BXOR   Fortran integers
 *   MINLOC MAXLOC   MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_2INTEGER (the index is a value of
 *                   the pair's own type)
 *   nothing         MPI_CHARACTER
 * (REPLACE and NO_OP work on every type and have no loop here: op.c copies or does nothing.)
 *
 * Integer arithmetic goes through an unsigned type U, so SUM and PROD wrap around modulo
 * 2^bits as MPI programs expect, never the undefined behaviour of signed overflow (nor the
 * int promotion of unsigned short * unsigned short); converting back to a signed type is
 * modulo 2^bits in GCC and Clang.
 *
 * Concurrency: the table is constant; kernels only touch the buffers they are given. */
#include <stdint.h>
#include <string.h>
#include <wchar.h>
#include "coll/op.h"
#include "dt/dt.h"

/* GCC's -O2 only vectorizes loops whose trip count needs no epilogue ("very cheap" cost
 * model); these loops run over any n, so ask for the "cheap" model here, where a vector body
 * plus a scalar tail pays off. Clang vectorizes them at -O2 as it is. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=cheap")
#endif

/* On x86-64 each loop is also built for AVX2, picked at load time when the processor has it
 * (GCC's target_clones: an ifunc): twice the elements per instruction of the baseline's SSE2,
 * which is what a reduction or an accumulate of doubles runs at. Not under the sanitizers:
 * an ifunc resolver runs while the library is relocated, before their runtime is up, and
 * ThreadSanitizer's instrumentation of it crashes the process at start. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__) &&      \
    !defined(__SANITIZE_THREAD__) && !defined(__SANITIZE_ADDRESS__)
#define LOOM_OP_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define LOOM_OP_CLONES
#endif

/* One loop: y[i] = EXPR(x = in[i], y = inout[i]). restrict: in and inout are the standard's
 * invec and inoutvec, which never partially overlap; when they are equal, each element is
 * still read before it is written. */
#define LOOP(name, T, expr)                                                                    \
    LOOM_OP_CLONES static void name(const void *in_, void *inout_, size_t n, size_t stride,    \
                                    size_t boff)                                               \
    {                                                                                          \
        (void)stride;                                                                          \
        (void)boff;                                                                            \
        const T *restrict a = in_;                                                             \
        T *restrict b = inout_;                                                                \
        for (size_t i = 0; i < n; i++) {                                                       \
            T x = a[i], y = b[i];                                                              \
            b[i] = (expr);                                                                     \
        }                                                                                      \
    }

/* Groups of operations, each with the initializer of its table slots. */
#define ARITH(id, T, U)                                                                        \
    LOOP(id##_max, T, x > y ? x : y)                                                           \
    LOOP(id##_min, T, x < y ? x : y)                                                           \
    LOOP(id##_sum, T, (T)((U)x + (U)y))                                                        \
    LOOP(id##_prod, T, (T)((U)x * (U)y))
#define ARITH_SLOTS(id)                                                                        \
    [LOOM_OP_MAX] = id##_max, [LOOM_OP_MIN] = id##_min, [LOOM_OP_SUM] = id##_sum,              \
    [LOOM_OP_PROD] = id##_prod,

#define LOGIC(id, T)                                                                           \
    LOOP(id##_land, T, (T)(x && y))                                                            \
    LOOP(id##_lor, T, (T)(x || y))                                                             \
    LOOP(id##_lxor, T, (T)(!x != !y))
#define LOGIC_SLOTS(id)                                                                        \
    [LOOM_OP_LAND] = id##_land, [LOOM_OP_LOR] = id##_lor, [LOOM_OP_LXOR] = id##_lxor,

#define BITS(id, T, U)                                                                         \
    LOOP(id##_band, T, (T)((U)x & (U)y))                                                       \
    LOOP(id##_bor, T, (T)((U)x | (U)y))                                                        \
    LOOP(id##_bxor, T, (T)((U)x ^ (U)y))
#define BITS_SLOTS(id)                                                                         \
    [LOOM_OP_BAND] = id##_band, [LOOM_OP_BOR] = id##_bor, [LOOM_OP_BXOR] = id##_bxor,

#define CPLX(id, T)                                                                            \
    LOOP(id##_sum, T, x + y)                                                                   \
    LOOP(id##_prod, T, x * y)
#define CPLX_SLOTS(id) [LOOM_OP_SUM] = id##_sum, [LOOM_OP_PROD] = id##_prod,

/* MINLOC / MAXLOC on pairs (value A, index int). Result (standard §5.9.4): the better value
 * with its index; on equal values, the smaller index. */
#define PAIR(id, A)                                                                            \
    static void id##_minloc(const void *in_, void *inout_, size_t n, size_t stride,            \
                            size_t boff)                                                       \
    {                                                                                          \
        const char *p = in_;                                                                   \
        char *q = inout_;                                                                      \
        for (size_t i = 0; i < n; i++, p += stride, q += stride) {                             \
            A u, v;                                                                            \
            int iu, iv;                                                                        \
            memcpy(&u, p, sizeof u);                                                           \
            memcpy(&v, q, sizeof v);                                                           \
            memcpy(&iu, p + boff, sizeof iu);                                                  \
            memcpy(&iv, q + boff, sizeof iv);                                                  \
            if (u < v) {                                                                       \
                memcpy(q, &u, sizeof u);                                                       \
                memcpy(q + boff, &iu, sizeof iu);                                              \
            } else if (u == v && iu < iv) {                                                    \
                memcpy(q + boff, &iu, sizeof iu);                                              \
            }                                                                                  \
        }                                                                                      \
    }                                                                                          \
    static void id##_maxloc(const void *in_, void *inout_, size_t n, size_t stride,            \
                            size_t boff)                                                       \
    {                                                                                          \
        const char *p = in_;                                                                   \
        char *q = inout_;                                                                      \
        for (size_t i = 0; i < n; i++, p += stride, q += stride) {                             \
            A u, v;                                                                            \
            int iu, iv;                                                                        \
            memcpy(&u, p, sizeof u);                                                           \
            memcpy(&v, q, sizeof v);                                                           \
            memcpy(&iu, p + boff, sizeof iu);                                                  \
            memcpy(&iv, q + boff, sizeof iv);                                                  \
            if (u > v) {                                                                       \
                memcpy(q, &u, sizeof u);                                                       \
                memcpy(q + boff, &iu, sizeof iu);                                              \
            } else if (u == v && iu < iv) {                                                    \
                memcpy(q + boff, &iu, sizeof iu);                                              \
            }                                                                                  \
        }                                                                                      \
    }
#define PAIR_SLOTS(id) [LOOM_OP_MINLOC] = id##_minloc, [LOOM_OP_MAXLOC] = id##_maxloc,

/* MINLOC / MAXLOC on Fortran pairs: value and index both of type A (MPI_2REAL ...), the
 * index at boff. Same result rule as PAIR. */
#define PAIR2(id, A)                                                                           \
    static void id##_minloc(const void *in_, void *inout_, size_t n, size_t stride,            \
                            size_t boff)                                                       \
    {                                                                                          \
        const char *p = in_;                                                                   \
        char *q = inout_;                                                                      \
        for (size_t i = 0; i < n; i++, p += stride, q += stride) {                             \
            A u, v, iu, iv;                                                                    \
            memcpy(&u, p, sizeof u);                                                           \
            memcpy(&v, q, sizeof v);                                                           \
            memcpy(&iu, p + boff, sizeof iu);                                                  \
            memcpy(&iv, q + boff, sizeof iv);                                                  \
            if (u < v || (u == v && iu < iv)) {                                                \
                memcpy(q, &u, sizeof u);                                                       \
                memcpy(q + boff, &iu, sizeof iu);                                              \
            }                                                                                  \
        }                                                                                      \
    }                                                                                          \
    static void id##_maxloc(const void *in_, void *inout_, size_t n, size_t stride,            \
                            size_t boff)                                                       \
    {                                                                                          \
        const char *p = in_;                                                                   \
        char *q = inout_;                                                                      \
        for (size_t i = 0; i < n; i++, p += stride, q += stride) {                             \
            A u, v, iu, iv;                                                                    \
            memcpy(&u, p, sizeof u);                                                           \
            memcpy(&v, q, sizeof v);                                                           \
            memcpy(&iu, p + boff, sizeof iu);                                                  \
            memcpy(&iv, q + boff, sizeof iv);                                                  \
            if (u > v || (u == v && iu < iv)) {                                                \
                memcpy(q, &u, sizeof u);                                                       \
                memcpy(q + boff, &iu, sizeof iu);                                              \
            }                                                                                  \
        }                                                                                      \
    }

/* The C integer types: every arithmetic, logical and bitwise operation. */
#define CINT(id, T, U) ARITH(id, T, U) LOGIC(id, T) BITS(id, T, U)
#define CINT_SLOTS(id) ARITH_SLOTS(id) LOGIC_SLOTS(id) BITS_SLOTS(id)

/* clang-format off */
CINT(schar, signed char, unsigned)
CINT(uchar, unsigned char, unsigned)
CINT(short, short, unsigned)
CINT(ushort, unsigned short, unsigned)
CINT(int, int, unsigned)
CINT(uint, unsigned, unsigned)
CINT(long, long, unsigned long)
CINT(ulong, unsigned long, unsigned long)
CINT(llong, long long, unsigned long long)
CINT(ullong, unsigned long long, unsigned long long)
CINT(i8, int8_t, unsigned)
CINT(i16, int16_t, unsigned)
CINT(i32, int32_t, uint32_t)
CINT(i64, int64_t, uint64_t)
CINT(u8, uint8_t, unsigned)
CINT(u16, uint16_t, unsigned)
CINT(u32, uint32_t, uint32_t)
CINT(u64, uint64_t, uint64_t)
/* characters: arithmetic only (MPI_SUM on MPI_CHAR, as the OSU benchmarks use) */
ARITH(char, char, unsigned)
ARITH(wchar, wchar_t, unsigned long long)
/* multi-language types: arithmetic, bitwise, and logical as in MPICH */
ARITH(aint, MPI_Aint, unsigned long long)
BITS(aint, MPI_Aint, unsigned long long)
LOGIC(aint, MPI_Aint)
ARITH(count, MPI_Count, unsigned long long)
BITS(count, MPI_Count, unsigned long long)
LOGIC(count, MPI_Count)
ARITH(offset, MPI_Offset, unsigned long long)
BITS(offset, MPI_Offset, unsigned long long)
LOGIC(offset, MPI_Offset)
/* floating */
ARITH(float, float, float)
ARITH(double, double, double)
ARITH(ldouble, long double, long double)
/* complex */
CPLX(cfloat, float _Complex)
CPLX(cdouble, double _Complex)
CPLX(cldouble, long double _Complex)
/* logical, byte */
LOGIC(bool, _Bool)
BITS(byte, unsigned char, unsigned)
/* pairs */
PAIR(float_int, float)
PAIR(double_int, double)
PAIR(long_int, long)
PAIR(two_int, int)
PAIR(short_int, short)
PAIR(ldouble_int, long double)
/* Fortran (mpi.h LOOM_FOREACH_FORTRAN_TYPE): integers arithmetic and bitwise, floating
 * arithmetic, complex, LOGICAL, the pairs; REAL4/8, INTEGER1..8 and COMPLEX8/16 share the
 * loops of their C twins (same type, other table entries) */
ARITH(fint, MPI_Fint, unsigned)
BITS(fint, MPI_Fint, unsigned)
ARITH(i128, loom_int128, unsigned __int128)
BITS(i128, loom_int128, unsigned __int128)
ARITH(real16, loom_real16, loom_real16)
CPLX(complex32, loom_complex32)
LOGIC(logical, MPI_Fint)
PAIR2(two_real, float)
PAIR2(two_dprec, double)
PAIR2(two_fint, MPI_Fint)

/* The C layout of each pair type (mpi.h: struct { A value; int index; }), for boff. */
struct float_int { float a; int b; };
struct double_int { double a; int b; };
struct long_int { long a; int b; };
struct two_int { int a; int b; };
struct short_int { short a; int b; };
struct ldouble_int { long double a; int b; };
struct two_real { float a; float b; };
struct two_dprec { double a; double b; };
struct two_fint { MPI_Fint a; MPI_Fint b; };

#define ENTRY(type, ...) {&(type), 0, 0, 0, {__VA_ARGS__}}
#define PAIR_ENTRY(type, id)                                                                   \
    {&(type), 1, offsetof(struct id, b), sizeof(((struct id *)0)->b), {PAIR_SLOTS(id)}}

/* The slots of the Fortran integers and floating types. */
#define FINT_SLOTS(id) ARITH_SLOTS(id) BITS_SLOTS(id)

/* The most used types first: lookups scan the table. */
static const struct loom_op_elem elems[] = {
    ENTRY(loom_mpi_double, ARITH_SLOTS(double)),
    ENTRY(loom_mpi_int, CINT_SLOTS(int)),
    ENTRY(loom_mpi_float, ARITH_SLOTS(float)),
    ENTRY(loom_mpi_long, CINT_SLOTS(long)),
    ENTRY(loom_mpi_char, ARITH_SLOTS(char)),
    ENTRY(loom_mpi_unsigned, CINT_SLOTS(uint)),
    ENTRY(loom_mpi_long_long_int, CINT_SLOTS(llong)),
    ENTRY(loom_mpi_unsigned_long, CINT_SLOTS(ulong)),
    ENTRY(loom_mpi_unsigned_long_long, CINT_SLOTS(ullong)),
    ENTRY(loom_mpi_byte, BITS_SLOTS(byte)),
    PAIR_ENTRY(loom_mpi_double_int, double_int),
    PAIR_ENTRY(loom_mpi_2int, two_int),
    ENTRY(loom_mpi_unsigned_char, CINT_SLOTS(uchar)),
    ENTRY(loom_mpi_signed_char, CINT_SLOTS(schar)),
    ENTRY(loom_mpi_short, CINT_SLOTS(short)),
    ENTRY(loom_mpi_unsigned_short, CINT_SLOTS(ushort)),
    ENTRY(loom_mpi_int8_t, CINT_SLOTS(i8)),
    ENTRY(loom_mpi_int16_t, CINT_SLOTS(i16)),
    ENTRY(loom_mpi_int32_t, CINT_SLOTS(i32)),
    ENTRY(loom_mpi_int64_t, CINT_SLOTS(i64)),
    ENTRY(loom_mpi_uint8_t, CINT_SLOTS(u8)),
    ENTRY(loom_mpi_uint16_t, CINT_SLOTS(u16)),
    ENTRY(loom_mpi_uint32_t, CINT_SLOTS(u32)),
    ENTRY(loom_mpi_uint64_t, CINT_SLOTS(u64)),
    ENTRY(loom_mpi_long_double, ARITH_SLOTS(ldouble)),
    ENTRY(loom_mpi_c_float_complex, CPLX_SLOTS(cfloat)),
    ENTRY(loom_mpi_c_double_complex, CPLX_SLOTS(cdouble)),
    ENTRY(loom_mpi_c_long_double_complex, CPLX_SLOTS(cldouble)),
    ENTRY(loom_mpi_c_bool, LOGIC_SLOTS(bool)),
    ENTRY(loom_mpi_wchar, ARITH_SLOTS(wchar)),
    ENTRY(loom_mpi_aint, ARITH_SLOTS(aint) BITS_SLOTS(aint) LOGIC_SLOTS(aint)),
    ENTRY(loom_mpi_count, ARITH_SLOTS(count) BITS_SLOTS(count) LOGIC_SLOTS(count)),
    ENTRY(loom_mpi_offset, ARITH_SLOTS(offset) BITS_SLOTS(offset) LOGIC_SLOTS(offset)),
    PAIR_ENTRY(loom_mpi_float_int, float_int),
    PAIR_ENTRY(loom_mpi_long_int, long_int),
    PAIR_ENTRY(loom_mpi_short_int, short_int),
    PAIR_ENTRY(loom_mpi_long_double_int, ldouble_int),
    ENTRY(loom_mpi_packed, 0),
    ENTRY(loom_mpi_integer, FINT_SLOTS(fint)),
    ENTRY(loom_mpi_real, ARITH_SLOTS(float)),
    ENTRY(loom_mpi_double_precision, ARITH_SLOTS(double)),
    ENTRY(loom_mpi_complex, CPLX_SLOTS(cfloat)),
    ENTRY(loom_mpi_double_complex, CPLX_SLOTS(cdouble)),
    ENTRY(loom_mpi_logical, LOGIC_SLOTS(logical)),
    PAIR_ENTRY(loom_mpi_2real, two_real),
    PAIR_ENTRY(loom_mpi_2double_precision, two_dprec),
    PAIR_ENTRY(loom_mpi_2integer, two_fint),
    ENTRY(loom_mpi_integer1, FINT_SLOTS(i8)),
    ENTRY(loom_mpi_integer2, FINT_SLOTS(i16)),
    ENTRY(loom_mpi_integer4, FINT_SLOTS(i32)),
    ENTRY(loom_mpi_integer8, FINT_SLOTS(i64)),
    ENTRY(loom_mpi_integer16, FINT_SLOTS(i128)),
    ENTRY(loom_mpi_real4, ARITH_SLOTS(float)),
    ENTRY(loom_mpi_real8, ARITH_SLOTS(double)),
    ENTRY(loom_mpi_real16, ARITH_SLOTS(real16)),
    ENTRY(loom_mpi_complex8, CPLX_SLOTS(cfloat)),
    ENTRY(loom_mpi_complex16, CPLX_SLOTS(cdouble)),
    ENTRY(loom_mpi_complex32, CPLX_SLOTS(complex32)),
    ENTRY(loom_mpi_character, 0),
};
/* clang-format on */

const struct loom_op_elem *loom__op_elem(const struct loom_datatype *t)
{
    for (size_t i = 0; i < sizeof elems / sizeof elems[0]; i++)
        if (elems[i].type == t)
            return &elems[i];
    return NULL;
}

/* The predefined type all of t's data is made of; NULL when t mixes several. */
static const struct loom_datatype *walk(const struct loom_datatype *t)
{
    if (t == NULL)
        return NULL;
    if (t->predefined) /* an f90 type (the only predefined type with a record) is its C type */
        return t->contents ? t->basic : t;
    /* Only the same-type pairs' basic types (MPI_2INT's MPI_INT, MPI_2REAL's MPI_REAL ...)
     * are not themselves: any other basic type is the answer without a walk. A type with no
     * single basic type may still be made of one pair type (a contiguous of MPI_DOUBLE_INT):
     * walk it. */
    if (t->basic && t->basic != &loom_mpi_int && t->basic != &loom_mpi_real &&
        t->basic != &loom_mpi_double_precision && t->basic != &loom_mpi_integer)
        return t->basic;
    if (t->layout_owner)
        return walk(t->layout_owner);
    switch (t->kind) {
    case LOOM_DT_BASIC:
        return t->basic;
    case LOOM_DT_VECTOR:
        return t->nblocks ? walk(t->child) : t->basic;
    case LOOM_DT_BLOCKS:
        if (t->children == NULL)
            return walk(t->child);
        break;
    }
    const struct loom_datatype *e = NULL;
    for (size_t b = 0; b < t->nblocks; b++) {
        const struct loom_datatype *c = walk(t->children[b]);
        if (c == NULL || (e && c != e))
            return NULL;
        e = c;
    }
    return e;
}

const struct loom_datatype *loom__op_elem_type(const struct loom_datatype *t)
{
    return walk(t);
}
