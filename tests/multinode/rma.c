/* One-sided communication between ranks of different node processes and of the same one (MPI
 * 4.1 chapter 12): whatever the shape of the job, each pattern pairs ranks across node
 * processes and within one (ring neighbours, every rank with every rank, everyone onto rank 0
 * and onto the last rank), so the same program checks loom's window traffic over the network
 * and in memory. Every value is computed from the rank numbers, independently of the transfer
 * that moved it, and untouched memory is checked to keep its poison.
 *
 *   - windows: MPI_Win_create (disp_unit sizeof(int), sizeof(double), and one whose unit is
 *     1 on even ranks and sizeof(int) on odd ones) and MPI_Win_allocate (sizeof(double), 1);
 *   - fence: puts and gets of ints and doubles, ring and all-to-all; MPI_Accumulate (SUM,
 *     MAX, REPLACE), MPI_Get_accumulate (SUM: the fetched values are the partial sums of one
 *     serial order; NO_OP reads), MPI_Fetch_and_op, MPI_Compare_and_swap (one winner);
 *   - derived types: a strided vector target, an indexed origin, a struct with a gap, MAXLOC
 *     on MPI_DOUBLE_INT into a vector of MPI_DOUBLE_INT;
 *   - large: puts and gets of 1 MiB and 4 MiB (beyond any eager size), 256 KiB of doubles
 *     through a strided vector on either side, an accumulate of 1 MiB of doubles;
 *   - request-based operations in MPI_Win_lock_all, their results checked right after the
 *     wait; exclusive and shared locks; the flushes; MPI_Win_sync;
 *   - contention: fetch-and-add tickets on rank 0 and on the last rank (distinct, complete),
 *     a compare-and-swap spin lock and exclusive-lock read-modify-writes (exact counters);
 *   - post-start-complete-wait with the neighbours, ended by MPI_Win_wait or MPI_Win_test;
 *   - under MPI_ERRORS_RETURN, a put past the end of another rank's window (MPI_ERR_RMA_RANGE)
 *     and a put outside any epoch (MPI_ERR_RMA_SYNC), the window working afterwards;
 *     MPI_Win_allocate_shared over ranks of several node processes (MPI_ERR_RMA_SHARED) and
 *     MPI_Win_shared_query of a rank whose memory is not shared (size 0, NULL).
 * A failed check (tests/support/abort_check.h) prints the rank, what and the values, then
 * MPI_Abort ends the whole job, so no rank is left waiting for one that stopped. Plain MPI,
 * checked against MPICH too (`mpicc -Itests/support`). Ranks are threads under loom: no
 * writable globals. At least 2 ranks. */
#include <mpi.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "abort_check.h"

/* A call that must succeed (abort_check.h), by a short name: most lines here are one. */
#define OK(call) CHECK_OK(call)

enum {
    SLOT = 8,              /* elements per origin in the slot areas */
    DV = 10,               /* ints through the stride-2 vector */
    NIDX = 6,              /* ints picked by the indexed type */
    RS = 4,                /* ints per origin of the request-based puts */
    FS = 4,                /* ints per origin of the flush checks */
    K = 200,               /* fetch-and-adds per rank and target */
    MSPIN = 10,            /* critical sections per rank under the compare-and-swap lock */
    MRMW = 20,             /* read-modify-writes per rank under exclusive locks */
    PROUNDS = 4,           /* post-start-complete-wait rounds */
    NSG = 7,               /* structs with a gap */
    NM = 9,                /* MPI_DOUBLE_INT elements of the MAXLOC accumulate */
    NVD = 32768,           /* doubles through the strided vector: 256 KiB over 512 KiB */
    NACC = 131072,         /* doubles accumulated: 1 MiB */
    POISON = -7,           /* int windows before anything is written */
    BPOISON = 0xee,        /* byte window */
    MIB = 1 << 20,
    BIG = 4 * MIB,         /* the largest put and get */
    LARGE_AREA = BIG + 64, /* bytes of wb's large area */
};
#define DPOISON (-1.5)

/* Where each check lives in wi (ints, MPI_Win_create, disp_unit sizeof(int)); the sizes of
 * the per-origin areas depend on the number of ranks. */
struct layout {
    int slots, acc_sum, acc_max, acc_rep, gacc, fop, cas, vec, idx, rput, racc, rtick, lockx,
        flush, sync, sync2, cnt, spin, xrmw, pscw, err, tail, end;
};

struct ctx {
    int me, n, left, right, last;
    struct layout L;
    MPI_Win wi, wd, wb, wa, wu;
    int *mi;           /* wi's memory, malloc'ed here */
    double *md;        /* wd's: MPI_Win_allocate, disp_unit sizeof(double) */
    unsigned char *mb; /* wb's: MPI_Win_allocate, disp_unit 1 */
    double *ma;        /* wa's: malloc'ed, MPI_Win_create, disp_unit sizeof(double) */
    int *mu;           /* wu's: malloc'ed, disp_unit 1 on even ranks, sizeof(int) on odd */
};

static int ival(int o, int t, int k)
{
    return (int)(((unsigned)o * 1000003u + (unsigned)t * 7919u + (unsigned)k * 31u + 17u) &
                 0x7fffffffu);
}

/* exact in a double for the ranks and indices used here */
static double dval(int o, int t, int k)
{
    return o * 1024.0 + t * 8.0 + k * 0.125 + 0.5;
}

/* bytes that differ per rank, per phase and per 2 KiB block, so a chunk moved to the wrong
 * place or a chunk of another transfer shows */
static unsigned char bval(int r, int phase, size_t i)
{
    return (unsigned char)((unsigned)r * 37u + (unsigned)phase * 101u + (unsigned)i * 7u +
                           (unsigned)(i >> 11));
}

static void layout_init(struct layout *L, int n)
{
    int at = 0;
#define AREA(f, len) (L->f = at, at += (len))
    AREA(slots, n * SLOT);
    AREA(acc_sum, 4);
    AREA(acc_max, 4);
    AREA(acc_rep, 2);
    AREA(gacc, 1);
    AREA(fop, 1);
    AREA(cas, 1);
    AREA(vec, 2 * DV);
    AREA(idx, NIDX);
    AREA(rput, n * RS);
    AREA(racc, 1);
    AREA(rtick, 1);
    AREA(lockx, n);
    AREA(flush, n * FS);
    AREA(sync, 1);
    AREA(sync2, 1);
    AREA(cnt, 1);
    AREA(spin, 2);
    AREA(xrmw, 1);
    AREA(pscw, 2);
    AREA(err, 1);
    AREA(tail, 1); /* the last int: the refused put across the end must leave it */
#undef AREA
    L->end = at;
}

/* wb past its large area: the structs with a gap, then the MAXLOC vector */
struct sg {
    int a;
    double b; /* 4 bytes of padding before it on the usual ABIs: the gap */
};
struct di {
    double v;
    int loc;
};
#define SG_AT ((MPI_Aint)LARGE_AREA)
#define DI_AT (SG_AT + (MPI_Aint)(NSG * sizeof(struct sg)))
#define WB_BYTES (DI_AT + (MPI_Aint)(2 * NM * sizeof(struct di)))
/* wa: the strided area (2 * NVD doubles), then the accumulated MiB */
#define WA_ACC (2 * NVD)
#define WA_DOUBLES (2 * NVD + NACC)
/* wd: one slot per origin, then 4 accumulated doubles */
#define WD_DOUBLES(n) ((n) * SLOT + 4)

static void own_lock(struct ctx *c, MPI_Win w)
{
    OK(MPI_Win_lock(MPI_LOCK_SHARED, c->me, 0, w));
}

