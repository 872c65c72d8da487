/* Every MPI_T call with each bad argument it takes returns the standard's class (MPI_T calls
 * return their class and call no error handler; MPI_ERRORS_RETURN is set anyway, as for every
 * family's error test). First, with MPI_T initialized by nobody, every call but init says
 * MPI_T_ERR_NOT_INITIALIZED: rank 0 checks that while the other ranks wait in a barrier
 * (MPI_T is per process, so another rank's MPI_T_init_thread would initialize it for rank 0
 * too). Then every rank walks the bad arguments at once. */
#include <string.h>

#include "mpit_check.h"


static void init_and_cvars(void)
{
    int n, count, provided, ncvar;
    char buf[64];
    MPI_T_cvar_handle h, bogus = (MPI_T_cvar_handle)buf, freed;
    CHECK_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, NULL), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_init_thread(-1, &provided), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_init_thread(MPI_THREAD_MULTIPLE + 1, &provided), MPI_T_ERR_INVALID);
    CHECK_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));

    CHECK_RC(MPI_T_cvar_get_num(NULL), MPI_T_ERR_INVALID);
    CHECK_OK(MPI_T_cvar_get_num(&ncvar));
    CHECK_RC(MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
             MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_cvar_get_info(ncvar, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
             MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_cvar_get_index(NULL, &n), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_cvar_get_index("LOOM_NP", NULL), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_cvar_get_index("LOOM_NOPE", &n), MPI_T_ERR_INVALID_NAME);
    CHECK_RC(MPI_T_cvar_get_index("loom_np", &n), MPI_T_ERR_INVALID_NAME); /* case matters */
    CHECK_RC(MPI_T_cvar_handle_alloc(-1, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_cvar_handle_alloc(ncvar, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_cvar_handle_alloc(0, NULL, NULL, &count), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_cvar_handle_alloc(0, NULL, &h, NULL), MPI_T_ERR_INVALID);
    CHECK_OK(MPI_T_cvar_handle_alloc(cvar_index("LOOM_NP"), NULL, &h, &count));
    CHECK_RC(MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &n), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_cvar_read(bogus, &n), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_cvar_read(h, NULL), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_cvar_write(MPI_T_CVAR_HANDLE_NULL, &n), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_cvar_write(bogus, &n), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_cvar_write(h, NULL), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_cvar_write(h, &n), MPI_T_ERR_CVAR_SET_NEVER);
    CHECK_RC(MPI_T_cvar_handle_free(NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_cvar_handle_free(&bogus), MPI_T_ERR_INVALID_HANDLE);
    freed = h;
    CHECK_OK(MPI_T_cvar_handle_free(&h));
    CHECK_RC(MPI_T_cvar_handle_free(&h), MPI_T_ERR_INVALID_HANDLE); /* now NULL */
    CHECK_RC(MPI_T_cvar_read(freed, &n), MPI_T_ERR_INVALID_HANDLE);   /* freed: not followed */
    /* a LIVE keyword row: an out-of-range item is refused */
    CHECK_RC(cvar_write_int("LOOM_COLL_HIER", 1000), MPI_T_ERR_INVALID);

    /* enumerations */
    MPI_T_enum e, bad_e = (MPI_T_enum)buf;
    CHECK_OK(MPI_T_cvar_get_info(cvar_index("LOOM_PROGRESS"), NULL, NULL, NULL, NULL, &e, NULL,
                                 NULL, NULL, NULL));
    CHECK_RC(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &n, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_enum_get_info(bad_e, &n, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_enum_get_info(e, NULL, NULL, NULL), MPI_T_ERR_INVALID);
    CHECK_OK(MPI_T_enum_get_info(e, &n, NULL, NULL));
    CHECK_INT(n, 3);
    CHECK_RC(MPI_T_enum_get_item(bad_e, 0, &n, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_enum_get_item(e, -1, &n, NULL, NULL), MPI_T_ERR_INVALID_ITEM);
    CHECK_RC(MPI_T_enum_get_item(e, 3, &n, NULL, NULL), MPI_T_ERR_INVALID_ITEM);
    CHECK_RC(MPI_T_enum_get_item(e, 0, NULL, NULL, NULL), MPI_T_ERR_INVALID);
}

static void pvars(void)
{
    int n, count, npvar;
    char buf[64];
    unsigned long long v = 0;
    MPI_T_pvar_session s, s2, bad_s = (MPI_T_pvar_session)buf;
    MPI_T_pvar_handle h, h2, bad_h = (MPI_T_pvar_handle)buf;
    CHECK_RC(MPI_T_pvar_get_num(NULL), MPI_T_ERR_INVALID);
    CHECK_OK(MPI_T_pvar_get_num(&npvar));
    CHECK_RC(MPI_T_pvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                 NULL, NULL),
             MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_pvar_get_info(npvar, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                 NULL, NULL, NULL),
             MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_pvar_get_index(NULL, MPI_T_PVAR_CLASS_COUNTER, &n), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_pvar_get_index("loom_messages_sent", MPI_T_PVAR_CLASS_COUNTER, NULL),
             MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_pvar_get_index("loom_nothing", MPI_T_PVAR_CLASS_COUNTER, &n),
             MPI_T_ERR_INVALID_NAME);
    /* the name with another class is another variable: none */
    CHECK_RC(MPI_T_pvar_get_index("loom_messages_sent", MPI_T_PVAR_CLASS_TIMER, &n),
             MPI_T_ERR_INVALID_NAME);

    CHECK_RC(MPI_T_pvar_session_create(NULL), MPI_T_ERR_INVALID);
    CHECK_OK(MPI_T_pvar_session_create(&s));
    CHECK_OK(MPI_T_pvar_session_create(&s2));
    CHECK_RC(MPI_T_pvar_session_free(NULL), MPI_T_ERR_INVALID_SESSION);
    CHECK_RC(MPI_T_pvar_session_free(&bad_s), MPI_T_ERR_INVALID_SESSION);

    int i = pvar_index("loom_messages_sent");
    CHECK_RC(MPI_T_pvar_handle_alloc(MPI_T_PVAR_SESSION_NULL, i, NULL, &h, &count),
             MPI_T_ERR_INVALID_SESSION);
    CHECK_RC(MPI_T_pvar_handle_alloc(bad_s, i, NULL, &h, &count), MPI_T_ERR_INVALID_SESSION);
    CHECK_RC(MPI_T_pvar_handle_alloc(s, -1, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_pvar_handle_alloc(s, npvar, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_pvar_handle_alloc(s, i, NULL, NULL, &count), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_pvar_handle_alloc(s, i, NULL, &h, NULL), MPI_T_ERR_INVALID);
    CHECK_OK(MPI_T_pvar_handle_alloc(s, i, NULL, &h, &count));
    CHECK_OK(MPI_T_pvar_handle_alloc(s2, i, NULL, &h2, &count));

    /* each call that takes (session, handle): bad session, bad handle, handle of another
     * session, MPI_T_PVAR_ALL_HANDLES where one handle is needed, NULL buffer */
    CHECK_RC(MPI_T_pvar_start(bad_s, h), MPI_T_ERR_INVALID_SESSION);
    CHECK_RC(MPI_T_pvar_start(s, bad_h), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_start(s, MPI_T_PVAR_HANDLE_NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_start(s, h2), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_stop(bad_s, h), MPI_T_ERR_INVALID_SESSION);
    CHECK_RC(MPI_T_pvar_stop(s, bad_h), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_stop(s, h2), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_read(bad_s, h, &v), MPI_T_ERR_INVALID_SESSION);
    CHECK_RC(MPI_T_pvar_read(s, bad_h, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_read(s, h2, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_read(s, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_read(s, h, NULL), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_pvar_write(bad_s, h, &v), MPI_T_ERR_INVALID_SESSION);
    CHECK_RC(MPI_T_pvar_write(s, bad_h, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_write(s, h2, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_write(s, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_write(s, h, NULL), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_pvar_reset(bad_s, h), MPI_T_ERR_INVALID_SESSION);
    CHECK_RC(MPI_T_pvar_reset(s, bad_h), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_reset(s, h2), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_readreset(bad_s, h, &v), MPI_T_ERR_INVALID_SESSION);
    CHECK_RC(MPI_T_pvar_readreset(s, bad_h, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_readreset(s, h2, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_readreset(s, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_readreset(s, h, NULL), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_pvar_handle_free(bad_s, &h), MPI_T_ERR_INVALID_SESSION);
    CHECK_RC(MPI_T_pvar_handle_free(s, NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_handle_free(s, &bad_h), MPI_T_ERR_INVALID_HANDLE);
    CHECK_RC(MPI_T_pvar_handle_free(s, &h2), MPI_T_ERR_INVALID_HANDLE);
    /* a continuous read-only level: no start, stop, write, reset */
    MPI_T_pvar_handle lv;
    CHECK_OK(MPI_T_pvar_get_index("loom_unexpected_recvq_length", MPI_T_PVAR_CLASS_LEVEL, &n));
    CHECK_OK(MPI_T_pvar_handle_alloc(s, n, NULL, &lv, &count));
    CHECK_RC(MPI_T_pvar_start(s, lv), MPI_T_ERR_PVAR_NO_STARTSTOP);
    CHECK_RC(MPI_T_pvar_stop(s, lv), MPI_T_ERR_PVAR_NO_STARTSTOP);
    CHECK_RC(MPI_T_pvar_write(s, lv, &v), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_RC(MPI_T_pvar_reset(s, lv), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_RC(MPI_T_pvar_readreset(s, lv, &v), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_OK(MPI_T_pvar_handle_free(s, &lv));
    CHECK_OK(MPI_T_pvar_handle_free(s, &h));
    CHECK_RC(MPI_T_pvar_handle_free(s, &h), MPI_T_ERR_INVALID_HANDLE); /* now NULL */
    MPI_T_pvar_session gone = s2;
    CHECK_OK(MPI_T_pvar_session_free(&s2)); /* frees h2 with it */
    CHECK_RC(MPI_T_pvar_read(gone, h2, &v), MPI_T_ERR_INVALID_SESSION);
    CHECK_RC(MPI_T_pvar_session_free(&s2), MPI_T_ERR_INVALID_SESSION); /* now NULL */
    CHECK_OK(MPI_T_pvar_session_free(&s));
}

static void categories_and_events(void)
{
    int n, ncat, idx[8];
    MPI_Count ts;
    CHECK_RC(MPI_T_category_get_num(NULL), MPI_T_ERR_INVALID);
    CHECK_OK(MPI_T_category_get_num(&ncat));
    CHECK_RC(MPI_T_category_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
             MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_category_get_info(ncat, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
             MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_category_get_index(NULL, &n), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_category_get_index("loom", NULL), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_category_get_index("nowhere", &n), MPI_T_ERR_INVALID_NAME);
    CHECK_RC(MPI_T_category_get_cvars(-1, 8, idx), MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_category_get_cvars(ncat, 8, idx), MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_category_get_cvars(0, -1, idx), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_category_get_cvars(0, 8, NULL), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_category_get_pvars(-1, 8, idx), MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_category_get_pvars(0, -1, idx), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_category_get_pvars(0, 8, NULL), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_category_get_categories(ncat, 8, idx), MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_category_get_categories(0, -1, idx), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_category_get_categories(0, 8, NULL), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_category_get_num_events(-1, &n), MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_category_get_num_events(0, NULL), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_category_get_events(ncat, 8, idx), MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_category_get_events(0, -1, idx), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_category_get_events(0, 8, NULL), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_category_changed(NULL), MPI_T_ERR_INVALID);

    /* no sources, no events: every index and name is unknown */
    CHECK_RC(MPI_T_source_get_num(NULL), MPI_T_ERR_INVALID);
    CHECK_OK(MPI_T_source_get_num(&n));
    CHECK_INT(n, 0);
    CHECK_RC(MPI_T_source_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
             MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_source_get_timestamp(0, &ts), MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_event_get_num(NULL), MPI_T_ERR_INVALID);
    CHECK_OK(MPI_T_event_get_num(&n));
    CHECK_INT(n, 0);
    CHECK_RC(MPI_T_event_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                  NULL),
             MPI_T_ERR_INVALID_INDEX);
    CHECK_RC(MPI_T_event_get_index(NULL, &n), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_event_get_index("loom_event", NULL), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_event_get_index("loom_event", &n), MPI_T_ERR_INVALID_NAME);
}

int main(int argc, char **argv)
{
    int rank, size, cls;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        mpit_check_not_initialized();
    MPI_Barrier(MPI_COMM_WORLD);
    init_and_cvars();
    pvars();
    categories_and_events();
    /* the classes are error classes MPI knows */
    CHECK_OK(MPI_Error_class(MPI_T_ERR_INVALID_HANDLE, &cls));
    CHECK_INT(cls, MPI_T_ERR_INVALID_HANDLE);
    CHECK(MPI_T_ERR_NOT_SUPPORTED <= MPI_ERR_LASTCODE);
    CHECK_OK(MPI_T_finalize());
    MPI_Finalize();
    if (rank == 0)
        printf("mpit errors: every call, every bad argument\n");
    return 0;
}
