/* rma_atomics [ITERS] — atomicity of the accumulate family (MPI 4.1 section 12.7.1): every
 * rank hits the same locations of one target at once, in one MPI_Win_lock_all epoch, ITERS
 * times each, every kind of operation interleaved with the others:
 *
 * - MPI_Accumulate(MPI_SUM) and MPI_Fetch_and_op / MPI_Get_accumulate(MPI_SUM) on one int64
 *   counter: it ends at exactly the sum. What a fetch returns, less what this origin itself
 *   added before it, is what the others had added: never negative, never decreasing from one
 *   fetch to the next (accumulates of one origin to one location are ordered by default),
 *   never more than the others' total.
 * - A ticket counter, MPI_Fetch_and_op(MPI_SUM, 1), several in flight per flush: the tickets
 *   of all ranks are exactly 0 .. total-1 (no two ranks got the same), each rank's rising in
 *   the order it asked.
 * - MPI_Compare_and_swap spin-increments of one counter: it ends at the number of successful
 *   swaps, and the values the successful swaps replaced are exactly 0 .. total-1.
 * - No torn elements: MPI_Accumulate(MPI_REPLACE) writes 64-bit values whose two halves are
 *   equal while MPI_Get_accumulate(MPI_NO_OP) and MPI_Fetch_and_op(MPI_NO_OP) read them: every
 *   element read has equal halves. The same for MPI_C_DOUBLE_COMPLEX (16 bytes: real ==
 *   imaginary) and MPI_C_LONG_DOUBLE_COMPLEX (32 bytes), wider than a plain machine atomic;
 *   and for MPI_SUM on MPI_C_DOUBLE_COMPLEX (adds (k, k): both halves move together, and the
 *   final value is the exact sum).
 * - MPI_MAX / MPI_MIN on doubles: the extreme of every value every rank sent (computed by
 *   each rank for all ranks). MPI_BOR: each rank sets its bits; MPI_BAND: each clears its bits.
 * - The same sum and tickets under MPI_Win_lock(MPI_LOCK_SHARED) epochs, one per operation.
 * Only operations that may meet at one location do (same op or MPI_NO_OP, the default
 * accumulate_ops; compare-and-swap alone on its counter). At 1 rank the target is the rank
 * itself. Ranks are threads of one process under loom: no writable globals. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define OK(call) CHECK_INT((call), MPI_SUCCESS)

#define BATCH 8 /* iterations between two flush_all */
#define N64 4   /* elements of the 64-bit torn check */
#define NC 2    /* elements of the complex torn checks */

/* Layout of the window, in 8-byte units (disp_unit 8); complex elements 16-byte aligned. */
enum {
    X_SUM, X_TICK, X_CAS, X_BOR, X_BAND, X_MAX, X_MIN, X_SUM2, X_TICK2, X_PAD,
    X_T64 = 10,                /* N64 uint64 */
    X_TC = X_T64 + N64,        /* 14: NC double complex (2 units each) */
    X_CSUM = X_TC + 2 * NC,    /* 18: one double complex, summed */
    X_TLC = X_CSUM + 2,        /* 20: NC long double complex (4 units each) */
    X_END = X_TLC + 4 * NC     /* 28: 224 bytes */
};

struct ctx {
    MPI_Win win;
    char *base;
    int rank, size, iters;
    int t_sum, t_tick, t_cas, t_torn, t_c, t_lc, t_bits; /* the target of each check */
};

/* What one iteration sends and receives: buffers live until the next flush_all. */
struct it {
    int64_t add, fetched, tick;
    uint64_t w64[N64], r64[N64], r1, bor, band;
    double wc[NC][2], rc[NC][2], rc1[2], cadd[2], rcs[2], mx, mn;
    long double wlc[NC][2], rlc[NC][2], rlc1[2];
};

static void *at(const struct ctx *c, int unit)
{
    return c->base + (size_t)unit * 8;
}

static uint32_t mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

/* The values rank r sends at iteration i for MAX and MIN (exact in a double). */
static double max_val(int r, int i)
{
    return (double)(mix32((uint32_t)(r * 100003 + i)) % 1000000u) - 500000.25;
}

static double min_val(int r, int i)
{
    return (double)(mix32((uint32_t)(r * 7919 + i + 77)) % 1000000u) - 500000.75;
}

