/* api/init.c — MPI_Init, MPI_Finalize and the environment queries of the standard's
 * chapter "MPI Environmental Management". */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "api/api.h"
#include "api/layers.h"
#include "core/runtime.h"

int loom__mpi_init_thread(int *argc, char ***argv, int required, int *provided)
{
    struct loom_rank *r = loom__self;
    (void)argc;
    (void)argv;
    const char *fn = required == -1 ? "MPI_Init" : "MPI_Init_thread";
    if (r != NULL && loom__load_relaxed(&r->state) == LOOM_RANK_INITIALIZED)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_OTHER, "MPI is already initialized");
    if (r == NULL || loom__load_relaxed(&r->state) != LOOM_RANK_STARTED)
        return loom__api_check_initialized(fn);
    if (required != -1 && (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)) {
        loom__log("MPI_Init_thread: required level %d is not a thread level", required);
        loom__job_abort(1);
    }
    int rc = loom__layers_rank_init();
    if (rc != 0) {
        loom__log("%s: %s", fn, loom__error_reason(rc));
        loom__job_abort(1);
    }
    /* Ranks are threads that share everything: every level is as cheap as MULTIPLE. */
    r->thread_level = MPI_THREAD_MULTIPLE;
    r->init_thread = pthread_self();
    if (provided)
        *provided = MPI_THREAD_MULTIPLE;
    loom__store_release(&r->state, LOOM_RANK_INITIALIZED);
    return MPI_SUCCESS;
}

int loom__mpi_init(int *argc, char ***argv)
{
    return loom__mpi_init_thread(argc, argv, -1, NULL);
}

int loom__mpi_initialized(int *flag)
{
    struct loom_rank *r = loom__self;
    if (flag == NULL)
        return loom__api_error(MPI_COMM_NULL, "MPI_Initialized", MPI_ERR_ARG, "flag is NULL");
    *flag = r != NULL && loom__load_acquire(&r->state) >= LOOM_RANK_INITIALIZED;
    return MPI_SUCCESS;
}

int loom__mpi_finalized(int *flag)
{
    struct loom_rank *r = loom__self;
    if (flag == NULL)
        return loom__api_error(MPI_COMM_NULL, "MPI_Finalized", MPI_ERR_ARG, "flag is NULL");
    *flag = r != NULL && loom__load_acquire(&r->state) >= LOOM_RANK_FINALIZED;
    return MPI_SUCCESS;
}

int loom__mpi_finalize(void)
{
    LOOM_API_ENTER("MPI_Finalize");
    loom__rank_finalize(loom__self);
    return MPI_SUCCESS;
}

int loom__mpi_abort(MPI_Comm comm, int errorcode)
{
    /* Every rank of the job is a thread of this process, so aborting any communicator ends
     * the job, as MPICH and Open MPI do for MPI_COMM_WORLD. */
    (void)comm;
    loom__log("MPI_Abort(%d): ending the job", errorcode);
    loom__job_abort(errorcode);
}

int loom__mpi_query_thread(int *provided)
{
    LOOM_API_ENTER("MPI_Query_thread");
    if (provided == NULL)
        return loom__api_error(MPI_COMM_NULL, "MPI_Query_thread", MPI_ERR_ARG,
                               "provided is NULL");
    *provided = loom__self->thread_level;
    return MPI_SUCCESS;
}

int loom__mpi_is_thread_main(int *flag)
{
    LOOM_API_ENTER("MPI_Is_thread_main");
    if (flag == NULL)
        return loom__api_error(MPI_COMM_NULL, "MPI_Is_thread_main", MPI_ERR_ARG,
                               "flag is NULL");
    *flag = pthread_equal(pthread_self(), loom__self->init_thread) != 0;
    return MPI_SUCCESS;
}

int loom__mpi_get_processor_name(char *name, int *resultlen)
{
    if (name == NULL || resultlen == NULL)
        return loom__api_error(MPI_COMM_NULL, "MPI_Get_processor_name", MPI_ERR_ARG,
                               "%s is NULL", name == NULL ? "name" : "resultlen");
    if (gethostname(name, MPI_MAX_PROCESSOR_NAME) != 0)
        strcpy(name, "localhost");
    name[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}

int loom__mpi_get_version(int *version, int *subversion)
{
    if (version == NULL || subversion == NULL)
        return loom__api_error(MPI_COMM_NULL, "MPI_Get_version", MPI_ERR_ARG,
                               "an output argument is NULL");
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int loom__mpi_get_library_version(char *version, int *resultlen)
{
    if (version == NULL || resultlen == NULL)
        return loom__api_error(MPI_COMM_NULL, "MPI_Get_library_version", MPI_ERR_ARG,
                               "an output argument is NULL");
    int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                     "loom %s (thread-based MPI %d.%d)", LOOM_VERSION_STRING, MPI_VERSION,
                     MPI_SUBVERSION);
    *resultlen = n;
    return MPI_SUCCESS;
}

double loom__mpi_wtime(void)
{
    /* One clock for every rank of the job: MPI_WTIME_IS_GLOBAL is true. */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double loom__mpi_wtick(void)
{
    struct timespec ts;
    clock_getres(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
