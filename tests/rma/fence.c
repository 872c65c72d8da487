/* Fence epochs (MPI 4.1 section 12.5.1) with MPI_Put and MPI_Get, over windows made by
 * MPI_Win_create and then by MPI_Win_allocate: four windows per rank (int, double, char and a
 * struct {int, double}, with disp_units 4, 8, 1 and 16), each holding one slot of SLOT
 * elements per origin rank. Every epoch is checked against an image of the whole window
 * computed from the rank numbers, so a datum that lands in the wrong place, or anything
 * written where nothing should be, fails. The epochs:
 *   - puts of predefined types (int, double, char; counts > 1; offsets into the slot) and of
 *     a resized struct type into the right neighbour; a put and a get with MPI_PROC_NULL as
 *     target and a zero-count put, none of which touches anything;
 *   - gets from the left neighbour and from oneself, with derived types on either side
 *     (vector, indexed, resized) out of windows filled with a known pattern;
 *   - puts into every rank with derived types on either side: a vector target from a
 *     contiguous origin and the reverse, an indexed target, a resized origin and a resized
 *     target, a struct of two structs with a gap;
 *   - four epochs in a row, no checks between them, values changing per epoch, targets
 *     right, self, all, left; each epoch also reads back what the previous one put.
 * Fence asserts: MPI_MODE_NOPRECEDE on fences that close nothing, MPI_MODE_NOSTORE |
 * MPI_MODE_NOPUT on fences after which only local reads follow, MPI_MODE_NOPUT on a fence
 * opening a get-only epoch, MPI_MODE_NOSUCCEED on the last. */
#include <stddef.h>
#include "p2p_check.h"

enum { SLOT = 32, CREATE, ALLOCATE };

struct pair {
    int a;
    double b;
};

/* The values: epoch e, origin o, element k. */
static int ival(int e, int o, int k)
{
    return e * 100000 + o * 1000 + k;
}

static double dval(int e, int o, int k)
{
    return ival(e, o, k) + 0.25;
}

static char cval(int e, int o, int k)
{
    return (char)('a' + (e * 7 + o * 3 + k) % 26);
}

static struct pair pval(int e, int o, int k)
{
    struct pair p = {ival(e, o, k), dval(e, o, k) + 0.5};
    return p;
}

static const int IPOISON = -1;
static const double DPOISON = -1.5;
static const char CPOISON = '.';
static const struct pair PPOISON = {-7, -7.5};

/* The pattern windows hold for the get epoch: epoch number PATTERN, "origin" the owner. */
enum { PATTERN = 9 };

/* One set of the four windows, or the image expected of one. */
struct mem {
    int *i;
    double *d;
    char *c;
    struct pair *p;
};

struct rank_state {
    int rank, n, flavor;
    MPI_Win wi, wd, wc, wp;
    struct mem w;   /* this rank's windows */
    struct mem exp; /* what they must hold */
    void *raw[4];   /* MPI_Win_create's memory */
    /* the derived types */
    MPI_Datatype pair_t;  /* struct {int; double}, resized to sizeof(struct pair) */
    MPI_Datatype vec3of5; /* ints: 4 blocks of 3, stride 5 */
    MPI_Datatype vec2of4; /* doubles: 3 blocks of 2, stride 4 */
    MPI_Datatype idx_d;   /* doubles: blocks {2,1,3} at {0,4,7} */
    MPI_Datatype int_x3;  /* an int resized to the extent of 3 */
    MPI_Datatype char_x3; /* a char resized to the extent of 3 */
    MPI_Datatype two_gap; /* two pairs, the second 2 pairs after the first */
};

static int right_of(const struct rank_state *s)
{
    return (s->rank + 1) % s->n;
}

static int left_of(const struct rank_state *s)
{
    return (s->rank + s->n - 1) % s->n;
}

