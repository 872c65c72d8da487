/* Generalized active target synchronization (MPI 4.1 section 12.5.2): MPI_Win_post,
 * MPI_Win_start, MPI_Win_complete, MPI_Win_wait and MPI_Win_test, over a window made by
 * MPI_Win_create and then by one made by MPI_Win_allocate. A list of rounds, one after the
 * other on the same window; in each, a pattern says which origin accesses which target, and
 * every rank builds from it the group it starts (its targets) and the group it posts to (its
 * origins), both subsets of the job: a ring (each rank targets its right neighbour and
 * exposes to its left: origin and target in the same round), odd ranks into even ranks and
 * the reverse, two neighbours to the right, every rank into rank 0, every rank into every
 * rank, each rank alone with itself. Inside the epochs: puts into the origin's slot of the
 * target, accumulates (MPI_SUM) into one counter every origin shares, gets of a stamp the
 * target stored before posting. After each round the target checks its whole window (the
 * slots of its origins, nothing elsewhere, the counter's sum) and the origin what it got.
 * Rounds end with MPI_Win_wait or with MPI_Win_test polled until the flag is set. Asserts:
 * MPI_MODE_NOCHECK on both sides (the posts done before a barrier, the starts after it),
 * MPI_MODE_NOPUT on posts of get-only rounds, MPI_MODE_NOSTORE where the target did not
 * touch its window since the last round. */
#include "p2p_check.h"

enum { SLOT = 4, PUT = 1, GET = 2, ACC = 4, CREATE, ALLOCATE };
enum { RING, ODD_TO_EVEN, EVEN_TO_ODD, TWO_RIGHT, ALL_TO_0, ALL, SELF };

struct round {
    int pattern, ops, post_assert, start_assert, use_test, fresh;
};

/* fresh = 0: the target leaves its window as the last round left it (and may say NOSTORE) */
static const struct round rounds[] = {
    {RING, PUT | GET | ACC, 0, 0, 0, 1},
    {RING, PUT | ACC, 0, 0, 1, 1},
    {ODD_TO_EVEN, PUT | GET | ACC, 0, 0, 0, 1},
    {EVEN_TO_ODD, PUT | ACC, 0, 0, 1, 1},
    {ALL, PUT | GET | ACC, 0, 0, 1, 1},
    {TWO_RIGHT, GET, MPI_MODE_NOPUT, 0, 0, 1},
    {TWO_RIGHT, GET, MPI_MODE_NOSTORE | MPI_MODE_NOPUT, 0, 1, 0},
    {RING, PUT | GET | ACC, MPI_MODE_NOCHECK, MPI_MODE_NOCHECK, 1, 1},
    {ALL_TO_0, PUT | ACC, 0, 0, 0, 1},
    {SELF, PUT | GET | ACC, 0, 0, 0, 1},
    {ALL, GET, MPI_MODE_NOCHECK | MPI_MODE_NOPUT, MPI_MODE_NOCHECK, 0, 1},
    {ALL, PUT | ACC, MPI_MODE_NOCHECK, MPI_MODE_NOCHECK, 1, 1},
};
#define NROUNDS ((int)(sizeof rounds / sizeof rounds[0]))

/* Does origin o access target t in this pattern? */
static int accesses(int pattern, int o, int t, int n)
{
    switch (pattern) {
    case RING:
        return t == (o + 1) % n;
    case ODD_TO_EVEN:
        return o % 2 == 1 && t % 2 == 0;
    case EVEN_TO_ODD:
        return o % 2 == 0 && t % 2 == 1;
    case TWO_RIGHT:
        return t == (o + 1) % n || t == (o + 2) % n;
    case ALL_TO_0:
        return t == 0;
    case ALL:
        return 1;
    default:
        return t == o;
    }
}

static int ival(int r, int o, int k)
{
    return r * 100000 + o * 1000 + k;
}

enum { POISON = -1 };

struct rank_state {
    int rank, n, flavor;
    MPI_Win win;
    MPI_Group world;
    int *w;   /* the window: n slots, then the counter, then the stamp */
    int *exp; /* what it must hold */
    int len;  /* ints in it */
    void *raw;
    int src[SLOT]; /* what this rank puts */
    int one;       /* what it accumulates */
    int *got;      /* [target]: the stamps it got */
};

static int counter_at(int n)
{
    return n * SLOT;
}

static int stamp_at(int n)
{
    return n * SLOT + 1;
}

/* The group of the ranks r with want(r) (may be empty: then no group). */
static MPI_Group group_of(struct rank_state *s, int pattern, int as_origin)
{
    int *ranks = malloc(sizeof(int) * (size_t)s->n), k = 0;
    CHECK(ranks != NULL);
    for (int r = 0; r < s->n; r++)
        if (as_origin ? accesses(pattern, s->rank, r, s->n) : accesses(pattern, r, s->rank, s->n))
            ranks[k++] = r;
    MPI_Group g = MPI_GROUP_NULL;
    if (k > 0)
        OK(MPI_Group_incl(s->world, k, ranks, &g));
    free(ranks);
    return g;
}

