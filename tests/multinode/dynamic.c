/* Dynamic windows (MPI_Win_create_dynamic, MPI_Win_attach, MPI_Win_detach) whose members run
 * in several node processes. Each rank attaches an int region, a region of MPI_DOUBLE_INT
 * pairs, a 1 MiB byte region and a region it detaches again before the last part; the ranks
 * exchange the regions' addresses (MPI_Get_address, MPI_Allgather) and reach them with the
 * address as target_disp:
 *   - fence: puts into the right neighbour's ints, MAXLOC of pairs from every rank into every
 *     rank (the pair type's hole must not split an element), fetch-and-add tickets on rank 0
 *     (distinct, complete), compare-and-swap on the last rank (one winner);
 *   - lock_all: a 1 MiB put into the right neighbour (larger than any message, so read by the
 *     target's node process), flushed, got back (exposed by the target's node process, read by
 *     this one) and compared; a strided get of 64 KiB in 64 runs; a small strided get;
 *   - under MPI_ERRORS_RETURN, operations on memory the target did not attach (across the end
 *     of a region, inside the detached one; puts, gets, accumulates, compare-and-swap, a large
 *     put and a large get): the error class is MPI_ERR_RMA_RANGE, from the call itself when
 *     the target shares this rank's node process, else from the synchronization call that
 *     waits for it (flush, unlock, fence), once; the target's memory keeps its poison and the
 *     origin's result buffers theirs; the window works afterwards;
 *   - accumulate ordering: a 1 MiB accumulate, then at once a fetch and a replace, which see
 *     it done, then a strided accumulate of 128 KiB (64 runs in one request).
 * Every value is computed from the rank numbers. A failed check (tests/support/abort_check.h)
 * ends the whole job. Ranks are threads under loom: no writable globals. At least 2 ranks. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "abort_check.h"

#define OK(call) CHECK_OK(call)

enum {
    NR = 64,        /* ints of the int region */
    PUT_AT = 8,     /* where the left neighbour's ints land */
    NPUT = 8,
    TICKET = 0,     /* rank 0's fetch-and-add counter */
    CASW = 1,       /* the last rank's compare-and-swap word */
    NPAIR = 6,      /* MPI_DOUBLE_INT pairs */
    BIGB = 1 << 20, /* bytes of the large region */
    ND = 16,        /* ints of the region detached before the errors */
    POISON = -7,
    BPOISON = 0x5a,
};

struct pair {
    double v;
    int i;
};

struct ctx {
    int me, n, left, right, last;
    MPI_Win w;
    int *R, *D;
    struct pair *P;
    unsigned char *G;
    MPI_Aint *aR, *aP, *aG, *aD; /* every rank's region addresses */
};

static int ival(int o, int k)
{
    return o * 1000 + k + 1;
}

static unsigned char bval(int o, size_t k)
{
    return (unsigned char)(o * 31 + k * 7 + (k >> 12));
}

/* The value rank o gives pair k (ties between ranks are frequent: MAXLOC keeps the lowest). */
static double pval(int o, int k, int n)
{
    return (double)((o * 5 + k * 3) % (n > 2 ? n - 1 : 2));
}

static void exchange(const void *region, MPI_Aint *all)
{
    MPI_Aint mine;
    OK(MPI_Get_address(region, &mine));
    OK(MPI_Allgather(&mine, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD));
}

static void expect_class(int rc, int want, const char *what)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK_MSG(cls == want, "%s: error class %d, expected %d", what, cls, want);
}