static void make_types(struct rank_state *s)
{
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {offsetof(struct pair, a), offsetof(struct pair, b)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, raw;
    OK(MPI_Type_create_struct(2, bl, disp, types, &raw));
    OK(MPI_Type_create_resized(raw, 0, sizeof(struct pair), &s->pair_t));
    OK(MPI_Type_free(&raw));
    OK(MPI_Type_commit(&s->pair_t));

    OK(MPI_Type_vector(4, 3, 5, MPI_INT, &s->vec3of5));
    OK(MPI_Type_commit(&s->vec3of5));
    OK(MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &s->vec2of4));
    OK(MPI_Type_commit(&s->vec2of4));
    int ibl[3] = {2, 1, 3}, idisp[3] = {0, 4, 7};
    OK(MPI_Type_indexed(3, ibl, idisp, MPI_DOUBLE, &s->idx_d));
    OK(MPI_Type_commit(&s->idx_d));
    OK(MPI_Type_create_resized(MPI_INT, 0, 3 * sizeof(int), &s->int_x3));
    OK(MPI_Type_commit(&s->int_x3));
    OK(MPI_Type_create_resized(MPI_CHAR, 0, 3, &s->char_x3));
    OK(MPI_Type_commit(&s->char_x3));
    int pbl[2] = {1, 1};
    MPI_Aint pdisp[2] = {0, 2 * sizeof(struct pair)};
    MPI_Datatype ptypes[2] = {s->pair_t, s->pair_t};
    OK(MPI_Type_create_struct(2, pbl, pdisp, ptypes, &s->two_gap));
    OK(MPI_Type_commit(&s->two_gap));
}

static void free_types(struct rank_state *s)
{
    MPI_Datatype *t[] = {&s->pair_t, &s->vec3of5, &s->vec2of4, &s->idx_d,
                         &s->int_x3, &s->char_x3, &s->two_gap};
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
        OK(MPI_Type_free(t[k]));
}

static void *open_win(struct rank_state *s, size_t elem, int unit, MPI_Win *win, void **raw)
{
    MPI_Aint bytes = (MPI_Aint)(elem * SLOT * (size_t)s->n);
    void *base = NULL;
    *raw = NULL;
    if (s->flavor == CREATE) {
        base = *raw = malloc((size_t)bytes);
        CHECK(base != NULL);
        OK(MPI_Win_create(base, bytes, unit, MPI_INFO_NULL, MPI_COMM_WORLD, win));
    } else {
        OK(MPI_Win_allocate(bytes, unit, MPI_INFO_NULL, MPI_COMM_WORLD, &base, win));
    }
    CHECK(base != NULL);
    return base;
}

static void open_wins(struct rank_state *s)
{
    s->w.i = open_win(s, sizeof(int), sizeof(int), &s->wi, &s->raw[0]);
    s->w.d = open_win(s, sizeof(double), sizeof(double), &s->wd, &s->raw[1]);
    s->w.c = open_win(s, 1, 1, &s->wc, &s->raw[2]);
    s->w.p = open_win(s, sizeof(struct pair), sizeof(struct pair), &s->wp, &s->raw[3]);
    size_t len = (size_t)SLOT * (size_t)s->n;
    s->exp.i = malloc(len * sizeof(int));
    s->exp.d = malloc(len * sizeof(double));
    s->exp.c = malloc(len);
    s->exp.p = malloc(len * sizeof(struct pair));
    CHECK(s->exp.i && s->exp.d && s->exp.c && s->exp.p);
}

static void close_wins(struct rank_state *s)
{
    OK(MPI_Win_free(&s->wi));
    OK(MPI_Win_free(&s->wd));
    OK(MPI_Win_free(&s->wc));
    OK(MPI_Win_free(&s->wp));
    for (int k = 0; k < 4; k++)
        free(s->raw[k]);
    free(s->exp.i);
    free(s->exp.d);
    free(s->exp.c);
    free(s->exp.p);
}

static void fence(struct rank_state *s, int assert)
{
    OK(MPI_Win_fence(assert, s->wi));
    OK(MPI_Win_fence(assert, s->wd));
    OK(MPI_Win_fence(assert, s->wc));
    OK(MPI_Win_fence(assert, s->wp));
}