static void own_unlock(struct ctx *c, MPI_Win w)
{
    OK(MPI_Win_unlock(c->me, w));
}

/* ---- fence: ring and all-to-all puts and gets of ints and doubles ---- */
static void fence_put_get(struct ctx *c)
{
    const struct layout *L = &c->L;
    int n = c->n, me = c->me;
    int *ib = malloc((size_t)n * SLOT * sizeof *ib);
    double *db = malloc((size_t)n * SLOT * sizeof *db);
    CHECK_MSG(ib && db, "out of memory");

    /* every rank puts its slot into every rank, itself included */
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, c->wi));
    /* one origin buffer per target: each stays untouched until the fence completes it */
    for (int t = 0; t < n; t++) {
        for (int k = 0; k < SLOT; k++)
            ib[t * SLOT + k] = ival(me, t, k);
        OK(MPI_Put(ib + t * SLOT, SLOT, MPI_INT, t, L->slots + me * SLOT, SLOT, MPI_INT, c->wi));
    }
    OK(MPI_Win_fence(0, c->wi));
    for (int o = 0; o < n; o++)
        for (int k = 0; k < SLOT; k++)
            CHECK_MSG(c->mi[L->slots + o * SLOT + k] == ival(o, me, k),
                  "all-to-all put: slot of %d, element %d is %d, expected %d", o, k,
                  c->mi[L->slots + o * SLOT + k], ival(o, me, k));
    /* the ring: the left neighbour's whole slot area, which every origin filled */
    OK(MPI_Get(ib, n * SLOT, MPI_INT, c->left, L->slots, n * SLOT, MPI_INT, c->wi));
    OK(MPI_Win_fence(0, c->wi));
    for (int o = 0; o < n; o++)
        for (int k = 0; k < SLOT; k++)
            CHECK_MSG(ib[o * SLOT + k] == ival(o, c->left, k),
                  "ring get from %d: slot of %d, element %d is %d, expected %d", c->left, o, k,
                  ib[o * SLOT + k], ival(o, c->left, k));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, c->wi));

    /* doubles: the owner stores its window between fences, every rank gets its own slot
     * from every rank, then puts into its right neighbour's slot of it */
    for (int i = 0; i < n * SLOT; i++)
        c->md[i] = dval(me, me, i);
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, c->wd));
    for (int t = 0; t < n; t++)
        OK(MPI_Get(db + t * SLOT, SLOT, MPI_DOUBLE, t, me * SLOT, SLOT, MPI_DOUBLE, c->wd));
    OK(MPI_Win_fence(0, c->wd));
    for (int t = 0; t < n; t++)
        for (int k = 0; k < SLOT; k++)
            CHECK_MSG(db[t * SLOT + k] == dval(t, t, me * SLOT + k),
                  "all-to-all get of doubles from %d: element %d is %g, expected %g", t, k,
                  db[t * SLOT + k], dval(t, t, me * SLOT + k));
    double pv[SLOT];
    for (int k = 0; k < SLOT; k++)
        pv[k] = dval(me, c->right, k);
    OK(MPI_Put(pv, SLOT, MPI_DOUBLE, c->right, me * SLOT, SLOT, MPI_DOUBLE, c->wd));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, c->wd));
    for (int i = 0; i < n * SLOT; i++) {
        int o = i / SLOT, k = i % SLOT;
        double want = o == c->left ? dval(c->left, me, k) : dval(me, me, i);
        CHECK_MSG(c->md[i] == want, "ring put of doubles: element %d is %g, expected %g", i,
              c->md[i], want);
    }
    free(ib);
    free(db);
}

/* ---- fence: the accumulate family from every rank onto one target ---- */
static void fence_accumulate(struct ctx *c)
{
    const struct layout *L = &c->L;
    int n = c->n, me = c->me, root = c->last;
    int sum[4], mx[4], rep = 1000 + me, one = 1, mine = me, cmp = -1, gres = -1, fres = -1;
    int cres = -2, contrib = me + 1;
    double dsum[4];
    for (int k = 0; k < 4; k++) {
        sum[k] = (me + 1) * (k + 1);
        mx[k] = ival(me, root, k) % 1000 - 500; /* from -500 to 499, spread over ranks */
        dsum[k] = (me + 1) * (k + 0.25);
    }

    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, c->wi));
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, c->wd));
    OK(MPI_Accumulate(sum, 4, MPI_INT, root, L->acc_sum, 4, MPI_INT, MPI_SUM, c->wi));
    OK(MPI_Accumulate(mx, 4, MPI_INT, root, L->acc_max, 4, MPI_INT, MPI_MAX, c->wi));
    OK(MPI_Accumulate(&rep, 1, MPI_INT, root, L->acc_rep, 1, MPI_INT, MPI_REPLACE, c->wi));
    if (me == 0)
        OK(MPI_Accumulate(&rep, 1, MPI_INT, root, L->acc_rep + 1, 1, MPI_INT, MPI_REPLACE,
                          c->wi));
    OK(MPI_Get_accumulate(&contrib, 1, MPI_INT, &gres, 1, MPI_INT, root, L->gacc, 1, MPI_INT,
                          MPI_SUM, c->wi));
    OK(MPI_Fetch_and_op(&one, &fres, MPI_INT, root, L->fop, MPI_SUM, c->wi));
    OK(MPI_Compare_and_swap(&mine, &cmp, &cres, MPI_INT, root, L->cas, c->wi));
    OK(MPI_Accumulate(dsum, 4, MPI_DOUBLE, root, n * SLOT, 4, MPI_DOUBLE, MPI_SUM, c->wd));
    OK(MPI_Win_fence(0, c->wi));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, c->wd));

    /* read back: NO_OP through both fetching calls, plain gets of the rest */
    int got[11], gnop = -1, fnop = -1, dummy = 0;
    double dgot[4];
    OK(MPI_Get(got, 10, MPI_INT, root, L->acc_sum, 10, MPI_INT, c->wi));
    OK(MPI_Get(&got[10], 1, MPI_INT, root, L->cas, 1, MPI_INT, c->wi));
    OK(MPI_Get_accumulate(&dummy, 1, MPI_INT, &gnop, 1, MPI_INT, root, L->gacc, 1, MPI_INT,
                          MPI_NO_OP, c->wi));
    OK(MPI_Fetch_and_op(&dummy, &fnop, MPI_INT, root, L->fop, MPI_NO_OP, c->wi));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, c->wi));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, root, 0, c->wd));
    OK(MPI_Get(dgot, 4, MPI_DOUBLE, root, n * SLOT, 4, MPI_DOUBLE, c->wd));
    OK(MPI_Win_unlock(root, c->wd));

    int tri = n * (n + 1) / 2;
    for (int k = 0; k < 4; k++) {
        CHECK_MSG(got[k] == tri * (k + 1), "MPI_SUM onto %d, element %d: %d, expected %d", root, k,
              got[k], tri * (k + 1));
        int want = -1000;
        for (int o = 0; o < n; o++)
            if (ival(o, root, k) % 1000 - 500 > want)
                want = ival(o, root, k) % 1000 - 500;
        CHECK_MSG(got[4 + k] == want, "MPI_MAX onto %d, element %d: %d, expected %d", root, k,
              got[4 + k], want);
        double dwant = tri * (k + 0.25);
        CHECK_MSG(dgot[k] == dwant, "MPI_SUM of doubles onto %d, element %d: %g, expected %g", root,
              k, dgot[k], dwant);
    }
    CHECK_MSG(got[8] >= 1000 && got[8] < 1000 + n, "MPI_REPLACE from every rank left %d", got[8]);
    CHECK_MSG(got[9] == 1000, "MPI_REPLACE from rank 0 alone left %d, expected 1000", got[9]);
    /* got[10] is the compare-and-swap cell: checked with the gathered results below */
    CHECK_MSG(gnop == tri, "MPI_Get_accumulate(MPI_NO_OP) read %d, expected %d", gnop, tri);
    CHECK_MSG(fnop == n, "MPI_Fetch_and_op(MPI_NO_OP) read %d, expected %d", fnop, n);

    /* atomicity, on rank 0: the sums fetched, ordered, are the partial sums of one serial
     * order of the ranks' contributions (me + 1, all different); the tickets are 0 .. n-1;
     * exactly one compare-and-swap found -1, and every other found the winner's rank */
    int mineres[3] = {gres, fres, cres}, *all = NULL;
    if (me == 0) {
        all = malloc((size_t)n * 3 * sizeof *all);
        CHECK_MSG(all != NULL, "out of memory");
    }
    OK(MPI_Gather(mineres, 3, MPI_INT, all, 3, MPI_INT, 0, MPI_COMM_WORLD));
    if (me == 0) {
        char *seen = calloc((size_t)n, 1), *used = calloc((size_t)n, 1);
        CHECK_MSG(seen && used, "out of memory");
        int at = 0;
        for (int step = 0; step < n; step++) {
            int who = -1;
            for (int o = 0; o < n; o++)
                if (!used[o] && all[3 * o] == at)
                    who = o;
            CHECK_MSG(who >= 0, "MPI_Get_accumulate(MPI_SUM): no rank fetched the partial sum %d "
                  "(step %d of a serial order)", at, step);
            used[who] = 1;
            at += who + 1;
        }
        for (int o = 0; o < n; o++) {
            int t = all[3 * o + 1];
            CHECK_MSG(t >= 0 && t < n && !seen[t], "MPI_Fetch_and_op: rank %d got ticket %d (range "
                  "0..%d, each once)", o, t, n - 1);
            seen[t] = 1;
        }
        int winner = got[10], winners = 0;
        CHECK_MSG(winner >= 0 && winner < n, "MPI_Compare_and_swap left %d", winner);
        for (int o = 0; o < n; o++) {
            int r = all[3 * o + 2];
            winners += r == -1;
            CHECK_MSG(o == winner ? r == -1 : r == winner,
                  "MPI_Compare_and_swap: rank %d found %d (the cell ended as %d)", o, r, winner);
        }
        CHECK_MSG(winners == 1, "MPI_Compare_and_swap: %d ranks found the initial value", winners);
        free(seen);
        free(used);
        free(all);
    }
}

