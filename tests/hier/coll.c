/* coll.c — collectives through the hardware hierarchy (LOOM_COLL_HIER, issue 6 "Using the
 * hierarchy"): bcast, reduce, allreduce and barrier (and allgather, gather and scatter,
 * node-aware across node processes), blocking and nonblocking (Wait and Test),
 * three sizes (one element, a few thousand, past the eager limit): every root for one
 * element, roots 0, 1 and the last for the larger two (each call costs much under the
 * sanitizers on oversubscribed cores, and the larger sizes take the same paths at every root
 * of a kind: a leader, a rank that is not one, the last node process), with MPI_SUM
 * and with a non-commutative operation (affine maps composed in rank order), on
 * MPI_COMM_WORLD, on a communicator with the ranks reversed (groups no longer hold
 * consecutive ranks), on the even ranks and on the even then the odd ones. Every result is
 * checked against a sequential reference, which is also what the flat algorithms give;
 * CMakeLists.txt runs it under LOOM_COLL_HIER=on on several topologies and bindings, and
 * under off; tests/multinode runs it across node processes (the network tree). */
#include <stdatomic.h>
#include "coll_check.h"

static _Thread_local int wrank; /* ranks are threads: globals are shared */
#define P 10007

/* x -> m x + c (mod P); compose(a, b) = "a, then b" */
typedef struct {
    int m, c;
} aff;

static aff compose(aff a, aff b)
{
    aff r = {(int)((long)a.m * b.m % P), (int)(((long)a.c * b.m + b.c) % P)};
    return r;
}

static void aff_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    aff *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = compose(a[i], b[i]);
}

static aff aff_of(int r, long i)
{
    aff x = {r + 2 + (int)(i % 3), (r * 7 + (int)(i % 11)) % P};
    return x;
}

static int ival(int r, long i)
{
    return (r + 1) * 3 + (int)(i % 101);
}

/* The roots to try for a count of n elements: every root for one element, past it only 0 (a node process's or group's leader), 1 (not one, with two ranks a node process and
 * more) and the last (in the last node process), each once. Returns how many it wrote. */

static int roots_for(long n, int size, int roots[])
{
    if (n == 1) {
        for (int r = 0; r < size; r++)
            roots[r] = r;
        return size;
    }
    int k = 0;
    const int pick[] = {0, 1 % size, size - 1};
    for (int i = 0; i < 3; i++) {
        int seen = 0;
        for (int j = 0; j < k; j++)
            seen |= roots[j] == pick[i];
        if (!seen)
            roots[k++] = pick[i];
    }
    return k;
}

/* A barrier that lets nobody through early: every rank counts itself in before it, and
 * after it the count must hold every rank of this round (the counter is atomic: ranks are
 * threads of one process). Across node processes each has its own counter, so the count is
 * of the communicator's ranks in the caller's node process (its MPI_COMM_TYPE_SHARED part),
 * counted in by the node-process rank 0 of the shared part. */
static _Atomic long arrived;

static void check_barrier(MPI_Comm comm, const char *name)
{
    int rank, size;
    MPI_Comm local;
    OK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local));
    MPI_Comm_rank(local, &rank);
    MPI_Comm_size(local, &size);
    OK(MPI_Comm_free(&local));
    for (int mode = 0; mode < MODE_COUNT_; mode++) {
        for (int round = 0; round < 4; round++) {
            /* a first barrier separates this round's count from the last one's check */
            OK(MPI_Barrier(comm));
            if (rank == 0)
                atomic_store(&arrived, 0);
            OK(MPI_Barrier(comm));
            atomic_fetch_add(&arrived, 1);
            if (mode == MODE_BLOCKING) {
                OK(MPI_Barrier(comm));
            } else {
                MPI_Request r;
                OK(MPI_Ibarrier(comm, &r));
                complete(&r, mode);
            }
            long got = atomic_load(&arrived);
            if (got != size) {
                fprintf(stderr, "%s: barrier (%s) round %d: rank %d of its node process saw "
                        "%ld arrived of %d\n", name, mode_name[mode], round, rank, got, size);
                fflush(NULL);
                _exit(99);
            }
        }
    }
}

