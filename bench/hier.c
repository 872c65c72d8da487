/* bench/hier.c — the 2018 paper's Section 7.2 and Algorithm 5 (issue 6, "Using the
 * hierarchy"): a collective run flat on MPI_COMM_WORLD against the same collective run level
 * by level down the hierarchy of hardware communicators, and the enhancement factor
 * T_flat / T_hier (the paper's Figs. 5-10), from 8 B to 4 MiB.
 *
 * A plain MPI program with MPI-4 names only (MPI_COMM_TYPE_HW_UNGUIDED, MPI_Comm_split_type
 * with an info), so it builds with loomcc and with MPICH 4 (mpicc.mpich). All its state is in
 * locals: under loom every rank runs main() in the same process.
 *
 * The hierarchy (the paper's Algorithms 2 and 4): starting from MPI_COMM_WORLD, each level
 * splits its communicator with MPI_COMM_TYPE_HW_UNGUIDED (key = rank), and the "roots"
 * communicator of the level groups the ranks that are rank 0 of their new communicator (or
 * got MPI_COMM_NULL: a rank alone under that level), made portably with MPI_Comm_split of
 * the parent by "am I rank 0 of my child". Under loom, with -DLOOM, MPIX_Comm_hsplit_with_roots
 * makes both at once. It stops when a rank's split gives MPI_COMM_NULL.
 *
 *   flat   MPI_Bcast / MPI_Reduce (MPI_FLOAT, MPI_SUM, root 0) on MPI_COMM_WORLD.
 *   hier   bcast: the same call on each level's roots communicator, top level first (rank 0
 *          of every roots communicator has the data from the level above); reduce: from the
 *          bottom level up, each root reducing its level's partial results.
 *   alg5   Algorithm 5, "hierarchical gather-and-process": every rank has a local vector
 *          (`bytes` of floats); from the bottom level up, the roots communicator gathers the
 *          vectors to its rank 0, which combines them with its own local vector (sum, then
 *          scaled by 1/(1 + |lvec|), the paper's "addition with normalization") into the
 *          vector it sends up. Flat: one MPI_Gather of every vector to rank 0 on
 *          MPI_COMM_WORLD and the same combination of all of them.
 * The algorithm inside each call is the MPI library's, chosen by its own settings
 * (LOOM_COLL_BCAST_ALGO / LOOM_COLL_REDUCE_ALGO, MPIR_CVAR_BCAST_INTRA_ALGORITHM /
 * MPIR_CVAR_REDUCE_INTRA_ALGORITHM): bench/run_hier.py runs each. Under loom the driver sets
 * LOOM_COLL_HIER=off so that "flat" is flat (or on, to measure loom's own hierarchical
 * collectives as the flat call).
 *
 * Method (as bench/coll.c): per size and variant, 2 warm-up calls, a batch length `iters`
 * giving about 5 ms per batch, then --reps repetitions of a barrier and `iters` calls; a
 * repetition's value is the slowest rank's mean time per call; the printed value is the median
 * over repetitions (µs). factor = T_flat / T_hier (above 1: the hierarchy wins).
 *
 * Output (stdout, rank 0): '#' comment lines (library, the hierarchy: levels and sizes), a
 * header, then CSV lines `hier_<coll>_<flat|levels|factor>,<bytes>,<value>,<us|ratio>`.
 *
 * Usage: hier [--quick] [--reps R] [--max BYTES] [--colls bcast,reduce,alg5] */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"
#include "bench_mpi.h"

#define MAX_LEVELS 16

enum { BCAST, REDUCE, ALG5, NCOLL };
static const char *const coll_name[NCOLL] = {"bcast", "reduce", "alg5"};

/* The levels seen by one rank: roots[l] (MPI_COMM_NULL where it is not a root at level l),
 * top level first. */
struct hier {
    int nlevels;
    MPI_Comm roots[MAX_LEVELS];
    MPI_Comm comms[MAX_LEVELS]; /* the split results, freed at the end */
};

struct bufs {
    float *sb, *rb, *acc, *tmp, *lvec, *gath; /* gath: size * max floats (flat gather) */
};

/* The communicator's resource type ("?" when the library records none). */
static void type_of(MPI_Comm c, char *type, int len)
{
    MPI_Info info;
    int flag = 0;
    snprintf(type, (size_t)len, "?");
    if (MPI_Comm_get_info(c, &info) != MPI_SUCCESS)
        return;
    char v[MPI_MAX_INFO_VAL + 1];
    MPI_Info_get(info, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, v, &flag);
    if (flag)
        snprintf(type, (size_t)len, "%s", v);
    MPI_Info_free(&info);
}

