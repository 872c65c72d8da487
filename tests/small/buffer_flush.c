/* MPI 4.1's MPI_Buffer_flush and MPI_Buffer_iflush on the rank's attached buffer, around the
 * ring: a buffered send of a rendezvous size stays in the buffer until its receiver takes it.
 * An iflush issued then is not complete before any receive is posted (a barrier keeps them
 * back), and completes once the receiver has the message; a flush with nothing buffered, or
 * with no buffer attached, returns at once; a blocking flush returns once the receiver, which
 * posted its receive, has the message, and the buffer is empty after it. */
#include <stdlib.h>
#include "small_check.h"

enum { N = 100000 }; /* ints: more than the eager limit, so the send waits for its receive */

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Request req;
    int flag = -1;

    /* nothing attached: nothing to wait for */
    OK(MPI_Buffer_flush());
    OK(MPI_Buffer_iflush(&req));
    OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 1);

    int bufsize = 2 * (N * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *buffer = malloc((size_t)bufsize);
    int *s = malloc(sizeof(int) * N), *r = malloc(sizeof(int) * N);
    CHECK(buffer && s && r);
    OK(MPI_Buffer_attach(buffer, bufsize));
    OK(MPI_Buffer_iflush(&req)); /* attached, empty */
    OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 1);

    /* iflush with a message in the buffer that nobody receives yet */
    for (int i = 0; i < N; i++)
        s[i] = rank * 7 + i;
    OK(MPI_Bsend(s, N, MPI_INT, next, 1, MPI_COMM_WORLD));
    for (int i = 0; i < N; i++)
        s[i] = -1; /* the buffer has its own copy */
    OK(MPI_Buffer_iflush(&req));
    for (int k = 0; k < 10; k++) {
        OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        CHECK_INT(flag, 0);
    }
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Recv(r, N, MPI_INT, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        CHECK_INT(r[i], prev * 7 + i);
    MPI_Status st;
    OK(MPI_Wait(&req, &st));
    CHECK(req == MPI_REQUEST_NULL);
    CHECK_INT(st.MPI_SOURCE, MPI_ANY_SOURCE); /* an empty status */

    /* blocking flush: the receiver has posted its receive */
    for (int i = 0; i < N; i++)
        s[i] = rank * 11 + i;
    OK(MPI_Irecv(r, N, MPI_INT, prev, 2, MPI_COMM_WORLD, &req));
    OK(MPI_Bsend(s, N, MPI_INT, next, 2, MPI_COMM_WORLD));
    OK(MPI_Buffer_flush());
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        CHECK_INT(r[i], prev * 11 + i);
    /* both messages gone: the buffer holds two again */
    OK(MPI_Bsend(s, N, MPI_INT, next, 3, MPI_COMM_WORLD));
    OK(MPI_Bsend(s, N, MPI_INT, next, 4, MPI_COMM_WORLD));
    OK(MPI_Recv(r, N, MPI_INT, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    OK(MPI_Recv(r, N, MPI_INT, prev, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));

    /* a freed iflush request: its completer frees it (the flush first: our messages are
     * received by the next rank, in its own time) */
    OK(MPI_Buffer_flush());
    OK(MPI_Bsend(s, N, MPI_INT, next, 5, MPI_COMM_WORLD));
    OK(MPI_Buffer_iflush(&req));
    OK(MPI_Request_free(&req));
    OK(MPI_Recv(r, N, MPI_INT, prev, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));

    void *back;
    int back_size;
    OK(MPI_Buffer_detach(&back, &back_size));
    CHECK(back == buffer);
    CHECK_INT(back_size, bufsize);
    FAILS(MPI_Buffer_iflush(NULL), MPI_ERR_ARG);
    free(buffer);
    free(s);
    free(r);
    MPI_Finalize();
    return 0;
}
