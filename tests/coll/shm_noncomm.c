/* shm collectives with a non-commutative operation: every reduction applies it in rank order,
 * in place or not, with small vectors (folded by one rank) and large ones (above 32 KB: cut
 * in slices reduced by every rank), every root of MPI_Reduce. The operation composes affine
 * maps x -> m*x + c (mod 2^32): associative, not commutative, so any reordering shows. Run
 * with every LOOM_COLL_*_ALGO=shm (CMakeLists.txt). */
#include "coll_check.h"

static _Thread_local int rank, size; /* ranks are threads: globals are shared */

struct aff {
    unsigned m, c;
};

/* a then b: x -> b.m * (a.m * x + a.c) + b.c */
static struct aff compose(struct aff a, struct aff b)
{
    struct aff r = {a.m * b.m, a.c * b.m + b.c};
    return r;
}

static void op_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    struct aff *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = compose(a[i], b[i]); /* in (lower ranks) first */
}

static struct aff elem(int r, long i)
{
    struct aff e = {(unsigned)(2 * r + 3 + (i % 5) * 2), (unsigned)(r * 7 + 1 + i % 11)};
    return e;
}

/* Ranks lo..hi of element i composed in rank order. */
static struct aff ref(int lo, int hi, long i)
{
    struct aff acc = elem(lo, i);
    for (int r = lo + 1; r <= hi; r++)
        acc = compose(acc, elem(r, i));
    return acc;
}

static void expect(const struct aff *got, long n, int lo, int hi, long off, const char *what)
{
    for (long i = 0; i < n; i++) {
        struct aff w = ref(lo, hi, off + i);
        if (got[i].m != w.m || got[i].c != w.c) {
            fprintf(stderr, "%s (rank %d of %d): element %ld is (%u,%u), expected (%u,%u)\n",
                    what, rank, size, i, got[i].m, got[i].c, w.m, w.c);
            fflush(NULL);
            _exit(99);
        }
    }
}

static struct aff *mk(long n, int r)
{
    struct aff *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
    CHECK(p != NULL);
    for (long i = 0; i < n; i++)
        p[i] = elem(r, i);
    return p;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Datatype t;
    MPI_Op op;
    OK(MPI_Type_contiguous(2, MPI_UNSIGNED, &t));
    OK(MPI_Type_commit(&t));
    OK(MPI_Op_create(op_fn, 0, &op));
    const long counts[] = {1, 5, 3001, 20011};
    char what[128];
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        long n = counts[ci];
        for (int in_place = 0; in_place < 2; in_place++) {
            for (int root = 0; root < size; root++) {
                struct aff *s = mk(n, rank), *d = mk(n, rank);
                int ip = in_place && rank == root;
                OK(MPI_Reduce(ip ? MPI_IN_PLACE : s, d, (int)n, t, op, root, MPI_COMM_WORLD));
                snprintf(what, sizeof what, "reduce count %ld root %d%s", n, root,
                         in_place ? " in place" : "");
                if (rank == root)
                    expect(d, n, 0, size - 1, 0, what);
                free(s);
                free(d);
            }
            struct aff *s = mk(n, rank), *d = mk(n, rank);
            OK(MPI_Allreduce(in_place ? MPI_IN_PLACE : s, d, (int)n, t, op, MPI_COMM_WORLD));
            snprintf(what, sizeof what, "allreduce count %ld%s", n, in_place ? " in place" : "");
            expect(d, n, 0, size - 1, 0, what);
            free(d);
            d = mk(n, rank);
            OK(MPI_Scan(in_place ? MPI_IN_PLACE : s, d, (int)n, t, op, MPI_COMM_WORLD));
            snprintf(what, sizeof what, "scan count %ld%s", n, in_place ? " in place" : "");
            expect(d, n, 0, rank, 0, what);
            free(d);
            d = mk(n, rank);
            OK(MPI_Exscan(in_place ? MPI_IN_PLACE : s, d, (int)n, t, op, MPI_COMM_WORLD));
            snprintf(what, sizeof what, "exscan count %ld%s", n, in_place ? " in place" : "");
            if (rank > 0)
                expect(d, n, 0, rank - 1, 0, what);
            free(d);
            free(s);
            /* reduce_scatter_block: n elements per rank */
            s = mk(n * size, rank);
            d = in_place ? mk(n * size, rank) : mk(n, rank);
            OK(MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : s, d, (int)n, t, op,
                                        MPI_COMM_WORLD));
            snprintf(what, sizeof what, "reduce_scatter_block count %ld%s", n,
                     in_place ? " in place" : "");
            expect(d, n, 0, size - 1, (long)rank * n, what);
            free(s);
            free(d);
        }
    }
    OK(MPI_Op_free(&op));
    OK(MPI_Type_free(&t));
    MPI_Finalize();
    return 0;
}
