/* Every reduction collective with every predefined operation on every predefined type it is
 * defined on (MINLOC/MAXLOC on the pair types), against the rank-order fold of MPI_Reduce_local
 * computed here; a pair the operation is not defined on must fail with MPI_ERR_OP on every
 * rank. Blocking, Wait and Test forms take turns. Values are small integers, so sums and
 * products are exact whatever the order of a tree. */
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include "coll_check.h"

static _Thread_local int rank, size; /* ranks are threads: globals are shared */

#define SCALAR(T, name)                                                                        \
    static void put_##name(void *p, long v, int loc)                                          \
    {                                                                                          \
        (void)loc;                                                                             \
        *(T *)p = (T)v;                                                                        \
    }                                                                                          \
    static double get_##name(const void *p, int *loc)                                         \
    {                                                                                          \
        *loc = 0;                                                                              \
        return (double)*(const T *)p;                                                          \
    }
SCALAR(char, char)
SCALAR(signed char, schar)
SCALAR(unsigned char, uchar)
SCALAR(short, short)
SCALAR(unsigned short, ushort)
SCALAR(int, int)
SCALAR(unsigned, uint)
SCALAR(long, long)
SCALAR(unsigned long, ulong)
SCALAR(long long, llong)
SCALAR(unsigned long long, ullong)
SCALAR(float, float)
SCALAR(double, double)
SCALAR(long double, ldouble)
SCALAR(bool, bool)
SCALAR(int8_t, i8)
SCALAR(int16_t, i16)
SCALAR(int64_t, i64)
SCALAR(uint8_t, u8)
SCALAR(uint32_t, u32)
SCALAR(float _Complex, fcomplex)
SCALAR(double _Complex, dcomplex)

#define PAIR(T, name)                                                                          \
    struct name {                                                                              \
        T v;                                                                                   \
        int loc;                                                                               \
    };                                                                                         \
    static void put_##name(void *p, long v, int loc)                                          \
    {                                                                                          \
        ((struct name *)p)->v = (T)v;                                                          \
        ((struct name *)p)->loc = loc;                                                         \
    }                                                                                          \
    static double get_##name(const void *p, int *loc)                                         \
    {                                                                                          \
        *loc = ((const struct name *)p)->loc;                                                  \
        return (double)((const struct name *)p)->v;                                            \
    }
PAIR(int, pair_2int)
PAIR(float, pair_float_int)
PAIR(double, pair_double_int)
PAIR(long, pair_long_int)
PAIR(short, pair_short_int)

struct tdesc {
    MPI_Datatype t;
    const char *name;
    void (*put)(void *, long, int);
    double (*get)(const void *, int *);
};

#define T(mpi, name) {mpi, #mpi, put_##name, get_##name}
static const struct tdesc types[] = {
    T(MPI_CHAR, char),        T(MPI_SIGNED_CHAR, schar),   T(MPI_UNSIGNED_CHAR, uchar),
    T(MPI_SHORT, short),      T(MPI_UNSIGNED_SHORT, ushort), T(MPI_INT, int),
    T(MPI_UNSIGNED, uint),    T(MPI_LONG, long),           T(MPI_UNSIGNED_LONG, ulong),
    T(MPI_LONG_LONG_INT, llong), T(MPI_UNSIGNED_LONG_LONG, ullong), T(MPI_FLOAT, float),
    T(MPI_DOUBLE, double),    T(MPI_LONG_DOUBLE, ldouble), T(MPI_C_BOOL, bool),
    T(MPI_INT8_T, i8),        T(MPI_INT16_T, i16),         T(MPI_INT64_T, i64),
    T(MPI_UINT8_T, u8),       T(MPI_UINT32_T, u32),        T(MPI_BYTE, uchar),
    T(MPI_C_FLOAT_COMPLEX, fcomplex), T(MPI_C_DOUBLE_COMPLEX, dcomplex),
    T(MPI_2INT, pair_2int),   T(MPI_FLOAT_INT, pair_float_int),
    T(MPI_DOUBLE_INT, pair_double_int), T(MPI_LONG_INT, pair_long_int),
    T(MPI_SHORT_INT, pair_short_int),
};