static int bor_bit(int r, int i)
{
    return (r * 5 + i % 3) % 64;
}

static int band_bit(int r, int i)
{
    return (r * 3 + 1 + i % 2 * 17) % 64;
}

static uint64_t halves(uint32_t x)
{
    return ((uint64_t)x << 32) | x;
}

static void check_halves(uint64_t v, const char *what)
{
    if ((uint32_t)(v >> 32) != (uint32_t)v) {
        fprintf(stderr, "atomics: torn %s: 0x%016llx\n", what, (unsigned long long)v);
        CHECK(0);
    }
}

static void check_c(const double v[2], const char *what)
{
    if (v[0] != v[1]) {
        fprintf(stderr, "atomics: torn %s: (%.17g, %.17g)\n", what, v[0], v[1]);
        CHECK(0);
    }
}

static void check_lc(const long double v[2], const char *what)
{
    if (v[0] != v[1]) {
        fprintf(stderr, "atomics: torn %s: (%.21Lg, %.21Lg)\n", what, v[0], v[1]);
        CHECK(0);
    }
}

/* Check what the reads of iterations [from, to) returned (after a flush_all). */
static void check_reads(const struct it *its, int from, int to)
{
    for (int i = from; i < to; i++) {
        const struct it *p = &its[i];
        if (i % 2) {
            for (int k = 0; k < N64; k++)
                check_halves(p->r64[k], "uint64 (get_accumulate)");
            check_halves(p->r1, "uint64 (fetch_and_op)");
            for (int k = 0; k < NC; k++)
                check_c(p->rc[k], "double complex (get_accumulate)");
            check_c(p->rc1, "double complex (fetch_and_op)");
            for (int k = 0; k < NC; k++)
                check_lc(p->rlc[k], "long double complex (get_accumulate)");
            check_lc(p->rlc1, "long double complex (fetch_and_op)");
            check_c(p->rcs, "summed double complex");
        }
    }
}

/* One spin-increment of the CAS counter; returns the value it replaced. */
static int64_t cas_increment(const struct ctx *c, int64_t *guess)
{
    for (;;) {
        int64_t want = *guess + 1, old = -1;
        OK(MPI_Compare_and_swap(&want, guess, &old, MPI_INT64_T, c->t_cas, X_CAS, c->win));
        OK(MPI_Win_flush(c->t_cas, c->win));
        if (old == *guess) {
            *guess = want;
            return old;
        }
        CHECK(old > *guess); /* the counter only grows, and *guess was once its value */
        *guess = old;
    }
}