/* allgather of n ints per rank, from a send buffer and in place, against rank r's block
 * ival(r, i); the buffers start at -1 so that a block not written shows. */
static void check_allgather(MPI_Comm comm, const char *name)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const long counts[] = {1, 3000, 20000}; /* 20000 ints: past LOOM_EAGER_MAX */
    char what[128];
    for (int mode = 0; mode < MODE_COUNT_; mode++) {
        for (int ci = 0; ci < 3; ci++) {
            long n = counts[ci];
            int *mine = malloc((size_t)n * sizeof *mine);
            int *all = malloc((size_t)n * (size_t)size * sizeof *all);
            CHECK(mine && all);
            for (int ip = 0; ip < 2; ip++) {
                for (long i = 0; i < n * size; i++)
                    all[i] = -1;
                for (long i = 0; i < n; i++) {
                    mine[i] = ival(rank, i);
                    if (ip)
                        all[(long)rank * n + i] = mine[i];
                }
                COLL(mode, Allgather, allgather, ip ? MPI_IN_PLACE : mine, (int)n, MPI_INT, all,
                     (int)n, MPI_INT, comm);
                for (int r = 0; r < size; r++) {
                    for (long i = 0; i < n; i++) {
                        if (all[(long)r * n + i] != ival(r, i)) {
                            snprintf(what, sizeof what, "%s allgather%s (%s) n=%ld rank %d", name,
                                     ip ? " in place" : "", mode_name[mode], n, rank);
                            fprintf(stderr, "%s: block of rank %d, element %ld is %d, expected "
                                    "%d\n", what, r, i, all[(long)r * n + i], ival(r, i));
                            fflush(NULL);
                            _exit(99);
                        }
                    }
                }
            }
            free(mine);
            free(all);
        }
    }
}

/* Gather and scatter (node-aware across node processes): roots 0 (a node process's leader),
 * 1 (not one, with -ppn 2 and more) and the last (in the last node process), from a buffer
 * and in place, three sizes (node-aware and flat); the root's blocks are strided (every other
 * int: a vector type), so the packed runs that travel up and down the tree are unpacked into
 * a derived layout. */
