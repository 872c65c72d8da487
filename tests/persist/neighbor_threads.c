/* MPI_THREAD_MULTIPLE: the threads of each rank each make persistent neighbor alltoall and
 * allgather requests on their own dup of one periodic ring, free that communicator at once
 * (all threads of all ranks at the same time: the last reference to its contexts is then a
 * request), start and complete their requests ROUNDS times with new values, and free them:
 * whichever thread of whichever rank frees last releases the contexts. */
#include <pthread.h>
#include "coll_check.h"

#define NT 4
#define ROUNDS 20

struct arg {
    MPI_Comm comm;
    int rank, size, id;
};

static void *body(void *p)
{
    struct arg *a = p;
    int left = (a->rank + a->size - 1) % a->size, right = (a->rank + 1) % a->size;
    int s[2] = {0, 0}, r[2], g = 0, gr[2];
    MPI_Request q[2];
    OK(MPI_Neighbor_alltoall_init(s, 1, MPI_INT, r, 1, MPI_INT, a->comm, MPI_INFO_NULL, &q[0]));
    OK(MPI_Neighbor_allgather_init(&g, 1, MPI_INT, gr, 1, MPI_INT, a->comm, MPI_INFO_NULL,
                                   &q[1]));
    OK(MPI_Comm_free(&a->comm));
    for (int k = 0; k < ROUNDS; k++) {
        int base = 1000 * k + 100 * a->id;
        s[0] = base + a->rank * 10, s[1] = base + a->rank * 10 + 1, g = base + a->rank;
        r[0] = r[1] = gr[0] = gr[1] = -1;
        if (k % 2) {
            OK(MPI_Startall(2, q));
            OK(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
        } else {
            OK(MPI_Start(&q[1]));
            OK(MPI_Start(&q[0]));
            OK(MPI_Wait(&q[0], MPI_STATUS_IGNORE));
            OK(MPI_Wait(&q[1], MPI_STATUS_IGNORE));
        }
        CHECK_INT(r[0], base + left * 10 + 1); /* the left one's block for its +1 neighbour */
        CHECK_INT(r[1], base + right * 10);    /* the right one's block for its -1 neighbour */
        CHECK_INT(gr[0], base + left);
        CHECK_INT(gr[1], base + right);
    }
    OK(MPI_Request_free(&q[0]));
    OK(MPI_Request_free(&q[1]));
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_INT(provided, MPI_THREAD_MULTIPLE);
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MPI_Comm cart;
    OK(MPI_Cart_create(MPI_COMM_WORLD, 1, (int[]){size}, (int[]){1}, 0, &cart));
    struct arg a[NT];
    pthread_t t[NT];
    for (int i = 0; i < NT; i++) {
        a[i] = (struct arg){MPI_COMM_NULL, rank, size, i};
        OK(MPI_Comm_dup(cart, &a[i].comm));
    }
    OK(MPI_Comm_free(&cart));
    for (int i = 0; i < NT; i++)
        CHECK_INT(pthread_create(&t[i], NULL, body, &a[i]), 0);
    for (int i = 0; i < NT; i++)
        CHECK_INT(pthread_join(t[i], NULL), 0);
    OK(MPI_Finalize());
    return 0;
}