/* Everything at once in one lock_all epoch. */
static void concurrent(const struct ctx *c, struct it *its, int64_t *swapped)
{
    int64_t one = 1, guess = 0;
    MPI_Win win = c->win;
    OK(MPI_Win_lock_all(0, win));
    for (int i = 0; i < c->iters; i++) {
        struct it *p = &its[i];
        p->add = c->rank + 1;
        p->fetched = p->tick = -1;
        OK(MPI_Accumulate(&p->add, 1, MPI_INT64_T, c->t_sum, X_SUM, 1, MPI_INT64_T, MPI_SUM,
                          win));
        if (i % 2)
            OK(MPI_Fetch_and_op(&p->add, &p->fetched, MPI_INT64_T, c->t_sum, X_SUM, MPI_SUM,
                                win));
        else
            OK(MPI_Get_accumulate(&p->add, 1, MPI_INT64_T, &p->fetched, 1, MPI_INT64_T,
                                  c->t_sum, X_SUM, 1, MPI_INT64_T, MPI_SUM, win));
        OK(MPI_Fetch_and_op(&one, &p->tick, MPI_INT64_T, c->t_tick, X_TICK, MPI_SUM, win));
        if (i % 2 == 0) { /* writers */
            for (int k = 0; k < N64; k++)
                p->w64[k] = halves(mix32((uint32_t)(c->rank * 65537 + i * 8 + k)));
            OK(MPI_Accumulate(p->w64, N64, MPI_UINT64_T, c->t_torn, X_T64, N64, MPI_UINT64_T,
                              MPI_REPLACE, win));
            for (int k = 0; k < NC; k++)
                p->wc[k][0] = p->wc[k][1] = (double)(c->rank * 1000003 + i * 4 + k) + 0.5;
            OK(MPI_Accumulate(p->wc, NC, MPI_C_DOUBLE_COMPLEX, c->t_c, X_TC, NC,
                              MPI_C_DOUBLE_COMPLEX, MPI_REPLACE, win));
            for (int k = 0; k < NC; k++)
                p->wlc[k][0] = p->wlc[k][1] =
                    (long double)(c->rank * 1000003 + i * 4 + k) / 3.0L;
            OK(MPI_Accumulate(p->wlc, NC, MPI_C_LONG_DOUBLE_COMPLEX, c->t_lc, X_TLC, NC,
                              MPI_C_LONG_DOUBLE_COMPLEX, MPI_REPLACE, win));
        } else { /* readers */
            OK(MPI_Get_accumulate(NULL, 0, MPI_UINT64_T, p->r64, N64, MPI_UINT64_T, c->t_torn,
                                  X_T64, N64, MPI_UINT64_T, MPI_NO_OP, win));
            OK(MPI_Fetch_and_op(NULL, &p->r1, MPI_UINT64_T, c->t_torn, X_T64 + i / 2 % N64,
                                MPI_NO_OP, win));
            OK(MPI_Get_accumulate(NULL, 0, MPI_C_DOUBLE_COMPLEX, p->rc, NC,
                                  MPI_C_DOUBLE_COMPLEX, c->t_c, X_TC, NC, MPI_C_DOUBLE_COMPLEX,
                                  MPI_NO_OP, win));
            OK(MPI_Fetch_and_op(NULL, p->rc1, MPI_C_DOUBLE_COMPLEX, c->t_c,
                                X_TC + 2 * (i / 2 % NC), MPI_NO_OP, win));
            OK(MPI_Get_accumulate(NULL, 0, MPI_C_LONG_DOUBLE_COMPLEX, p->rlc, NC,
                                  MPI_C_LONG_DOUBLE_COMPLEX, c->t_lc, X_TLC, NC,
                                  MPI_C_LONG_DOUBLE_COMPLEX, MPI_NO_OP, win));
            OK(MPI_Fetch_and_op(NULL, p->rlc1, MPI_C_LONG_DOUBLE_COMPLEX, c->t_lc,
                                X_TLC + 4 * (i / 2 % NC), MPI_NO_OP, win));
            OK(MPI_Get_accumulate(NULL, 0, MPI_C_DOUBLE_COMPLEX, p->rcs, 1,
                                  MPI_C_DOUBLE_COMPLEX, c->t_c, X_CSUM, 1, MPI_C_DOUBLE_COMPLEX,
                                  MPI_NO_OP, win));
        }
        p->cadd[0] = p->cadd[1] = (double)(c->rank + 1 + i % 3);
        OK(MPI_Accumulate(p->cadd, 1, MPI_C_DOUBLE_COMPLEX, c->t_c, X_CSUM, 1,
                          MPI_C_DOUBLE_COMPLEX, MPI_SUM, win));
        p->mx = max_val(c->rank, i);
        p->mn = min_val(c->rank, i);
        OK(MPI_Accumulate(&p->mx, 1, MPI_DOUBLE, c->t_bits, X_MAX, 1, MPI_DOUBLE, MPI_MAX, win));
        OK(MPI_Accumulate(&p->mn, 1, MPI_DOUBLE, c->t_bits, X_MIN, 1, MPI_DOUBLE, MPI_MIN, win));
        p->bor = (uint64_t)1 << bor_bit(c->rank, i);
        p->band = ~((uint64_t)1 << band_bit(c->rank, i));
        OK(MPI_Accumulate(&p->bor, 1, MPI_UINT64_T, c->t_bits, X_BOR, 1, MPI_UINT64_T, MPI_BOR,
                          win));
        OK(MPI_Accumulate(&p->band, 1, MPI_UINT64_T, c->t_bits, X_BAND, 1, MPI_UINT64_T,
                          MPI_BAND, win));
        swapped[i] = cas_increment(c, &guess);
        if (i % BATCH == BATCH - 1 || i == c->iters - 1) {
            OK(MPI_Win_flush_all(win));
            check_reads(its, i - i % BATCH, i + 1);
        }
    }
    OK(MPI_Win_unlock_all(win));
}