static void reset(int *m, int n, int r, int me)
{
    for (int k = 0; k < n * SLOT; k++)
        m[k] = POISON;
    m[counter_at(n)] = 0;
    m[stamp_at(n)] = ival(r, me, 77);
}

static void round_on(struct rank_state *s, int r, int *stamp_round)
{
    const struct round *rd = &rounds[r];
    int n = s->n, me = s->rank;
    MPI_Group targets = group_of(s, rd->pattern, 1), origins = group_of(s, rd->pattern, 0);

    if (rd->fresh) {
        reset(s->w, n, r, me);
        reset(s->exp, n, r, me);
        *stamp_round = r;
    }
    for (int k = 0; k < SLOT; k++)
        s->src[k] = ival(r, me, k);
    s->one = me + 1;
    for (int t = 0; t < n; t++)
        s->got[t] = POISON;

    if (origins != MPI_GROUP_NULL)
        OK(MPI_Win_post(origins, rd->post_assert, s->win));
    if (rd->start_assert & MPI_MODE_NOCHECK)
        OK(MPI_Barrier(MPI_COMM_WORLD)); /* every post is done before any start */
    if (targets != MPI_GROUP_NULL) {
        OK(MPI_Win_start(targets, rd->start_assert, s->win));
        for (int k = 1; k <= n; k++) {
            int t = (me + k) % n;
            if (!accesses(rd->pattern, me, t, n))
                continue;
            if (rd->ops & PUT)
                OK(MPI_Put(s->src, SLOT, MPI_INT, t, me * SLOT, SLOT, MPI_INT, s->win));
            if (rd->ops & ACC)
                OK(MPI_Accumulate(&s->one, 1, MPI_INT, t, counter_at(n), 1, MPI_INT, MPI_SUM,
                                  s->win));
            if (rd->ops & GET)
                OK(MPI_Get(&s->got[t], 1, MPI_INT, t, stamp_at(n), 1, MPI_INT, s->win));
        }
        OK(MPI_Win_complete(s->win));
    }
    if (origins != MPI_GROUP_NULL) {
        if (rd->use_test) {
            int flag = 0;
            while (!flag)
                OK(MPI_Win_test(s->win, &flag));
        } else {
            OK(MPI_Win_wait(s->win));
        }
    }

    /* the target's side: its origins' slots and their sum */
    for (int o = 0; o < n; o++) {
        if (!accesses(rd->pattern, o, me, n))
            continue;
        if (rd->ops & PUT)
            for (int k = 0; k < SLOT; k++)
                s->exp[o * SLOT + k] = ival(r, o, k);
        if (rd->ops & ACC)
            s->exp[counter_at(n)] += o + 1;
    }
    for (int k = 0; k < s->len; k++) {
        if (s->w[k] != s->exp[k])
            fprintf(stderr, "round %d: rank %d window[%d] is %d, expected %d\n", r, me, k, s->w[k],
                    s->exp[k]);
        CHECK_INT(s->w[k], s->exp[k]);
    }
    /* the origin's side: each target's stamp */
    for (int t = 0; t < n; t++) {
        int want =
            rd->ops & GET && accesses(rd->pattern, me, t, n) ? ival(*stamp_round, t, 77) : POISON;
        if (s->got[t] != want)
            fprintf(stderr, "round %d: rank %d got %d from %d, expected %d\n", r, me, s->got[t], t,
                    want);
        CHECK_INT(s->got[t], want);
    }
    if (targets != MPI_GROUP_NULL)
        OK(MPI_Group_free(&targets));
    if (origins != MPI_GROUP_NULL)
        OK(MPI_Group_free(&origins));
}

static void run(int flavor)
{
    struct rank_state *s = calloc(1, sizeof *s);
    CHECK(s != NULL);
    s->rank = p2p_rank();
    s->n = p2p_size();
    s->flavor = flavor;
    s->len = s->n * SLOT + 2;
    MPI_Aint bytes = (MPI_Aint)((s->len * sizeof(int) + 15) / 16 * 16);
    if (flavor == CREATE) {
        s->raw = s->w = malloc((size_t)bytes);
        CHECK(s->w != NULL);
        OK(MPI_Win_create(s->w, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &s->win));
    } else {
        OK(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &s->w, &s->win));
    }
    s->exp = malloc(sizeof(int) * (size_t)s->len);
    s->got = malloc(sizeof(int) * (size_t)s->n);
    CHECK(s->exp != NULL && s->got != NULL);
    OK(MPI_Comm_group(MPI_COMM_WORLD, &s->world));

    int stamp_round = -1;
    for (int r = 0; r < NROUNDS; r++)
        round_on(s, r, &stamp_round);

    OK(MPI_Group_free(&s->world));
    OK(MPI_Win_free(&s->win));
    free(s->raw);
    free(s->exp);
    free(s->got);
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
