/* MPI_LAND, MPI_LOR and MPI_LXOR on MPI_AINT, MPI_OFFSET and MPI_COUNT, as MPICH's test
 * coll/allred uses them (the standard's table lists logical operations on C integers and
 * logicals only; MPICH accepts the multi-language types, so loom does: docs/collectives.md).
 * Rank r contributes (r % 2) in element 0, 1 in element 1, 0 in element 2 and (r == 0) in
 * element 3; results are checked against what the ranks' values give, blocking and
 * nonblocking, for Allreduce, Reduce, Scan and Reduce_local. */
#include "coll_check.h"

#define N 4

static long long contrib(int r, int i)
{
    switch (i) {
    case 0: return r % 2 ? 7 : 0; /* truth is "nonzero", not 1 */
    case 1: return -3;
    case 2: return 0;
    default: return r == 0 ? 1LL << 40 : 0;
    }
}

/* The reference over ranks [0, upto]: op 0 LAND, 1 LOR, 2 LXOR. One contribution alone is
 * the result as it is (no operation is applied: MPICH and loom copy it). */
static long long ref(int op, int upto, int i)
{
    if (upto == 0)
        return contrib(0, i);
    int acc = contrib(0, i) != 0;
    for (int r = 1; r <= upto; r++) {
        int x = contrib(r, i) != 0;
        acc = op == 0 ? acc && x : op == 1 ? acc || x : acc != x;
    }
    return acc;
}

#define RUN(T, DT)                                                                             \
    do {                                                                                       \
        T in[N], out[N];                                                                       \
        for (int i = 0; i < N; i++)                                                            \
            in[i] = (T)contrib(rank, i);                                                           \
        for (int k = 0; k < 3; k++) {                                                          \
            for (int mode = 0; mode < 2; mode++) {                                             \
                MPI_Request req;                                                               \
                if (mode == 0) {                                                               \
                    OK(MPI_Allreduce(in, out, N, DT, ops[k], W));                              \
                } else {                                                                       \
                    OK(MPI_Iallreduce(in, out, N, DT, ops[k], W, &req));                       \
                    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));                                     \
                }                                                                              \
                for (int i = 0; i < N; i++)                                                    \
                    CHECK_INT(out[i], ref(k, size - 1, i));                                    \
            }                                                                                  \
            OK(MPI_Scan(in, out, N, DT, ops[k], W));                                           \
            for (int i = 0; i < N; i++)                                                        \
                CHECK_INT(out[i], ref(k, rank, i));                                            \
            for (int i = 0; i < N; i++)                                                        \
                out[i] = -1;                                                                   \
            OK(MPI_Reduce(in, out, N, DT, ops[k], size - 1, W));                               \
            for (int i = 0; i < N; i++)                                                        \
                CHECK_INT(out[i], rank == size - 1 ? ref(k, size - 1, i) : -1);                \
            T a[N], b[N];                                                                      \
            for (int i = 0; i < N; i++) {                                                      \
                a[i] = (T)contrib(1, i);                                                           \
                b[i] = (T)contrib(0, i);                                                           \
            }                                                                                  \
            OK(MPI_Reduce_local(a, b, N, DT, ops[k]));                                         \
            for (int i = 0; i < N; i++)                                                        \
                CHECK_INT(b[i], ref(k, 1, i));                                                 \
        }                                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank, size;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    const MPI_Comm W = MPI_COMM_WORLD;
    MPI_Op ops[3] = {MPI_LAND, MPI_LOR, MPI_LXOR};
    RUN(MPI_Aint, MPI_AINT);
    RUN(MPI_Offset, MPI_OFFSET);
    RUN(MPI_Count, MPI_COUNT);
    OK(MPI_Finalize());
    return 0;
}