/* Build the levels (collective over MPI_COMM_WORLD); describe rank 0's in desc. */
static void build(struct hier *h, char *desc, size_t desclen)
{
    MPI_Comm parent = MPI_COMM_WORLD;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    h->nlevels = 0;
    desc[0] = '\0';
    while (h->nlevels < MAX_LEVELS) {
        MPI_Comm child = MPI_COMM_NULL, roots = MPI_COMM_NULL;
        int prank;
        MPI_Comm_rank(parent, &prank);
#if defined(LOOM) || defined(LOOM_VERSION_MAJOR) /* loom's mpi.h */
        MPIX_Comm_hsplit_with_roots(parent, MPI_INFO_NULL, &child, &roots);
#else
        MPI_Comm_split_type(parent, MPI_COMM_TYPE_HW_UNGUIDED, prank, MPI_INFO_NULL, &child);
        int crank = 0;
        if (child != MPI_COMM_NULL)
            MPI_Comm_rank(child, &crank);
        MPI_Comm_split(parent, crank == 0 ? 0 : MPI_UNDEFINED, prank, &roots);
#endif
        int l = h->nlevels++;
        h->roots[l] = roots;
        h->comms[l] = child;
        if (rank == 0 && roots != MPI_COMM_NULL) {
            int rs, cs = 0;
            char type[MPI_MAX_INFO_VAL + 1] = "-";
            MPI_Comm_size(roots, &rs);
            if (child != MPI_COMM_NULL) {
                MPI_Comm_size(child, &cs);
                type_of(child, type, sizeof type);
            }
            size_t used = strlen(desc);
            snprintf(desc + used, desclen - used, "%slevel %d: %d roots, then %s of %d",
                     l ? "; " : "", l, rs, type, cs);
        }
        if (child == MPI_COMM_NULL)
            break;
        parent = child;
    }
}

static void release(struct hier *h)
{
    for (int l = h->nlevels - 1; l >= 0; l--) {
        if (h->roots[l] != MPI_COMM_NULL)
            MPI_Comm_free(&h->roots[l]);
        if (h->comms[l] != MPI_COMM_NULL)
            MPI_Comm_free(&h->comms[l]);
    }
}

/* The combination of Algorithm 5: out = (sum of the k vectors in in + lvec) / (1 + |lvec|). */
static void process(const float *in, int k, const float *lvec, float *out, int n)
{
    for (int i = 0; i < n; i++) {
        float s = lvec[i];
        for (int j = 0; j < k; j++)
            s += in[(size_t)j * (size_t)n + (size_t)i];
        out[i] = s / (1.0f + (lvec[i] < 0 ? -lvec[i] : lvec[i]));
    }
}

static void alg5_flat(struct bufs *b, int n)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Gather(b->lvec, n, MPI_FLOAT, b->gath, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        process(b->gath, size, b->lvec, b->acc, n);
}

static void alg5_hier(const struct hier *h, struct bufs *b, int n)
{
    const float *mine = b->lvec;
    for (int l = h->nlevels - 1; l >= 0; l--) {
        MPI_Comm c = h->roots[l];
        if (c == MPI_COMM_NULL)
            continue;
        int r, k;
        MPI_Comm_rank(c, &r);
        MPI_Comm_size(c, &k);
        MPI_Gather(mine, n, MPI_FLOAT, b->gath, n, MPI_FLOAT, 0, c);
        if (r != 0)
            break; /* sent up: done */
        process(b->gath, k, b->lvec, b->acc, n);
        mine = b->acc;
    }
}

