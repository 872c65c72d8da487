/* rma_stress [OPS [SEED]] — randomized passive-target traffic between all ranks.
 *
 * In one MPI_Win_lock_all epoch every rank issues OPS random operations (seeded by SEED and
 * its rank) on the windows of all ranks (itself included), with random flushes
 * (MPI_Win_flush, _flush_all, _flush_local, _flush_local_all). Each window has:
 * - put slots, PS per origin: only that origin writes them (MPI_Put, contiguous or through a
 *   strided datatype) and reads them back (MPI_Get, checked after the flush that completes
 *   it against the last values it put). At the end every origin sends its record of what it
 *   last put to the owner (MPI_Alltoall), which checks its memory: every put landed.
 * - counters, changed by every origin with MPI_SUM only (MPI_Accumulate, MPI_Fetch_and_op,
 *   MPI_Get_accumulate on two at once): at the end each holds exactly the sum of all
 *   increments (the origins' totals, MPI_Allreduce'd). Each fetch, less what the origin
 *   itself had added before it, is the others' part: never negative, never decreasing from
 *   one fetch to the next (same-origin accumulates to a location are ordered), never above
 *   the others' total.
 * - compare-and-swap counters, touched by MPI_Compare_and_swap only (one try per operation,
 *   new = guess + 1): a failed swap returns a value above the guess; each counter ends at the
 *   number of successful swaps of all origins.
 * - torn-check elements: MPI_Accumulate(MPI_REPLACE) of 64-bit values whose halves are equal
 *   and name their writer; MPI_Get_accumulate / MPI_Fetch_and_op(MPI_NO_OP) reads must see
 *   equal halves naming a real (origin, operation); so must the final contents.
 * The program stays legal: a put or get of a slot waits (flush) for an earlier put or get of
 * that slot still in flight; only accumulate-family operations meet at one location, with
 * the same op or MPI_NO_OP (the default accumulate_ops); origin buffers are not reused before
 * a flush_all. passive.cmake registers a big run and a small one (LABELS thread, run under
 * ThreadSanitizer). Ranks are threads of one process under loom: no writable globals. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define OK(call) CHECK_INT((call), MPI_SUCCESS)

#define PS 8     /* put slots per origin in each window */
#define NCNT 4   /* sum counters */
#define NCAS 2   /* compare-and-swap counters */
#define NTORN 4  /* torn-check elements */
#define ARENA 4096 /* origin/result buffer elements between two flush_all */

enum { K_PUT, K_PUTV, K_GET, K_ACC, K_FOP, K_GACC, K_CAS, K_TWRITE, K_TREAD, K_FLUSH, NKINDS };
static const char *const kind_name[NKINDS] = {"put", "put(vector)", "get", "accumulate",
                                              "fetch_and_op", "get_accumulate", "cas",
                                              "torn write", "torn read", "flush"};

enum { P_GET, P_FETCH, P_TORN };
struct pend { /* an operation whose result is checked when a flush completes it */
    int kind, t, c, n, step;
    int64_t *res;
    int64_t expect[PS];  /* P_GET: the values of slots c, c+step, ... */
    int64_t before[2];   /* P_FETCH: what this origin had added to counter c+k before */
};

struct st {
    MPI_Win win;
    int64_t *base;
    MPI_Datatype vec2; /* two int64 with one between */
    int rank, size, ops;
    uint64_t seed, rng;
    MPI_Aint a_put, a_cnt, a_cas, a_torn;
    int64_t *shadow;   /* [t][PS]: last value put in my slot at t */
    int64_t *busy;     /* [t][PS]: flush generation of the last put/get to the slot (-1 none) */
    char *busy_put;    /* [t][PS]: that one was a put */
    int64_t *gen;      /* [t]: flushes of t so far */
    int64_t *contrib;  /* [t][NCNT]: my increments */
    int64_t *lastO;    /* [t][NCNT]: the others' part at my last fetch */
    int64_t *guess;    /* [t][NCAS] */
    int64_t *cas_ok;   /* [t][NCAS]: my successful swaps */
    int64_t arena[ARENA];
    int used;
    struct pend pend[ARENA];
    int npend;
    long count[NKINDS], checks;
};

