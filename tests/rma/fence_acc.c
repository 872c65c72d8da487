/* The accumulate family under fence (MPI 4.1 sections 12.3.4 and 12.7.1), over windows made
 * by MPI_Win_create and then by MPI_Win_allocate. In one epoch every rank accumulates into
 * the same locations of every rank (itself included), so each location ends holding the
 * reduction over all ranks of contributions that are functions of the rank numbers, computed
 * here independently:
 *   MPI_Accumulate with MPI_SUM (int, count 4; double, in a window with disp_unit 8),
 *   MPI_PROD (long long, double), MPI_MAX (int, float), MPI_MIN (int, unsigned, double),
 *   MPI_BAND, MPI_BOR (unsigned), MPI_BXOR (long long), MPI_LAND, MPI_LOR, MPI_LXOR (int),
 *   MPI_MAXLOC on MPI_2INT (ties go to the lower index), MPI_MINLOC on MPI_DOUBLE_INT,
 *   MPI_REPLACE (all ranks into one place: every element is some rank's; one rank into its
 *   neighbour: exactly its data), and a vector of doubles on both sides (different strides);
 *   MPI_Get_accumulate and MPI_Fetch_and_op with MPI_SUM: the old values fetched by all
 *   ranks, sorted, are the partial sums of one serial order (atomicity);
 *   MPI_Fetch_and_op with MPI_REPLACE: the values fetched and the final one are the initial
 *   value and every rank's, each once;
 *   MPI_Compare_and_swap of -1 by each rank's number: exactly one rank sees -1, every other
 *   sees that rank's number, which is what the location holds.
 * A second epoch reads the results back with MPI_Get_accumulate and MPI_Fetch_and_op under
 * MPI_NO_OP (atomic reads; the origin buffer of MPI_NO_OP is ignored, passed as NULL). */
#include <float.h>
#include <limits.h>
#include <stddef.h>
#include "p2p_check.h"

enum { CREATE, ALLOCATE };

struct int2 {
    int v, i;
};

struct double_int {
    double v;
    int i;
};

/* The window (disp_unit 1: displacements are offsetof). */
struct acc {
    int isum[4];
    long long lprod;
    double dprod;
    int imax, imin;
    unsigned umin;
    float fmax;
    double dmin;
    unsigned band, bor;
    long long bxor;
    int land[2], lor[2], lxor;
    struct int2 maxloc[2];
    struct double_int minloc;
    int replace_all[4], replace_one[3];
    long long counter, fop;
    int swap, cas;
    double vec[12];
};

/* The second window: doubles, disp_unit 8. */
enum { NDW = 8, DW_AT = 2 };

static const double DPOISON = -1.5;
static const int SWAP_INIT = -5;
#ifdef MPICH_VERSION
/* MPICH 4.0.2 compares MPI_UNSIGNED as signed under MPI_MIN (MPI_Allreduce too): UINT_MAX
 * would stay. Under MPICH the start value fits in an int. */
static const unsigned UMIN_INIT = 1000u;
#else
static const unsigned UMIN_INIT = UINT_MAX; /* above INT_MAX: a signed comparison keeps it */
#endif

static void init_acc(struct acc *a)
{
    memset(a, 0, sizeof *a);
    for (int k = 0; k < 4; k++)
        a->isum[k] = 0;
    a->lprod = 1;
    a->dprod = 1.0;
    a->imax = -1000;
    a->imin = 1000;
    a->umin = UMIN_INIT;
    a->fmax = -1e9f;
    a->dmin = 1e9;
    a->band = ~0u;
    a->bor = 0;
    a->bxor = 0;
    a->land[0] = a->land[1] = 1;
    a->lor[0] = a->lor[1] = 0;
    a->lxor = 0;
    a->maxloc[0].v = a->maxloc[1].v = -100;
    a->maxloc[0].i = a->maxloc[1].i = -1;
    a->minloc.v = 1e9;
    a->minloc.i = -1;
    for (int k = 0; k < 4; k++)
        a->replace_all[k] = -1;
    for (int k = 0; k < 3; k++)
        a->replace_one[k] = -1;
    a->counter = a->fop = 0;
    a->swap = SWAP_INIT;
    a->cas = -1;
    for (int k = 0; k < 12; k++)
        a->vec[k] = DPOISON;
}