/* ---- fence: derived datatypes on the origin and the target side ---- */
static void fence_derived(struct ctx *c)
{
    const struct layout *L = &c->L;
    int me = c->me, root = c->last;
    MPI_Datatype vec, idx, sgt, sg1, divec;
    OK(MPI_Type_vector(DV, 1, 2, MPI_INT, &vec));
    int blens[3] = {2, 3, 1}, displs[3] = {1, 6, 12}; /* 6 of 16 ints */
    OK(MPI_Type_indexed(3, blens, displs, MPI_INT, &idx));
    int sl[2] = {1, 1};
    MPI_Aint sd[2] = {offsetof(struct sg, a), offsetof(struct sg, b)};
    MPI_Datatype st[2] = {MPI_INT, MPI_DOUBLE};
    OK(MPI_Type_create_struct(2, sl, sd, st, &sg1));
    OK(MPI_Type_create_resized(sg1, 0, sizeof(struct sg), &sgt));
    OK(MPI_Type_vector(NM, 1, 2, MPI_DOUBLE_INT, &divec));
    MPI_Datatype all[4] = {vec, idx, sgt, divec};
    for (int i = 0; i < 4; i++)
        OK(MPI_Type_commit(&all[i]));
    vec = all[0], idx = all[1], sgt = all[2], divec = all[3];

    int vsrc[DV], isrc[16], iget[16], vget[DV];
    for (int k = 0; k < DV; k++)
        vsrc[k] = ival(me, c->right, 100 + k);
    for (int k = 0; k < 16; k++) {
        isrc[k] = ival(me, c->right, 200 + k);
        iget[k] = POISON;
    }
    struct sg sput[NSG], sget[NSG];
    memset(sput, 0x5a, sizeof sput); /* the gaps: never to reach the target */
    memset(sget, 0x11, sizeof sget);
    for (int k = 0; k < NSG; k++) {
        sput[k].a = ival(me, c->right, 300 + k);
        sput[k].b = dval(me, c->right, 300 + k);
    }
    struct di dsrc[NM];
    for (int k = 0; k < NM; k++) {
        dsrc[k].v = (double)((me * 7 + k * 3) % 5); /* ties between ranks: lowest loc wins */
        dsrc[k].loc = me;
    }

    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, c->wi));
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, c->wb));
    OK(MPI_Put(vsrc, DV, MPI_INT, c->right, L->vec, 1, vec, c->wi));
    OK(MPI_Put(isrc, 1, idx, c->right, L->idx, NIDX, MPI_INT, c->wi));
    OK(MPI_Put(sput, NSG, sgt, c->right, SG_AT, NSG, sgt, c->wb));
    OK(MPI_Accumulate(dsrc, NM, MPI_DOUBLE_INT, root, DI_AT, 1, divec, MPI_MAXLOC, c->wb));
    OK(MPI_Win_fence(0, c->wi));
    OK(MPI_Win_fence(0, c->wb));

    /* the target side, in its own memory */
    for (int j = 0; j < 2 * DV; j++) {
        int want = j % 2 ? POISON : ival(c->left, me, 100 + j / 2);
        CHECK_MSG(c->mi[L->vec + j] == want, "put into a stride-2 vector from %d: int %d is %d, "
              "expected %d", c->left, j, c->mi[L->vec + j], want);
    }
    for (int b = 0, j = 0; b < 3; b++)
        for (int e = 0; e < blens[b]; e++, j++) {
            int want = ival(c->left, me, 200 + displs[b] + e);
            CHECK_MSG(c->mi[L->idx + j] == want, "put from an indexed origin of %d: int %d is %d, "
                  "expected %d", c->left, j, c->mi[L->idx + j], want);
        }
    for (int k = 0; k < NSG; k++) {
        struct sg s;
        memcpy(&s, c->mb + SG_AT + k * (MPI_Aint)sizeof s, sizeof s);
        CHECK_MSG(s.a == ival(c->left, me, 300 + k) && s.b == dval(c->left, me, 300 + k),
              "struct %d put by %d: {%d, %g}, expected {%d, %g}", k, c->left, s.a, s.b,
              ival(c->left, me, 300 + k), dval(c->left, me, 300 + k));
        const unsigned char *p = c->mb + SG_AT + k * (MPI_Aint)sizeof s;
        for (size_t g = offsetof(struct sg, a) + sizeof(int); g < offsetof(struct sg, b); g++)
            CHECK_MSG(p[g] == BPOISON, "struct %d put by %d: gap byte %zu is %#x, expected %#x", k,
                  c->left, g, p[g], BPOISON);
    }
    if (me == root)
        for (int j = 0; j < 2 * NM; j++) {
            struct di d;
            memcpy(&d, c->mb + DI_AT + j * (MPI_Aint)sizeof d, sizeof d);
            double wv = DPOISON;
            int wl = POISON;
            if (j % 2 == 0) {
                int k = j / 2;
                wv = -1;
                for (int o = 0; o < c->n; o++) {
                    double v = (double)((o * 7 + k * 3) % 5);
                    if (v > wv)
                        wv = v, wl = o;
                }
            }
            CHECK_MSG(d.v == wv && d.loc == wl, "MPI_MAXLOC into a vector of MPI_DOUBLE_INT, "
                  "element %d: {%g, %d}, expected {%g, %d}", j, d.v, d.loc, wv, wl);
        }

    /* gets back: the vector target into a contiguous origin, contiguous into the indexed
     * origin, the structs (what this rank put into its right neighbour) */
    OK(MPI_Get(vget, DV, MPI_INT, c->right, L->vec, 1, vec, c->wi));
    OK(MPI_Get(iget, 1, idx, c->right, L->idx, NIDX, MPI_INT, c->wi));
    OK(MPI_Get(sget, NSG, sgt, c->right, SG_AT, NSG, sgt, c->wb));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, c->wi));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, c->wb));
    for (int k = 0; k < DV; k++)
        CHECK_MSG(vget[k] == vsrc[k], "get through a stride-2 vector from %d: int %d is %d, "
              "expected %d", c->right, k, vget[k], vsrc[k]);
    for (int k = 0; k < 16; k++) {
        int in = (k >= 1 && k < 3) || (k >= 6 && k < 9) || k == 12; /* blens and displs */
        CHECK_MSG(iget[k] == (in ? isrc[k] : POISON), "get into an indexed origin from %d: int %d "
              "is %d, expected %d", c->right, k, iget[k], in ? isrc[k] : POISON);
    }
    for (int k = 0; k < NSG; k++) {
        CHECK_MSG(sget[k].a == sput[k].a && sget[k].b == sput[k].b, "get of struct %d from %d: "
              "{%d, %g}, expected {%d, %g}", k, c->right, sget[k].a, sget[k].b, sput[k].a,
              sput[k].b);
        const unsigned char *p = (const unsigned char *)&sget[k];
        for (size_t g = offsetof(struct sg, a) + sizeof(int); g < offsetof(struct sg, b); g++)
            CHECK_MSG(p[g] == 0x11, "get of struct %d from %d wrote its gap (byte %zu: %#x)", k,
                  c->right, g, p[g]);
    }
    for (int i = 0; i < 4; i++)
        OK(MPI_Type_free(&all[i]));
    OK(MPI_Type_free(&sg1));
}