static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t rnd(struct st *s)
{
    s->rng += 0x9e3779b97f4a7c15ull;
    return mix(s->rng);
}

static int pick(struct st *s, int n)
{
    return (int)(rnd(s) % (uint64_t)n);
}

/* A torn-check value: both halves name (origin, operation number). */
static uint64_t torn_val(int origin, int op)
{
    uint32_t x = ((uint32_t)origin << 24) | ((uint32_t)op & 0xffffff);
    return ((uint64_t)x << 32) | x;
}

static void check_torn(const struct st *s, uint64_t v, const char *when)
{
    uint32_t hi = (uint32_t)(v >> 32), lo = (uint32_t)v;
    if (hi != lo || (int)(lo >> 24) >= s->size || (int)(lo & 0xffffff) >= s->ops) {
        fprintf(stderr, "stress: rank %d: torn or unknown element %s: 0x%016llx\n", s->rank,
                when, (unsigned long long)v);
        CHECK(0);
    }
}

static int64_t *take(struct st *s, int n);

/* Results of the operations to t (t < 0: all) are in: check them. */
static void complete(struct st *s, int t)
{
    int keep = 0;
    for (int i = 0; i < s->npend; i++) {
        struct pend *p = &s->pend[i];
        if (t >= 0 && p->t != t) {
            s->pend[keep++] = *p;
            continue;
        }
        for (int k = 0; k < p->n; k++) {
            s->checks++;
            if (p->kind == P_GET) {
                if (p->res[k] != p->expect[k]) {
                    fprintf(stderr, "stress: rank %d: get of my slot %d at %d returned %lld, "
                            "I last put %lld there\n", s->rank, p->c + k * p->step, p->t,
                            (long long)p->res[k], (long long)p->expect[k]);
                    CHECK(0);
                }
            } else if (p->kind == P_FETCH) {
                int64_t *last = &s->lastO[p->t * NCNT + p->c + k];
                int64_t others = p->res[k] - p->before[k];
                if (others < *last) {
                    fprintf(stderr, "stress: rank %d: counter %d at %d: a fetch returned %lld, "
                            "the others' part %lld, below %lld at my previous fetch\n",
                            s->rank, p->c + k, p->t, (long long)p->res[k], (long long)others,
                            (long long)*last);
                    CHECK(0);
                }
                *last = others;
            } else {
                check_torn(s, (uint64_t)p->res[k], "read");
            }
        }
    }
    s->npend = keep;
}

static void flush(struct st *s, int t)
{
    OK(MPI_Win_flush(t, s->win));
    s->gen[t]++;
    complete(s, t);
}

static void flush_all(struct st *s)
{
    OK(MPI_Win_flush_all(s->win));
    for (int t = 0; t < s->size; t++)
        s->gen[t]++;
    complete(s, -1);
    s->used = 0; /* every buffer is free */
}

static int64_t *take(struct st *s, int n)
{
    if (s->used + n > ARENA || s->npend == ARENA)
        flush_all(s);
    int64_t *p = s->arena + s->used;
    s->used += n;
    return p;
}

static struct pend *add_pend(struct st *s, int kind, int t, int c, int n, int64_t *res)
{
    struct pend *p = &s->pend[s->npend++];
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->t = t;
    p->c = c;
    p->n = n;
    p->res = res;
    p->step = 1;
    return p;
}

/* Slots s0, s0+step, ... (n of them) at t: flush t first if one is still in flight (any
 * earlier put, or an earlier get when this is a put). */
static void claim(struct st *s, int t, int s0, int n, int step, int is_put)
{
    for (int k = 0; k < n; k++) {
        int i = t * PS + s0 + k * step;
        if (s->busy[i] == s->gen[t] && (is_put || s->busy_put[i])) {
            flush(s, t);
            break;
        }
    }
    for (int k = 0; k < n; k++) {
        int i = t * PS + s0 + k * step;
        if (is_put || s->busy[i] != s->gen[t])
            s->busy_put[i] = (char)is_put;
        s->busy[i] = s->gen[t];
    }
}

