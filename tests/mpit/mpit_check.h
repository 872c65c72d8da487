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
#endif
