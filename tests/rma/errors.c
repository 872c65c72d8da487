/* Bad input to the one-sided calls, under MPI_ERRORS_RETURN: each mistake gets its error class
 * (MPI_ERR_RMA_SYNC for an operation or a synchronization outside the epoch it needs,
 * MPI_ERR_RMA_RANGE for target data outside the window, MPI_ERR_TYPE for datatypes the
 * standard forbids together, MPI_ERR_RANK, MPI_ERR_LOCKTYPE, MPI_ERR_ASSERT, MPI_ERR_DISP,
 * MPI_ERR_SIZE, MPI_ERR_OP, MPI_ERR_WIN, MPI_ERR_RMA_FLAVOR, MPI_ERR_RMA_ATTACH), the
 * window's own handler is the one called, and the window still works afterwards: a refused
 * call changed nothing. */
#include <mpi.h>
#include <stdlib.h>
#include "check.h"
#include "class_check.h"

/* A window error handler that counts its calls in the int its window's attribute points
 * at: per rank, with no global state. */
static void counting_handler(MPI_Win *win, int *code, ...)
{
    int *count, flag;
    CHECK_INT(*code, MPI_ERR_RMA_SYNC);
    /* the count is the first int of the window's memory (this test's own convention) */
    MPI_Win_get_attr(*win, MPI_WIN_BASE, &count, &flag);
    CHECK(flag);
    count[0]++;
}