static void poison(struct mem *m, int n)
{
    for (int k = 0; k < SLOT * n; k++) {
        m->i[k] = IPOISON;
        m->d[k] = DPOISON;
        m->c[k] = CPOISON;
        m->p[k] = PPOISON;
    }
}

/* Fill m with the pattern of owner t (element k of the window holds value k). */
static void pattern(struct mem *m, int n, int t)
{
    for (int k = 0; k < SLOT * n; k++) {
        m->i[k] = ival(PATTERN, t, k);
        m->d[k] = dval(PATTERN, t, k);
        m->c[k] = cval(PATTERN, t, k);
        m->p[k] = pval(PATTERN, t, k);
    }
}

#define CHECK_DOUBLE(got, want, what, k)                                                       \
    do {                                                                                       \
        double g_ = (got), w_ = (want);                                                        \
        if (g_ != w_) {                                                                        \
            fprintf(stderr, "%s:%d: %s[%d] is %g, expected %g\n", __FILE__, __LINE__, (what),  \
                    (int)(k), g_, w_);                                                         \
            fflush(NULL);                                                                      \
            _exit(99);                                                                         \
        }                                                                                      \
    } while (0)

#define CHECK_AT(got, want, what, k)                                                           \
    do {                                                                                       \
        long long g_ = (got), w_ = (want);                                                     \
        if (g_ != w_) {                                                                        \
            fprintf(stderr, "%s:%d: %s[%d] is %lld, expected %lld\n", __FILE__, __LINE__, (what), \
                    (int)(k), g_, w_);                                                         \
            fflush(NULL);                                                                      \
            _exit(99);                                                                         \
        }                                                                                      \
    } while (0)

/* The whole of this rank's windows against the expected image. */
static void check_windows(const struct rank_state *s, const char *epoch)
{
    char what[64];
    for (int k = 0; k < SLOT * s->n; k++) {
        snprintf(what, sizeof what, "%s: int window", epoch);
        CHECK_AT(s->w.i[k], s->exp.i[k], what, k);
        snprintf(what, sizeof what, "%s: double window", epoch);
        CHECK_DOUBLE(s->w.d[k], s->exp.d[k], what, k);
        snprintf(what, sizeof what, "%s: char window", epoch);
        CHECK_AT(s->w.c[k], s->exp.c[k], what, k);
        snprintf(what, sizeof what, "%s: pair window .a", epoch);
        CHECK_AT(s->w.p[k].a, s->exp.p[k].a, what, k);
        snprintf(what, sizeof what, "%s: pair window .b", epoch);
        CHECK_DOUBLE(s->w.p[k].b, s->exp.p[k].b, what, k);
    }
}

/* ---- epoch 1: predefined types and a resized struct into the right neighbour ---- */

struct basic_src {
    int i[5];
    double d[6];
    char c[7];
    struct pair p[3];
};

static void put_basic(struct rank_state *s, struct basic_src *b, int e, int t)
{
    int o = s->rank;
    for (int k = 0; k < 5; k++)
        b->i[k] = ival(e, o, k);
    for (int k = 0; k < 6; k++)
        b->d[k] = dval(e, o, k);
    for (int k = 0; k < 7; k++)
        b->c[k] = cval(e, o, k);
    for (int k = 0; k < 3; k++)
        b->p[k] = pval(e, o, k);
    MPI_Aint slot = (MPI_Aint)o * SLOT;
    OK(MPI_Put(b->i, 5, MPI_INT, t, slot + 2, 5, MPI_INT, s->wi));
    OK(MPI_Put(b->d, 6, MPI_DOUBLE, t, slot + 3, 6, MPI_DOUBLE, s->wd));
    OK(MPI_Put(b->c, 7, MPI_CHAR, t, slot + 1, 7, MPI_CHAR, s->wc));
    OK(MPI_Put(b->p, 3, s->pair_t, t, slot + 4, 3, s->pair_t, s->wp));
    /* nothing: a zero count, and the null process */
    OK(MPI_Put(b->i, 0, MPI_INT, t, slot + 20, 0, MPI_INT, s->wi));
    OK(MPI_Put(b->i, 5, MPI_INT, MPI_PROC_NULL, slot + 25, 5, MPI_INT, s->wi));
    OK(MPI_Put(b->d, 6, MPI_DOUBLE, MPI_PROC_NULL, 0, 6, MPI_DOUBLE, s->wd));
}

