/* The MPI_T event calls that take an event index, a registration or an instance (MPI 4.1,
 * section 15.3.8), where loom has no event type: before MPI_T_init_thread (and after the last
 * MPI_T_finalize) each says MPI_T_ERR_NOT_INITIALIZED; once initialized, allocating a
 * registration says MPI_T_ERR_INVALID_INDEX for every index (there are MPI_T_event_get_num =
 * 0 of them) and every call given a registration or an instance MPI_T_ERR_INVALID_HANDLE,
 * whatever the handle (null, garbage): none can exist. MPI_T is per process and every rank is
 * a thread of it, so rank 0 checks the uninitialized state while the others wait in a
 * barrier; the initialized checks run on every rank at once. */
#include "mpit_check.h"

static void cb(MPI_T_event_instance i, MPI_T_event_registration r, MPI_T_cb_safety s, void *u)
{
    (void)i, (void)r, (void)s, (void)u;
    CHECK(0); /* never called: there is no event */
}

static void free_cb(MPI_T_event_registration r, MPI_T_cb_safety s, void *u)
{
    (void)r, (void)s, (void)u;
    CHECK(0);
}

static void dropped_cb(MPI_Count c, MPI_T_event_registration r, int i, MPI_T_cb_safety s,
                       void *u)
{
    (void)c, (void)r, (void)i, (void)s, (void)u;
    CHECK(0);
}

/* Every call with the handle h (and instance i): all must return class e, or, for the index
 * of MPI_T_event_handle_alloc, e_index. */
static void all_calls(MPI_T_event_registration h, MPI_T_event_instance i, int index, int e,
                      int e_index)
{
    MPI_T_event_registration out = h;
    MPI_Info info = MPI_INFO_NULL;
    char buf[64];
    MPI_Count ts;
    int src;
    CHECK_RC(MPI_T_event_handle_alloc(index, NULL, MPI_INFO_NULL, &out), e_index);
    CHECK(out == h); /* nothing written */
    CHECK_RC(MPI_T_event_handle_set_info(h, MPI_INFO_NULL), e);
    CHECK_RC(MPI_T_event_handle_get_info(h, &info), e);
    CHECK(info == MPI_INFO_NULL);
    CHECK_RC(MPI_T_event_register_callback(h, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, cb),
             e);
    CHECK_RC(MPI_T_event_callback_set_info(h, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL), e);
    CHECK_RC(MPI_T_event_callback_get_info(h, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE, &info), e);
    CHECK_RC(MPI_T_event_handle_free(h, NULL, free_cb), e);
    CHECK_RC(MPI_T_event_set_dropped_handler(h, dropped_cb), e);
    CHECK_RC(MPI_T_event_read(i, 0, buf), e);
    CHECK_RC(MPI_T_event_copy(i, buf), e);
    CHECK_RC(MPI_T_event_get_timestamp(i, &ts), e);
    CHECK_RC(MPI_T_event_get_source(i, &src), e);
}

int main(int argc, char **argv)
{
    int rank, provided, n = -1;
    char junk[64];
    MPI_T_event_registration bogus = (MPI_T_event_registration)junk;
    MPI_T_event_instance bogus_i = (MPI_T_event_instance)junk;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        all_calls(NULL, NULL, 0, MPI_T_ERR_NOT_INITIALIZED, MPI_T_ERR_NOT_INITIALIZED);
        all_calls(bogus, bogus_i, -1, MPI_T_ERR_NOT_INITIALIZED, MPI_T_ERR_NOT_INITIALIZED);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    CHECK_OK(MPI_T_event_get_num(&n));
    CHECK_INT(n, 0);
    const int H = MPI_T_ERR_INVALID_HANDLE, I = MPI_T_ERR_INVALID_INDEX;
    all_calls(NULL, NULL, 0, H, I);
    all_calls(bogus, bogus_i, -1, H, I);
    all_calls(NULL, bogus_i, n, H, I);
    all_calls(bogus, NULL, 1000, H, I);
    CHECK_OK(MPI_T_finalize());
    MPI_Barrier(MPI_COMM_WORLD); /* every rank's MPI_T_finalize is done: MPI_T is closed */
    if (rank == 0)
        all_calls(bogus, bogus_i, 0, MPI_T_ERR_NOT_INITIALIZED, MPI_T_ERR_NOT_INITIALIZED);
    MPI_Finalize();
    return 0;
}
