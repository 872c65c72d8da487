/* api/mpix_progress.c — MPICH's progress extensions on loom's task engine.
 * An async thing is a repeat task, stealable, on its rank's home queue: any worker may poll it,
 * and while it does it acts for the thing's rank (loom__self), so MPI calls inside the poll
 * function behave as if the rank made them. The task engine runs a repeat task on one thread
 * at a time, so a poll function is never called concurrently with itself. */
#include <stdlib.h>
#include "api/api.h"
#include "core/progress.h"
#include "p2p/request.h"
#include "task/task.h"

struct loom_async {
    struct loom_task task;
    MPIX_Async_poll_function *poll_fn;
    void *state;
    struct loom_rank *rank;
};

static _Atomic int next_stream = 1;

static int poll_async(struct loom_task *t)
{
    struct loom_async *a = t->arg;
    struct loom_rank *saved = loom__self;
    loom__self = a->rank;
    int rc = a->poll_fn(a);
    loom__self = saved;
    if (rc != MPIX_ASYNC_DONE)
        return LOOM_TASK_AGAIN;
    free(a);
    return LOOM_TASK_GONE; /* freed: the engine must not mark it IDLE */
}

static int start(const char *fn, MPIX_Async_poll_function *poll_fn, void *extra_state)
{
    if (poll_fn == NULL)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "poll function is NULL");
    struct loom_async *a = calloc(1, sizeof *a);
    if (a == NULL)
        return loom__api_error_code(MPI_COMM_WORLD, fn, LOOM_ERR_NOMEM);
    a->poll_fn = poll_fn;
    a->state = extra_state;
    a->rank = loom__self;
    a->task.fn = poll_async;
    a->task.arg = a;
    a->task.queue = loom__self->home_queue;
    a->task.repeat = 1;
    a->task.owner = loom__self->world_rank;
    loom__task_submit(&a->task);
    return MPI_SUCCESS;
}

int MPIX_Async_start(MPIX_Async_poll_function *poll_fn, void *extra_state, MPIX_Stream stream)
{
    LOOM_API_ENTER("MPIX_Async_start");
    (void)stream;
    return start("MPIX_Async_start", poll_fn, extra_state);
}

int MPIX_Async_spawn(MPIX_Async_thing async_thing, MPIX_Async_poll_function *poll_fn,
                     void *extra_state, MPIX_Stream stream)
{
    LOOM_API_ENTER("MPIX_Async_spawn");
    (void)stream;
    if (async_thing == NULL)
        return loom__api_error(MPI_COMM_WORLD, "MPIX_Async_spawn", MPI_ERR_ARG,
                               "async thing is NULL");
    return start("MPIX_Async_spawn", poll_fn, extra_state);
}

void *MPIX_Async_get_state(MPIX_Async_thing async_thing)
{
    return async_thing ? async_thing->state : NULL;
}

int MPIX_Stream_create(MPI_Info info, MPIX_Stream *stream)
{
    LOOM_API_ENTER("MPIX_Stream_create");
    (void)info;
    if (stream == NULL)
        return loom__api_error(MPI_COMM_WORLD, "MPIX_Stream_create", MPI_ERR_ARG,
                               "stream is NULL");
    *stream = atomic_fetch_add(&next_stream, 1);
    return MPI_SUCCESS;
}

int MPIX_Stream_free(MPIX_Stream *stream)
{
    LOOM_API_ENTER("MPIX_Stream_free");
    if (stream == NULL)
        return loom__api_error(MPI_COMM_WORLD, "MPIX_Stream_free", MPI_ERR_ARG,
                               "stream is NULL");
    *stream = MPIX_STREAM_NULL;
    return MPI_SUCCESS;
}

int MPIX_Stream_progress(MPIX_Stream stream)
{
    LOOM_API_ENTER("MPIX_Stream_progress");
    (void)stream;
    if (loom__wait_progress)
        loom__wait_progress(); /* cells in the rank's rings, then tasks */
    return MPI_SUCCESS;
}

int MPIX_Start_progress_thread(MPIX_Stream stream)
{
    LOOM_API_ENTER("MPIX_Start_progress_thread");
    (void)stream;
    int rc = loom__progress_thread_start();
    return rc ? loom__api_error_code(MPI_COMM_WORLD, "MPIX_Start_progress_thread", rc)
              : MPI_SUCCESS;
}

int MPIX_Stop_progress_thread(MPIX_Stream stream)
{
    LOOM_API_ENTER("MPIX_Stop_progress_thread");
    (void)stream;
    if (loom__progress_thread_stop() != 0)
        return loom__api_error(MPI_COMM_WORLD, "MPIX_Stop_progress_thread", MPI_ERR_OTHER,
                               "the rank has no progress thread to stop");
    return MPI_SUCCESS;
}

int MPIX_Request_is_complete(MPI_Request request)
{
    if (request == MPI_REQUEST_NULL)
        return 1;
    if (!loom__object_is(request, LOOM_MAGIC_REQUEST)) /* before any other field is read */
        return 0;
    return (request->persistent && !request->active) || loom__req_is_complete(request);
}
