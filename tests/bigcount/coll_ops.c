/* MPI_Op_create_c and MPI_Reduce_local_c on ordinary counts: a big-count user function
 * (MPI_User_function_c, an MPI_Count length) gives what the same function written with an int
 * length gives, in MPI_Reduce_local(_c) and in the reductions (Reduce, Allreduce, Scan,
 * Exscan, Reduce_scatter_block, each int and _c, blocking, nonblocking, persistent), for a
 * commutative and a non-commutative operation; the function sees the call's datatype. */
#include "coll_run.h"

enum { K = 6, SENTINEL = -7 };
static _Thread_local int me, n;
static _Thread_local MPI_Comm w;
static _Thread_local MPI_Datatype pair; /* two ints: an element of the operations below */

/* The functions may run on another thread than the rank's (a progress thread, a rank that
 * helps): they recognize the rank's pair type by its layout, not by the thread's handle. */
static int is_pair(MPI_Datatype t)
{
    int size = 0, ni, na, nt, combiner = -1;
    MPI_Type_size(t, &size);
    MPI_Type_get_envelope(t, &ni, &na, &nt, &combiner);
    return size == 2 * (int)sizeof(int) && combiner == MPI_COMBINER_CONTIGUOUS;
}

/* Two operations on pairs (m, c), written both with an int length and with an MPI_Count one:
 * compose, the affine map x -> m x + c of the lower rank then the higher one's (associative,
 * not commutative), and add1, (m1 + m2, c1 + c2 + 1) (commutative); mod 1000. */
static void compose(const int *u, int *v, int commutative)
{
    if (commutative) {
        v[0] = (u[0] + v[0]) % 1000;
        v[1] = (u[1] + v[1] + 1) % 1000;
    } else {
        v[1] = (v[0] * u[1] + v[1]) % 1000;
        v[0] = (v[0] * u[0]) % 1000;
    }
}

#define OP_FUNCS(name, comm)                                                                   \
    static void name##_int(void *in, void *inout, int *len, MPI_Datatype *type)                \
    {                                                                                          \
        CHECK(is_pair(*type));                                                                  \
        for (int i = 0; i < *len; i++)                                                         \
            compose((int *)in + 2 * i, (int *)inout + 2 * i, comm);                            \
    }                                                                                          \
    static void name##_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)            \
    {                                                                                          \
        CHECK(is_pair(*type));                                                                  \
        for (MPI_Count i = 0; i < *len; i++)                                                   \
            compose((int *)in + 2 * i, (int *)inout + 2 * i, comm);                            \
    }
OP_FUNCS(affine, 0)
OP_FUNCS(add1, 1)

/* rank r's pair j of the reductions */
static void input(int r, int j, int *x)
{
    x[0] = (r + 2) * (j + 3) % 7 + 1;
    x[1] = (r + 1) * (j + 5) % 11;
}

