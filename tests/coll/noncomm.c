/* A non-commutative user operation (2x2 integer matrix product modulo a prime) through every
 * reduction collective, blocking and nonblocking, with every root: the result must be the
 * product in rank order, A_0 A_1 ... A_(n-1), as the standard asks. Each rank's matrices are
 * chosen so that no two consecutive ones commute. */
#include "coll_check.h"

static _Thread_local int rank, size; /* ranks are threads: globals are shared */
#define P 10007

typedef struct {
    int m[4]; /* a b / c d */
} mat;

static mat mul(mat x, mat y)
{
    mat r;
    r.m[0] = (int)(((long)x.m[0] * y.m[0] + (long)x.m[1] * y.m[2]) % P);
    r.m[1] = (int)(((long)x.m[0] * y.m[1] + (long)x.m[1] * y.m[3]) % P);
    r.m[2] = (int)(((long)x.m[2] * y.m[0] + (long)x.m[3] * y.m[2]) % P);
    r.m[3] = (int)(((long)x.m[2] * y.m[1] + (long)x.m[3] * y.m[3]) % P);
    return r;
}

/* inout[i] = in[i] * inout[i]: `in` is the lower ranks' part */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    mat *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = mul(a[i], b[i]);
}

static mat elem(int r, long i)
{
    mat x = {{r + 2, 1, (int)(i % 5) + 1, r % 3}};
    return x;
}

static void fill(mat *p, long n, int r, long off)
{
    for (long i = 0; i < n; i++)
        p[i] = elem(r, off + i);
}

static void ref(mat *want, long n, int lo, int hi, long off)
{
    for (long i = 0; i < n; i++) {
        mat acc = elem(lo, off + i);
        for (int r = lo + 1; r < hi; r++)
            acc = mul(acc, elem(r, off + i));
        want[i] = acc;
    }
}

static void same(const mat *got, const mat *want, long n, const char *what, int mode)
{
    for (long i = 0; i < n; i++)
        for (int k = 0; k < 4; k++)
            if (got[i].m[k] != want[i].m[k]) {
                fprintf(stderr, "%s (%s) rank %d of %d: element %ld entry %d is %d, expected "
                        "%d\n", what, mode_name[mode], rank, size, i, k, got[i].m[k],
                        want[i].m[k]);
                fflush(NULL);
                _exit(99);
            }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Datatype mt;
    OK(MPI_Type_contiguous(4, MPI_INT, &mt));
    OK(MPI_Type_commit(&mt));
    MPI_Op op;
    OK(MPI_Op_create(matmul, 0, &op));
    int commute = 1;
    OK(MPI_Op_commutative(op, &commute));
    CHECK_INT(commute, 0);
    const long counts[] = {1, 3, 1000};
    for (int mode = 0; mode < MODE_COUNT_; mode++) {
        for (int c = 0; c < 3; c++) {
            long n = counts[c];
            mat *s = malloc((size_t)(n * size) * sizeof *s);
            mat *d = malloc((size_t)(n * size) * sizeof *d);
            mat *want = malloc((size_t)(n * size) * sizeof *want);
            CHECK(s && d && want);
            fill(s, n, rank, 0);
            for (int root = 0; root < size; root++) {
                COLL(mode, Reduce, reduce, s, d, (int)n, mt, op, root, MPI_COMM_WORLD);
                if (rank == root) {
                    ref(want, n, 0, size, 0);
                    same(d, want, n, "reduce", mode);
                }
            }
            for (int ip = 0; ip < 2; ip++) {
                fill(d, n, rank, 0);
                COLL(mode, Allreduce, allreduce, ip ? MPI_IN_PLACE : s, d, (int)n, mt, op,
                     MPI_COMM_WORLD);
                ref(want, n, 0, size, 0);
                same(d, want, n, "allreduce", mode);
                fill(d, n, rank, 0);
                COLL(mode, Scan, scan, ip ? MPI_IN_PLACE : s, d, (int)n, mt, op,
                     MPI_COMM_WORLD);
                ref(want, n, 0, rank + 1, 0);
                same(d, want, n, "scan", mode);
                fill(d, n, rank, 0);
                COLL(mode, Exscan, exscan, ip ? MPI_IN_PLACE : s, d, (int)n, mt, op,
                     MPI_COMM_WORLD);
                if (rank > 0) {
                    ref(want, n, 0, rank, 0);
                    same(d, want, n, "exscan", mode);
                }
            }
            /* reduce_scatter_block: n matrices per rank, block r holds elements r*n.. */
            mat *sa = malloc((size_t)(n * size) * sizeof *sa);
            CHECK(sa != NULL);
            fill(sa, n * size, rank, 0);
            COLL(mode, Reduce_scatter_block, reduce_scatter_block, sa, d, (int)n, mt, op,
                 MPI_COMM_WORLD);
            ref(want, n, 0, size, rank * n);
            same(d, want, n, "reduce_scatter_block", mode);
            free(sa);
            free(s);
            free(d);
            free(want);
        }
    }
    OK(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL);
    OK(MPI_Type_free(&mt));
    MPI_Finalize();
    return 0;
}
