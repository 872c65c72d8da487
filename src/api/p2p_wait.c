/* api/p2p_wait.c — completing requests: Wait, Test and their all/any/some forms.
 * A null handle or an inactive persistent request counts as complete with an empty status.
 * A complete generalized request is settled (its query_fn and free_fn run, p2p/grequest.h)
 * before its error is looked at. */
#include "api/p2p_args.h"
#include "p2p/grequest.h"

/* Reads fields of r: only for a handle already checked (check_one, check_array). */
static inline int inactive(struct loom_request *r)
{
    return r == NULL || (r->persistent && !r->active);
}

/* A test is a keypoint (DESIGN.md): run the wait hook once so that work a request depends on
 * (copy tasks of a large message) advances even when the user only ever tests. Called only
 * for a request that was not complete: a test that misses. */
static inline void keypoint(void)
{
    if (loom__wait_progress)
        loom__wait_progress();
    loom__test_missed();
}

/* Validate one request handle (MPI_REQUEST_NULL is valid) and its status pointer, before
 * any field of the request is read: a stale handle names a freed request (request.c keeps its
 * memory, with magic FREED). MPI_SUCCESS or the reported class. A NULL status is an error
 * (MPI_STATUS_IGNORE is the way to ignore one), as in MPICH. */
static int check_one(const char *fn, struct loom_request *r, MPI_Status *status)
{
    if (r != MPI_REQUEST_NULL && !loom__object_is(r, LOOM_MAGIC_REQUEST))
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_REQUEST,
                               "not a valid request (freed?)");
    return loom__p2p_check_status(fn, MPI_COMM_WORLD, status, "status");
}

/* Validate a request array and, with `statuses_too`, its statuses (NULL with count > 0 is
 * MPI_ERR_ARG: MPI_STATUSES_IGNORE ignores them): MPI_SUCCESS or the reported class. */
static int check_array(const char *fn, int count, MPI_Request reqs[], const void *statuses)
{
    if (count < 0)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_COUNT, "count %d is negative", count);
    if (count > 0 && reqs == NULL)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "request array is NULL");
    for (int i = 0; i < count; i++)
        if (reqs[i] != NULL && !loom__object_is(reqs[i], LOOM_MAGIC_REQUEST))
            return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_REQUEST,
                                   "request %d is not a valid request (freed?)", i);
    if (count > 0)
        return loom__p2p_check_status(fn, MPI_COMM_WORLD, statuses, "array of statuses");
    return MPI_SUCCESS;
}

/* The user's side of a complete request: status out, then retire it (the handle becomes
 * MPI_REQUEST_NULL unless persistent). Returns its error class; *comm gets its communicator.
 * The status's error field is set only with `set_error`: by an array call that fails with
 * MPI_ERR_IN_STATUS (MPI 4.1, section 3.2.5), then in every status, MPI_SUCCESS included. */
static inline __attribute__((always_inline)) int finish(MPI_Request *h, MPI_Status *status,
                                                       MPI_Comm *comm, int set_error)
{
    struct loom_request *r = *h;
    if (r == &loom__req_sent) { /* a send complete at birth: nothing to settle or retire */
        *comm = MPI_COMM_WORLD;
        loom__p2p_status_out(status, &r->status);
        if (set_error && status != MPI_STATUS_IGNORE && status != NULL)
            status->MPI_ERROR = MPI_SUCCESS;
        *h = MPI_REQUEST_NULL;
        return MPI_SUCCESS;
    }
    loom__greq_settle(r);
    int err = r->error, persistent = r->persistent;
    *comm = r->comm;
    loom__p2p_status_out(status, &r->status);
    if (set_error && status != MPI_STATUS_IGNORE && status != NULL)
        status->MPI_ERROR = err;
    loom__req_retire(r); /* frees r unless persistent */
    if (!persistent)
        *h = MPI_REQUEST_NULL;
    return err;
}

static void empty(MPI_Status *status)
{
    MPI_Status st;
    loom__p2p_status_empty(&st, MPI_ANY_SOURCE);
    loom__p2p_status_out(status, &st);
}

static int report(const char *fn, MPI_Comm comm, int err)
{
    if (err == MPI_SUCCESS)
        return MPI_SUCCESS;
    if (err == MPI_ERR_IN_STATUS)
        return loom__api_error(comm, fn, err, "a request failed: see the statuses");
    if (err == MPI_ERR_TRUNCATE)
        return loom__api_error(comm, fn, err,
                               "message truncated: the receive buffer is too small");
    return loom__api_error(comm, fn, err, "the request's operation failed (a generalized "
                           "request's callback returned error %d)", err);
}