static void op_put(struct st *s, int t, int opn, int vector)
{
    int step = vector ? 2 : 1;
    int n = vector ? 2 : 1 + pick(s, 3);
    int s0 = pick(s, PS - (n - 1) * step);
    int64_t *b = take(s, n);
    claim(s, t, s0, n, step, 1);
    for (int k = 0; k < n; k++) {
        b[k] = (int64_t)(mix(s->seed ^ ((uint64_t)s->rank << 48) ^ ((uint64_t)t << 36) ^
                             ((uint64_t)opn << 8) ^ (uint64_t)k) >> 2) + 1;
        s->shadow[t * PS + s0 + k * step] = b[k];
    }
    if (vector)
        OK(MPI_Put(b, 2, MPI_INT64_T, t, s->a_put + (MPI_Aint)s->rank * PS + s0, 1, s->vec2,
                   s->win));
    else
        OK(MPI_Put(b, n, MPI_INT64_T, t, s->a_put + (MPI_Aint)s->rank * PS + s0, n,
                   MPI_INT64_T, s->win));
}

static void op_get(struct st *s, int t)
{
    int vector = pick(s, 4) == 0, step = vector ? 2 : 1;
    int n = vector ? 2 : 1 + pick(s, 3);
    int s0 = pick(s, PS - (n - 1) * step);
    int64_t *b = take(s, n);
    claim(s, t, s0, n, step, 0);
    struct pend *p = add_pend(s, P_GET, t, s0, n, b);
    p->step = step;
    for (int k = 0; k < n; k++) {
        b[k] = -7;
        p->expect[k] = s->shadow[t * PS + s0 + k * step];
    }
    if (vector) {
        OK(MPI_Get(b, 2, MPI_INT64_T, t, s->a_put + (MPI_Aint)s->rank * PS + s0, 1, s->vec2,
                   s->win));
    } else {
        OK(MPI_Get(b, n, MPI_INT64_T, t, s->a_put + (MPI_Aint)s->rank * PS + s0, n,
                   MPI_INT64_T, s->win));
    }
}

static void op_sum(struct st *s, int t, int kind)
{
    int n = kind == K_GACC ? 2 : 1, c = pick(s, NCNT - (n - 1));
    int64_t *b = take(s, 2 * n); /* increments, then results */
    struct pend *p = kind == K_ACC ? NULL : add_pend(s, P_FETCH, t, c, n, b + n);
    for (int k = 0; k < n; k++) {
        b[k] = 1 + pick(s, 100);
        b[n + k] = -1;
        if (p)
            p->before[k] = s->contrib[t * NCNT + c + k];
        s->contrib[t * NCNT + c + k] += b[k];
    }
    MPI_Aint d = s->a_cnt + c;
    if (kind == K_ACC)
        OK(MPI_Accumulate(b, 1, MPI_INT64_T, t, d, 1, MPI_INT64_T, MPI_SUM, s->win));
    else if (kind == K_FOP)
        OK(MPI_Fetch_and_op(b, b + 1, MPI_INT64_T, t, d, MPI_SUM, s->win));
    else
        OK(MPI_Get_accumulate(b, 2, MPI_INT64_T, b + 2, 2, MPI_INT64_T, t, d, 2, MPI_INT64_T,
                              MPI_SUM, s->win));
}

static void op_cas(struct st *s, int t)
{
    int c = pick(s, NCAS);
    int64_t *g = &s->guess[t * NCAS + c], want = *g + 1, old = -1;
    OK(MPI_Compare_and_swap(&want, g, &old, MPI_INT64_T, t, s->a_cas + c, s->win));
    flush(s, t);
    s->checks++;
    if (old == *g) {
        s->cas_ok[t * NCAS + c]++;
        *g = want;
    } else {
        if (old <= *g) {
            fprintf(stderr, "stress: rank %d: failed swap of counter %d at %d returned %lld, "
                    "not above my guess %lld (it only grows)\n", s->rank, c, t,
                    (long long)old, (long long)*g);
            CHECK(0);
        }
        *g = old;
    }
}

