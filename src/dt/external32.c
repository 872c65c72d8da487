/* dt/external32.c — the "external32" data representation of MPI_Pack_external (MPI 4.1,
 * 19.1.x): every basic value big-endian, in the standard's size for its type, no padding.
 *
 * Conversion works on the native packed stream (what loom__dt_pack makes): the stream holds
 * each basic element once, in type-map order, so converting it is a walk over runs of one
 * basic type ("n values of MPI_INT") taken from the layout tree, never element by element
 * through the tree. A type made of one basic type is one run per call.
 *
 * Sizes that differ from x86-64 Linux's: MPI_LONG and MPI_UNSIGNED_LONG are 4 bytes,
 * MPI_WCHAR 2, MPI_LONG_DOUBLE (and its complex) 16, IEEE binary128. A long that does not
 * fit 32 bits is reported (the caller's MPI_ERR_CONVERSION); the rest is still converted. */
#include <float.h>
#include <stdint.h>
#include <string.h>
#include "core/error.h"
#include "dt/dt.h"

enum conv { RAW, SIGNED, UNSIGNED, FLOATING, LDOUBLE };

struct ext {
    const struct loom_datatype *t;
    unsigned char parts; /* components of one value (2 for a complex) */
    unsigned char size;  /* external bytes of one component */
    unsigned char how;   /* enum conv */
};

/* clang-format off */
static const struct ext exts[] = {
    {&loom_mpi_char, 1, 1, RAW},           {&loom_mpi_signed_char, 1, 1, RAW},
    {&loom_mpi_unsigned_char, 1, 1, RAW},  {&loom_mpi_byte, 1, 1, RAW},
    {&loom_mpi_packed, 1, 1, RAW},         {&loom_mpi_c_bool, 1, 1, RAW},
    {&loom_mpi_int8_t, 1, 1, RAW},         {&loom_mpi_uint8_t, 1, 1, RAW},
    {&loom_mpi_wchar, 1, 2, SIGNED},
    {&loom_mpi_short, 1, 2, SIGNED},       {&loom_mpi_unsigned_short, 1, 2, UNSIGNED},
    {&loom_mpi_int, 1, 4, SIGNED},         {&loom_mpi_unsigned, 1, 4, UNSIGNED},
    {&loom_mpi_long, 1, 4, SIGNED},        {&loom_mpi_unsigned_long, 1, 4, UNSIGNED},
    {&loom_mpi_long_long_int, 1, 8, SIGNED}, {&loom_mpi_unsigned_long_long, 1, 8, UNSIGNED},
    {&loom_mpi_int16_t, 1, 2, SIGNED},     {&loom_mpi_uint16_t, 1, 2, UNSIGNED},
    {&loom_mpi_int32_t, 1, 4, SIGNED},     {&loom_mpi_uint32_t, 1, 4, UNSIGNED},
    {&loom_mpi_int64_t, 1, 8, SIGNED},     {&loom_mpi_uint64_t, 1, 8, UNSIGNED},
    {&loom_mpi_aint, 1, 8, SIGNED},        {&loom_mpi_count, 1, 8, SIGNED},
    {&loom_mpi_offset, 1, 8, SIGNED},
    {&loom_mpi_float, 1, 4, FLOATING},     {&loom_mpi_double, 1, 8, FLOATING},
    {&loom_mpi_long_double, 1, 16, LDOUBLE},
    {&loom_mpi_c_float_complex, 2, 4, FLOATING}, {&loom_mpi_c_double_complex, 2, 8, FLOATING},
    {&loom_mpi_c_long_double_complex, 2, 16, LDOUBLE},
    /* Fortran: the external sizes are the native ones (FLOATING is a plain byte reversal, so
     * it serves the 128-bit integer as well) */
    {&loom_mpi_integer, 1, 4, SIGNED},     {&loom_mpi_logical, 1, 4, SIGNED},
    {&loom_mpi_real, 1, 4, FLOATING},      {&loom_mpi_double_precision, 1, 8, FLOATING},
    {&loom_mpi_complex, 2, 4, FLOATING},   {&loom_mpi_double_complex, 2, 8, FLOATING},
    {&loom_mpi_character, 1, 1, RAW},      {&loom_mpi_integer1, 1, 1, RAW},
    {&loom_mpi_integer2, 1, 2, SIGNED},    {&loom_mpi_integer4, 1, 4, SIGNED},
    {&loom_mpi_integer8, 1, 8, SIGNED},    {&loom_mpi_integer16, 1, 16, FLOATING},
    {&loom_mpi_real4, 1, 4, FLOATING},     {&loom_mpi_real8, 1, 8, FLOATING},
    {&loom_mpi_real16, 1, 16, FLOATING},   {&loom_mpi_complex8, 2, 4, FLOATING},
    {&loom_mpi_complex16, 2, 8, FLOATING}, {&loom_mpi_complex32, 2, 16, FLOATING},
};
/* clang-format on */