/* (at) = the first i in [0, len) for which expr_ok is false, or -1 */
#define FIRST_BAD(len, expr_ok, at)                                                            \
    do {                                                                                       \
        (at) = -1;                                                                             \
        for (long i = 0; i < (long)(len); i++)                                                 \
            if (!(expr_ok)) {                                                                  \
                (at) = i;                                                                      \
                break;                                                                         \
            }                                                                                  \
    } while (0)

/* ---- fence: large transfers, contiguous and strided, and a large accumulate ---- */
static void fence_large(struct ctx *c)
{
    int me = c->me, n = c->n, root = c->last, ll = (c->left - 1 + n) % n;
    unsigned char *g4 = malloc(BIG), *g1 = malloc(MIB), *p4 = malloc(BIG), *p1 = malloc(MIB);
    double *dv = malloc(NVD * sizeof *dv), *dg = malloc(NVD * sizeof *dg);
    double *dsv = malloc(2 * NVD * sizeof *dsv), *acc = malloc(NACC * sizeof *acc);
    CHECK_MSG(g4 && g1 && p4 && p1 && dv && dg && dsv && acc, "out of memory");
    long bad;
    const unsigned char *m = c->mb;

    /* gets of 4 MiB from the left neighbour and 1 MiB from the right, at odd displacements,
     * out of windows their owners filled */
    for (long i = 0; i < LARGE_AREA; i++)
        c->mb[i] = bval(me, 0, (size_t)i);
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, c->wb));
    OK(MPI_Get(g4, BIG, MPI_BYTE, c->left, 3, BIG, MPI_BYTE, c->wb));
    OK(MPI_Get(g1, MIB, MPI_BYTE, c->right, 17, MIB, MPI_BYTE, c->wb));
    OK(MPI_Win_fence(0, c->wb));
    FIRST_BAD(BIG, g4[i] == bval(c->left, 0, (size_t)i + 3), bad);
    CHECK_MSG(bad < 0, "get of 4 MiB from %d: byte %ld is %#x, expected %#x", c->left, bad,
          g4[bad], bval(c->left, 0, (size_t)bad + 3));
    FIRST_BAD(MIB, g1[i] == bval(c->right, 0, (size_t)i + 17), bad);
    CHECK_MSG(bad < 0, "get of 1 MiB from %d: byte %ld is %#x, expected %#x", c->right, bad,
          g1[bad], bval(c->right, 0, (size_t)bad + 17));

    /* a put of 4 MiB into the right neighbour at 1, then one of 1 MiB into the left at 7 */
    for (long i = 0; i < BIG; i++)
        p4[i] = bval(me, 1, (size_t)i);
    OK(MPI_Put(p4, BIG, MPI_BYTE, c->right, 1, BIG, MPI_BYTE, c->wb));
    OK(MPI_Win_fence(0, c->wb));
    FIRST_BAD(LARGE_AREA, m[i] == (i >= 1 && i < 1 + BIG ? bval(c->left, 1, (size_t)i - 1)
                                                          : bval(me, 0, (size_t)i)), bad);
    CHECK_MSG(bad < 0, "put of 4 MiB from %d: byte %ld of the window is %#x", c->left, bad,
          m[bad]);
    /* the loads above and the next put into this window would be in one epoch otherwise */
    OK(MPI_Win_fence(MPI_MODE_NOPUT, c->wb));
    for (long i = 0; i < MIB; i++)
        p1[i] = bval(me, 2, (size_t)i);
    OK(MPI_Put(p1, MIB, MPI_BYTE, c->left, 7, MIB, MPI_BYTE, c->wb));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, c->wb));
    FIRST_BAD(LARGE_AREA, m[i] == (i >= 7 && i < 7 + MIB     ? bval(c->right, 2, (size_t)i - 7)
                                   : i >= 1 && i < 1 + BIG ? bval(c->left, 1, (size_t)i - 1)
                                                           : bval(me, 0, (size_t)i)), bad);
    CHECK_MSG(bad < 0, "put of 1 MiB from %d over 4 MiB from %d: byte %ld of the window is %#x",
          c->right, c->left, bad, m[bad]);

    /* 256 KiB of doubles into every other double of the right neighbour's window, 1 MiB of
     * doubles accumulated onto the last rank by everyone */
    MPI_Datatype dvec;
    OK(MPI_Type_vector(NVD, 1, 2, MPI_DOUBLE, &dvec));
    OK(MPI_Type_commit(&dvec));
    for (int k = 0; k < NVD; k++)
        dv[k] = dval(me, c->right, k);
    for (int k = 0; k < NACC; k++)
        acc[k] = (me + 1) * (k % 101 + 0.5);
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, c->wa));
    OK(MPI_Put(dv, NVD, MPI_DOUBLE, c->right, 0, 1, dvec, c->wa));
    OK(MPI_Accumulate(acc, NACC, MPI_DOUBLE, root, WA_ACC, NACC, MPI_DOUBLE, MPI_SUM, c->wa));
    OK(MPI_Win_fence(0, c->wa));
    FIRST_BAD(2 * NVD, c->ma[i] == (i % 2 ? DPOISON : dval(c->left, me, (int)i / 2)), bad);
    CHECK_MSG(bad < 0, "put of 256 KiB through a vector from %d: double %ld is %g", c->left, bad,
          c->ma[bad]);
    int tri = n * (n + 1) / 2;
    if (me == root) {
        FIRST_BAD(NACC, c->ma[WA_ACC + i] == tri * (i % 101 + 0.5), bad);
        CHECK_MSG(bad < 0, "accumulate of 1 MiB of doubles: element %ld is %g, expected %g", bad,
              c->ma[WA_ACC + bad], tri * (bad % 101 + 0.5));
    }
    /* back: the vector on the target side into a contiguous buffer (what the left neighbour
     * got from its own left), and a contiguous target into the vector on the origin side
     * (the first NVD doubles of the right neighbour: what this rank put, and poison) */
    for (long i = 0; i < 2 * NVD; i++)
        dsv[i] = 7.25;
    OK(MPI_Get(dg, NVD, MPI_DOUBLE, c->left, 0, 1, dvec, c->wa));
    OK(MPI_Get(dsv, 1, dvec, c->right, 0, NVD, MPI_DOUBLE, c->wa));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, c->wa));
    FIRST_BAD(NVD, dg[i] == dval(ll, c->left, (int)i), bad);
    CHECK_MSG(bad < 0, "get through a vector target from %d: double %ld is %g, expected %g",
          c->left, bad, dg[bad], dval(ll, c->left, (int)bad));
    FIRST_BAD(2 * NVD, dsv[i] == (i % 2 ? 7.25 : i / 2 % 2 ? DPOISON : dval(me, c->right,
                                                                        (int)i / 4)), bad);
    CHECK_MSG(bad < 0, "get into a vector origin from %d: double %ld is %g", c->right, bad,
          dsv[bad]);
    OK(MPI_Type_free(&dvec));
    free(g4);
    free(g1);
    free(p4);
    free(p1);
    free(dv);
    free(dg);
    free(dsv);
    free(acc);
}

