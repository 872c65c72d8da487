/* MPI_Comm_disconnect and MPI_Comm_get_parent. A program loom starts has no parent. A
 * disconnect is collective: it returns on a member only once every member has called it, so
 * a rank that sends before its disconnect finds its message received; it runs the delete
 * callbacks of the communicator's attributes, drains a buffer attached to it, sets the handle
 * to MPI_COMM_NULL, and works on an intercommunicator. Errors: the predefined communicators,
 * a NULL handle pointer, a freed one. */
#include <stdlib.h>
#include "class_check.h"
#include "comm_check.h"


static int count_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    *(int *)val += 1;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = world_rank(), size = world_size();
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Comm parent = MPI_COMM_WORLD, c;
    OK(MPI_Comm_get_parent(&parent));
    CHECK(parent == MPI_COMM_NULL);

    /* messages sent before the disconnect are received before it returns; attributes go */
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    int keyval, got = -1, mine = 0;
    OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &keyval, NULL));
    OK(MPI_Comm_set_attr(c, keyval, &mine));
    MPI_Request req;
    OK(MPI_Irecv(&got, 1, MPI_INT, prev, 5, c, &req));
    OK(MPI_Send(&rank, 1, MPI_INT, next, 5, c));
    OK(MPI_Comm_disconnect(&c));
    CHECK(c == MPI_COMM_NULL);
    CHECK_INT(mine, 1);
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_INT(got, prev);
    OK(MPI_Comm_free_keyval(&keyval));

    /* a buffer attached to the communicator: its buffered send has left it on return */
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    int bsize = 1024 + MPI_BSEND_OVERHEAD;
    char *buf = malloc((size_t)bsize);
    CHECK(buf != NULL);
    OK(MPI_Comm_attach_buffer(c, buf, bsize));
    int val = rank * 10;
    OK(MPI_Bsend(&val, 1, MPI_INT, next, 6, c));
    OK(MPI_Recv(&got, 1, MPI_INT, prev, 6, c, MPI_STATUS_IGNORE));
    CHECK_INT(got, prev * 10);
    OK(MPI_Comm_disconnect(&c));
    CHECK(c == MPI_COMM_NULL);
    free(buf); /* detached and drained */

    /* an intercommunicator between the two halves of the ranks */
    if (size > 1) {
        MPI_Comm half, inter;
        int color = rank < size / 2;
        OK(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half));
        OK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color ? size / 2 : 0, 9, &inter));
        int rsize = 0;
        OK(MPI_Comm_remote_size(inter, &rsize));
        CHECK_INT(rsize, color ? size - size / 2 : size / 2);
        OK(MPI_Comm_disconnect(&inter));
        CHECK(inter == MPI_COMM_NULL);
        OK(MPI_Comm_free(&half));
    }

    /* errors */
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    MPI_Comm w = MPI_COMM_WORLD, s = MPI_COMM_SELF, n = MPI_COMM_NULL;
    EXPECT(MPI_Comm_disconnect(&w), MPI_ERR_COMM);
    EXPECT(MPI_Comm_disconnect(&s), MPI_ERR_COMM);
    EXPECT(MPI_Comm_disconnect(&n), MPI_ERR_COMM);
    EXPECT(MPI_Comm_disconnect(NULL), MPI_ERR_ARG);
    EXPECT(MPI_Comm_get_parent(NULL), MPI_ERR_ARG);
    OK(MPI_Comm_dup(MPI_COMM_SELF, &c));
    MPI_Comm stale = c;
    OK(MPI_Comm_free(&c));
    EXPECT(MPI_Comm_disconnect(&stale), MPI_ERR_COMM);
    MPI_Finalize();
    return 0;
}
