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

/* The rank's layers come up at the first of MPI_Init and MPI_Session_init, and go down once:
 * at MPI_Finalize when no session is left, at the MPI_Session_finalize of the last session
 * after MPI_Finalize, or at the end of the rank's main (docs/sessions.md). Under life_lock. */
static int layers_up(struct loom_rank *r, const char *fn)
{
    int st = loom__load_relaxed(&r->state);
    if (st == LOOM_RANK_INITIALIZED)
        return MPI_SUCCESS;
    if (st != LOOM_RANK_STARTED)
        return loom__api_check_initialized(fn); /* after the layers went down: reported */
    int rc = loom__layers_rank_init();
    if (rc != 0) {
        loom__log("%s: %s", fn, loom__error_reason(rc));
        loom__job_abort(1);
    }
    /* Registering the rank's worker made it this thread's: on a thread the rank created,
     * give it back to the rank's own thread (which takes it at its first keypoint); this
     * thread adopts a worker of its own at its first keypoint (core/thread_worker.c). */
    if (!loom__on_rank_thread)
        loom__task_self = NULL;
    /* Ranks are threads that share everything: every level is as cheap as MULTIPLE. */
    r->thread_level = MPI_THREAD_MULTIPLE;
    /* release: the rank's layers are set up before another rank or loom_run's start order
     * (acquire loads of the state) sees it initialized */
    loom__store_release(&r->state, LOOM_RANK_INITIALIZED);
    return MPI_SUCCESS;
}

int loom__api_rank_join_session(const char *fn)
{
    struct loom_rank *r = loom__self;
    if (r == NULL)
        return loom__api_check_initialized(fn); /* not a rank: reported, never returns */
    pthread_mutex_lock(&r->life_lock);
    int rc = layers_up(r, fn);
    if (rc == MPI_SUCCESS)
        loom__fetch_add_relaxed(&r->sessions, 1);
    pthread_mutex_unlock(&r->life_lock);
    return rc;
}

void loom__api_rank_leave_session(void)
{
    struct loom_rank *r = loom__self;
    pthread_mutex_lock(&r->life_lock);
    /* the last session after MPI_Finalize: nothing uses the rank's layers any more */
    if (loom__fetch_add_relaxed(&r->sessions, -1) == 1 &&
        loom__load_relaxed(&r->world_model) == 2)
        loom__rank_finalize(r);
    pthread_mutex_unlock(&r->life_lock);
}

int loom__mpi_init_thread(int *argc, char ***argv, int required, int *provided)
{
    struct loom_rank *r = loom__self;
    (void)argc;
    (void)argv;
    const char *fn = required == -1 ? "MPI_Init" : "MPI_Init_thread";
    if (r == NULL)
        return loom__api_check_initialized(fn);
    if (required != -1 && (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)) {
        loom__log("MPI_Init_thread: required level %d is not a thread level", required);
        loom__job_abort(1);
    }
    pthread_mutex_lock(&r->life_lock);
    int world = loom__load_relaxed(&r->world_model);
    if (world != 0) {
        pthread_mutex_unlock(&r->life_lock);
        if (world == 2 && loom__load_relaxed(&r->state) != LOOM_RANK_INITIALIZED)
            return loom__api_check_initialized(fn); /* reported: after MPI_Finalize */
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_OTHER, "%s",
                               world == 1 ? "MPI is already initialized"
                                          : "called after MPI_Finalize");
    }
    int rc = layers_up(r, fn); /* up already when a session came first */
    if (rc == MPI_SUCCESS) {
        r->init_thread = pthread_self();
        loom__store_relaxed(&r->world_model, 1);
    }
    pthread_mutex_unlock(&r->life_lock);
    if (rc == MPI_SUCCESS && provided)
        *provided = MPI_THREAD_MULTIPLE;
    return rc;
}

int loom__mpi_init(int *argc, char ***argv)
{
    return loom__mpi_init_thread(argc, argv, -1, NULL);
}

/* The world model's state (MPI 4.1, section 11.2.1): sessions do not count. */
int loom__mpi_initialized(int *flag)
{
    struct loom_rank *r = loom__self;
    if (flag == NULL)
        return loom__api_error(MPI_COMM_NULL, "MPI_Initialized", MPI_ERR_ARG, "flag is NULL");
    *flag = r != NULL && loom__load_relaxed(&r->world_model) >= 1;
    return MPI_SUCCESS;
}

int loom__mpi_finalized(int *flag)
{
    struct loom_rank *r = loom__self;
    if (flag == NULL)
        return loom__api_error(MPI_COMM_NULL, "MPI_Finalized", MPI_ERR_ARG, "flag is NULL");
    *flag = r != NULL && loom__load_relaxed(&r->world_model) == 2;
    return MPI_SUCCESS;
}

int loom__mpi_finalize(void)
{
    LOOM_API_ENTER("MPI_Finalize");
    struct loom_rank *r = loom__self;
    pthread_mutex_lock(&r->life_lock);
    int world = loom__load_relaxed(&r->world_model);
    if (world != 1) {
        pthread_mutex_unlock(&r->life_lock);
        return loom__api_error(MPI_COMM_SELF, "MPI_Finalize", MPI_ERR_OTHER, "%s",
                               world == 0 ? "called before MPI_Init (the rank uses sessions only)"
                                          : "called after MPI_Finalize");
    }
    /* Sessions still open keep the rank's layers up: the last MPI_Session_finalize takes
     * them down (loom__api_rank_leave_session). */
    if (loom__load_relaxed(&r->sessions) == 0)
        loom__rank_finalize(r);
    loom__store_relaxed(&r->world_model, 2);
    pthread_mutex_unlock(&r->life_lock);
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
