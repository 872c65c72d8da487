/* Partitioned communication across an intercommunicator: the even and the odd ranks of the
 * world form two groups; rank i of each group sends to and receives from rank i of the other
 * (6 send partitions of 2 ints, 4 receive partitions of 3), two rounds; the status names the
 * sender by its rank in the remote group. */
#include "check.h"
#include "mpi.h"

#define OK(call) CHECK_INT((call), MPI_SUCCESS)
enum { N = 12 };

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank, size;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size % 2 == 0);
    MPI_Comm half, inter;
    OK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    OK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter));
    int me;
    OK(MPI_Comm_rank(inter, &me));
    int sbuf[N], rbuf[N];
    MPI_Request req[2];
    OK(MPI_Psend_init(sbuf, 6, 2, MPI_INT, me, 1, inter, MPI_INFO_NULL, &req[0]));
    OK(MPI_Precv_init(rbuf, 4, 3, MPI_INT, me, 1, inter, MPI_INFO_NULL, &req[1]));
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < N; i++) {
            sbuf[i] = rank * 1000 + round * 100 + i;
            rbuf[i] = -1;
        }
        OK(MPI_Startall(2, req));
        for (int p = 0; p < 6; p++)
            OK(MPI_Pready(p, req[0]));
        MPI_Status st[2];
        OK(MPI_Waitall(2, req, st));
        int from = rank % 2 ? rank - 1 : rank + 1; /* world rank of the partner */
        for (int i = 0; i < N; i++)
            CHECK_INT(rbuf[i], from * 1000 + round * 100 + i);
        CHECK_INT(st[1].MPI_SOURCE, me);
        CHECK_INT(st[1].MPI_TAG, 1);
    }
    OK(MPI_Request_free(&req[0]));
    OK(MPI_Request_free(&req[1]));
    OK(MPI_Comm_free(&inter));
    OK(MPI_Comm_free(&half));
    OK(MPI_Finalize());
    return 0;
}