/* Rank o's contributions (the origin buffers: read only, shared by all targets). */
struct contrib {
    int isum[4];
    long long lprod;
    double dprod;
    int imax, imin;
    unsigned umin;
    float fmax;
    double dmin;
    unsigned band, bor;
    long long bxor;
    int land[2], lor[2], lxor;
    struct int2 maxloc[2];
    struct double_int minloc;
    int replace_all[4], replace_one[3];
    long long add;
    int swap, cas, minus_one;
    double vec[8];
    double dsum[3];
};

static unsigned umin_of(int o)
{
    return 100u + ((unsigned)o * 37u) % 11u;
}

static double minloc_of(int o)
{
    return (double)((o + 1) % 3) + 0.5;
}

static void contributions(struct contrib *c, int o, int n)
{
    for (int k = 0; k < 4; k++)
        c->isum[k] = (o + 1) * (k + 1);
    c->lprod = o + 2;
    c->dprod = 0.5 * (o + 1);
    c->imax = 3 * o - 5;
    c->imin = 7 - 2 * o;
    c->umin = umin_of(o);
    c->fmax = 0.5f * (float)o;
    c->dmin = 10.0 - o - 0.25;
    c->band = ~(1u << o);
    c->bor = 1u << (o + 3);
    c->bxor = (long long)(o + 1) * 0x10101LL;
    c->land[0] = o != 2;
    c->land[1] = 1;
    c->lor[0] = o == n - 1;
    c->lor[1] = 0;
    c->lxor = o % 2 == 0;
    c->maxloc[0].v = o % 3;
    c->maxloc[0].i = o;
    c->maxloc[1].v = 5; /* a tie everywhere: the lowest index wins */
    c->maxloc[1].i = n - 1 - o;
    c->minloc.v = minloc_of(o);
    c->minloc.i = o;
    for (int k = 0; k < 4; k++)
        c->replace_all[k] = o * 10 + k;
    for (int k = 0; k < 3; k++)
        c->replace_one[k] = o * 1000 + k;
    c->add = o + 1;
    c->swap = 100 + o;
    c->cas = o;
    c->minus_one = -1;
    for (int k = 0; k < 8; k++)
        c->vec[k] = k % 2 ? DPOISON : 0.5 * (o + 1) * (k / 2 + 1);
    for (int k = 0; k < 3; k++)
        c->dsum[k] = 0.5 * (o + 1) + k;
}

/* What one rank fetched from each target. */
struct fetched {
    long long ga, fop;
    int swap, cas;
};

struct rank_state {
    int rank, n, flavor;
    MPI_Win win, dwin;
    struct acc *a;
    double *dw;
    void *raw[2];
    MPI_Datatype vec_o, vec_t; /* doubles: 4 blocks of 1, stride 2 (origin) and 3 (target) */
    struct contrib c;
    struct fetched *got; /* [target] */
};

#define AT(field) ((MPI_Aint)offsetof(struct acc, field))