int loom__mpi_wait(MPI_Request *request, MPI_Status *status)
{
    LOOM_API_ENTER("MPI_Wait");
    if (request == NULL)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Wait", MPI_ERR_ARG, "request is NULL");
    struct loom_request *r = *request;
    int rc = check_one("MPI_Wait", r, status);
    if (rc != MPI_SUCCESS)
        return rc;
    if (inactive(r)) {
        empty(status);
        return MPI_SUCCESS;
    }
    loom__req_wait(r);
    MPI_Comm comm;
    int err = finish(request, status, &comm, 0);
    return report("MPI_Wait", comm, err);
}

int loom__mpi_test(MPI_Request *request, int *flag, MPI_Status *status)
{
    LOOM_API_ENTER("MPI_Test");
    if (request == NULL || flag == NULL)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Test", MPI_ERR_ARG, "%s is NULL",
                               request == NULL ? "request" : "flag");
    struct loom_request *r = *request;
    int rc = check_one("MPI_Test", r, status);
    if (rc != MPI_SUCCESS)
        return rc;
    if (inactive(r)) {
        *flag = 1;
        empty(status);
        return MPI_SUCCESS;
    }
    if (!loom__req_is_complete(r))
        keypoint();
    *flag = loom__req_is_complete(r);
    if (!*flag)
        return MPI_SUCCESS;
    MPI_Comm comm;
    int err = finish(request, status, &comm, 0);
    return report("MPI_Test", comm, err);
}

struct array {
    int count;
    MPI_Request *reqs;
    int want_all;
    int done_below; /* want_all: every request before this index is complete or inactive */
};

/* all: every active request complete; else: at least one active complete or none active.
 * With want_all, a poll starts where the last one stopped: a request once complete stays so
 * until the call returns, and rescanning a window of 64 from its start on every poll of a
 * wait cost a receiver of small messages a few percent of its time (docs/p2p.md). */
static int array_ready(void *arg)
{
    struct array *a = arg;
    int active = 0;
    for (int i = a->want_all ? a->done_below : 0; i < a->count; i++) {
        struct loom_request *r = a->reqs[i];
        if (inactive(r))
            continue;
        active++;
        int done = loom__req_is_complete(r);
        if (a->want_all && !done) {
            a->done_below = i;
            return 0;
        }
        if (!a->want_all && done)
            return 1;
    }
    return a->want_all || active == 0;
}

/* An array call fails with MPI_ERR_IN_STATUS when one of its requests failed, and then sets
 * the error field of every status it returns. Its first failure found: the statuses [0, n)
 * already written were successes, so MPI_SUCCESS goes into theirs. */
static void first_failure(MPI_Status statuses[], int n)
{
    if (statuses == MPI_STATUSES_IGNORE)
        return;
    for (int i = 0; i < n; i++)
        statuses[i].MPI_ERROR = MPI_SUCCESS;
}

/* Finish every request of the array, all complete; returns MPI_ERR_IN_STATUS if one failed. */
static int finish_all(int count, MPI_Request reqs[], MPI_Status statuses[], MPI_Comm *comm)
{
    int failed = 0;
    *comm = MPI_COMM_WORLD;
    for (int i = 0; i < count; i++) {
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
        if (inactive(reqs[i])) {
            empty(st);
            if (failed && st != MPI_STATUS_IGNORE)
                st->MPI_ERROR = MPI_SUCCESS;
            continue;
        }
        loom__greq_settle(reqs[i]);
        if (!failed && reqs[i]->error != MPI_SUCCESS) {
            failed = 1;
            *comm = reqs[i]->comm; /* the first that failed reports */
            first_failure(statuses, i);
        }
        MPI_Comm c;
        finish(&reqs[i], st, &c, failed);
    }
    return failed ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
}

int loom__mpi_waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    LOOM_API_ENTER("MPI_Waitall");
    int rc = check_array("MPI_Waitall", count, requests, statuses);
    if (rc != MPI_SUCCESS)
        return rc;
    struct array a = {count, requests, 1, 0};
    if (!array_ready(&a))
        loom__wait_until(&loom__self->event, array_ready, &a);
    MPI_Comm comm;
    return report("MPI_Waitall", comm, finish_all(count, requests, statuses, &comm));
}