static const struct ext *ext_of(const struct loom_datatype *basic)
{
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (exts[i].t == basic)
            return &exts[i];
    return NULL;
}

/* ---- runs of one basic type in stream order ------------------------------------------ */

typedef int (*run_fn)(void *arg, const struct loom_datatype *basic, size_t n);

/* Call fn for the runs of one element of t, in stream order; stops at fn's first non-zero
 * return, which it returns. Depth is bounded by LOOM_DT_MAX_DEPTH. */
static int walk(const struct loom_datatype *t, run_fn fn, void *arg)
{
    if (t->size == 0)
        return 0;
    if (t->basic)
        return fn(arg, t->basic, t->nbasic);
    for (size_t b = 0; b < t->nblocks; b++) {
        ptrdiff_t d;
        size_t n;
        const struct loom_datatype *m;
        loom__dt_block(t, b, &d, &n, &m);
        if (m->basic) {
            int rc = fn(arg, m->basic, n * m->nbasic);
            if (rc)
                return rc;
            continue;
        }
        for (size_t j = 0; j < n; j++) {
            int rc = walk(m, fn, arg);
            if (rc)
                return rc;
        }
    }
    return 0;
}

static int add_size(void *arg, const struct loom_datatype *basic, size_t n)
{
    const struct ext *e = ext_of(basic);
    size_t *total = arg, bytes;
    if (!e || __builtin_mul_overflow(n, (size_t)(e->parts * e->size), &bytes) ||
        __builtin_add_overflow(*total, bytes, total))
        return LOOM_ERR_ARG;
    return 0;
}

int loom__dt_external32_size(const struct loom_datatype *t, size_t count, size_t *size)
{
    size_t one = 0;
    int rc = walk(t, add_size, &one);
    if (rc)
        return rc;
    if (__builtin_mul_overflow(one, count, size) || *size > (size_t)PTRDIFF_MAX)
        return LOOM_ERR_ARG;
    return 0;
}

/* ---- converting one component ---------------------------------------------------------- */

/* Copy n bytes reversing their order on a little-endian machine (external32 is big-endian). */
static inline void to_big(unsigned char *d, const unsigned char *s, size_t n)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (size_t i = 0; i < n; i++)
        d[i] = s[n - 1 - i];
#else
    memcpy(d, s, n);
#endif
}

/* The native integer at s (size bytes) as a 64-bit value, sign-extended when sgn. */
static uint64_t load_int(const unsigned char *s, size_t size, int sgn)
{
    if (size == 1) {
        int8_t v;
        memcpy(&v, s, 1);
        return sgn ? (uint64_t)(int64_t)v : (uint8_t)v;
    }
    if (size == 2) {
        int16_t v;
        memcpy(&v, s, 2);
        return sgn ? (uint64_t)(int64_t)v : (uint16_t)v;
    }
    if (size == 4) {
        int32_t v;
        memcpy(&v, s, 4);
        return sgn ? (uint64_t)(int64_t)v : (uint32_t)v;
    }
    uint64_t v;
    memcpy(&v, s, 8);
    return v;
}

/* The low `size` bytes of v, stored natively at d. */
static void store_int(unsigned char *d, size_t size, uint64_t v)
{
    if (size == 1) {
        uint8_t x = (uint8_t)v;
        memcpy(d, &x, 1);
    } else if (size == 2) {
        uint16_t x = (uint16_t)v;
        memcpy(d, &x, 2);
    } else if (size == 4) {
        uint32_t x = (uint32_t)v;
        memcpy(d, &x, 4);
    } else {
        memcpy(d, &v, 8);
    }
}

/* 1 when v (read from a wider native integer) has no exact form in `bytes` bytes. */
static int int_overflows(uint64_t v, size_t bytes, int sgn)
{
    if (bytes >= 8)
        return 0;
    unsigned bits = (unsigned)bytes * 8;
    if (sgn) {
        int64_t x = (int64_t)v, lim = (int64_t)1 << (bits - 1);
        return x < -lim || x >= lim;
    }
    return v >> bits != 0;
}

/* long double <-> IEEE binary128, both as 16 bytes in native order. */
#if LDBL_MANT_DIG == 64
/* x87 extended: 64-bit significand with an explicit integer bit, then sign and 15-bit
 * exponent with binary128's bias; the fraction moves to the top of binary128's 112 bits. */
