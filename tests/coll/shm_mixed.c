/* Blocking shm collectives while nonblocking collectives and point-to-point messages are
 * outstanding on the same communicator: the shm collectives keep their own numbering, so
 * they neither match nor disturb the messages of the schedules and of the user, and the
 * outstanding operations complete with the right data afterwards (and while the blocking
 * ones wait, since a waiting rank advances tasks). */
#include "coll_check.h"

static _Thread_local int rank, size; /* ranks are threads: globals are shared */
#define CNT 3000

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int *ib = malloc(CNT * sizeof *ib), *ias = malloc(CNT * sizeof *ias);
    int *iad = malloc(CNT * sizeof *iad), *pout = malloc(CNT * sizeof *pout);
    int *pin = malloc(CNT * sizeof *pin), *bb = malloc(CNT * sizeof *bb);
    int *bas = malloc(CNT * sizeof *bas), *bad = malloc(CNT * sizeof *bad);
    int *ag = malloc((size_t)size * CNT * sizeof *ag), *at = malloc((size_t)size * sizeof *at);
    int *ats = malloc((size_t)size * sizeof *ats);
    CHECK(ib && ias && iad && pout && pin && bb && bas && bad && ag && at && ats);
    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < CNT; i++) {
            ib[i] = rank == 0 ? val(round, i) : -1;
            ias[i] = val(rank, i + round);
            pout[i] = val(rank, 3 * i + round);
            bb[i] = rank == size - 1 ? val(round + 7, i) : -1;
            bas[i] = val(rank, 2 * i + round);
        }
        MPI_Request req[4];
        OK(MPI_Irecv(pin, CNT, MPI_INT, left, round, MPI_COMM_WORLD, &req[0]));
        OK(MPI_Ibcast(ib, CNT, MPI_INT, 0, MPI_COMM_WORLD, &req[1]));
        OK(MPI_Iallreduce(ias, iad, CNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[2]));
        OK(MPI_Isend(pout, CNT, MPI_INT, right, round, MPI_COMM_WORLD, &req[3]));
        /* blocking collectives with the four above still outstanding */
        OK(MPI_Bcast(bb, CNT, MPI_INT, size - 1, MPI_COMM_WORLD));
        OK(MPI_Allreduce(bas, bad, CNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        OK(MPI_Barrier(MPI_COMM_WORLD));
        OK(MPI_Allgather(bas, CNT, MPI_INT, ag, CNT, MPI_INT, MPI_COMM_WORLD));
        for (int r = 0; r < size; r++)
            ats[r] = rank * 100 + r + round;
        OK(MPI_Alltoall(ats, 1, MPI_INT, at, 1, MPI_INT, MPI_COMM_WORLD));
        OK(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
        char what[64];
        snprintf(what, sizeof what, "round %d rank %d of %d", round, rank, size);
        for (int i = 0; i < CNT; i++) {
            int sum_i = 0, sum_b = 0;
            for (int r = 0; r < size; r++) {
                sum_i += val(r, i + round);
                sum_b += val(r, 2 * i + round);
            }
            if (ib[i] != val(round, i) || iad[i] != sum_i || pin[i] != val(left, 3 * i + round) ||
                bb[i] != val(round + 7, i) || bad[i] != sum_b) {
                fprintf(stderr, "%s: element %d: ibcast %d/%d iallreduce %d/%d p2p %d/%d "
                        "bcast %d/%d allreduce %d/%d\n", what, i, ib[i], val(round, i), iad[i],
                        sum_i, pin[i], val(left, 3 * i + round), bb[i], val(round + 7, i),
                        bad[i], sum_b);
                fflush(NULL);
                _exit(99);
            }
            for (int r = 0; r < size; r++)
                if (ag[(long)r * CNT + i] != val(r, 2 * i + round)) {
                    fprintf(stderr, "%s: allgather block %d element %d is %d, expected %d\n",
                            what, r, i, ag[(long)r * CNT + i], val(r, 2 * i + round));
                    fflush(NULL);
                    _exit(99);
                }
        }
        for (int r = 0; r < size; r++)
            CHECK_INT(at[r], r * 100 + rank + round);
    }
    free(ib), free(ias), free(iad), free(pout), free(pin), free(bb), free(bas), free(bad);
    free(ag), free(at), free(ats);
    MPI_Finalize();
    return 0;
}