static void accumulate_into(struct rank_state *s, int t)
{
    struct contrib *c = &s->c;
    MPI_Win w = s->win;
    OK(MPI_Accumulate(c->isum, 4, MPI_INT, t, AT(isum), 4, MPI_INT, MPI_SUM, w));
    OK(MPI_Accumulate(&c->lprod, 1, MPI_LONG_LONG, t, AT(lprod), 1, MPI_LONG_LONG, MPI_PROD, w));
    OK(MPI_Accumulate(&c->dprod, 1, MPI_DOUBLE, t, AT(dprod), 1, MPI_DOUBLE, MPI_PROD, w));
    OK(MPI_Accumulate(&c->imax, 1, MPI_INT, t, AT(imax), 1, MPI_INT, MPI_MAX, w));
    OK(MPI_Accumulate(&c->imin, 1, MPI_INT, t, AT(imin), 1, MPI_INT, MPI_MIN, w));
    OK(MPI_Accumulate(&c->umin, 1, MPI_UNSIGNED, t, AT(umin), 1, MPI_UNSIGNED, MPI_MIN, w));
    OK(MPI_Accumulate(&c->fmax, 1, MPI_FLOAT, t, AT(fmax), 1, MPI_FLOAT, MPI_MAX, w));
    OK(MPI_Accumulate(&c->dmin, 1, MPI_DOUBLE, t, AT(dmin), 1, MPI_DOUBLE, MPI_MIN, w));
    OK(MPI_Accumulate(&c->band, 1, MPI_UNSIGNED, t, AT(band), 1, MPI_UNSIGNED, MPI_BAND, w));
    OK(MPI_Accumulate(&c->bor, 1, MPI_UNSIGNED, t, AT(bor), 1, MPI_UNSIGNED, MPI_BOR, w));
    OK(MPI_Accumulate(&c->bxor, 1, MPI_LONG_LONG, t, AT(bxor), 1, MPI_LONG_LONG, MPI_BXOR, w));
    OK(MPI_Accumulate(c->land, 2, MPI_INT, t, AT(land), 2, MPI_INT, MPI_LAND, w));
    OK(MPI_Accumulate(c->lor, 2, MPI_INT, t, AT(lor), 2, MPI_INT, MPI_LOR, w));
    OK(MPI_Accumulate(&c->lxor, 1, MPI_INT, t, AT(lxor), 1, MPI_INT, MPI_LXOR, w));
    OK(MPI_Accumulate(c->maxloc, 2, MPI_2INT, t, AT(maxloc), 2, MPI_2INT, MPI_MAXLOC, w));
    OK(MPI_Accumulate(&c->minloc, 1, MPI_DOUBLE_INT, t, AT(minloc), 1, MPI_DOUBLE_INT, MPI_MINLOC,
                      w));
    OK(MPI_Accumulate(c->replace_all, 4, MPI_INT, t, AT(replace_all), 4, MPI_INT, MPI_REPLACE, w));
    if (t == (s->rank + 1) % s->n)
        OK(MPI_Accumulate(c->replace_one, 3, MPI_INT, t, AT(replace_one), 3, MPI_INT, MPI_REPLACE,
                          w));
    OK(MPI_Accumulate(c->vec, 1, s->vec_o, t, AT(vec), 1, s->vec_t, MPI_SUM, w));
    OK(MPI_Accumulate(c->dsum, 3, MPI_DOUBLE, t, DW_AT, 3, MPI_DOUBLE, MPI_SUM, s->dwin));

    struct fetched *g = &s->got[t];
    OK(MPI_Get_accumulate(&c->add, 1, MPI_LONG_LONG, &g->ga, 1, MPI_LONG_LONG, t, AT(counter), 1,
                          MPI_LONG_LONG, MPI_SUM, w));
    OK(MPI_Fetch_and_op(&c->add, &g->fop, MPI_LONG_LONG, t, AT(fop), MPI_SUM, w));
    OK(MPI_Fetch_and_op(&c->swap, &g->swap, MPI_INT, t, AT(swap), MPI_REPLACE, w));
    OK(MPI_Compare_and_swap(&c->cas, &c->minus_one, &g->cas, MPI_INT, t, AT(cas), w));
}

static long long tri(int n)
{
    return (long long)n * (n + 1) / 2;
}

