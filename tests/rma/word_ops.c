/* rma_word_ops — MPI_Fetch_and_op and MPI_Compare_and_swap on one element of every type that
 * has a fast path (rma/word.h: the named 4- and 8-byte integers, C's and Fortran's, and the
 * doubles), with every predefined operation, checked against what the standard says each
 * computes; and the same through the full path (a target that is not aligned to its word),
 * which must agree.
 *
 * Every rank is an origin on every rank (itself included) in one MPI_Win_lock_all epoch,
 * each origin on its own slots, so every value is known: the slot is set with MPI_Put, then
 * fetched-and-op'ed; the fetched value must be the one put, and what MPI_Get reads back must
 * be old op operand. Two pairs of values: (-5, 3), where signed and unsigned types and the
 * bitwise operations all differ, and (the type's largest value, 1), where a sum wraps.
 * An operation the standard does not define on the type (MPI_LAND on MPI_INTEGER, MPI_BAND on
 * MPI_DOUBLE) must fail with MPI_ERR_OP and leave the element as it was; a compare-and-swap
 * of a double with MPI_ERR_TYPE, and both calls on a duplicate of MPI_INT64_T (no predefined
 * type) with MPI_ERR_TYPE. MPI_PROC_NULL as target does nothing. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>
#include "check.h"

#define OK(call) CHECK_INT((call), MPI_SUCCESS)

struct wtype {
    MPI_Datatype t;
    const char *name;
    int size;       /* 4 or 8 */
    int is_signed;  /* integers */
    int is_double;
    int has_logic;  /* MPI_LAND, _LOR, _LXOR defined (C integers, not Fortran's) */
};

static const MPI_Op ops[] = {MPI_MAX,  MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND,    MPI_BAND,
                             MPI_LOR,  MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_REPLACE, MPI_NO_OP};
enum { NOPS = sizeof ops / sizeof ops[0] };

static uint64_t trunc_to(uint64_t v, int size)
{
    return size == 8 ? v : v & 0xffffffffu;
}

static int64_t as_signed(uint64_t v, int size)
{
    return size == 8 ? (int64_t)v : (int64_t)(int32_t)(uint32_t)v;
}

/* a < b for the integer type w (values as bit patterns) */
static int less(const struct wtype *w, uint64_t a, uint64_t b)
{
    return w->is_signed ? as_signed(a, w->size) < as_signed(b, w->size)
                        : trunc_to(a, w->size) < trunc_to(b, w->size);
}

/* What an integer element o becomes under op with operand v (MPI 4.1 section 6.9.2). */
static uint64_t int_ref(const struct wtype *w, MPI_Op op, uint64_t o, uint64_t v)
{
    int lo = trunc_to(o, w->size) != 0, lv = trunc_to(v, w->size) != 0;
    uint64_t r;
    if (op == MPI_MAX)
        r = less(w, o, v) ? v : o;
    else if (op == MPI_MIN)
        r = less(w, v, o) ? v : o;
    else if (op == MPI_SUM)
        r = o + v;
    else if (op == MPI_PROD)
        r = o * v;
    else if (op == MPI_LAND)
        r = lo && lv;
    else if (op == MPI_BAND)
        r = o & v;
    else if (op == MPI_LOR)
        r = lo || lv;
    else if (op == MPI_BOR)
        r = o | v;
    else if (op == MPI_LXOR)
        r = lo != lv;
    else if (op == MPI_BXOR)
        r = o ^ v;
    else if (op == MPI_REPLACE)
        r = v;
    else
        r = o;
    return trunc_to(r, w->size);
}

static double double_ref(MPI_Op op, double o, double v)
{
    if (op == MPI_MAX)
        return o > v ? o : v;
    if (op == MPI_MIN)
        return o < v ? o : v;
    if (op == MPI_SUM)
        return o + v;
    if (op == MPI_PROD)
        return o * v;
    if (op == MPI_REPLACE)
        return v;
    return o;
}

/* 1 if the standard defines op on w. */
static int defined(const struct wtype *w, MPI_Op op)
{
    if (op == MPI_REPLACE || op == MPI_NO_OP || op == MPI_MAX || op == MPI_MIN ||
        op == MPI_SUM || op == MPI_PROD)
        return 1;
    if (w->is_double)
        return 0;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        return w->has_logic;
    return 1; /* the bitwise operations: every integer type */
}

/* The element's bytes from a value (integers: the low `size` bytes of the pattern). */
static void to_bytes(const struct wtype *w, uint64_t bits, double d, void *out)
{
    if (w->is_double) {
        memcpy(out, &d, 8);
    } else if (w->size == 8) {
        memcpy(out, &bits, 8);
    } else {
        uint32_t v = (uint32_t)bits;
        memcpy(out, &v, 4);
    }
}

