/* mpit_check.h — helpers of the MPI_T tests: find a variable by name, read and write one. */
#ifndef LOOM_TEST_MPIT_CHECK_H
#define LOOM_TEST_MPIT_CHECK_H
#include <string.h>

#include <mpi.h>

#include "check.h"

/* CHECK_RC(call, class): the call returns exactly that class. */
#define CHECK_RC(call, cls) CHECK_INT((call), (cls))
#define CHECK_OK(call) CHECK_INT((call), MPI_SUCCESS)

static inline int cvar_index(const char *name)
{
    int i = -1;
    CHECK_OK(MPI_T_cvar_get_index(name, &i));
    return i;
}

static inline int pvar_index(const char *name)
{
    int i = -1;
    CHECK_OK(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &i));
    return i;
}

/* Read an int cvar by name through a fresh handle. */
static inline int cvar_read_int(const char *name)
{
    MPI_T_cvar_handle h;
    int count, v = -1;
    CHECK_OK(MPI_T_cvar_handle_alloc(cvar_index(name), NULL, &h, &count));
    CHECK_INT(count, 1);
    CHECK_OK(MPI_T_cvar_read(h, &v));
    CHECK_OK(MPI_T_cvar_handle_free(&h));
    return v;
}

/* Write an int cvar by name; returns the call's class. */
static inline int cvar_write_int(const char *name, int v)
{
    MPI_T_cvar_handle h;
    int count;
    CHECK_OK(MPI_T_cvar_handle_alloc(cvar_index(name), NULL, &h, &count));
    int rc = MPI_T_cvar_write(h, &v);
    CHECK_OK(MPI_T_cvar_handle_free(&h));
    return rc;
}

/* The item value of word in the enumeration of cvar name; -1 if absent. */
static inline int enum_value(const char *name, const char *word)
{
    MPI_T_enum e;
    int n;
    CHECK_OK(MPI_T_cvar_get_info(cvar_index(name), NULL, NULL, NULL, NULL, &e, NULL, NULL, NULL,
                                 NULL));
    CHECK(e != MPI_T_ENUM_NULL);
    CHECK_OK(MPI_T_enum_get_info(e, &n, NULL, NULL));
    for (int k = 0; k < n; k++) {
        char w[64];
        int len = sizeof w, v;
        CHECK_OK(MPI_T_enum_get_item(e, k, &v, w, &len));
        if (strcmp(w, word) == 0)
            return v;
    }
    return -1;
}
/* Before MPI_T_init_thread (and after the last MPI_T_finalize) every MPI_T call but init says
 * MPI_T_ERR_NOT_INITIALIZED. */
static inline void mpit_check_not_initialized(void)
{
    const int E = MPI_T_ERR_NOT_INITIALIZED;
    int n;
    MPI_T_cvar_handle ch = MPI_T_CVAR_HANDLE_NULL;
    MPI_T_pvar_session s = MPI_T_PVAR_SESSION_NULL;
    MPI_T_pvar_handle ph = MPI_T_PVAR_HANDLE_NULL;
    unsigned long long v = 0;
    MPI_Count ts;
    CHECK_RC(MPI_T_finalize(), E);
    CHECK_RC(MPI_T_cvar_get_num(&n), E);
    CHECK_RC(MPI_T_cvar_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), E);
    CHECK_RC(MPI_T_cvar_get_index("LOOM_NP", &n), E);
    CHECK_RC(MPI_T_cvar_handle_alloc(0, NULL, &ch, &n), E);
    CHECK_RC(MPI_T_cvar_handle_free(&ch), E);
    CHECK_RC(MPI_T_cvar_read(ch, &v), E);
    CHECK_RC(MPI_T_cvar_write(ch, &v), E);
    CHECK_RC(MPI_T_pvar_get_num(&n), E);
    CHECK_RC(MPI_T_pvar_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                 NULL, NULL),
             E);
    CHECK_RC(MPI_T_pvar_get_index("loom_messages_sent", MPI_T_PVAR_CLASS_COUNTER, &n), E);
    CHECK_RC(MPI_T_pvar_session_create(&s), E);
    CHECK_RC(MPI_T_pvar_session_free(&s), E);
    CHECK_RC(MPI_T_pvar_handle_alloc(s, 0, NULL, &ph, &n), E);
    CHECK_RC(MPI_T_pvar_handle_free(s, &ph), E);
    CHECK_RC(MPI_T_pvar_start(s, ph), E);
    CHECK_RC(MPI_T_pvar_stop(s, ph), E);
    CHECK_RC(MPI_T_pvar_read(s, ph, &v), E);
    CHECK_RC(MPI_T_pvar_write(s, ph, &v), E);
    CHECK_RC(MPI_T_pvar_reset(s, ph), E);
    CHECK_RC(MPI_T_pvar_readreset(s, ph, &v), E);
    CHECK_RC(MPI_T_category_get_num(&n), E);
    CHECK_RC(MPI_T_category_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL), E);
    CHECK_RC(MPI_T_category_get_index("loom", &n), E);
    CHECK_RC(MPI_T_category_get_cvars(0, 0, NULL), E);
    CHECK_RC(MPI_T_category_get_pvars(0, 0, NULL), E);
    CHECK_RC(MPI_T_category_get_categories(0, 0, NULL), E);
    CHECK_RC(MPI_T_category_get_num_events(0, &n), E);
    CHECK_RC(MPI_T_category_get_events(0, 0, NULL), E);
    CHECK_RC(MPI_T_category_changed(&n), E);
    CHECK_RC(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &n, NULL, NULL), E);
    CHECK_RC(MPI_T_enum_get_item(MPI_T_ENUM_NULL, 0, &n, NULL, NULL), E);
    CHECK_RC(MPI_T_source_get_num(&n), E);
    CHECK_RC(MPI_T_source_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), E);
    CHECK_RC(MPI_T_source_get_timestamp(0, &ts), E);
    CHECK_RC(MPI_T_event_get_num(&n), E);
    CHECK_RC(MPI_T_event_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                  NULL),
             E);
    CHECK_RC(MPI_T_event_get_index("x", &n), E);
}

#endif