/* This rank's window after every rank accumulated into it. */
static void check_results(const struct rank_state *s)
{
    const struct acc *a = s->a;
    int n = s->n, me = s->rank;
    for (int k = 0; k < 4; k++)
        CHECK_INT(a->isum[k], (k + 1) * tri(n));
    long long fact = 1;
    double dprod = 1.0;
    unsigned umin = UMIN_INIT;
    double dmin_want = 1e9;
    long long bxor = 0;
    int evens = 0;
    struct double_int minloc = {1e9, -1};
    for (int o = 0; o < n; o++) {
        fact *= o + 2;
        dprod *= 0.5 * (o + 1);
        if (umin_of(o) < umin)
            umin = umin_of(o);
        if (10.0 - o - 0.25 < dmin_want)
            dmin_want = 10.0 - o - 0.25;
        bxor ^= (long long)(o + 1) * 0x10101LL;
        evens += o % 2 == 0;
        if (minloc_of(o) < minloc.v) {
            minloc.v = minloc_of(o);
            minloc.i = o;
        }
    }
    CHECK_INT(a->lprod, fact);
    CHECK(a->dprod == dprod);
    CHECK_INT(a->imax, 3 * (n - 1) - 5);
    CHECK_INT(a->imin, 7 - 2 * (n - 1));
    CHECK_INT(a->umin, umin);
    CHECK(a->fmax == 0.5f * (float)(n - 1));
    CHECK(a->dmin == dmin_want);
    CHECK_INT(a->band, ~((1u << n) - 1u));
    CHECK_INT(a->bor, ((1u << n) - 1u) << 3);
    CHECK_INT(a->bxor, bxor);
    CHECK_INT(a->land[0], n <= 2);
    CHECK_INT(a->land[1], 1);
    CHECK_INT(a->lor[0], 1);
    CHECK_INT(a->lor[1], 0);
    CHECK_INT(a->lxor, evens % 2);
    int top = n - 1 < 2 ? n - 1 : 2; /* the largest o % 3, first reached at o == top */
    CHECK_INT(a->maxloc[0].v, top);
    CHECK_INT(a->maxloc[0].i, top);
    CHECK_INT(a->maxloc[1].v, 5);
    CHECK_INT(a->maxloc[1].i, 0);
    CHECK(a->minloc.v == minloc.v);
    CHECK_INT(a->minloc.i, minloc.i);
    for (int k = 0; k < 4; k++) {
        int v = a->replace_all[k];
        CHECK_INT(v % 10, k);
        CHECK(v >= 0 && v / 10 < n);
    }
    int left = (me + n - 1) % n;
    for (int k = 0; k < 3; k++)
        CHECK_INT(a->replace_one[k], left * 1000 + k);
    CHECK_INT(a->counter, tri(n));
    CHECK_INT(a->fop, tri(n));
    for (int k = 0; k < 12; k++) {
        double want = k % 3 || k / 3 >= 4 ? DPOISON : DPOISON + 0.5 * (k / 3 + 1) * tri(n);
        CHECK(a->vec[k] == want);
    }
    for (int k = 0; k < NDW; k++) {
        double want =
            k >= DW_AT && k < DW_AT + 3 ? DPOISON + 0.5 * tri(n) + (k - DW_AT) * n : DPOISON;
        CHECK(s->dw[k] == want);
    }
}

/* What every rank fetched from this one (all[o * n + t]: origin o, target t). */
static void check_fetched(const struct rank_state *s, const struct fetched *all)
{
    int n = s->n, me = s->rank;
    /* the sums: sorted by the old value, each old value is the sum of those before */
    char *used = calloc((size_t)n, 1);
    CHECK(used != NULL);
    for (int which = 0; which < 2; which++) {
        memset(used, 0, (size_t)n);
        long long sum = 0;
        for (int step = 0; step < n; step++) {
            int next = -1;
            for (int o = 0; o < n; o++) {
                long long old = which ? all[o * n + me].fop : all[o * n + me].ga;
                if (!used[o] && old == sum)
                    next = o;
            }
            if (next < 0)
                fprintf(stderr, "%s: no rank fetched the partial sum %lld\n",
                        which ? "MPI_Fetch_and_op" : "MPI_Get_accumulate", sum);
            CHECK(next >= 0);
            used[next] = 1;
            sum += next + 1;
        }
        CHECK_INT(sum, tri(n));
    }
    /* the swaps: fetched values and the final one are SWAP_INIT and 100 + o, each once */
    memset(used, 0, (size_t)n);
    int init_seen = 0;
    for (int o = 0; o <= n; o++) {
        int v = o < n ? all[o * n + me].swap : s->a->swap;
        if (v == SWAP_INIT) {
            CHECK(o < n);
            init_seen++;
        } else {
            CHECK(v >= 100 && v < 100 + n);
            CHECK(v - 100 != o); /* nobody fetches its own value */
            CHECK(!used[v - 100]);
            used[v - 100] = 1;
        }
    }
    CHECK_INT(init_seen, 1);
    /* compare and swap: one winner */
    int winner = -1, losers = 0;
    for (int o = 0; o < n; o++) {
        int v = all[o * n + me].cas;
        if (v == -1) {
            CHECK_INT(winner, -1);
            winner = o;
        }
    }
    CHECK(winner >= 0);
    for (int o = 0; o < n; o++)
        if (o != winner) {
            CHECK_INT(all[o * n + me].cas, winner);
            losers++;
        }
    CHECK_INT(losers, n - 1);
    CHECK_INT(s->a->cas, winner);
    free(used);
}

/* The reads of the second epoch, from target t. */
struct reads {
    long long counter, fop;
    int isum[4];
    int cas;
};