static void expect_basic(struct mem *m, int e, int o)
{
    int slot = o * SLOT;
    for (int k = 0; k < 5; k++)
        m->i[slot + 2 + k] = ival(e, o, k);
    for (int k = 0; k < 6; k++)
        m->d[slot + 3 + k] = dval(e, o, k);
    for (int k = 0; k < 7; k++)
        m->c[slot + 1 + k] = cval(e, o, k);
    for (int k = 0; k < 3; k++)
        m->p[slot + 4 + k] = pval(e, o, k);
}

static void epoch_basic(struct rank_state *s)
{
    struct basic_src b;
    int null_got[3] = {IPOISON, IPOISON, IPOISON};
    poison(&s->w, s->n);
    fence(s, MPI_MODE_NOPRECEDE);
    put_basic(s, &b, 1, right_of(s));
    OK(MPI_Get(null_got, 3, MPI_INT, MPI_PROC_NULL, 0, 3, MPI_INT, s->wi));
    fence(s, MPI_MODE_NOSTORE | MPI_MODE_NOPUT);
    poison(&s->exp, s->n);
    expect_basic(&s->exp, 1, left_of(s));
    check_windows(s, "puts to the right");
    for (int k = 0; k < 3; k++)
        CHECK_AT(null_got[k], IPOISON, "get from MPI_PROC_NULL", k);
}

/* ---- epoch 2: gets out of windows holding their owner's pattern ---- */

struct get_dst {
    int i[5];
    double d[6];
    char c[9];
    struct pair p[2];
    int vec[18];    /* vec3of5 at the origin: 12 ints, 6 gaps */
    double idx[10]; /* idx_d at the origin */
    int strided[4]; /* from int_x3 at the target */
    int self[3];
};

static void get_basic(struct rank_state *s, struct get_dst *g, int t)
{
    for (int k = 0; k < 18; k++)
        g->vec[k] = IPOISON;
    for (int k = 0; k < 10; k++)
        g->idx[k] = DPOISON;
    OK(MPI_Get(g->i, 5, MPI_INT, t, 7, 5, MPI_INT, s->wi));
    OK(MPI_Get(g->d, 6, MPI_DOUBLE, t, 11, 6, MPI_DOUBLE, s->wd));
    OK(MPI_Get(g->c, 9, MPI_CHAR, t, 2, 9, MPI_CHAR, s->wc));
    OK(MPI_Get(g->p, 2, s->pair_t, t, 5, 2, s->pair_t, s->wp));
    OK(MPI_Get(g->vec, 1, s->vec3of5, t, 10, 12, MPI_INT, s->wi));
    OK(MPI_Get(g->idx, 1, s->idx_d, t, 1, 6, MPI_DOUBLE, s->wd));
    OK(MPI_Get(g->strided, 4, MPI_INT, t, 3, 4, s->int_x3, s->wi));
    OK(MPI_Get(g->self, 3, MPI_INT, s->rank, 28, 3, MPI_INT, s->wi));
}