static void epochs(MPI_Win win, int rank, int size, int *mem)
{
    int v = 7, r = (rank + 1) % size;
    /* no epoch: every operation is refused */
    EXPECT(MPI_Put(&v, 1, MPI_INT, r, 1, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Get(&v, 1, MPI_INT, r, 1, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Accumulate(&v, 1, MPI_INT, r, 1, 1, MPI_INT, MPI_SUM, win),
                 MPI_ERR_RMA_SYNC);
    int old;
    EXPECT(MPI_Fetch_and_op(&v, &old, MPI_INT, r, 1, MPI_SUM, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Compare_and_swap(&v, &v, &old, MPI_INT, r, 1, win), MPI_ERR_RMA_SYNC);
    /* closing what is not open */
    EXPECT(MPI_Win_unlock(r, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
    int flag;
    EXPECT(MPI_Win_test(win, &flag), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_flush(r, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_flush_all(win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_flush_local_all(win), MPI_ERR_RMA_SYNC);
    /* a fence's epoch does not allow request-based operations or flushes */
    CHECK_INT(MPI_Win_fence(0, win), MPI_SUCCESS);
    MPI_Request req = MPI_REQUEST_NULL;
    EXPECT(MPI_Rput(&v, 1, MPI_INT, r, 1, 1, MPI_INT, win, &req), MPI_ERR_RMA_SYNC);
    CHECK(req == MPI_REQUEST_NULL);
    EXPECT(MPI_Win_flush(r, win), MPI_ERR_RMA_SYNC);
    /* operations issued in a fence's epoch must end with a fence, not another epoch */
    CHECK_INT(MPI_Put(&v, 1, MPI_INT, r, 1, 1, MPI_INT, win), MPI_SUCCESS);
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, r, 0, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_lock_all(0, win), MPI_ERR_RMA_SYNC);
    CHECK_INT(MPI_Win_fence(MPI_MODE_NOSUCCEED, win), MPI_SUCCESS);
    CHECK_INT(mem[1], 7); /* the put of the left neighbour landed */
    /* lock epochs: one lock per target, none beside lock_all, no fence inside */
    CHECK_INT(MPI_Win_lock(MPI_LOCK_SHARED, r, 0, win), MPI_SUCCESS);
    CHECK_INT(MPI_Win_flush_all(win), MPI_SUCCESS); /* a lock on one target is an epoch */
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, r, 0, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_lock_all(0, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC);
    if (size > 2) /* a target this origin has not locked */
        EXPECT(MPI_Put(&v, 1, MPI_INT, (rank + 2) % size, 1, 1, MPI_INT, win),
                     MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_free(&win), MPI_ERR_RMA_SYNC);
    CHECK(win != MPI_WIN_NULL);
    CHECK_INT(MPI_Win_unlock(r, win), MPI_SUCCESS);
    EXPECT(MPI_Win_flush_all(win), MPI_ERR_RMA_SYNC); /* ...and its unlock ends it */
    EXPECT(MPI_Win_unlock(r, win), MPI_ERR_RMA_SYNC);
    CHECK_INT(MPI_Win_lock_all(0, win), MPI_SUCCESS);
    EXPECT(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, r, 0, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_free(&win), MPI_ERR_RMA_SYNC);
    CHECK_INT(MPI_Win_unlock_all(win), MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD); /* no rank locks while another checks its epoch */
}

static void arguments(MPI_Win win, int rank, int size)
{
    int v[4] = {0}, r = (rank + 1) % size;
    CHECK_INT(MPI_Win_lock_all(0, win), MPI_SUCCESS);
    EXPECT(MPI_Put(v, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    EXPECT(MPI_Put(v, 1, MPI_INT, -7, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    EXPECT(MPI_Put(v, 1, MPI_INT, r, -1, 1, MPI_INT, win), MPI_ERR_DISP);
    EXPECT(MPI_Put(v, -1, MPI_INT, r, 0, 1, MPI_INT, win), MPI_ERR_COUNT);
    EXPECT(MPI_Put(v, 1, MPI_DATATYPE_NULL, r, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
    /* the window holds 16 ints: int 15 is the last, 16 and a 2-int range at 15 are outside */
    CHECK_INT(MPI_Put(v, 1, MPI_INT, r, 15, 1, MPI_INT, win), MPI_SUCCESS);
    EXPECT(MPI_Put(v, 1, MPI_INT, r, 16, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    EXPECT(MPI_Get(v, 2, MPI_INT, r, 15, 2, MPI_INT, win), MPI_ERR_RMA_RANGE);
    EXPECT(MPI_Accumulate(v, 4, MPI_INT, r, 13, 4, MPI_INT, MPI_SUM, win),
                 MPI_ERR_RMA_RANGE);
    /* a vector whose stride reaches past the end */
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 16, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    EXPECT(MPI_Put(v, 2, MPI_INT, r, 0, 1, vec, win), MPI_ERR_RMA_RANGE);
    MPI_Type_free(&vec);
    /* signatures: sizes differ, or an accumulate mixes basic types */
    EXPECT(MPI_Put(v, 2, MPI_INT, r, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
    EXPECT(MPI_Get(v, 1, MPI_INT, r, 0, 1, MPI_DOUBLE, win), MPI_ERR_TYPE);
    EXPECT(MPI_Accumulate(v, 2, MPI_INT, r, 0, 1, MPI_DOUBLE, MPI_SUM, win),
                 MPI_ERR_TYPE);
    MPI_Datatype mixed;
    int blens[2] = {1, 1};
    MPI_Aint displs[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, blens, displs, types, &mixed);
    MPI_Type_commit(&mixed);
    EXPECT(MPI_Accumulate(v, 1, mixed, r, 0, 1, mixed, MPI_REPLACE, win), MPI_ERR_TYPE);
    MPI_Type_free(&mixed);
    /* operations: a user op, an op not defined on the type, MPI_OP_NULL */
    MPI_Op user;
    MPI_Op_create((MPI_User_function *)(void (*)(void))abort, 1, &user);
    EXPECT(MPI_Accumulate(v, 1, MPI_INT, r, 0, 1, MPI_INT, user, win), MPI_ERR_OP);
    MPI_Op_free(&user);
    double d = 1;
    EXPECT(MPI_Accumulate(&d, 1, MPI_DOUBLE, r, 0, 1, MPI_DOUBLE, MPI_BAND, win),
                 MPI_ERR_OP);
    EXPECT(MPI_Accumulate(v, 1, MPI_INT, r, 0, 1, MPI_INT, MPI_OP_NULL, win), MPI_ERR_OP);
    /* one-element calls: compare-and-swap on an integer type only, fetch-and-op predefined */
    double dd;
    EXPECT(MPI_Compare_and_swap(&d, &d, &dd, MPI_DOUBLE, r, 0, win), MPI_ERR_TYPE);
    MPI_Datatype two;
    MPI_Type_contiguous(1, MPI_INT, &two);
    MPI_Type_commit(&two);
    int old;
    EXPECT(MPI_Fetch_and_op(v, &old, two, r, 0, MPI_SUM, win), MPI_ERR_TYPE);
    MPI_Type_free(&two);
    /* synchronization arguments */
    EXPECT(MPI_Win_flush(size, win), MPI_ERR_RANK);
    CHECK_INT(MPI_Win_unlock_all(win), MPI_SUCCESS);
    EXPECT(MPI_Win_lock(99, r, 0, win), MPI_ERR_LOCKTYPE);
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win), MPI_ERR_RANK);
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, r, 1, win), MPI_ERR_ASSERT);
    EXPECT(MPI_Win_fence(-1, win), MPI_ERR_ASSERT);
    EXPECT(MPI_Win_post(MPI_GROUP_NULL, 0, win), MPI_ERR_GROUP);
    EXPECT(MPI_Win_start(MPI_GROUP_NULL, 0, win), MPI_ERR_GROUP);
    /* flavors: attach to a window that is not dynamic, share a dynamic one's memory */
    EXPECT(MPI_Win_attach(win, v, sizeof v), MPI_ERR_RMA_FLAVOR);
    EXPECT(MPI_Win_detach(win, v), MPI_ERR_RMA_FLAVOR);
}

static void dynamic(int rank)
{
    MPI_Win win;
    CHECK_INT(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_SUCCESS);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int mem[8], other[8];
    CHECK_INT(MPI_Win_attach(win, mem, sizeof mem), MPI_SUCCESS);
    EXPECT(MPI_Win_attach(win, mem + 4, sizeof(int)), MPI_ERR_RMA_ATTACH);
    EXPECT(MPI_Win_attach(win, mem, sizeof mem), MPI_ERR_RMA_ATTACH);
    EXPECT(MPI_Win_detach(win, other), MPI_ERR_RMA_ATTACH);
    EXPECT(MPI_Win_detach(win, mem + 1), MPI_ERR_RMA_ATTACH);
    EXPECT(MPI_Win_attach(win, mem, -1), MPI_ERR_SIZE);
    MPI_Aint sz;
    int unit;
    void *base;
    EXPECT(MPI_Win_shared_query(win, 0, &sz, &unit, &base), MPI_ERR_RMA_FLAVOR);
    /* each rank targets itself: an address outside every region it attached, and a range
     * crossing a region's end */
    MPI_Win_lock_all(0, win);
    MPI_Aint a;
    MPI_Get_address(other, &a);
    int v = 0;
    EXPECT(MPI_Put(&v, 1, MPI_INT, rank, a, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    MPI_Get_address(mem + 7, &a);
    CHECK_INT(MPI_Put(&v, 1, MPI_INT, rank, a, 1, MPI_INT, win), MPI_SUCCESS);
    int two[2] = {0, 0};
    EXPECT(MPI_Put(two, 2, MPI_INT, rank, a, 2, MPI_INT, win), MPI_ERR_RMA_RANGE);
    MPI_Win_unlock_all(win);
    CHECK_INT(MPI_Win_detach(win, mem), MPI_SUCCESS);
    CHECK_INT(MPI_Win_free(&win), MPI_SUCCESS);
}

static void creation(int size)
{
    MPI_Win win;
    void *base;
    EXPECT(MPI_Win_allocate(-1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win),
                 MPI_ERR_SIZE);
    EXPECT(MPI_Win_allocate(8, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win),
                 MPI_ERR_DISP);
    EXPECT(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_NULL, &win), MPI_ERR_COMM);
    if (size > 1) { /* an intercommunicator between the two halves of the job */
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm half, inter;
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 5, &inter);
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        EXPECT(MPI_Win_create_dynamic(MPI_INFO_NULL, inter, &win), MPI_ERR_COMM);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
    /* handles that are no live window of this rank */
    EXPECT(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN);
    MPI_Win freed;
    MPI_Win_allocate(4, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &freed);
    MPI_Win stale = freed;
    CHECK_INT(MPI_Win_free(&freed), MPI_SUCCESS);
    CHECK(freed == MPI_WIN_NULL);
    EXPECT(MPI_Win_fence(0, stale), MPI_ERR_WIN);
    EXPECT(MPI_Win_free(&stale), MPI_ERR_WIN);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *mem;
    MPI_Win win;
    CHECK_INT(MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                               &mem, &win),
              MPI_SUCCESS);
    for (int i = 0; i < 16; i++)
        mem[i] = 0;
    /* the window's default handler is fatal: return errors on this one */
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Barrier(MPI_COMM_WORLD);
    epochs(win, rank, size, mem);
    arguments(win, rank, size);

    /* the window's own handler is called, with the window (the count is in its memory) */
    MPI_Errhandler eh;
    CHECK_INT(MPI_Win_create_errhandler(counting_handler, &eh), MPI_SUCCESS);
    EXPECT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh), MPI_ERR_ARG);
    CHECK_INT(MPI_Win_set_errhandler(win, eh), MPI_SUCCESS);
    MPI_Errhandler_free(&eh);
    mem[0] = 0;
    int v = 1;
    EXPECT(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);
    CHECK_INT(mem[0], 2);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);

    /* the window still works: a fence epoch of puts to the right neighbour */
    MPI_Win_fence(0, win);
    MPI_Put(&rank, 1, MPI_INT, (rank + 1) % size, 3, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    CHECK_INT(mem[3], (rank + size - 1) % size);
    CHECK_INT(MPI_Win_free(&win), MPI_SUCCESS);
    dynamic(rank);
    creation(size);
    MPI_Finalize();
    return 0;
}