static void check_gather_scatter(MPI_Comm comm, const char *name)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const int counts[] = {1, 3000, 20000}; /* 20000 ints: past LOOM_EAGER_MAX */
    for (int ci = 0; ci < 3; ci++) {
        int n = counts[ci];
        MPI_Datatype strided, block; /* n ints, every other one; resized to 2n ints */
        OK(MPI_Type_vector(n, 1, 2, MPI_INT, &strided));
        OK(MPI_Type_create_resized(strided, 0, (MPI_Aint)(2 * n * sizeof(int)), &block));
        OK(MPI_Type_commit(&block));
        int *mine = malloc((size_t)n * sizeof *mine);
        int *all = malloc((size_t)2 * n * (size_t)size * sizeof *all);
        CHECK(mine && all);
        for (int mode = 0; mode < MODE_COUNT_; mode++) {
            int roots[3], nroots = roots_for(2, size, roots); /* the 3 kinds */
            for (int ri = 0; ri < nroots; ri++) {
                int root = roots[ri];
                for (int ip = 0; ip < 2; ip++) {
                    int in_place = ip && rank == root;
                    /* gather: the root's gaps must stay untouched */
                    for (long i = 0; i < 2L * n * size; i++)
                        all[i] = -1;
                    for (int i = 0; i < n; i++)
                        mine[i] = ival(rank, i);
                    if (in_place)
                        for (int i = 0; i < n; i++)
                            all[2L * n * rank + 2 * i] = ival(rank, i);
                    COLL(mode, Gather, gather, in_place ? MPI_IN_PLACE : mine, n, MPI_INT, all,
                         1, block, root, comm);
                    for (int r = 0; rank == root && r < size; r++)
                        for (int i = 0; i < n; i++) {
                            long at = 2L * n * r + 2 * i;
                            if (all[at] != ival(r, i) || all[at + 1] != -1) {
                                fprintf(stderr, "%s gather%s (%s) n=%d root %d: rank %d's "
                                        "element %d is %d (gap %d), expected %d\n", name,
                                        ip ? " in place" : "", mode_name[mode], n, root, r, i,
                                        all[at], all[at + 1], ival(r, i));
                                fflush(NULL);
                                _exit(99);
                            }
                        }
                    /* scatter: rank r gets block r of the root's */
                    for (long i = 0; i < 2L * n * size; i++)
                        all[i] = rank == root ? ival((int)(i / (2L * n)), (i % (2L * n)) / 2)
                                              : -1;
                    for (int i = 0; i < n; i++)
                        mine[i] = -1;
                    COLL(mode, Scatter, scatter, all, 1, block,
                         in_place ? MPI_IN_PLACE : mine, n, MPI_INT, root, comm);
                    const int *got = in_place ? all + 2L * n * rank : mine;
                    for (int i = 0; i < n; i++) {
                        int v = in_place ? got[2 * i] : got[i];
                        if (v != ival(rank, i)) {
                            fprintf(stderr, "%s scatter%s (%s) n=%d root %d: rank %d's element "
                                    "%d is %d, expected %d\n", name, ip ? " in place" : "",
                                    mode_name[mode], n, root, rank, i, v, ival(rank, i));
                            fflush(NULL);
                            _exit(99);
                        }
                    }
                }
            }
        }
        free(mine);
        free(all);
        OK(MPI_Type_free(&block));
        OK(MPI_Type_free(&strided));
    }
}

