/* MPI_THREAD_MULTIPLE: the threads of each rank use their own dups of one Cartesian
 * communicator at once (queries, blocking and nonblocking neighbor exchanges), then free
 * them at once: the shared topology object is released by whichever thread is last. */
#include <pthread.h>
#include "comm_check.h"

#define NT 4
#define ROUNDS 20

struct arg {
    MPI_Comm comm;
    int rank, size;
};

static void *body(void *p)
{
    struct arg *a = p;
    int left = (a->rank + a->size - 1) % a->size, right = (a->rank + 1) % a->size;
    for (int k = 0; k < ROUNDS; k++) {
        int src, dst, st;
        OK(MPI_Topo_test(a->comm, &st));
        CHECK_INT(st, MPI_CART);
        OK(MPI_Cart_shift(a->comm, 0, 1, &src, &dst));
        CHECK_INT(src, left);
        CHECK_INT(dst, right);
        int s[2] = {a->rank * 10 + 0, a->rank * 10 + 1}, r[2] = {-1, -1};
        MPI_Request q;
        if (k % 2)
            OK(MPI_Neighbor_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, a->comm));
        else {
            OK(MPI_Ineighbor_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, a->comm, &q));
            OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
        }
        CHECK_INT(r[0], left * 10 + 1);  /* the left one's block for its +1 neighbour */
        CHECK_INT(r[1], right * 10 + 0); /* the right one's block for its -1 neighbour */
    }
    OK(MPI_Comm_free(&a->comm));
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    int size = world_size(), rank = world_rank();
    MPI_Comm cart;
    OK(MPI_Cart_create(MPI_COMM_WORLD, 1, (int[]){size}, (int[]){1}, 0, &cart));
    struct arg a[NT];
    pthread_t t[NT];
    for (int i = 0; i < NT; i++) {
        a[i] = (struct arg){MPI_COMM_NULL, rank, size};
        OK(MPI_Comm_dup(cart, &a[i].comm));
    }
    OK(MPI_Comm_free(&cart));
    for (int i = 0; i < NT; i++)
        CHECK_INT(pthread_create(&t[i], NULL, body, &a[i]), 0);
    for (int i = 0; i < NT; i++)
        CHECK_INT(pthread_join(t[i], NULL), 0);
    MPI_Finalize();
    return 0;
}