/* The sum and the tickets again, one MPI_Win_lock(SHARED) epoch per operation. */
static void under_shared_locks(const struct ctx *c, int64_t *tickets2)
{
    int64_t add = c->rank + 1, one = 1;
    for (int i = 0; i < c->iters; i++) {
        OK(MPI_Win_lock(MPI_LOCK_SHARED, c->t_sum, 0, c->win));
        OK(MPI_Accumulate(&add, 1, MPI_INT64_T, c->t_sum, X_SUM2, 1, MPI_INT64_T, MPI_SUM,
                          c->win));
        OK(MPI_Win_unlock(c->t_sum, c->win));
        OK(MPI_Win_lock(MPI_LOCK_SHARED, c->t_tick, 0, c->win));
        tickets2[i] = -1;
        OK(MPI_Fetch_and_op(&one, &tickets2[i], MPI_INT64_T, c->t_tick, X_TICK2, MPI_SUM,
                            c->win));
        OK(MPI_Win_unlock(c->t_tick, c->win));
    }
}

/* Values gathered at root must be exactly 0 .. n-1, each once. */
static void check_permutation(const struct ctx *c, const int64_t *mine, int root,
                              const char *what)
{
    int per = c->iters;
    int64_t total = (int64_t)per * c->size, *all = NULL;
    if (c->rank == root) {
        all = malloc(sizeof(int64_t) * (size_t)total);
        CHECK(all != NULL);
    }
    OK(MPI_Gather(mine, per, MPI_INT64_T, all, per, MPI_INT64_T, root, MPI_COMM_WORLD));
    if (c->rank != root)
        return;
    char *mark = calloc((size_t)total, 1);
    CHECK(mark != NULL);
    for (int64_t k = 0; k < total; k++) {
        int64_t v = all[k];
        if (v < 0 || v >= total || mark[v]) {
            fprintf(stderr, "atomics: %s: rank %d got %lld (its number %lld): out of 0..%lld "
                    "or got twice\n", what, (int)(k / per), (long long)v, (long long)(k % per),
                    (long long)total - 1);
            CHECK(0);
        }
        mark[v] = 1;
    }
    free(mark);
    free(all);
}