/* ---- fence: a window whose disp_unit differs between ranks (1 on even ranks, sizeof(int)
 * on odd ones): each origin scales its displacement by the target's unit ---- */
static void disp_units(struct ctx *c)
{
    int n = c->n, me = c->me;
    int *v = malloc((size_t)n * sizeof *v);
    CHECK_MSG(v != NULL, "out of memory");
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, c->wu));
    for (int t = 0; t < n; t++) {
        MPI_Aint unit = t % 2 ? (MPI_Aint)sizeof(int) : 1;
        v[t] = ival(me, t, 1300);
        OK(MPI_Put(&v[t], 1, MPI_INT, t, me * (MPI_Aint)sizeof(int) / unit, 1, MPI_INT, c->wu));
    }
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, c->wu));
    for (int o = 0; o < n; o++)
        CHECK_MSG(c->mu[o] == ival(o, me, 1300), "window of disp_unit %d: the int of %d is %d, "
              "expected %d", me % 2 ? (int)sizeof(int) : 1, o, c->mu[o], ival(o, me, 1300));
    free(v);
}

/* ---- request-based operations in MPI_Win_lock_all epochs ---- */
static void request_based(struct ctx *c)
{
    const struct layout *L = &c->L;
    int n = c->n, me = c->me, put[RS], back[RS], one = 1, tick[2] = {-1, -1}, dummy = 0;
    MPI_Request rq, *rs = malloc(2 * (size_t)n * sizeof *rs);
    int *nop = malloc((size_t)n * sizeof *nop), *slots = malloc((size_t)n * RS * sizeof *slots);
    int *ticks = malloc(2 * (size_t)n * sizeof *ticks);
    CHECK_MSG(rs && nop && slots && ticks, "out of memory");

    OK(MPI_Win_lock_all(0, c->wi));
    for (int k = 0; k < RS; k++)
        put[k] = ival(me, c->right, 400 + k);
    OK(MPI_Rput(put, RS, MPI_INT, c->right, L->rput + me * RS, RS, MPI_INT, c->wi, &rq));
    OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    /* complete: the origin buffer is free again (not yet the data at the target) */
    for (int k = 0; k < RS; k++)
        put[k] = POISON - 1;
    OK(MPI_Win_flush(c->right, c->wi));
    OK(MPI_Rget(back, RS, MPI_INT, c->right, L->rput + me * RS, RS, MPI_INT, c->wi, &rq));
    OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int k = 0; k < RS; k++)
        CHECK_MSG(back[k] == ival(me, c->right, 400 + k), "MPI_Rget from %d after MPI_Rput, "
              "flush: int %d is %d, expected %d", c->right, k, back[k],
              ival(me, c->right, 400 + k));
    for (int t = 0; t < n; t++)
        OK(MPI_Raccumulate(&one, 1, MPI_INT, t, L->racc, 1, MPI_INT, MPI_SUM, c->wi, &rs[t]));
    OK(MPI_Rget_accumulate(&one, 1, MPI_INT, &tick[0], 1, MPI_INT, 0, L->rtick, 1, MPI_INT,
                           MPI_SUM, c->wi, &rs[n]));
    OK(MPI_Rget_accumulate(&one, 1, MPI_INT, &tick[1], 1, MPI_INT, c->last, L->rtick, 1,
                           MPI_INT, MPI_SUM, c->wi, &rs[n + 1]));
    OK(MPI_Waitall(n + 2, rs, MPI_STATUSES_IGNORE));
    CHECK_MSG(tick[0] >= 0 && tick[0] < n && tick[1] >= 0 && tick[1] < n,
          "MPI_Rget_accumulate tickets %d (rank 0) and %d (rank %d), expected 0..%d", tick[0],
          tick[1], c->last, n - 1);
    OK(MPI_Win_unlock_all(c->wi));
    /* the barrier: every origin's accumulates complete (its unlock_all) before the reads */
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Gather(tick, 2, MPI_INT, ticks, 2, MPI_INT, 0, MPI_COMM_WORLD));
    if (me == 0)
        for (int w = 0; w < 2; w++)
            for (int o = 0; o < n; o++)
                for (int p = 0; p < o; p++)
                    CHECK_MSG(ticks[2 * o + w] != ticks[2 * p + w], "MPI_Rget_accumulate: ranks %d "
                          "and %d got the same ticket %d from rank %d", p, o, ticks[2 * o + w],
                          w ? c->last : 0);

    /* every rank's counter through Rget_accumulate(MPI_NO_OP) and every rank's slot of its
     * left origin through Rget, all in flight at once */
    OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, c->wi));
    for (int t = 0; t < n; t++) {
        nop[t] = -1;
        OK(MPI_Rget_accumulate(&dummy, 1, MPI_INT, &nop[t], 1, MPI_INT, t, L->racc, 1, MPI_INT,
                               MPI_NO_OP, c->wi, &rs[t]));
        OK(MPI_Rget(slots + t * RS, RS, MPI_INT, t, L->rput + (t - 1 + n) % n * RS, RS, MPI_INT,
                    c->wi, &rs[n + t]));
    }
    OK(MPI_Waitall(2 * n, rs, MPI_STATUSES_IGNORE));
    for (int t = 0; t < n; t++) {
        CHECK_MSG(nop[t] == n, "MPI_Rget_accumulate(MPI_NO_OP) of %d's counter: %d, expected %d",
              t, nop[t], n);
        for (int k = 0; k < RS; k++) {
            int want = ival((t - 1 + n) % n, t, 400 + k);
            CHECK_MSG(slots[t * RS + k] == want, "MPI_Rget of %d's slot: int %d is %d, expected %d",
                  t, k, slots[t * RS + k], want);
        }
    }
    OK(MPI_Win_unlock_all(c->wi));
    free(rs);
    free(nop);
    free(slots);
    free(ticks);
}