/* the reductions of one op: int call with op_i, _c call with op_c */
static void reductions(MPI_Op op_i, MPI_Op op_c, int commutative)
{
    int s[2 * K * 64], a[2 * K * 64], b[2 * K * 64];
    for (int j = 0; j < K * n; j++)
        input(me, j, s + 2 * j);
    for (int mode = 0; mode < NMODES; mode++) {
        for (int pass = 0; pass < 5; pass++) {
            if (pass == 4 && !commutative) /* kept to the commutative op: every algorithm */
                continue;
            for (int j = 0; j < 2 * K * n; j++)
                a[j] = b[j] = SENTINEL;
            for (int wide = 0; wide < 2; wide++) {
                int *out = wide ? b : a;
                MPI_Op op = wide ? op_c : op_i;
                switch (pass) {
                case 0:
                    RUN(mode, wide, Reduce, Ireduce, (s, out, K, pair, op, 0, w),
                        (s, out, K, pair, op, 0, w));
                    break;
                case 1:
                    RUN(mode, wide, Allreduce, Iallreduce, (s, out, K, pair, op, w),
                        (s, out, K, pair, op, w));
                    break;
                case 2:
                    RUN(mode, wide, Scan, Iscan, (s, out, K, pair, op, w),
                        (s, out, K, pair, op, w));
                    break;
                case 3:
                    RUN(mode, wide, Exscan, Iexscan, (s, out, K, pair, op, w),
                        (s, out, K, pair, op, w));
                    break;
                default:
                    RUN(mode, wide, Reduce_scatter_block, Ireduce_scatter_block,
                        (s, out, K, pair, op, w), (s, out, K, pair, op, w));
                    break;
                }
            }
            /* the reference: the ranks' inputs folded in rank order */
            int upto = pass == 2 ? me + 1 : pass == 3 ? me : n;
            int check = !(pass == 0 && me != 0) && !(pass == 3 && me == 0);
            for (int i = 0; check && i < K; i++) {
                int acc[2], x[2];
                for (int r = 0; r < upto; r++) {
                    input(r, pass == 4 ? me * K + i : i, x);
                    if (r > 0)
                        compose(acc, x, commutative);
                    acc[0] = x[0];
                    acc[1] = x[1];
                }
                CHECK_INT(a[2 * i], acc[0]);
                CHECK_INT(a[2 * i + 1], acc[1]);
                CHECK_INT(b[2 * i], a[2 * i]);
                CHECK_INT(b[2 * i + 1], a[2 * i + 1]);
            }
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    w = MPI_COMM_WORLD;
    MPI_Comm_rank(w, &me);
    MPI_Comm_size(w, &n);
    OK(MPI_Type_contiguous(2, MPI_INT, &pair));
    OK(MPI_Type_commit(&pair));
    MPI_Op ai, ac, pi, pc;
    OK(MPI_Op_create(affine_int, 0, &ai));
    OK(MPI_Op_create_c(affine_c, 0, &ac));
    OK(MPI_Op_create(add1_int, 1, &pi));
    OK(MPI_Op_create_c(add1_c, 1, &pc));
    int commute = -1;
    OK(MPI_Op_commutative(ac, &commute));
    CHECK_INT(commute, 0);
    OK(MPI_Op_commutative(pc, &commute));
    CHECK_INT(commute, 1);

    /* Reduce_local(_c) with either kind of function */
    int in[2 * K], x[2 * K], y[2 * K], z[2 * K];
    for (int i = 0; i < 2 * K; i++) {
        in[i] = i + 1;
        x[i] = y[i] = z[i] = 10 * i;
    }
    OK(MPI_Reduce_local(in, x, K, pair, ai));
    OK(MPI_Reduce_local_c(in, y, K, pair, ac));
    OK(MPI_Reduce_local_c(in, z, (MPI_Count)K, pair, ai)); /* an int op through _c */
    for (int i = 0; i < K; i++) {
        int want[2] = {20 * i, 20 * i + 10};
        compose(in + 2 * i, want, 0);
        CHECK_INT(x[2 * i], want[0]);
        CHECK_INT(x[2 * i + 1], want[1]);
    }
    for (int i = 0; i < 2 * K; i++) {
        CHECK_INT(y[i], x[i]);
        CHECK_INT(z[i], x[i]);
    }
    OK(MPI_Reduce_local_c(in, z, 0, pair, ac)); /* nothing */
    CHECK_INT(z[1], x[1]);
    OK(MPI_Reduce_local_c(in, z, 2 * K, MPI_INT, MPI_SUM)); /* predefined */
    for (int i = 0; i < 2 * K; i++)
        CHECK_INT(z[i], x[i] + i + 1);

    reductions(ai, ac, 0);
    reductions(pi, pc, 1);
    OK(MPI_Op_free(&ai));
    OK(MPI_Op_free(&ac));
    OK(MPI_Op_free(&pi));
    OK(MPI_Op_free(&pc));
    CHECK(ac == MPI_OP_NULL);
    OK(MPI_Type_free(&pair));
    MPI_Finalize();
    return 0;
}