static void call(int c, int hier, const struct hier *h, struct bufs *b, long bytes)
{
    int n = (int)(bytes / 4);
    if (c == ALG5) {
        if (hier)
            alg5_hier(h, b, n);
        else
            alg5_flat(b, n);
        return;
    }
    if (!hier) {
        if (c == BCAST)
            MPI_Bcast(b->sb, (int)bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
        else
            MPI_Reduce(b->sb, b->rb, n, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
        return;
    }
    if (c == BCAST) {
        for (int l = 0; l < h->nlevels; l++)
            if (h->roots[l] != MPI_COMM_NULL)
                MPI_Bcast(b->sb, (int)bytes, MPI_CHAR, 0, h->roots[l]);
        return;
    }
    /* reduce, bottom up: the input, then each level's partial result at its root */
    const float *in = b->sb;
    for (int l = h->nlevels - 1; l >= 0; l--) {
        MPI_Comm rc = h->roots[l];
        if (rc == MPI_COMM_NULL)
            continue;
        int r;
        MPI_Comm_rank(rc, &r);
        float *out = in == b->acc ? b->tmp : b->acc;
        MPI_Reduce(in, out, n, MPI_FLOAT, MPI_SUM, 0, rc);
        if (r != 0)
            break;
        in = out;
    }
}

/* The slowest rank's mean time (us) per call over a batch of `iters` calls. */
static double batch(int c, int hier, const struct hier *h, struct bufs *b, long bytes, int iters)
{
    double t, slowest;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++)
        call(c, hier, h, b, bytes);
    t = (MPI_Wtime() - t0) * 1e6 / iters;
    MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

static double measure(int c, int hier, const struct hier *h, struct bufs *b, long bytes,
                      const struct bench_sweep *o, double *t)
{
    call(c, hier, h, b, bytes);
    call(c, hier, h, b, bytes);
    double est = batch(c, hier, h, b, bytes, 1);
    double want = o->batch_us / (est > 0.01 ? est : 0.01);
    int iters = want < 1 ? 1 : want > 10000 ? 10000 : (int)want;
    for (int r = 0; r < o->reps; r++)
        t[r] = batch(c, hier, h, b, bytes, iters);
    return bench_median(t, o->reps);
}

int main(int argc, char **argv)
{
    int rank, size;
    struct bench_sweep o;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *why = bench_parse_sweep(argc, argv, coll_name, NCOLL,
                                        "--colls takes names among bcast,reduce,alg5", &o);
    if (why) {
        if (rank == 0)
            fprintf(stderr, "hier: %s\nusage: hier [--quick] [--reps R] [--max BYTES] "
                            "[--colls bcast,reduce,alg5]\n", why);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    struct hier h;
    char desc[1024];
    build(&h, desc, sizeof desc);

    size_t nf = (size_t)o.max_bytes / sizeof(float);
    struct bufs b;
    b.sb = malloc(nf * sizeof(float));
    b.rb = malloc(nf * sizeof(float));
    b.acc = malloc(nf * sizeof(float));
    b.tmp = malloc(nf * sizeof(float));
    b.lvec = malloc(nf * sizeof(float));
    b.gath = malloc(nf * sizeof(float) * (size_t)size);
    double *t = malloc(sizeof(double) * (size_t)o.reps);
    if (!b.sb || !b.rb || !b.acc || !b.tmp || !b.lvec || !b.gath || !t) {
        fprintf(stderr, "hier: rank %d: out of memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (size_t i = 0; i < nf; i++) {
        b.sb[i] = 1.0f;
        b.lvec[i] = (float)((rank + (int)i) % 7) * 0.25f;
    }
    memset(b.rb, 0, nf * sizeof(float));
    memset(b.acc, 0, nf * sizeof(float));
    memset(b.tmp, 0, nf * sizeof(float));

    long sizes[16];
    int nsizes = bench_sweep_sizes(o.max_bytes, sizes);

    if (rank == 0) {
        bench_print_library();
        printf("# hierarchy seen by rank 0 (%d levels): %s\n", h.nlevels, desc);
        printf("# ranks: %d, repetitions: %d, batches of about %.0f us (value = median over "
               "repetitions of the slowest rank's mean time per call)\n",
               size, o.reps, o.batch_us);
        printf("test,bytes,value,unit\n");
        fflush(stdout);
    }
    for (int c = 0; c < NCOLL; c++) {
        if (!o.want[c])
            continue;
        for (int s = 0; s < nsizes; s++) {
            long bytes = sizes[s];
            double flat = measure(c, 0, &h, &b, bytes, &o, t);
            double lev = measure(c, 1, &h, &b, bytes, &o, t);
            if (rank == 0) {
                printf("hier_%s_flat,%ld,%.3f,us\n", coll_name[c], bytes, flat);
                printf("hier_%s_levels,%ld,%.3f,us\n", coll_name[c], bytes, lev);
                printf("hier_%s_factor,%ld,%.4f,ratio\n", coll_name[c], bytes,
                       lev > 0 ? flat / lev : 0.0);
                fflush(stdout);
            }
        }
    }
    release(&h);
    free(b.sb);
    free(b.rb);
    free(b.acc);
    free(b.tmp);
    free(b.lvec);
    free(b.gath);
    free(t);
    MPI_Finalize();
    return 0;
}