static void check_gets(const struct get_dst *g, int t, int me)
{
    for (int k = 0; k < 5; k++)
        CHECK_AT(g->i[k], ival(PATTERN, t, 7 + k), "get int", k);
    for (int k = 0; k < 6; k++)
        CHECK_DOUBLE(g->d[k], dval(PATTERN, t, 11 + k), "get double", k);
    for (int k = 0; k < 9; k++)
        CHECK_AT(g->c[k], cval(PATTERN, t, 2 + k), "get char", k);
    for (int k = 0; k < 2; k++) {
        CHECK_AT(g->p[k].a, pval(PATTERN, t, 5 + k).a, "get pair .a", k);
        CHECK_DOUBLE(g->p[k].b, pval(PATTERN, t, 5 + k).b, "get pair .b", k);
    }
    /* the vector's blocks hold the 12 ints in order, its gaps nothing */
    for (int k = 0, j = 0; k < 18; k++) {
        if (k % 5 < 3)
            CHECK_AT(g->vec[k], ival(PATTERN, t, 10 + j++), "get into a vector", k);
        else
            CHECK_AT(g->vec[k], IPOISON, "get into a vector", k);
    }
    static const int idx_at[6] = {0, 1, 4, 7, 8, 9};
    for (int k = 0, j = 0; k < 10; k++) {
        if (j < 6 && idx_at[j] == k)
            CHECK_DOUBLE(g->idx[k], dval(PATTERN, t, 1 + j++), "get into indexed", k);
        else
            CHECK_DOUBLE(g->idx[k], DPOISON, "get into indexed", k);
    }
    for (int k = 0; k < 4; k++)
        CHECK_AT(g->strided[k], ival(PATTERN, t, 3 + 3 * k), "get from resized", k);
    for (int k = 0; k < 3; k++)
        CHECK_AT(g->self[k], ival(PATTERN, me, 28 + k), "get from oneself", k);
}

static void epoch_gets(struct rank_state *s)
{
    struct get_dst g;
    pattern(&s->w, s->n, s->rank);
    fence(s, MPI_MODE_NOPRECEDE | MPI_MODE_NOPUT);
    get_basic(s, &g, left_of(s));
    fence(s, MPI_MODE_NOSTORE);
    check_gets(&g, left_of(s), s->rank);
    pattern(&s->exp, s->n, s->rank); /* the gets changed nothing */
    check_windows(s, "gets");
}

/* ---- epoch 3: derived types on either side, into every rank ---- */

struct derived_src {
    int i[12];
    double d[12];
    double d6[6];
    char c[4];
    struct pair p[2];
};

static void put_derived(struct rank_state *s, const struct derived_src *src, int t)
{
    MPI_Aint slot = (MPI_Aint)s->rank * SLOT;
    OK(MPI_Put(src->i, 12, MPI_INT, t, slot, 1, s->vec3of5, s->wi));
    OK(MPI_Put(src->i, 4, s->int_x3, t, slot + 24, 4, MPI_INT, s->wi));
    OK(MPI_Put(src->d, 1, s->vec2of4, t, slot + 20, 6, MPI_DOUBLE, s->wd));
    OK(MPI_Put(src->d6, 6, MPI_DOUBLE, t, slot, 1, s->idx_d, s->wd));
    OK(MPI_Put(src->c, 4, MPI_CHAR, t, slot + 2, 4, s->char_x3, s->wc));
    OK(MPI_Put(src->p, 2, s->pair_t, t, slot + 10, 1, s->two_gap, s->wp));
}

static void fill_derived(struct derived_src *src, int e, int o)
{
    for (int k = 0; k < 12; k++) {
        src->i[k] = ival(e, o, k);
        src->d[k] = dval(e, o, k);
    }
    for (int k = 0; k < 6; k++)
        src->d6[k] = dval(e, o, 100 + k);
    for (int k = 0; k < 4; k++)
        src->c[k] = cval(e, o, k);
    for (int k = 0; k < 2; k++)
        src->p[k] = pval(e, o, k);
}

static void expect_derived(struct mem *m, int e, int o)
{
    int slot = o * SLOT;
    for (int k = 0; k < 12; k++) /* vec3of5 */
        m->i[slot + (k / 3) * 5 + k % 3] = ival(e, o, k);
    for (int k = 0; k < 4; k++) /* from int_x3 */
        m->i[slot + 24 + k] = ival(e, o, 3 * k);
    for (int k = 0; k < 6; k++) /* from vec2of4 */
        m->d[slot + 20 + k] = dval(e, o, (k / 2) * 4 + k % 2);
    static const int idx_at[6] = {0, 1, 4, 7, 8, 9};
    for (int k = 0; k < 6; k++)
        m->d[slot + idx_at[k]] = dval(e, o, 100 + k);
    for (int k = 0; k < 4; k++)
        m->c[slot + 2 + 3 * k] = cval(e, o, k);
    m->p[slot + 10] = pval(e, o, 0);
    m->p[slot + 12] = pval(e, o, 1);
}