static void fence_part(struct ctx *c)
{
    int me = c->me, n = c->n, src[NPUT], one = 1, ticket = -1, was = -2, mine = me, none = -1;
    struct pair pairs[NPAIR];
    for (int k = 0; k < NPUT; k++)
        src[k] = ival(me, k);
    for (int k = 0; k < NPAIR; k++)
        pairs[k] = (struct pair){pval(me, k, n), me};
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, c->w));
    OK(MPI_Put(src, NPUT, MPI_INT, c->right, c->aR[c->right] + PUT_AT * (MPI_Aint)sizeof(int),
               NPUT, MPI_INT, c->w));
    for (int t = 0; t < n; t++)
        OK(MPI_Accumulate(pairs, NPAIR, MPI_DOUBLE_INT, t, c->aP[t], NPAIR, MPI_DOUBLE_INT,
                          MPI_MAXLOC, c->w));
    OK(MPI_Fetch_and_op(&one, &ticket, MPI_INT, 0, c->aR[0] + TICKET * (MPI_Aint)sizeof(int),
                        MPI_SUM, c->w));
    OK(MPI_Compare_and_swap(&mine, &none, &was, MPI_INT, c->last,
                            c->aR[c->last] + CASW * (MPI_Aint)sizeof(int), c->w));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, c->w));

    for (int k = 0; k < NR; k++) {
        int want = k >= PUT_AT && k < PUT_AT + NPUT ? ival(c->left, k - PUT_AT) : POISON;
        if (k == TICKET)
            want = me == 0 ? POISON + n : POISON;
        if (k == CASW && me != c->last)
            want = -1;
        if (k != CASW || me != c->last)
            CHECK_MSG(c->R[k] == want, "int %d is %d, expected %d", k, c->R[k], want);
    }
    for (int k = 0; k < NPAIR; k++) {
        struct pair best = {pval(0, k, n), 0};
        for (int o = 1; o < n; o++)
            if (pval(o, k, n) > best.v)
                best = (struct pair){pval(o, k, n), o};
        CHECK_MSG(c->P[k].v == best.v && c->P[k].i == best.i, "pair %d is (%g, %d), expected "
                  "(%g, %d)", k, c->P[k].v, c->P[k].i, best.v, best.i);
    }
    /* tickets: POISON + 0 .. POISON + n - 1, each once; one compare-and-swap found -1 */
    int *tickets = malloc(sizeof(int) * (size_t)c->n), winners = 0, won = was == -1;
    CHECK_MSG(tickets != NULL, "no memory");
    OK(MPI_Allgather(&ticket, 1, MPI_INT, tickets, 1, MPI_INT, MPI_COMM_WORLD));
    for (int v = 0; v < n; v++) {
        int seen = 0;
        for (int o = 0; o < n; o++)
            seen += tickets[o] == POISON + v;
        CHECK_MSG(seen == 1, "ticket %d was handed out %d times", POISON + v, seen);
    }
    free(tickets);
    OK(MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_MSG(winners == 1, "%d compare-and-swaps found -1, expected 1", winners);
    CHECK_MSG(won || was >= 0, "compare-and-swap fetched %d", was);
    if (me == c->last) {
        int w = c->R[CASW];
        CHECK_MSG(w >= 0 && w < n, "the compare-and-swap word holds %d", w);
    }
    if (won) /* the winner's rank is in the word */
        OK(MPI_Send(&mine, 1, MPI_INT, c->last, 0, MPI_COMM_WORLD));
    if (me == c->last) {
        int who = -1;
        OK(MPI_Recv(&who, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MSG(c->R[CASW] == who, "the word holds %d, the winner was %d", c->R[CASW], who);
    }
}

static void passive_part(struct ctx *c)
{
    unsigned char *src = malloc(BIGB), *back = malloc(BIGB);
    int strided[NPUT / 2];
    CHECK_MSG(src && back, "no memory");
    for (size_t k = 0; k < BIGB; k++)
        src[k] = bval(c->me, k);
    memset(back, 0, BIGB);
    MPI_Datatype every_other;
    OK(MPI_Type_vector(NPUT / 2, 1, 2, MPI_INT, &every_other));
    OK(MPI_Type_commit(&every_other));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Win_lock_all(0, c->w));
    OK(MPI_Put(src, BIGB, MPI_BYTE, c->right, c->aG[c->right], BIGB, MPI_BYTE, c->w));
    OK(MPI_Win_flush(c->right, c->w));
    OK(MPI_Get(back, BIGB, MPI_BYTE, c->right, c->aG[c->right], BIGB, MPI_BYTE, c->w));
    OK(MPI_Get(strided, NPUT / 2, MPI_INT, c->left, c->aR[c->left] + PUT_AT * (MPI_Aint)sizeof(int),
               1, every_other, c->w));
    OK(MPI_Win_flush_all(c->w));
    CHECK_MSG(memcmp(src, back, BIGB) == 0, "the 1 MiB got back from %d differs", c->right);
    /* 64 blocks of 1 KiB, every other one, into a contiguous buffer: many runs, one stream */
    MPI_Datatype halves;
    OK(MPI_Type_vector(64, 1024, 2048, MPI_BYTE, &halves));
    OK(MPI_Type_commit(&halves));
    OK(MPI_Get(back, 64 * 1024, MPI_BYTE, c->right, c->aG[c->right], 1, halves, c->w));
    OK(MPI_Win_flush(c->right, c->w));
    OK(MPI_Win_unlock_all(c->w));
    OK(MPI_Type_free(&halves));
    for (size_t k = 0; k < 64 * 1024; k++)
        if (back[k] != bval(c->me, k / 1024 * 2048 + k % 1024))
            CHECK_MSG(0, "byte %zu of a strided get from %d is %d, expected %d", k, c->right,
                      back[k], bval(c->me, k / 1024 * 2048 + k % 1024));
    /* the left neighbour's ints hold what its own left neighbour put */
    int ll = (c->left - 1 + c->n) % c->n;
    for (int k = 0; k < NPUT / 2; k++)
        CHECK_MSG(strided[k] == ival(ll, 2 * k), "strided int %d is %d, expected %d", k,
                  strided[k], ival(ll, 2 * k));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    for (size_t k = 0; k < BIGB; k++)
        if (c->G[k] != bval(c->left, k))
            CHECK_MSG(0, "byte %zu of the large region is %d, expected %d", k, c->G[k],
                      bval(c->left, k));
    OK(MPI_Type_free(&every_other));
    free(src);
    free(back);
}

/* One erroneous operation's report: from the call when t shares this node process, else from
 * the synchronization call after it (which reports it once). */
static void expect_refused(int call_rc, int sync_rc, int local, const char *what)
{
    if (local) {
        expect_class(call_rc, MPI_ERR_RMA_RANGE, what);
        OK(sync_rc);
    } else {
        OK(call_rc);
        expect_class(sync_rc, MPI_ERR_RMA_RANGE, what);
    }
}

static void errors_part(struct ctx *c, int local)
{
    int t = c->right, v[2] = {11, 12}, got[4] = {POISON, POISON, POISON, POISON}, one = 1;
    int res = POISON, cmp = POISON;
    unsigned char *big = malloc(BIGB);
    CHECK_MSG(big != NULL, "no memory");
    memset(big, BPOISON, BIGB);
    MPI_Aint end_r = c->aR[t] + (NR - 1) * (MPI_Aint)sizeof(int);
    OK(MPI_Win_set_errhandler(c->w, MPI_ERRORS_RETURN));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, c->w));
    int rc = MPI_Put(v, 2, MPI_INT, t, end_r, 2, MPI_INT, c->w);
    expect_refused(rc, MPI_Win_flush(t, c->w), local, "a put across a region's end");
    OK(MPI_Win_flush(t, c->w)); /* reported once */
    rc = MPI_Get(got, 4, MPI_INT, t, c->aD[t], 4, MPI_INT, c->w);
    expect_refused(rc, MPI_Win_flush(t, c->w), local, "a get from a detached region");
    rc = MPI_Accumulate(&one, 1, MPI_INT, t, c->aD[t], 1, MPI_INT, MPI_SUM, c->w);
    expect_refused(rc, MPI_Win_flush(t, c->w), local, "an accumulate into a detached region");
    rc = MPI_Compare_and_swap(&one, &cmp, &res, MPI_INT, t, c->aD[t] + 4, c->w);
    expect_refused(rc, MPI_Win_flush(t, c->w), local, "a compare-and-swap in a detached region");
    rc = MPI_Put(big, BIGB, MPI_BYTE, t, c->aG[t] + 8, BIGB, MPI_BYTE, c->w);
    expect_refused(rc, MPI_Win_flush(t, c->w), local, "a large put across a region's end");
    rc = MPI_Get(big, BIGB, MPI_BYTE, t, c->aG[t] + 8, BIGB, MPI_BYTE, c->w);
    expect_refused(rc, MPI_Win_flush(t, c->w), local, "a large get across a region's end");
    rc = MPI_Put(v, 1, MPI_INT, t, c->aD[t], 1, MPI_INT, c->w);
    expect_refused(rc, MPI_Win_unlock(t, c->w), local, "a put into a detached region");
    OK(MPI_Win_fence(0, c->w));
    rc = MPI_Put(v, 1, MPI_INT, t, c->aD[t] + 8, 1, MPI_INT, c->w);
    expect_refused(rc, MPI_Win_fence(MPI_MODE_NOSUCCEED, c->w), local,
                   "a put into a detached region, in a fence epoch");
    for (int k = 0; k < 4; k++)
        CHECK_MSG(got[k] == POISON, "a refused get wrote %d at %d", got[k], k);
    CHECK_MSG(res == POISON, "a refused compare-and-swap wrote %d", res);
    for (size_t k = 0; k < BIGB; k++)
        if (big[k] != BPOISON)
            CHECK_MSG(0, "a refused large get wrote %d at byte %zu", big[k], k);
    /* the window still works: one more put, where it belongs */
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, c->w));
    OK(MPI_Put(v, 1, MPI_INT, t, end_r, 1, MPI_INT, c->w));
    OK(MPI_Win_unlock(t, c->w));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MSG(c->R[NR - 1] == v[0], "the last int is %d, expected %d", c->R[NR - 1], v[0]);
    for (int k = 0; k < ND; k++)
        CHECK_MSG(c->D[k] == POISON, "detached int %d is %d: a refused operation wrote it", k,
                  c->D[k]);
    for (size_t k = 0; k < BIGB; k++)
        if (c->G[k] != bval(c->left, k))
            CHECK_MSG(0, "a refused large put changed byte %zu of the large region", k);
    free(big);
}