/* ---- passive target: exclusive and shared locks, lock_all and the flushes, MPI_Win_sync ---- */
static void passive(struct ctx *c)
{
    const struct layout *L = &c->L;
    int n = c->n, me = c->me, v = ival(me, c->right, 500), w, fb[FS], gb[FS];
    int *lx = malloc((size_t)n * sizeof *lx), *pa = malloc((size_t)n * FS * sizeof *pa);
    int *ga = malloc((size_t)n * FS * sizeof *ga);
    CHECK_MSG(lx && pa && ga, "out of memory");

    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, c->right, 0, c->wi));
    OK(MPI_Put(&v, 1, MPI_INT, c->right, L->lockx + me, 1, MPI_INT, c->wi));
    OK(MPI_Win_unlock(c->right, c->wi));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    /* shared locks on two targets at once, then on each target in turn */
    OK(MPI_Win_lock(MPI_LOCK_SHARED, c->left, 0, c->wi));
    if (c->right != c->left)
        OK(MPI_Win_lock(MPI_LOCK_SHARED, c->right, 0, c->wi));
    OK(MPI_Get(&v, 1, MPI_INT, c->left, L->lockx + (c->left - 1 + n) % n, 1, MPI_INT, c->wi));
    OK(MPI_Get(&w, 1, MPI_INT, c->right, L->lockx + me, 1, MPI_INT, c->wi));
    if (c->right != c->left)
        OK(MPI_Win_unlock(c->right, c->wi));
    OK(MPI_Win_unlock(c->left, c->wi));
    CHECK_MSG(v == ival((c->left - 1 + n) % n, c->left, 500) && w == ival(me, c->right, 500),
          "puts under exclusive locks, read under shared locks on %d and %d: %d and %d, "
          "expected %d and %d", c->left, c->right, v, w, ival((c->left - 1 + n) % n, c->left,
                                                              500), ival(me, c->right, 500));
    for (int t = 0; t < n; t++) {
        OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, c->wi));
        OK(MPI_Get(lx, n, MPI_INT, t, L->lockx, n, MPI_INT, c->wi));
        OK(MPI_Win_unlock(t, c->wi));
        for (int o = 0; o < n; o++) {
            int want = o == (t - 1 + n) % n ? ival(o, t, 500) : POISON;
            CHECK_MSG(lx[o] == want, "under a shared lock on %d: the slot of %d is %d, expected %d",
                  t, o, lx[o], want);
        }
    }

    OK(MPI_Win_lock_all(0, c->wi));
    /* flush(target): a get after it returns what the put before it wrote */
    for (int round = 0; round < 3; round++) {
        for (int k = 0; k < FS; k++)
            fb[k] = ival(me, c->right, 600 + round * FS + k);
        OK(MPI_Put(fb, FS, MPI_INT, c->right, L->flush + me * FS, FS, MPI_INT, c->wi));
        OK(MPI_Win_flush(c->right, c->wi));
        OK(MPI_Get(gb, FS, MPI_INT, c->right, L->flush + me * FS, FS, MPI_INT, c->wi));
        OK(MPI_Win_flush(c->right, c->wi));
        for (int k = 0; k < FS; k++)
            CHECK_MSG(gb[k] == fb[k], "round %d: get after put and flush to %d: int %d is %d, "
                  "expected %d", round, c->right, k, gb[k], fb[k]);
    }
    /* flush_all: puts to every target, then gets of them all */
    for (int t = 0; t < n; t++) {
        for (int k = 0; k < FS; k++)
            pa[t * FS + k] = ival(me, t, 700 + k);
        OK(MPI_Put(pa + t * FS, FS, MPI_INT, t, L->flush + me * FS, FS, MPI_INT, c->wi));
    }
    OK(MPI_Win_flush_all(c->wi));
    for (int t = 0; t < n; t++)
        OK(MPI_Get(ga + t * FS, FS, MPI_INT, t, L->flush + me * FS, FS, MPI_INT, c->wi));
    OK(MPI_Win_flush_all(c->wi));
    for (int i = 0; i < n * FS; i++)
        CHECK_MSG(ga[i] == pa[i], "get after put and flush_all to %d: int %d is %d, expected %d",
              i / FS, i % FS, ga[i], pa[i]);
    /* flush_local: the origin buffer is free after it; the target gets what it held then */
    for (int k = 0; k < FS; k++)
        fb[k] = ival(me, c->left, 800 + k);
    OK(MPI_Put(fb, FS, MPI_INT, c->left, L->flush + me * FS, FS, MPI_INT, c->wi));
    OK(MPI_Win_flush_local(c->left, c->wi));
    for (int k = 0; k < FS; k++)
        fb[k] = POISON - 2;
    OK(MPI_Win_flush(c->left, c->wi));
    OK(MPI_Get(gb, FS, MPI_INT, c->left, L->flush + me * FS, FS, MPI_INT, c->wi));
    OK(MPI_Win_flush_local(c->left, c->wi)); /* a get is complete at its origin after it */
    for (int k = 0; k < FS; k++)
        CHECK_MSG(gb[k] == ival(me, c->left, 800 + k), "put, flush_local, buffer reused, flush to "
              "%d: int %d is %d, expected %d", c->left, k, gb[k], ival(me, c->left, 800 + k));
    /* MPI_Win_sync: the owner's store reaches the others' gets, their flushed puts reach the
     * owner's loads */
    c->mi[L->sync] = ival(me, me, 900);
    OK(MPI_Win_sync(c->wi));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Get(&v, 1, MPI_INT, c->left, L->sync, 1, MPI_INT, c->wi));
    OK(MPI_Win_flush(c->left, c->wi));
    CHECK_MSG(v == ival(c->left, c->left, 900), "get of what %d stored in its window: %d, expected "
          "%d", c->left, v, ival(c->left, c->left, 900));
    w = ival(me, c->right, 901);
    OK(MPI_Put(&w, 1, MPI_INT, c->right, L->sync2, 1, MPI_INT, c->wi));
    OK(MPI_Win_flush(c->right, c->wi));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Win_sync(c->wi));
    CHECK_MSG(c->mi[L->sync2] == ival(c->left, me, 901), "load of what %d put: %d, expected %d",
          c->left, c->mi[L->sync2], ival(c->left, me, 901));
    /* every origin's flush slot here holds what it wrote last: the flush_local put from the
     * right neighbour, the flush_all put from the others */
    for (int o = 0; o < n; o++)
        for (int k = 0; k < FS; k++) {
            int want = ival(o, me, (o == c->right ? 800 : 700) + k);
            CHECK_MSG(c->mi[L->flush + o * FS + k] == want, "load of the flush slot of %d: int %d "
                  "is %d, expected %d", o, k, c->mi[L->flush + o * FS + k], want);
        }
    OK(MPI_Win_unlock_all(c->wi));
    free(lx);
    free(pa);
    free(ga);
}

/* the n * per values of `mine` gathered on rank 0 must be 0 .. n * per - 1, each once */
static void gather_distinct(struct ctx *c, const int *mine, int per, const char *what)
{
    int n = c->n, *all = NULL;
    char *seen = NULL;
    if (c->me == 0) {
        all = malloc((size_t)n * per * sizeof *all);
        seen = calloc((size_t)n * per, 1);
        CHECK_MSG(all && seen, "out of memory");
    }
    OK(MPI_Gather(mine, per, MPI_INT, all, per, MPI_INT, 0, MPI_COMM_WORLD));
    if (c->me == 0) {
        for (int i = 0; i < n * per; i++) {
            int v = all[i];
            CHECK_MSG(v >= 0 && v < n * per && !seen[v], "%s: rank %d's value %d is out of 0..%d "
                  "or seen twice", what, i / per, v, n * per - 1);
            seen[v] = 1;
        }
        free(all);
        free(seen);
    }
}