static const struct {
    MPI_Op op;
    const char *name;
} ops[] = {{MPI_SUM, "MPI_SUM"},   {MPI_PROD, "MPI_PROD"}, {MPI_MAX, "MPI_MAX"},
           {MPI_MIN, "MPI_MIN"},   {MPI_LAND, "MPI_LAND"}, {MPI_LOR, "MPI_LOR"},
           {MPI_LXOR, "MPI_LXOR"}, {MPI_BAND, "MPI_BAND"}, {MPI_BOR, "MPI_BOR"},
           {MPI_BXOR, "MPI_BXOR"}, {MPI_MINLOC, "MPI_MINLOC"}, {MPI_MAXLOC, "MPI_MAXLOC"}};

/* Rank r's element i: 0..3 (products: 1 or 2, rarely), its location r. Bool types get 0/1. */
static long value(MPI_Op op, int r, long i)
{
    if (op == MPI_PROD)
        return (r + i) % 4 == 0 ? 2 : 1;
    return (r * 5 + i * 3) % 4;
}

static void fill(const struct tdesc *d, MPI_Op op, void *buf, long count, int r)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(d->t, &lb, &ext);
    memset(buf, 0, (size_t)(count * ext));
    for (long i = 0; i < count; i++) {
        long v = value(op, r, i);
        if (d->t == MPI_C_BOOL)
            v &= 1;
        d->put((char *)buf + i * ext, v, r);
    }
}

static void compare(const struct tdesc *d, const char *opname, const char *coll, int mode,
                    const void *got, const void *want, long count)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(d->t, &lb, &ext);
    for (long i = 0; i < count; i++) {
        int gl, wl;
        double g = d->get((const char *)got + i * ext, &gl);
        double w = d->get((const char *)want + i * ext, &wl);
        if (g != w || gl != wl) {
            fprintf(stderr, "%s %s %s (%s) rank %d of %d: element %ld is %g loc %d, expected "
                    "%g loc %d\n", coll, opname, d->name, mode_name[mode], rank, size, i, g, gl,
                    w, wl);
            fflush(NULL);
            _exit(99);
        }
    }
}

/* want = contribution(lo) op ... op contribution(hi - 1), by MPI_Reduce_local. */
static void fold(const struct tdesc *d, MPI_Op op, void *want, void *tmp, long count, int lo,
                 int hi)
{
    fill(d, op, want, count, hi - 1);
    for (int r = hi - 2; r >= lo; r--) {
        fill(d, op, tmp, count, r);
        OK(MPI_Reduce_local(tmp, want, (int)count, d->t, op));
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const long count = 5;
    size_t room = (size_t)size * (size_t)count * 64;
    char *s = malloc(room), *d = malloc(room), *want = malloc(room), *tmp = malloc(room);
    CHECK(s && d && want && tmp);
    int turn = 0;
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
        const struct tdesc *t = &types[ti];
        for (size_t oi = 0; oi < sizeof ops / sizeof ops[0]; oi++) {
            MPI_Op op = ops[oi].op;
            const char *on = ops[oi].name;
            fill(t, op, tmp, count, 0);
            fill(t, op, want, count, 1);
            if (MPI_Reduce_local(tmp, want, (int)count, t->t, op) != MPI_SUCCESS) {
                /* not defined there: the collectives must say so too */
                CHECK_INT(MPI_Allreduce(tmp, want, (int)count, t->t, op, MPI_COMM_WORLD),
                          MPI_ERR_OP);
                continue;
            }
            int mode = turn++ % MODE_COUNT_;
            /* reduce to the last rank */
            fill(t, op, s, count, rank);
            COLL(mode, Reduce, reduce, s, d, (int)count, t->t, op, size - 1, MPI_COMM_WORLD);
            if (rank == size - 1) {
                fold(t, op, want, tmp, count, 0, size);
                compare(t, on, "reduce", mode, d, want, count);
            }
            /* allreduce */
            COLL(mode, Allreduce, allreduce, s, d, (int)count, t->t, op, MPI_COMM_WORLD);
            fold(t, op, want, tmp, count, 0, size);
            compare(t, on, "allreduce", mode, d, want, count);
            /* scan and exscan */
            COLL(mode, Scan, scan, s, d, (int)count, t->t, op, MPI_COMM_WORLD);
            fold(t, op, want, tmp, count, 0, rank + 1);
            compare(t, on, "scan", mode, d, want, count);
            COLL(mode, Exscan, exscan, s, d, (int)count, t->t, op, MPI_COMM_WORLD);
            if (rank > 0) {
                fold(t, op, want, tmp, count, 0, rank);
                compare(t, on, "exscan", mode, d, want, count);
            }
        }
    }
    free(s);
    free(d);
    free(want);
    free(tmp);
    MPI_Finalize();
    return 0;
}