/* Accumulates of one origin on one target are carried out in order (the default
 * accumulate_ordering), however large: 1 MiB of doubles summed into the right neighbour's large
 * region (read by the target's node process when it lies in another), then at once, without a
 * flush, a fetch of its last element and a replace of its first. This rank is the only origin
 * on that region. */
static void acc_order_part(struct ctx *c)
{
    enum { ND_BIG = BIGB / sizeof(double), NSB = 64, SB = 256 };
    double *ones = malloc(BIGB), *zeros = calloc(ND_BIG, sizeof(double));
    double last = -1.0, five = 5.0, unused = 0.0;
    CHECK_MSG(ones && zeros, "no memory");
    for (int k = 0; k < ND_BIG; k++)
        ones[k] = 1.0;
    MPI_Aint at = c->aG[c->right], at_last = at + (ND_BIG - 1) * (MPI_Aint)sizeof(double);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, c->right, 0, c->w));
    OK(MPI_Put(zeros, ND_BIG, MPI_DOUBLE, c->right, at, ND_BIG, MPI_DOUBLE, c->w));
    OK(MPI_Win_flush(c->right, c->w)); /* a put and an accumulate are not ordered */
    OK(MPI_Accumulate(ones, ND_BIG, MPI_DOUBLE, c->right, at, ND_BIG, MPI_DOUBLE, MPI_SUM, c->w));
    OK(MPI_Fetch_and_op(&unused, &last, MPI_DOUBLE, c->right, at_last, MPI_NO_OP, c->w));
    OK(MPI_Accumulate(&five, 1, MPI_DOUBLE, c->right, at, 1, MPI_DOUBLE, MPI_REPLACE, c->w));
    /* 2 into every other block of SB doubles: many runs in one request, read as one stream */
    MPI_Datatype blocks;
    OK(MPI_Type_vector(NSB, SB, 2 * SB, MPI_DOUBLE, &blocks));
    OK(MPI_Type_commit(&blocks));
    for (int k = 0; k < NSB * SB; k++)
        ones[k] = 2.0;
    OK(MPI_Accumulate(ones, NSB * SB, MPI_DOUBLE, c->right, at, 1, blocks, MPI_SUM, c->w));
    OK(MPI_Win_unlock(c->right, c->w));
    OK(MPI_Type_free(&blocks));
    CHECK_MSG(last == 1.0, "a fetch after a 1 MiB accumulate read %g, expected 1", last);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    const double *g = (const double *)(void *)c->G;
    for (int k = 0; k < ND_BIG; k++) {
        double want = (k == 0 ? 5.0 : 1.0) + (k < 2 * NSB * SB && k / SB % 2 == 0 ? 2.0 : 0.0);
        if (g[k] != want)
            CHECK_MSG(0, "double %d of the large region is %g after the accumulates from %d, "
                      "expected %g", k, g[k], c->left, want);
    }
    free(ones);
    free(zeros);
}