/* ---- atomicity under contention ---- */
static void contention(struct ctx *c)
{
    const struct layout *L = &c->L;
    int n = c->n, me = c->me, last = c->last, one = 1, zero = 0, tag = me + 1;
    int *f0 = malloc(K * sizeof *f0), *fl = malloc(K * sizeof *fl);
    int spin_seen[MSPIN], rmw_seen[MRMW];
    CHECK_MSG(f0 && fl, "out of memory");

    /* fetch-and-add tickets on rank 0's counter and on the last rank's */
    OK(MPI_Win_lock_all(0, c->wi));
    for (int i = 0; i < K; i++) {
        OK(MPI_Fetch_and_op(&one, &f0[i], MPI_INT, 0, L->cnt, MPI_SUM, c->wi));
        OK(MPI_Win_flush(0, c->wi));
        OK(MPI_Fetch_and_op(&one, &fl[i], MPI_INT, last, L->cnt, MPI_SUM, c->wi));
        OK(MPI_Win_flush(last, c->wi));
        CHECK_MSG(i == 0 || (f0[i] > f0[i - 1] && fl[i] > fl[i - 1]), "fetch-and-add %d: got %d "
              "and %d after %d and %d", i, f0[i], fl[i], f0[i - 1], fl[i - 1]);
    }
    /* a spin lock on the last rank made of compare-and-swap, around a get and a put of the
     * counter next to it */
    for (int i = 0; i < MSPIN; i++) {
        int res = -1, val, next;
        for (;;) {
            OK(MPI_Compare_and_swap(&tag, &zero, &res, MPI_INT, last, L->spin, c->wi));
            OK(MPI_Win_flush(last, c->wi));
            if (res == 0)
                break;
            CHECK_MSG(res >= 1 && res <= n && res != tag, "spin lock: found %d", res);
            sched_yield(); /* its holder may need this core */
        }
        OK(MPI_Get(&val, 1, MPI_INT, last, L->spin + 1, 1, MPI_INT, c->wi));
        OK(MPI_Win_flush(last, c->wi));
        spin_seen[i] = val;
        next = val + 1;
        OK(MPI_Put(&next, 1, MPI_INT, last, L->spin + 1, 1, MPI_INT, c->wi));
        OK(MPI_Win_flush(last, c->wi));
        OK(MPI_Compare_and_swap(&zero, &tag, &res, MPI_INT, last, L->spin, c->wi));
        OK(MPI_Win_flush(last, c->wi));
        CHECK_MSG(res == tag, "spin lock: released it while it held %d, not %d", res, tag);
    }
    OK(MPI_Win_unlock_all(c->wi));

    /* read-modify-writes of rank 0's counter under exclusive locks */
    for (int i = 0; i < MRMW; i++) {
        int val, next;
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, c->wi));
        OK(MPI_Get(&val, 1, MPI_INT, 0, L->xrmw, 1, MPI_INT, c->wi));
        OK(MPI_Win_flush(0, c->wi));
        rmw_seen[i] = val;
        next = val + 1;
        OK(MPI_Put(&next, 1, MPI_INT, 0, L->xrmw, 1, MPI_INT, c->wi));
        OK(MPI_Win_unlock(0, c->wi));
    }

    gather_distinct(c, f0, K, "MPI_Fetch_and_op on rank 0");
    gather_distinct(c, fl, K, "MPI_Fetch_and_op on the last rank");
    gather_distinct(c, spin_seen, MSPIN, "counter under the compare-and-swap lock");
    gather_distinct(c, rmw_seen, MRMW, "counter under exclusive locks");
    OK(MPI_Barrier(MPI_COMM_WORLD));
    own_lock(c, c->wi);
    int cnt = c->mi[L->cnt], lockw = c->mi[L->spin], spun = c->mi[L->spin + 1];
    int rmw = c->mi[L->xrmw];
    own_unlock(c, c->wi);
    CHECK_MSG(cnt == (me == 0 || me == last ? n * K : 0), "fetch-and-add counter: %d, expected %d",
          cnt, me == 0 || me == last ? n * K : 0);
    CHECK_MSG(me != last || (lockw == 0 && spun == n * MSPIN), "compare-and-swap lock: word %d, "
          "counter %d, expected 0 and %d", lockw, spun, n * MSPIN);
    CHECK_MSG(rmw == (me == 0 ? n * MRMW : 0), "exclusive read-modify-write counter: %d, expected "
          "%d", rmw, me == 0 ? n * MRMW : 0);
    free(f0);
    free(fl);
}

/* ---- post-start-complete-wait with the neighbours ---- */
static void pscw(struct ctx *c)
{
    const struct layout *L = &c->L;
    int me = c->me;
    MPI_Group world, nb;
    int ranks[2] = {c->left, c->right};
    OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    OK(MPI_Group_incl(world, c->left == c->right ? 1 : 2, ranks, &nb));
    for (int r = 0; r < PROUNDS; r++) {
        int a = ival(me, c->right, 1000 + r), b = ival(me, c->left, 1100 + r);
        OK(MPI_Win_post(nb, 0, c->wi));
        OK(MPI_Win_start(nb, 0, c->wi));
        OK(MPI_Put(&a, 1, MPI_INT, c->right, L->pscw, 1, MPI_INT, c->wi));
        OK(MPI_Put(&b, 1, MPI_INT, c->left, L->pscw + 1, 1, MPI_INT, c->wi));
        OK(MPI_Win_complete(c->wi));
        if (r % 2 == 0) {
            OK(MPI_Win_wait(c->wi));
        } else {
            int flag = 0;
            while (!flag)
                OK(MPI_Win_test(c->wi, &flag));
        }
        CHECK_MSG(c->mi[L->pscw] == ival(c->left, me, 1000 + r) &&
                  c->mi[L->pscw + 1] == ival(c->right, me, 1100 + r),
              "round %d: from %d and %d: %d and %d, expected %d and %d", r, c->left, c->right,
              c->mi[L->pscw], c->mi[L->pscw + 1], ival(c->left, me, 1000 + r),
              ival(c->right, me, 1100 + r));
    }
    OK(MPI_Group_free(&nb));
    OK(MPI_Group_free(&world));
}

/* ---- errors under MPI_ERRORS_RETURN, the window working afterwards ---- */
static void expect_class(int rc, int want, const char *what)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK_MSG(cls == want, "%s: error class %d, expected %d", what, cls, want);
}

static void errors(struct ctx *c)
{
    const struct layout *L = &c->L;
    int me = c->me, t = (me + 1) % c->n, v[2] = {5, 6}, g = -1;
    OK(MPI_Win_set_errhandler(c->wi, MPI_ERRORS_RETURN));
    expect_class(MPI_Put(v, 1, MPI_INT, t, L->err, 1, MPI_INT, c->wi), MPI_ERR_RMA_SYNC,
                 "a put outside any epoch");
    OK(MPI_Win_lock_all(0, c->wi));
#ifndef MPICH_VERSION
    /* MPICH (4.0.2, checked) does not check a target's bounds at the origin, which the
     * standard allows: there these puts would write past the window, so they are not made */
    expect_class(MPI_Put(v, 1, MPI_INT, t, L->end, 1, MPI_INT, c->wi), MPI_ERR_RMA_RANGE,
                 "a put one past the end of another rank's window");
    expect_class(MPI_Put(v, 2, MPI_INT, t, L->end - 1, 2, MPI_INT, c->wi), MPI_ERR_RMA_RANGE,
                 "a put across the end of another rank's window");
#endif
    v[0] = ival(me, t, 1200);
    OK(MPI_Put(v, 1, MPI_INT, t, L->err, 1, MPI_INT, c->wi));
    OK(MPI_Win_flush(t, c->wi));
    OK(MPI_Get(&g, 1, MPI_INT, t, L->err, 1, MPI_INT, c->wi));
    OK(MPI_Win_flush(t, c->wi));
    CHECK_MSG(g == v[0], "after the errors, a put and a get to %d: %d, expected %d", t, g, v[0]);
    OK(MPI_Win_unlock_all(c->wi));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    own_lock(c, c->wi);
    int got = c->mi[L->err], tail = c->mi[L->tail];
    own_unlock(c, c->wi);
    CHECK_MSG(got == ival(c->left, me, 1200) && tail == POISON, "after the errors: the int %d put "
          "is %d (expected %d), the last int is %d (expected %d: the refused put wrote "
          "nothing)", c->left, got, ival(c->left, me, 1200), tail, POISON);
}