static uint64_t int_of(const struct wtype *w, const void *in)
{
    if (w->size == 8) {
        uint64_t v;
        memcpy(&v, in, 8);
        return v;
    }
    uint32_t v;
    memcpy(&v, in, 4);
    return v;
}

static double double_of(const void *in)
{
    double d;
    memcpy(&d, in, 8);
    return d;
}

struct where {
    MPI_Win win;
    int target;
    MPI_Aint disp; /* in the window's displacement units */
};

/* Put the element `old`, fetch-and-op `v` into it, read it back: checks the fetched and the
 * final values (or, for an op the standard does not define, the error and the unchanged
 * element). */
static void check_fop(const struct wtype *w, MPI_Op op, const struct where *at, uint64_t old,
                      uint64_t v, double dold, double dv)
{
    _Alignas(8) unsigned char ob[8], vb[8], rb[8], back[8];
    to_bytes(w, old, dold, ob);
    to_bytes(w, v, dv, vb);
    memset(rb, 0xa5, sizeof rb);
    OK(MPI_Put(ob, 1, w->t, at->target, at->disp, 1, w->t, at->win));
    OK(MPI_Win_flush(at->target, at->win));
    int rc = MPI_Fetch_and_op(vb, rb, w->t, at->target, at->disp, op, at->win);
    OK(MPI_Win_flush(at->target, at->win));
    OK(MPI_Get(back, 1, w->t, at->target, at->disp, 1, w->t, at->win));
    OK(MPI_Win_flush(at->target, at->win));
    if (!defined(w, op)) {
        int cls;
        MPI_Error_class(rc, &cls);
        CHECK_INT(cls, MPI_ERR_OP);
        CHECK(memcmp(back, ob, (size_t)w->size) == 0);
        return;
    }
    OK(rc);
    CHECK(memcmp(rb, ob, (size_t)w->size) == 0); /* the fetched value is the old one */
    if (w->is_double) {
        double want = double_ref(op, dold, dv), got = double_of(back);
        CHECK(got == want);
    } else {
        uint64_t want = int_ref(w, op, old, v), got = int_of(w, back);
        if (got != want)
            fprintf(stderr, "%s: %llx op %llx gave %llx, expected %llx\n", w->name,
                    (unsigned long long)old, (unsigned long long)v, (unsigned long long)got,
                    (unsigned long long)want);
        CHECK(got == want);
    }
}

/* Compare-and-swap with a compare value that matches, then with one that does not. */
static void check_cas(const struct wtype *w, const struct where *at, uint64_t old, uint64_t v)
{
    _Alignas(8) unsigned char ob[8], vb[8], cb[8], rb[8], back[8];
    to_bytes(w, old, 0, ob);
    to_bytes(w, v, 0, vb);
    OK(MPI_Put(ob, 1, w->t, at->target, at->disp, 1, w->t, at->win));
    OK(MPI_Win_flush(at->target, at->win));
    int rc = MPI_Compare_and_swap(vb, ob, rb, w->t, at->target, at->disp, at->win);
    OK(MPI_Win_flush(at->target, at->win));
    if (w->is_double) {
        int cls;
        MPI_Error_class(rc, &cls);
        CHECK_INT(cls, MPI_ERR_TYPE);
        return;
    }
    OK(rc);
    CHECK(memcmp(rb, ob, (size_t)w->size) == 0);
    OK(MPI_Get(back, 1, w->t, at->target, at->disp, 1, w->t, at->win));
    OK(MPI_Win_flush(at->target, at->win));
    CHECK(memcmp(back, vb, (size_t)w->size) == 0); /* swapped */
    to_bytes(w, v + 1, 0, cb);                     /* not what is there */
    OK(MPI_Compare_and_swap(ob, cb, rb, w->t, at->target, at->disp, at->win));
    OK(MPI_Win_flush(at->target, at->win));
    CHECK(memcmp(rb, vb, (size_t)w->size) == 0);
    OK(MPI_Get(back, 1, w->t, at->target, at->disp, 1, w->t, at->win));
    OK(MPI_Win_flush(at->target, at->win));
    CHECK(memcmp(back, vb, (size_t)w->size) == 0); /* not swapped */
}