static void check_comm(MPI_Comm comm, const char *name, MPI_Datatype at, MPI_Op op)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const long counts[] = {1, 3000, 70000}; /* 70000 ints: past LOOM_EAGER_MAX */
    char what[128];
    for (int mode = 0; mode < MODE_COUNT_; mode++) {
        for (int ci = 0; ci < 3; ci++) {
            long n = counts[ci];
            int *buf = malloc((size_t)n * sizeof *buf), *want = malloc((size_t)n * sizeof *want);
            int *out = malloc((size_t)n * sizeof *out);
            aff *as = malloc((size_t)n * sizeof *as), *ad = malloc((size_t)n * sizeof *ad);
            CHECK(buf && want && out && as && ad);
            for (long i = 0; i < n; i++) {
                int s = 0;
                for (int r = 0; r < size; r++)
                    s += ival(r, i);
                want[i] = s;
            }
            int *roots = malloc((size_t)size * sizeof *roots);
            CHECK(roots);
            int nroots = roots_for(n, size, roots);
            for (int ri = 0; ri < nroots; ri++) {
                int root = roots[ri];
                /* bcast */
                for (long i = 0; i < n; i++)
                    buf[i] = rank == root ? ival(root, i) : -1;
                COLL(mode, Bcast, bcast, buf, (int)n, MPI_INT, root, comm);
                for (long i = 0; i < n; i++)
                    out[i] = ival(root, i);
                snprintf(what, sizeof what, "%s bcast (%s) n=%ld root=%d rank %d", name,
                         mode_name[mode], n, root, rank);
                CHECK_INTS(buf, out, n, what);
                /* reduce, sum; the root's in place every other time */
                int inplace = rank == root && (root % 2);
                for (long i = 0; i < n; i++) {
                    buf[i] = ival(rank, i);
                    out[i] = inplace ? buf[i] : -1;
                }
                COLL(mode, Reduce, reduce, inplace ? MPI_IN_PLACE : buf, out, (int)n, MPI_INT,
                     MPI_SUM, root, comm);
                snprintf(what, sizeof what, "%s reduce sum (%s) n=%ld root=%d", name,
                         mode_name[mode], n, root);
                if (rank == root)
                    CHECK_INTS(out, want, n, what);
                /* reduce, non-commutative: rank order */
                for (long i = 0; i < n; i++)
                    as[i] = aff_of(rank, i);
                COLL(mode, Reduce, reduce, as, ad, (int)n, at, op, root, comm);
                if (rank == root) {
                    for (long i = 0; i < n; i++) {
                        aff acc = aff_of(0, i);
                        for (int r = 1; r < size; r++)
                            acc = compose(acc, aff_of(r, i));
                        if (ad[i].m != acc.m || ad[i].c != acc.c) {
                            fprintf(stderr, "%s reduce non-commutative (%s) n=%ld root=%d: "
                                    "element %ld is (%d,%d), expected (%d,%d)\n", name,
                                    mode_name[mode], n, root, i, ad[i].m, ad[i].c, acc.m,
                                    acc.c);
                            fflush(NULL);
                            _exit(99);
                        }
                    }
                }
            }
            /* allreduce, sum, then in place; non-commutative */
            for (int ip = 0; ip < 2; ip++) {
                for (long i = 0; i < n; i++) {
                    buf[i] = ival(rank, i);
                    out[i] = ip ? buf[i] : -1;
                }
                COLL(mode, Allreduce, allreduce, ip ? MPI_IN_PLACE : buf, out, (int)n, MPI_INT,
                     MPI_SUM, comm);
                snprintf(what, sizeof what, "%s allreduce sum%s (%s) n=%ld rank %d", name,
                         ip ? " in place" : "", mode_name[mode], n, rank);
                CHECK_INTS(out, want, n, what);
            }
            for (long i = 0; i < n; i++)
                as[i] = aff_of(rank, i);
            COLL(mode, Allreduce, allreduce, as, ad, (int)n, at, op, comm);
            for (long i = 0; i < n; i++) {
                aff acc = aff_of(0, i);
                for (int r = 1; r < size; r++)
                    acc = compose(acc, aff_of(r, i));
                if (ad[i].m != acc.m || ad[i].c != acc.c) {
                    fprintf(stderr, "%s allreduce non-commutative (%s) n=%ld rank %d: element "
                            "%ld is (%d,%d), expected (%d,%d)\n", name, mode_name[mode], n,
                            rank, i, ad[i].m, ad[i].c, acc.m, acc.c);
                    fflush(NULL);
                    _exit(99);
                }
            }
            free(roots);
            free(buf);
            free(want);
            free(out);
            free(as);
            free(ad);
        }
    }
    check_allgather(comm, name);
    check_gather_scatter(comm, name);
    check_barrier(comm, name);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Datatype at;
    OK(MPI_Type_contiguous(2, MPI_INT, &at));
    OK(MPI_Type_commit(&at));
    MPI_Op op;
    OK(MPI_Op_create(aff_op, 0, &op));
    check_comm(MPI_COMM_WORLD, "world", at, op);
    MPI_Comm rev, even;
    OK(MPI_Comm_split(MPI_COMM_WORLD, 0, size - wrank, &rev));
    check_comm(rev, "reversed", at, op);
    OK(MPI_Comm_split(MPI_COMM_WORLD, wrank % 2 ? MPI_UNDEFINED : 0, wrank, &even));
    if (even != MPI_COMM_NULL) {
        check_comm(even, "even", at, op);
        OK(MPI_Comm_free(&even));
    }
    /* the even ranks, then the odd ones: across node processes of 2 or 3 ranks, each node
     * process's ranks are no longer consecutive */
    MPI_Comm inter;
    OK(MPI_Comm_split(MPI_COMM_WORLD, 0, (wrank % 2) * size + wrank, &inter));
    check_comm(inter, "interleaved", at, op);
    OK(MPI_Comm_free(&inter));
    OK(MPI_Comm_free(&rev));
    OK(MPI_Op_free(&op));
    OK(MPI_Type_free(&at));
    MPI_Finalize();
    return 0;
}