/* Shared memory between node processes: MPI_Win_allocate_shared over the whole job works when
 * every rank shares this rank's memory (one node process) and is MPI_ERR_RMA_SHARED when some
 * do not (several); MPI_Win_shared_query on a created window answers the memory of a rank
 * that shares it and size 0 with a NULL base for one that does not. */
static void shared_memory(struct ctx *c)
{
    MPI_Comm node;
    int nnode = 0;
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    OK(MPI_Comm_size(node, &nnode));
    MPI_Comm world; /* a copy with MPI_ERRORS_RETURN, so that a refusal comes back */
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &world));
    OK(MPI_Comm_set_errhandler(world, MPI_ERRORS_RETURN));
    int *base = NULL;
    MPI_Win w = MPI_WIN_NULL;
    int rc = MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, world, &base,
                                     &w);
    if (nnode == c->n) {
        OK(rc);
        OK(MPI_Win_free(&w));
    } else {
        expect_class(rc, MPI_ERR_RMA_SHARED,
                     "MPI_Win_allocate_shared over ranks that share no memory");
        CHECK_MSG(w == MPI_WIN_NULL, "a refused MPI_Win_allocate_shared left a window");
    }
#ifndef MPICH_VERSION
    /* MPI 4.1 allows MPI_Win_shared_query on any flavor; MPICH 4.0.2 (checked) refuses every
     * flavor but the shared one. Rank 0 is in another node process than the last rank when
     * the job has several. */
    int other = c->me == 0 ? c->last : 0, in_mine = 0;
    MPI_Group wg, ng;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    OK(MPI_Comm_group(node, &ng));
    int mapped;
    OK(MPI_Group_translate_ranks(wg, 1, &other, ng, &mapped));
    in_mine = mapped != MPI_UNDEFINED;
    MPI_Aint size = -1;
    int unit = -1;
    void *qbase = (void *)&size;
    OK(MPI_Win_shared_query(c->wi, other, &size, &unit, &qbase));
    if (in_mine)
        CHECK_MSG(size > 0 && qbase != NULL, "MPI_Win_shared_query of rank %d, which shares "
                  "this rank's memory: size %ld, base %p", other, (long)size, qbase);
    else
        CHECK_MSG(size == 0 && qbase == NULL && unit == (int)sizeof(int), "MPI_Win_shared_query "
                  "of rank %d, in another node process: size %ld, base %p, unit %d (expected 0, "
                  "NULL, %d)", other, (long)size, qbase, unit, (int)sizeof(int));
    OK(MPI_Group_free(&wg));
    OK(MPI_Group_free(&ng));
#endif
    OK(MPI_Comm_free(&world));
    OK(MPI_Comm_free(&node));
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    struct ctx cx, *c = &cx;
    memset(c, 0, sizeof *c);
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &c->me));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &c->n));
    CHECK_MSG(c->n >= 2, "rma needs at least 2 ranks, not %d", c->n);
    int n = c->n, me = c->me;
    c->left = (me - 1 + n) % n;
    c->right = (me + 1) % n;
    c->last = n - 1;
    layout_init(&c->L, n);
    const struct layout *L = &c->L;

    /* Windows and their memory, set before the first synchronization of each (a fence or,
     * for wd, the barrier below). wi: from the program, unit sizeof(int); wd: allocated,
     * sizeof(double); wb: allocated, 1; wa: from the program, sizeof(double); wu: from the
     * program, 1 or sizeof(int) by rank. Freed at the end of main. */
    c->mi = malloc((size_t)L->end * sizeof *c->mi);
    c->ma = malloc((size_t)WA_DOUBLES * sizeof *c->ma);
    c->mu = malloc((size_t)n * sizeof *c->mu);
    CHECK_MSG(c->mi && c->ma && c->mu, "out of memory");
    for (int i = 0; i < L->end; i++)
        c->mi[i] = POISON;
    for (int k = 0; k < 4; k++) {
        c->mi[L->acc_sum + k] = 0;
        c->mi[L->acc_max + k] = -1000; /* below every contribution */
    }
    c->mi[L->gacc] = c->mi[L->fop] = c->mi[L->racc] = c->mi[L->rtick] = 0;
    c->mi[L->cnt] = c->mi[L->spin] = c->mi[L->spin + 1] = c->mi[L->xrmw] = 0;
    c->mi[L->cas] = -1;
    for (int i = 0; i < WA_DOUBLES; i++)
        c->ma[i] = i < WA_ACC ? DPOISON : 0.0;
    for (int i = 0; i < n; i++)
        c->mu[i] = POISON;
    OK(MPI_Win_create(c->mi, (MPI_Aint)L->end * (MPI_Aint)sizeof(int), sizeof(int),
                      MPI_INFO_NULL, MPI_COMM_WORLD, &c->wi));
    OK(MPI_Win_allocate(WD_DOUBLES(n) * (MPI_Aint)sizeof(double), sizeof(double), MPI_INFO_NULL,
                        MPI_COMM_WORLD, &c->md, &c->wd));
    OK(MPI_Win_allocate(WB_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &c->mb, &c->wb));
    OK(MPI_Win_create(c->ma, WA_DOUBLES * (MPI_Aint)sizeof(double), sizeof(double),
                      MPI_INFO_NULL, MPI_COMM_WORLD, &c->wa));
    OK(MPI_Win_create(c->mu, n * (MPI_Aint)sizeof(int), me % 2 ? (int)sizeof(int) : 1,
                      MPI_INFO_NULL, MPI_COMM_WORLD, &c->wu));
    for (int i = 0; i < WD_DOUBLES(n); i++)
        c->md[i] = i < n * SLOT ? DPOISON : 0.0;
    memset(c->mb, BPOISON, (size_t)WB_BYTES);
    for (int j = 0; j < 2 * NM; j++) {
        struct di d = {DPOISON, POISON};
        memcpy(c->mb + DI_AT + j * (MPI_Aint)sizeof d, &d, sizeof d);
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));

    fence_put_get(c);
    fence_accumulate(c);
    fence_derived(c);
    fence_large(c);
    disp_units(c);
    request_based(c);
    passive(c);
    contention(c);
    pscw(c);
    errors(c);
    shared_memory(c);

    OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Win *wins[5] = {&c->wi, &c->wd, &c->wb, &c->wa, &c->wu};
    for (int i = 0; i < 5; i++) {
        OK(MPI_Win_free(wins[i]));
        CHECK_MSG(*wins[i] == MPI_WIN_NULL, "MPI_Win_free left window %d set", i);
    }
    free(c->mi);
    free(c->ma);
    free(c->mu);
    OK(MPI_Finalize());
    if (me == 0)
        printf("rma: %d ranks ok\n", n);
    return 0;
}