static void op_torn(struct st *s, int t, int opn, int write)
{
    int n = 1 + pick(s, NTORN), e = pick(s, NTORN - n + 1);
    int64_t *b = take(s, n);
    if (write) {
        for (int k = 0; k < n; k++)
            b[k] = (int64_t)torn_val(s->rank, opn);
        OK(MPI_Accumulate(b, n, MPI_UINT64_T, t, s->a_torn + e, n, MPI_UINT64_T, MPI_REPLACE,
                          s->win));
        return;
    }
    add_pend(s, P_TORN, t, e, n, b);
    if (n == 1)
        OK(MPI_Fetch_and_op(NULL, b, MPI_UINT64_T, t, s->a_torn + e, MPI_NO_OP, s->win));
    else
        OK(MPI_Get_accumulate(NULL, 0, MPI_UINT64_T, b, n, MPI_UINT64_T, t, s->a_torn + e, n,
                              MPI_UINT64_T, MPI_NO_OP, s->win));
}

static void op_flush(struct st *s, int t)
{
    switch (pick(s, 6)) {
    case 0:
    case 1:
        flush(s, t);
        break;
    case 2:
        flush_all(s);
        break;
    case 3: /* local completion: results are in, buffers not yet reused (arena) */
        OK(MPI_Win_flush_local(t, s->win));
        complete(s, t);
        break;
    case 4:
        OK(MPI_Win_flush_local_all(s->win));
        complete(s, -1);
        break;
    default:
        break; /* no flush this time */
    }
}

static void traffic(struct st *s)
{
    static const int weight[NKINDS] = {16, 4, 12, 12, 10, 6, 6, 8, 8, 6};
    int total = 0;
    for (int k = 0; k < NKINDS; k++)
        total += weight[k];
    OK(MPI_Win_lock_all(0, s->win));
    for (int opn = 0; opn < s->ops; opn++) {
        int t = pick(s, s->size), r = pick(s, total), kind = 0;
        while (r >= weight[kind])
            r -= weight[kind++];
        s->count[kind]++;
        switch (kind) {
        case K_PUT:
        case K_PUTV:
            op_put(s, t, opn, kind == K_PUTV);
            break;
        case K_GET:
            op_get(s, t);
            break;
        case K_ACC:
        case K_FOP:
        case K_GACC:
            op_sum(s, t, kind);
            break;
        case K_CAS:
            op_cas(s, t);
            break;
        case K_TWRITE:
        case K_TREAD:
            op_torn(s, t, opn, kind == K_TWRITE);
            break;
        default:
            op_flush(s, t);
        }
    }
    flush_all(s);
    /* the final gets of every slot I own, everywhere */
    for (int t = 0; t < s->size; t++) {
        int64_t *b = take(s, PS);
        struct pend *p = add_pend(s, P_GET, t, 0, PS, b);
        for (int k = 0; k < PS; k++)
            p->expect[k] = s->shadow[t * PS + k];
        OK(MPI_Get(b, PS, MPI_INT64_T, t, s->a_put + (MPI_Aint)s->rank * PS, PS, MPI_INT64_T,
                   s->win));
    }
    flush_all(s);
    OK(MPI_Win_unlock_all(s->win));
}

