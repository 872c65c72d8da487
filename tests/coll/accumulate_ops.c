/* MPI_REPLACE and MPI_NO_OP are operations of one-sided accumulates only: every reduction
 * (blocking, nonblocking, Reduce_local) refuses them with MPI_ERR_OP, on every rank, and
 * leaves its receive buffer as it was. Before the fix they returned MPI_SUCCESS. */
#include "coll_check.h"

#define FAILS_OP(call)                                                                         \
    do {                                                                                       \
        int rc_ = (call), cls_ = -1;                                                           \
        MPI_Error_class(rc_, &cls_);                                                           \
        if (cls_ != MPI_ERR_OP) {                                                              \
            fprintf(stderr, "%s:%d: %s returned class %d, expected MPI_ERR_OP\n", __FILE__,    \
                    __LINE__, #call, cls_);                                                    \
            fflush(NULL);                                                                      \
            _exit(99);                                                                         \
        }                                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank, size;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    const MPI_Comm W = MPI_COMM_WORLD;
    int in[8], out[8], counts[8];
    for (int i = 0; i < 8; i++) {
        in[i] = rank + i;
        out[i] = -7;
        counts[i] = 1;
    }
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Op ops[2] = {MPI_REPLACE, MPI_NO_OP};
    for (int k = 0; k < 2; k++) {
        MPI_Op op = ops[k];
        FAILS_OP(MPI_Allreduce(in, out, 2, MPI_INT, op, W));
        FAILS_OP(MPI_Reduce(in, out, 2, MPI_INT, op, 0, W));
        FAILS_OP(MPI_Reduce(in, out, 2, MPI_INT, op, size - 1, W));
        FAILS_OP(MPI_Scan(in, out, 2, MPI_INT, op, W));
        FAILS_OP(MPI_Exscan(in, out, 2, MPI_INT, op, W));
        FAILS_OP(MPI_Reduce_scatter_block(in, out, 1, MPI_INT, op, W));
        FAILS_OP(MPI_Reduce_scatter(in, out, counts, MPI_INT, op, W));
        FAILS_OP(MPI_Iallreduce(in, out, 2, MPI_INT, op, W, &req));
        FAILS_OP(MPI_Ireduce(in, out, 2, MPI_INT, op, 0, W, &req));
        FAILS_OP(MPI_Iscan(in, out, 2, MPI_INT, op, W, &req));
        FAILS_OP(MPI_Iexscan(in, out, 2, MPI_INT, op, W, &req));
        FAILS_OP(MPI_Ireduce_scatter_block(in, out, 1, MPI_INT, op, W, &req));
        FAILS_OP(MPI_Ireduce_scatter(in, out, counts, MPI_INT, op, W, &req));
        FAILS_OP(MPI_Reduce_local(in, out, 2, MPI_INT, op));
        /* in place too */
        FAILS_OP(MPI_Allreduce(MPI_IN_PLACE, out, 2, MPI_INT, op, W));
        CHECK(req == MPI_REQUEST_NULL);
        for (int i = 0; i < 8; i++)
            CHECK_INT(out[i], -7);
    }
    /* the job goes on: a correct reduction still works */
    OK(MPI_Allreduce(in, out, 1, MPI_INT, MPI_SUM, W));
    CHECK_INT(out[0], size * (size - 1) / 2);
    OK(MPI_Finalize());
    return 0;
}