static void read_back(struct rank_state *s, struct reads *r, int t)
{
    OK(MPI_Get_accumulate(NULL, 0, MPI_LONG_LONG, &r->counter, 1, MPI_LONG_LONG, t, AT(counter), 1,
                          MPI_LONG_LONG, MPI_NO_OP, s->win));
    OK(MPI_Get_accumulate(NULL, 0, MPI_INT, r->isum, 4, MPI_INT, t, AT(isum), 4, MPI_INT, MPI_NO_OP,
                          s->win));
    OK(MPI_Fetch_and_op(NULL, &r->fop, MPI_LONG_LONG, t, AT(fop), MPI_NO_OP, s->win));
    OK(MPI_Fetch_and_op(NULL, &r->cas, MPI_INT, t, AT(cas), MPI_NO_OP, s->win));
}

static void run(int flavor)
{
    struct rank_state *s = calloc(1, sizeof *s);
    CHECK(s != NULL);
    s->rank = p2p_rank();
    s->n = p2p_size();
    s->flavor = flavor;
    int n = s->n;
    CHECK(n <= 16); /* the bit operations use one bit per rank */
    MPI_Aint bytes = (sizeof(struct acc) + 15) / 16 * 16, dbytes = NDW * sizeof(double);
    if (flavor == CREATE) {
        s->raw[0] = s->a = malloc((size_t)bytes);
        s->raw[1] = s->dw = malloc((size_t)dbytes);
        CHECK(s->a != NULL && s->dw != NULL);
        OK(MPI_Win_create(s->a, bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &s->win));
        OK(MPI_Win_create(s->dw, dbytes, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &s->dwin));
    } else {
        OK(MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &s->a, &s->win));
        OK(MPI_Win_allocate(dbytes, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &s->dw,
                            &s->dwin));
    }
    OK(MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &s->vec_o));
    OK(MPI_Type_commit(&s->vec_o));
    OK(MPI_Type_vector(4, 1, 3, MPI_DOUBLE, &s->vec_t));
    OK(MPI_Type_commit(&s->vec_t));
    s->got = calloc((size_t)n, sizeof *s->got);
    struct fetched *all = calloc((size_t)n * (size_t)n, sizeof *all);
    struct reads *r = calloc((size_t)n, sizeof *r);
    CHECK(s->got != NULL && all != NULL && r != NULL);

    init_acc(s->a);
    for (int k = 0; k < NDW; k++)
        s->dw[k] = DPOISON;
    contributions(&s->c, s->rank, n);

    /* epoch 1: everybody into everybody */
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, s->win));
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, s->dwin));
    for (int k = 0; k < n; k++)
        accumulate_into(s, (s->rank + 1 + k) % n);
    OK(MPI_Win_fence(MPI_MODE_NOSTORE, s->win));
    OK(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOSUCCEED, s->dwin));
    check_results(s);
    int got_bytes = n * (int)sizeof *s->got;
    OK(MPI_Allgather(s->got, got_bytes, MPI_BYTE, all, got_bytes, MPI_BYTE, MPI_COMM_WORLD));
    check_fetched(s, all);

    /* epoch 2: atomic reads of every rank's results (a get-only epoch) */
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOPUT, s->win));
    for (int t = 0; t < n; t++)
        read_back(s, &r[t], t);
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, s->win));
    for (int t = 0; t < n; t++) {
        CHECK_INT(r[t].counter, tri(n));
        CHECK_INT(r[t].fop, tri(n));
        for (int k = 0; k < 4; k++)
            CHECK_INT(r[t].isum[k], (k + 1) * tri(n));
        /* the winner of the compare-and-swap at t, as everybody fetched it */
        int winner = -1;
        for (int o = 0; o < n; o++)
            if (all[o * n + t].cas == -1)
                winner = o;
        CHECK_INT(r[t].cas, winner);
    }

    OK(MPI_Win_free(&s->win));
    OK(MPI_Win_free(&s->dwin));
    OK(MPI_Type_free(&s->vec_o));
    OK(MPI_Type_free(&s->vec_t));
    free(s->raw[0]);
    free(s->raw[1]);
    free(s->got);
    free(all);
    free(r);
    free(s);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    run(CREATE);
    run(ALLOCATE);
    OK(MPI_Finalize());
    return 0;
}