int loom__mpi_testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    LOOM_API_ENTER("MPI_Testall");
    int rc = check_array("MPI_Testall", count, requests, statuses);
    if (rc != MPI_SUCCESS)
        return rc;
    if (flag == NULL)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Testall", MPI_ERR_ARG, "flag is NULL");
    struct array a = {count, requests, 1, 0};
    if (!array_ready(&a))
        keypoint();
    *flag = array_ready(&a);
    if (!*flag)
        return MPI_SUCCESS;
    MPI_Comm comm;
    return report("MPI_Testall", comm, finish_all(count, requests, statuses, &comm));
}

/* The first complete active request, -1 if none, MPI_UNDEFINED if none is active. */
static int first_complete(int count, MPI_Request reqs[])
{
    int active = 0;
    for (int i = 0; i < count; i++) {
        if (inactive(reqs[i]))
            continue;
        active = 1;
        if (loom__req_is_complete(reqs[i]))
            return i;
    }
    return active ? -1 : MPI_UNDEFINED;
}

static int any(const char *fn, int count, MPI_Request reqs[], int *index, int *flag,
               MPI_Status *status, int block)
{
    int rc = check_array(fn, count, reqs, MPI_STATUSES_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = loom__p2p_check_status(fn, MPI_COMM_WORLD, status, "status");
    if (rc != MPI_SUCCESS)
        return rc;
    if (index == NULL)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "index is NULL");
    int i = first_complete(count, reqs);
    if (i == -1 && !block) {
        keypoint();
        i = first_complete(count, reqs);
    }
    if (i == -1 && block) {
        struct array a = {count, reqs, 0, 0};
        loom__wait_until(&loom__self->event, array_ready, &a);
        i = first_complete(count, reqs);
    }
    if (flag)
        *flag = i != -1;
    *index = i == -1 ? MPI_UNDEFINED : i; /* Testany with nothing complete: MPI_UNDEFINED */
    if (i == -1)
        return MPI_SUCCESS;
    if (i == MPI_UNDEFINED) {
        empty(status);
        return MPI_SUCCESS;
    }
    MPI_Comm comm;
    int err = finish(&reqs[i], status, &comm, 0); /* one status: its error field stays */
    return report(fn, comm, err);
}

int loom__mpi_waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    LOOM_API_ENTER("MPI_Waitany");
    return any("MPI_Waitany", count, requests, index, NULL, status, 1);
}

int loom__mpi_testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    LOOM_API_ENTER("MPI_Testany");
    if (flag == NULL)
        return loom__api_error(MPI_COMM_WORLD, "MPI_Testany", MPI_ERR_ARG, "flag is NULL");
    return any("MPI_Testany", count, requests, index, flag, status, 0);
}

static int some(const char *fn, int incount, MPI_Request reqs[], int *outcount, int indices[],
                MPI_Status statuses[], int block)
{
    int rc = check_array(fn, incount, reqs, statuses);
    if (rc != MPI_SUCCESS)
        return rc;
    if (outcount == NULL || (incount > 0 && indices == NULL))
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "%s is NULL",
                               outcount == NULL ? "outcount" : "indices");
    int first = first_complete(incount, reqs);
    if (first == -1 && !block) {
        keypoint();
        first = first_complete(incount, reqs);
    }
    if (first == MPI_UNDEFINED) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    if (first == -1 && block) {
        struct array a = {incount, reqs, 0, 0};
        loom__wait_until(&loom__self->event, array_ready, &a);
    }
    int n = 0, failed = 0;
    MPI_Comm fcomm = MPI_COMM_WORLD;
    for (int i = 0; i < incount; i++) {
        if (inactive(reqs[i]) || !loom__req_is_complete(reqs[i]))
            continue;
        loom__greq_settle(reqs[i]);
        if (!failed && reqs[i]->error != MPI_SUCCESS) {
            failed = 1;
            fcomm = reqs[i]->comm; /* the first that failed reports */
            first_failure(statuses, n);
        }
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[n];
        MPI_Comm c;
        finish(&reqs[i], st, &c, failed);
        indices[n++] = i;
    }
    *outcount = n;
    return report(fn, fcomm, failed ? MPI_ERR_IN_STATUS : MPI_SUCCESS);
}

int loom__mpi_waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                       MPI_Status statuses[])
{
    LOOM_API_ENTER("MPI_Waitsome");
    return some("MPI_Waitsome", incount, requests, outcount, indices, statuses, 1);
}

int loom__mpi_testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                       MPI_Status statuses[])
{
    LOOM_API_ENTER("MPI_Testsome");
    return some("MPI_Testsome", incount, requests, outcount, indices, statuses, 0);
}