static void epoch_derived(struct rank_state *s)
{
    struct derived_src src;
    fill_derived(&src, 2, s->rank);
    poison(&s->w, s->n);
    fence(s, MPI_MODE_NOPRECEDE);
    for (int k = 0; k < s->n; k++)
        put_derived(s, &src, (s->rank + k) % s->n); /* every rank, starting with oneself */
    fence(s, MPI_MODE_NOSTORE | MPI_MODE_NOPUT);
    poison(&s->exp, s->n);
    for (int o = 0; o < s->n; o++)
        expect_derived(&s->exp, 2, o);
    check_windows(s, "derived types to all");
}

/* ---- epochs 4 to 7: one after the other, checked at the end ---- */

enum { CHAIN = 4, RELAY = 20 };

/* Does origin o target t in chain epoch e? right, self, all, left. */
static int chain_targets(int e, int o, int t, int n)
{
    switch (e % 4) {
    case 0:
        return t == (o + 1) % n;
    case 1:
        return t == o;
    case 2:
        return 1;
    default:
        return t == (o + n - 1) % n;
    }
}

static void epochs_chain(struct rank_state *s)
{
    int src[CHAIN][4], relay_src[CHAIN], relay_got[CHAIN];
    int o = s->rank, n = s->n, right = right_of(s);
    poison(&s->w, n);
    fence(s, MPI_MODE_NOPRECEDE);
    for (int e = 0; e < CHAIN; e++) {
        for (int k = 0; k < 4; k++)
            src[e][k] = ival(10 + e, o, k);
        for (int t = 0; t < n; t++)
            if (chain_targets(e, o, t, n))
                OK(MPI_Put(src[e], 4, MPI_INT, t, o * SLOT + 4 * e, 4, MPI_INT, s->wi));
        /* the relay: put this epoch's value into the right neighbour, read back the last */
        relay_src[e] = ival(10 + e, o, 99);
        relay_got[e] = IPOISON;
        OK(MPI_Put(&relay_src[e], 1, MPI_INT, right, o * SLOT + RELAY + e % 2, 1, MPI_INT, s->wi));
        if (e > 0)
            OK(MPI_Get(&relay_got[e], 1, MPI_INT, right, o * SLOT + RELAY + (e - 1) % 2, 1, MPI_INT,
                       s->wi));
        OK(MPI_Win_fence(e == CHAIN - 1 ? MPI_MODE_NOSTORE | MPI_MODE_NOPUT : 0, s->wi));
    }
    OK(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, s->wd));
    OK(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, s->wc));
    OK(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, s->wp));

    poison(&s->exp, n);
    for (int e = 0; e < CHAIN; e++)
        for (int from = 0; from < n; from++)
            if (chain_targets(e, from, o, n))
                for (int k = 0; k < 4; k++)
                    s->exp.i[from * SLOT + 4 * e + k] = ival(10 + e, from, k);
    int left = left_of(s);
    s->exp.i[left * SLOT + RELAY + (CHAIN - 2) % 2] = ival(10 + CHAIN - 2, left, 99);
    s->exp.i[left * SLOT + RELAY + (CHAIN - 1) % 2] = ival(10 + CHAIN - 1, left, 99);
    check_windows(s, "epochs in a row");
    CHECK_AT(relay_got[0], IPOISON, "relay", 0);
    for (int e = 1; e < CHAIN; e++)
        CHECK_AT(relay_got[e], ival(10 + e - 1, o, 99), "relay", e);
}

static void run(int flavor)
{
    struct rank_state *s = calloc(1, sizeof *s);
    CHECK(s != NULL);
    s->rank = p2p_rank();
    s->n = p2p_size();
    s->flavor = flavor;
    make_types(s);
    open_wins(s);
    epoch_basic(s);
    epoch_gets(s);
    epoch_derived(s);
    epochs_chain(s);
    fence(s, MPI_MODE_NOSUCCEED);
    close_wins(s);
    free_types(s);
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