/* 1 when rank t shares this rank's node process (MPI_COMM_TYPE_SHARED). */
static int same_node(int t)
{
    MPI_Comm node;
    MPI_Group wg, ng;
    int mapped;
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    OK(MPI_Comm_group(node, &ng));
    OK(MPI_Group_translate_ranks(wg, 1, &t, ng, &mapped));
    OK(MPI_Group_free(&wg));
    OK(MPI_Group_free(&ng));
    OK(MPI_Comm_free(&node));
    return mapped != MPI_UNDEFINED;
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    struct ctx cx, *c = &cx;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &c->me));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &c->n));
    CHECK_MSG(c->n >= 2, "dynamic needs at least 2 ranks, not %d", c->n);
    c->left = (c->me - 1 + c->n) % c->n;
    c->right = (c->me + 1) % c->n;
    c->last = c->n - 1;
    size_t addrs = sizeof(MPI_Aint) * (size_t)c->n;
    c->R = malloc(NR * sizeof(int));
    c->D = malloc(ND * sizeof(int));
    c->P = malloc(NPAIR * sizeof(struct pair));
    c->G = malloc(BIGB);
    c->aR = malloc(addrs);
    c->aP = malloc(addrs);
    c->aG = malloc(addrs);
    c->aD = malloc(addrs);
    CHECK_MSG(c->R && c->D && c->P && c->G && c->aR && c->aP && c->aG && c->aD, "no memory");
    for (int k = 0; k < NR; k++)
        c->R[k] = POISON;
    c->R[CASW] = -1;
    for (int k = 0; k < ND; k++)
        c->D[k] = POISON;
    for (int k = 0; k < NPAIR; k++)
        c->P[k] = (struct pair){-1.0, -1};
    memset(c->G, BPOISON, BIGB);

    OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &c->w));
    OK(MPI_Win_attach(c->w, c->R, NR * sizeof(int)));
    OK(MPI_Win_attach(c->w, c->D, ND * sizeof(int)));
    OK(MPI_Win_attach(c->w, c->P, NPAIR * sizeof(struct pair)));
    OK(MPI_Win_attach(c->w, c->G, BIGB));
    exchange(c->R, c->aR);
    exchange(c->D, c->aD);
    exchange(c->P, c->aP);
    exchange(c->G, c->aG);
    fence_part(c);
    passive_part(c);
    OK(MPI_Win_detach(c->w, c->D));
    OK(MPI_Barrier(MPI_COMM_WORLD)); /* every D is detached before anyone reaches for one */
    errors_part(c, same_node(c->right));
    OK(MPI_Barrier(MPI_COMM_WORLD)); /* every rank has checked its large region */
    acc_order_part(c);
    OK(MPI_Barrier(MPI_COMM_WORLD)); /* no one reaches for a region that goes */
    OK(MPI_Win_detach(c->w, c->R));
    OK(MPI_Win_detach(c->w, c->P));
    OK(MPI_Win_detach(c->w, c->G));
    OK(MPI_Win_free(&c->w));
    if (c->me == 0)
        printf("dynamic: %d ranks ok\n", c->n);
    free(c->R);
    free(c->D);
    free(c->P);
    free(c->G);
    free(c->aR);
    free(c->aP);
    free(c->aG);
    free(c->aD);
    OK(MPI_Finalize());
    return 0;
}