static void ld_to_quad(unsigned char *q, const unsigned char *ld)
{
    uint64_t mant;
    uint16_t se;
    memcpy(&mant, ld, 8);
    memcpy(&se, ld + 8, 2);
    unsigned __int128 v = ((unsigned __int128)se << 112) |
                          ((unsigned __int128)(mant & 0x7fffffffffffffffULL) << 49);
    memcpy(q, &v, 16);
}
static void quad_to_ld(unsigned char *ld, const unsigned char *q)
{
    unsigned __int128 v;
    memcpy(&v, q, 16);
    uint16_t se = (uint16_t)(v >> 112);
    uint64_t frac = (uint64_t)(v >> 49) & 0x7fffffffffffffffULL;
    uint64_t mant = frac | ((se & 0x7fff) ? 0x8000000000000000ULL : 0);
    memset(ld, 0, 16);
    memcpy(ld, &mant, 8);
    memcpy(ld + 8, &se, 2);
}
#elif LDBL_MANT_DIG == 113
static void ld_to_quad(unsigned char *q, const unsigned char *ld)
{
    memcpy(q, ld, 16);
}
static void quad_to_ld(unsigned char *ld, const unsigned char *q)
{
    memcpy(ld, q, 16);
}
#else
#error "external32: no conversion of this long double format to binary128"
#endif

/* ---- the two directions ---------------------------------------------------------------- */

struct conv_state {
    unsigned char *out;
    const unsigned char *in;
    int lost; /* a value did not fit */
};

static int encode_run(void *arg, const struct loom_datatype *basic, size_t n)
{
    struct conv_state *c = arg;
    const struct ext *e = ext_of(basic);
    if (!e)
        return LOOM_ERR_ARG;
    size_t nat = basic->size / e->parts, k = n * e->parts;
    switch (e->how) {
    case RAW:
        memcpy(c->out, c->in, k);
        break;
    case FLOATING:
        for (size_t i = 0; i < k; i++)
            to_big(c->out + i * e->size, c->in + i * nat, e->size);
        break;
    case LDOUBLE:
        for (size_t i = 0; i < k; i++) {
            unsigned char q[16];
            ld_to_quad(q, c->in + i * nat);
            to_big(c->out + i * 16, q, 16);
        }
        break;
    default: {
        int sgn = e->how == SIGNED;
        for (size_t i = 0; i < k; i++) {
            uint64_t v = load_int(c->in + i * nat, nat, sgn);
            if (nat > e->size && int_overflows(v, e->size, sgn))
                c->lost = 1;
            unsigned char tmp[8] = {0};
            store_int(tmp, e->size, v);
            to_big(c->out + i * e->size, tmp, e->size);
        }
        break;
    }
    }
    c->out += k * e->size;
    c->in += k * nat;
    return 0;
}

static int decode_run(void *arg, const struct loom_datatype *basic, size_t n)
{
    struct conv_state *c = arg;
    const struct ext *e = ext_of(basic);
    if (!e)
        return LOOM_ERR_ARG;
    size_t nat = basic->size / e->parts, k = n * e->parts;
    switch (e->how) {
    case RAW:
        memcpy(c->out, c->in, k);
        break;
    case FLOATING:
        for (size_t i = 0; i < k; i++)
            to_big(c->out + i * nat, c->in + i * e->size, e->size);
        break;
    case LDOUBLE:
        for (size_t i = 0; i < k; i++) {
            unsigned char q[16];
            to_big(q, c->in + i * 16, 16);
            quad_to_ld(c->out + i * nat, q);
        }
        break;
    default: {
        int sgn = e->how == SIGNED;
        for (size_t i = 0; i < k; i++) {
            unsigned char tmp[8] = {0};
            to_big(tmp, c->in + i * e->size, e->size);
            uint64_t v = load_int(tmp, e->size, sgn);
            if (nat < e->size && int_overflows(v, nat, sgn))
                c->lost = 1;
            store_int(c->out + i * nat, nat, v);
        }
        break;
    }
    }
    c->out += k * nat;
    c->in += k * e->size;
    return 0;
}

static int convert(run_fn fn, void *out, const void *in, const struct loom_datatype *t,
                   size_t count)
{
    struct conv_state c = {out, in, 0};
    if (t->basic) /* one run for the whole call */
        return fn(&c, t->basic, t->nbasic * count) ? LOOM_ERR_ARG : c.lost;
    for (size_t i = 0; i < count; i++)
        if (walk(t, fn, &c))
            return LOOM_ERR_ARG;
    return c.lost;
}

int loom__dt_external32_encode(void *out, const void *native, const struct loom_datatype *t,
                               size_t count)
{
    return convert(encode_run, out, native, t, count);
}

int loom__dt_external32_decode(void *native, const void *in, const struct loom_datatype *t,
                               size_t count)
{
    return convert(decode_run, native, in, t, count);
}