/* After the epoch: every owner checks its window against what the origins did. */
static void verify(struct st *s)
{
    int n = s->size;
    int64_t *theirs = malloc(sizeof(int64_t) * (size_t)n * PS);
    int64_t *cnt_total = malloc(sizeof(int64_t) * (size_t)n * NCNT);
    int64_t *cas_total = malloc(sizeof(int64_t) * (size_t)n * NCAS);
    CHECK(theirs && cnt_total && cas_total);
    OK(MPI_Alltoall(s->shadow, PS, MPI_INT64_T, theirs, PS, MPI_INT64_T, MPI_COMM_WORLD));
    OK(MPI_Allreduce(s->contrib, cnt_total, n * NCNT, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD));
    OK(MPI_Allreduce(s->cas_ok, cas_total, n * NCAS, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, s->rank, 0, s->win));
    for (int o = 0; o < n; o++)
        for (int k = 0; k < PS; k++) {
            int64_t got = s->base[s->a_put + (MPI_Aint)o * PS + k], want = theirs[o * PS + k];
            if (got != want) {
                fprintf(stderr, "stress: rank %d: slot %d of origin %d holds %lld, the origin "
                        "last put %lld\n", s->rank, k, o, (long long)got, (long long)want);
                CHECK(0);
            }
        }
    for (int c = 0; c < NCNT; c++)
        CHECK_INT(s->base[s->a_cnt + c], cnt_total[s->rank * NCNT + c]);
    for (int c = 0; c < NCAS; c++)
        CHECK_INT(s->base[s->a_cas + c], cas_total[s->rank * NCAS + c]);
    for (int e = 0; e < NTORN; e++)
        check_torn(s, (uint64_t)s->base[s->a_torn + e], "at the end");
    OK(MPI_Win_unlock(s->rank, s->win));
    /* what my fetches saw of the others never exceeds the others' total */
    for (int i = 0; i < n * NCNT; i++)
        if (s->lastO[i] > cnt_total[i] - s->contrib[i]) {
            fprintf(stderr, "stress: rank %d: a fetch of counter %d at %d saw %lld of the "
                    "others' increments, they sent %lld\n", s->rank, i % NCNT, i / NCNT,
                    (long long)s->lastO[i], (long long)(cnt_total[i] - s->contrib[i]));
            CHECK(0);
        }
    free(theirs);
    free(cnt_total);
    free(cas_total);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    struct st *s = calloc(1, sizeof *s);
    CHECK(s != NULL);
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &s->rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &s->size));
    s->ops = argc > 1 ? atoi(argv[1]) : 1000;
    s->seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
    CHECK(s->ops > 0 && s->ops <= 0xffffff);
    s->rng = mix(s->seed * 0x2545f4914f6cdd1dull + (uint64_t)s->rank + 1);
    int n = s->size;
    s->a_put = 0;
    s->a_cnt = (MPI_Aint)n * PS;
    s->a_cas = s->a_cnt + NCNT;
    s->a_torn = s->a_cas + NCAS;
    MPI_Aint elems = s->a_torn + NTORN; /* even: a multiple of 16 bytes (see lock_all.c) */
    s->shadow = calloc((size_t)n * PS, sizeof(int64_t));
    s->busy = malloc(sizeof(int64_t) * (size_t)n * PS);
    s->busy_put = calloc((size_t)n * PS, 1);
    s->gen = calloc((size_t)n, sizeof(int64_t));
    s->contrib = calloc((size_t)n * NCNT, sizeof(int64_t));
    s->lastO = calloc((size_t)n * NCNT, sizeof(int64_t));
    s->guess = calloc((size_t)n * NCAS, sizeof(int64_t));
    s->cas_ok = calloc((size_t)n * NCAS, sizeof(int64_t));
    CHECK(s->shadow && s->busy && s->busy_put && s->gen && s->contrib && s->lastO && s->guess &&
          s->cas_ok);
    for (int i = 0; i < n * PS; i++)
        s->busy[i] = -1;
    OK(MPI_Type_vector(2, 1, 2, MPI_INT64_T, &s->vec2));
    OK(MPI_Type_commit(&s->vec2));
    OK(MPI_Win_allocate(elems * (MPI_Aint)sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL,
                        MPI_COMM_WORLD, &s->base, &s->win));
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, s->rank, 0, s->win));
    memset(s->base, 0, (size_t)elems * sizeof(int64_t));
    OK(MPI_Win_unlock(s->rank, s->win));
    OK(MPI_Barrier(MPI_COMM_WORLD));

    traffic(s);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    verify(s);

    long checks = 0;
    OK(MPI_Reduce(&s->checks, &checks, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
    if (s->rank == 0) {
        printf("rma_stress: %d ranks, %d operations each, seed %llu: ok (%ld results checked; "
               "rank 0:", n, s->ops, (unsigned long long)s->seed, checks);
        for (int k = 0; k < NKINDS; k++)
            printf(" %s %ld", kind_name[k], s->count[k]);
        printf(")\n");
    }
    OK(MPI_Win_free(&s->win));
    OK(MPI_Type_free(&s->vec2));
    free(s->shadow);
    free(s->busy);
    free(s->busy_put);
    free(s->gen);
    free(s->contrib);
    free(s->lastO);
    free(s->guess);
    free(s->cas_ok);
    free(s);
    OK(MPI_Finalize());
    return 0;
}