/* Each target checks what it holds (loads under a lock on itself). */
static void check_targets(const struct ctx *c, const struct it *its)
{
    int n = c->size, iters = c->iters;
    int64_t rank_sum = (int64_t)n * (n + 1) / 2;
    OK(MPI_Win_lock(MPI_LOCK_SHARED, c->rank, 0, c->win));
    if (c->rank == c->t_sum) {
        CHECK_INT(*(int64_t *)at(c, X_SUM), 2 * (int64_t)iters * rank_sum);
        CHECK_INT(*(int64_t *)at(c, X_SUM2), (int64_t)iters * rank_sum);
    }
    if (c->rank == c->t_tick) {
        CHECK_INT(*(int64_t *)at(c, X_TICK), (int64_t)iters * n);
        CHECK_INT(*(int64_t *)at(c, X_TICK2), (int64_t)iters * n);
    }
    if (c->rank == c->t_cas)
        CHECK_INT(*(int64_t *)at(c, X_CAS), (int64_t)iters * n);
    if (c->rank == c->t_torn)
        for (int k = 0; k < N64; k++)
            check_halves(((uint64_t *)at(c, X_T64))[k], "uint64 (final)");
    if (c->rank == c->t_c) {
        for (int k = 0; k < NC; k++)
            check_c((double *)at(c, X_TC + 2 * k), "double complex (final)");
        const double *s = at(c, X_CSUM);
        double want = 0;
        for (int r = 0; r < n; r++)
            for (int i = 0; i < iters; i++)
                want += (double)(r + 1 + i % 3);
        if (s[0] != want || s[1] != want) {
            fprintf(stderr, "atomics: complex sum is (%.17g, %.17g), expected (%.17g, %.17g)\n",
                    s[0], s[1], want, want);
            CHECK(0);
        }
    }
    if (c->rank == c->t_lc)
        for (int k = 0; k < NC; k++)
            check_lc((long double *)at(c, X_TLC + 4 * k), "long double complex (final)");
    if (c->rank == c->t_bits) {
        double mx = -1e300, mn = 1e300;
        uint64_t bor = 0, band = ~(uint64_t)0;
        for (int r = 0; r < n; r++)
            for (int i = 0; i < iters; i++) {
                mx = max_val(r, i) > mx ? max_val(r, i) : mx;
                mn = min_val(r, i) < mn ? min_val(r, i) : mn;
                bor |= (uint64_t)1 << bor_bit(r, i);
                band &= ~((uint64_t)1 << band_bit(r, i));
            }
        double gmx = *(double *)at(c, X_MAX), gmn = *(double *)at(c, X_MIN);
        if (gmx != mx || gmn != mn) {
            fprintf(stderr, "atomics: max %.17g min %.17g, expected %.17g and %.17g\n", gmx, gmn,
                    mx, mn);
            CHECK(0);
        }
        CHECK_INT(*(uint64_t *)at(c, X_BOR), bor);
        CHECK_INT(*(uint64_t *)at(c, X_BAND), band);
    }
    OK(MPI_Win_unlock(c->rank, c->win));

    /* what the sum fetches saw: the others' part never negative, never decreasing, never
     * above the others' total */
    int64_t others_total = 2 * (int64_t)iters * (rank_sum - (c->rank + 1)), last = 0;
    for (int i = 0; i < iters; i++) {
        int64_t mine_before = (int64_t)(c->rank + 1) * (2 * i + 1);
        int64_t others = its[i].fetched - mine_before;
        if (others < last || others > others_total) {
            fprintf(stderr, "atomics: rank %d, fetch %d of the sum returned %lld: the others' "
                    "part %lld (before: %lld, their total %lld)\n", c->rank, i,
                    (long long)its[i].fetched, (long long)others, (long long)last,
                    (long long)others_total);
            CHECK(0);
        }
        last = others;
    }
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    struct ctx c;
    memset(&c, 0, sizeof c);
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &c.rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &c.size));
    c.iters = argc > 1 ? atoi(argv[1]) : 200;
    CHECK(c.iters > 0);
    int n = c.size;
    c.t_sum = 0;
    c.t_tick = n - 1;
    c.t_cas = n / 2;
    c.t_torn = (n + 1) / 3 % n;
    c.t_c = n - 1 - n / 3;
    c.t_lc = n / 4;
    c.t_bits = (2 * n - 1) / 3 % n;

    OK(MPI_Win_allocate(X_END * 8, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &c.base, &c.win));
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, c.rank, 0, c.win));
    memset(c.base, 0, X_END * 8);
    *(uint64_t *)at(&c, X_BAND) = ~(uint64_t)0;
    *(double *)at(&c, X_MAX) = -1e300;
    *(double *)at(&c, X_MIN) = 1e300;
    OK(MPI_Win_unlock(c.rank, c.win));
    OK(MPI_Barrier(MPI_COMM_WORLD));

    struct it *its = calloc((size_t)c.iters, sizeof *its);
    int64_t *swapped = malloc(sizeof(int64_t) * (size_t)c.iters);
    int64_t *tickets = malloc(sizeof(int64_t) * (size_t)c.iters);
    int64_t *tickets2 = malloc(sizeof(int64_t) * (size_t)c.iters);
    CHECK(its && swapped && tickets && tickets2);

    concurrent(&c, its, swapped);
    under_shared_locks(&c, tickets2);
    OK(MPI_Barrier(MPI_COMM_WORLD));

    for (int i = 0; i < c.iters; i++) {
        tickets[i] = its[i].tick;
        if (i > 0 && tickets[i] <= tickets[i - 1]) {
            fprintf(stderr, "atomics: rank %d: ticket %d is %lld after %lld (accumulates of one "
                    "origin to one location are ordered)\n", c.rank, i, (long long)tickets[i],
                    (long long)tickets[i - 1]);
            CHECK(0);
        }
        if (i > 0)
            CHECK(tickets2[i] > tickets2[i - 1]);
    }
    check_permutation(&c, tickets, c.t_tick, "tickets (lock_all)");
    check_permutation(&c, tickets2, c.t_tick, "tickets (shared locks)");
    check_permutation(&c, swapped, c.t_cas, "values replaced by compare-and-swap");
    check_targets(&c, its);

    OK(MPI_Win_free(&c.win));
    free(its);
    free(swapped);
    free(tickets);
    free(tickets2);
    if (c.rank == 0)
        printf("rma_atomics: %d ranks, %d iterations: ok\n", c.size, c.iters);
    OK(MPI_Finalize());
    return 0;
}