static void check_type(const struct wtype *w, const struct where *at)
{
    uint64_t max = w->is_signed ? (w->size == 8 ? INT64_MAX : INT32_MAX)
                                : (w->size == 8 ? UINT64_MAX : UINT32_MAX);
    for (int k = 0; k < NOPS; k++) {
        check_fop(w, ops[k], at, (uint64_t)-5, 3, -5.5, 3.25);
        check_fop(w, ops[k], at, max, 1, 1e300, 1e300);
    }
    check_cas(w, at, (uint64_t)-5, 3);
    check_cas(w, at, max, 0);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Datatype dup64;
    OK(MPI_Type_dup(MPI_INT64_T, &dup64));
    const struct wtype types[] = {
        {MPI_INT, "MPI_INT", 4, 1, 0, 1},
        {MPI_UNSIGNED, "MPI_UNSIGNED", 4, 0, 0, 1},
        {MPI_LONG, "MPI_LONG", (int)sizeof(long), 1, 0, 1},
        {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", (int)sizeof(long), 0, 0, 1},
        {MPI_LONG_LONG, "MPI_LONG_LONG", 8, 1, 0, 1},
        {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", 8, 0, 0, 1},
        {MPI_INT32_T, "MPI_INT32_T", 4, 1, 0, 1},
        {MPI_UINT32_T, "MPI_UINT32_T", 4, 0, 0, 1},
        {MPI_INT64_T, "MPI_INT64_T", 8, 1, 0, 1},
        {MPI_UINT64_T, "MPI_UINT64_T", 8, 0, 0, 1},
        {MPI_AINT, "MPI_AINT", (int)sizeof(MPI_Aint), 1, 0, 1},
        {MPI_COUNT, "MPI_COUNT", (int)sizeof(MPI_Count), 1, 0, 1},
        {MPI_OFFSET, "MPI_OFFSET", (int)sizeof(MPI_Offset), 1, 0, 1},
        {MPI_INTEGER, "MPI_INTEGER", (int)sizeof(MPI_Fint), 1, 0, 0},
        {MPI_INTEGER4, "MPI_INTEGER4", 4, 1, 0, 0},
        {MPI_INTEGER8, "MPI_INTEGER8", 8, 1, 0, 0},
        {MPI_DOUBLE, "MPI_DOUBLE", 8, 0, 1, 0},
        {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8, 0, 1, 0},
        {MPI_REAL8, "MPI_REAL8", 8, 0, 1, 0},
    };
    enum { NTYPES = sizeof types / sizeof types[0] };

    /* Each origin owns 16 bytes of every target's windows: an aligned window (disp_unit 8,
     * slot 2 * rank) and a byte-addressed one where the element sits 4 bytes into the slot
     * (not aligned to 8: the full path). */
    void *base8, *base1;
    MPI_Win w8, w1;
    OK(MPI_Win_allocate((MPI_Aint)size * 16, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &base8, &w8));
    OK(MPI_Win_allocate((MPI_Aint)size * 16, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base1, &w1));
    OK(MPI_Win_set_errhandler(w8, MPI_ERRORS_RETURN));
    OK(MPI_Win_set_errhandler(w1, MPI_ERRORS_RETURN));
    OK(MPI_Win_lock_all(0, w8));
    OK(MPI_Win_lock_all(0, w1));
    for (int t = 0; t < size; t++) {
        struct where aligned = {w8, t, 2 * rank}, odd = {w1, t, 16 * rank + 4};
        for (int i = 0; i < NTYPES; i++) {
            check_type(&types[i], &aligned);
            check_type(&types[i], &odd);
        }
    }
    /* a duplicate of a word type is no predefined type: both calls refuse it */
    long long one = 1, res = 42;
    int cls;
    MPI_Error_class(MPI_Fetch_and_op(&one, &res, dup64, rank, 0, MPI_SUM, w8), &cls);
    CHECK_INT(cls, MPI_ERR_TYPE);
    MPI_Error_class(MPI_Compare_and_swap(&one, &one, &res, dup64, rank, 0, w8), &cls);
    CHECK_INT(cls, MPI_ERR_TYPE);
    CHECK_INT(res, 42);
    /* MPI_PROC_NULL: success, nothing fetched */
    OK(MPI_Fetch_and_op(&one, &res, MPI_LONG_LONG, MPI_PROC_NULL, 0, MPI_SUM, w8));
    CHECK_INT(res, 42);
    OK(MPI_Compare_and_swap(&one, &one, &res, MPI_LONG_LONG, MPI_PROC_NULL, 0, w8));
    CHECK_INT(res, 42);
    OK(MPI_Win_unlock_all(w1));
    OK(MPI_Win_unlock_all(w8));
    OK(MPI_Win_free(&w1));
    OK(MPI_Win_free(&w8));
    OK(MPI_Type_free(&dup64));
    OK(MPI_Finalize());
    return 0;
}
