/* api/partitioned.c — partitioned point-to-point (MPI 4.1 chapter 4): MPI_Psend_init,
 * MPI_Precv_init, MPI_Pready, MPI_Pready_range, MPI_Pready_list, MPI_Parrived. The requests are
 * persistent (kinds LOOM_REQ_PSEND / LOOM_REQ_PRECV): MPI_Start (api/p2p_persist.c) begins a
 * round, the wait and test forms end it, MPI_Request_free refuses an active one
 * (api/p2p_request.c). Matching and data movement: p2p/part.c.
 * Error classes: a partition out of range, already ready, or a bad list: MPI_ERR_ARG; a
 * request that is null, freed, of the wrong kind (Pready on a receive, Parrived on a send) or
 * inactive (Pready): MPI_ERR_REQUEST. Parrived on MPI_REQUEST_NULL or an inactive receive says
 * "arrived" (MPI 4.1, chapter 4). */
#include <limits.h>
#include "api/p2p_args.h"
#include "p2p/part.h"

static int make(const char *fn, const void *buf, int partitions, MPI_Count count,
                MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Info info,
                enum loom_req_kind kind, MPI_Request *request)
{
    int send = kind == LOOM_REQ_PSEND;
    struct loom_comm *c;
    /* the point-to-point checks, in their order; the total size is checked below */
    int rc = loom__p2p_check_all(fn, comm, buf, count, type, peer, tag,
                                 send ? LOOM_P2P_SEND : LOOM_P2P_RECV, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    if (type == MPI_DATATYPE_NULL)
        return loom__api_error(comm, fn, MPI_ERR_TYPE, "datatype is MPI_DATATYPE_NULL");
    /* a partitioned receive names its source and tag (MPI 4.1, chapter 4) */
    if (peer == MPI_ANY_SOURCE)
        return loom__api_error(comm, fn, MPI_ERR_RANK,
                               "MPI_ANY_SOURCE is not allowed in a partitioned receive");
    if (tag == MPI_ANY_TAG)
        return loom__api_error(comm, fn, MPI_ERR_TAG,
                               "MPI_ANY_TAG is not allowed in a partitioned receive");
    if (partitions < 1)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "partitions is %d (loom needs at least 1)",
                               partitions);
    size_t tsize = type->size;
    if ((unsigned long long)count > SIZE_MAX / (size_t)partitions ||
        (tsize && (size_t)count * (size_t)partitions > SIZE_MAX / tsize))
        return loom__api_error(comm, fn, MPI_ERR_COUNT,
                               "%d partitions of %lld elements are too large", partitions,
                               (long long)count);
    if (info != MPI_INFO_NULL) {
        const char *why = loom__info_invalid_reason(info);
        if (why != NULL)
            return loom__api_error(comm, fn, MPI_ERR_INFO, "%s", why);
    }
    if (request == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "request is NULL");
    struct loom_request *r = loom__req_new(kind);
    if (r == NULL)
        return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
    loom__p2p_fill(r, c, comm, (void *)buf, 0, type, peer, tag);
    /* a receive matches in its own queues' context, a send in its destination's */
    r->ctx = send ? c->sh->peer_pt2pt : c->sh->pt2pt;
    r->count = (size_t)count;
    r->persistent = 1;
    rc = loom__part_init(r, partitions);
    if (rc != 0) {
        r->type = NULL; /* no reference taken yet */
        loom__req_discard(r);
        return loom__api_error_code(comm, fn, rc);
    }
    loom__dt_retain(type);
    *request = r;
    return MPI_SUCCESS;
}

int loom__mpi_psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                         int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Psend_init");
    return make("MPI_Psend_init", buf, partitions, count, datatype, dest, tag, comm, info,
                LOOM_REQ_PSEND, request);
}

int loom__mpi_precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                         int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    LOOM_API_ENTER("MPI_Precv_init");
    return make("MPI_Precv_init", buf, partitions, count, datatype, source, tag, comm, info,
                LOOM_REQ_PRECV, request);
}

/* The request of a Pready call: a live, active partitioned send. NULL after reporting. */
static struct loom_request *send_request(const char *fn, MPI_Request request)
{
    if (request == MPI_REQUEST_NULL || !loom__object_is(request, LOOM_MAGIC_REQUEST)) {
        loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_REQUEST, "not a valid request (%s)",
                        request == MPI_REQUEST_NULL ? "MPI_REQUEST_NULL" : "freed?");
        return NULL;
    }
    if (request->kind != LOOM_REQ_PSEND) {
        loom__api_error(request->comm, fn, MPI_ERR_REQUEST,
                        "not a partitioned send request");
        return NULL;
    }
    if (!request->active) {
        loom__api_error(request->comm, fn, MPI_ERR_REQUEST,
                        "partitioned send request is not active (MPI_Start it first)");
        return NULL;
    }
    return request;
}

static int bad_partition(const char *fn, struct loom_request *r, int p, int n)
{
    return loom__api_error(r->comm, fn, MPI_ERR_ARG,
                           "partition %d out of range (the request has %d)", p, n);
}

/* Mark partition p ready: MPI_SUCCESS or the reported class. */
static int ready_one(const char *fn, struct loom_request *r, int p)
{
    if (loom__part_pready(r, p) != 0)
        return loom__api_error(r->comm, fn, MPI_ERR_ARG,
                               "partition %d is already ready in this round", p);
    return MPI_SUCCESS;
}

int loom__mpi_pready(int partition, MPI_Request request)
{
    LOOM_API_ENTER("MPI_Pready");
    struct loom_request *r = send_request("MPI_Pready", request);
    if (r == NULL)
        return MPI_ERR_REQUEST;
    int n = loom__part_partitions(r);
    if (partition < 0 || partition >= n)
        return bad_partition("MPI_Pready", r, partition, n);
    return ready_one("MPI_Pready", r, partition);
}

int loom__mpi_pready_range(int partition_low, int partition_high, MPI_Request request)
{
    LOOM_API_ENTER("MPI_Pready_range");
    const char *fn = "MPI_Pready_range";
    struct loom_request *r = send_request(fn, request);
    if (r == NULL)
        return MPI_ERR_REQUEST;
    int n = loom__part_partitions(r);
    if (partition_low < 0 || partition_low >= n)
        return bad_partition(fn, r, partition_low, n);
    if (partition_high < partition_low || partition_high >= n)
        return loom__api_error(r->comm, fn, MPI_ERR_ARG,
                               "partition_high %d out of range [%d, %d)", partition_high,
                               partition_low, n);
    for (int p = partition_low; p <= partition_high; p++) {
        int rc = ready_one(fn, r, p);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int loom__mpi_pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
    LOOM_API_ENTER("MPI_Pready_list");
    const char *fn = "MPI_Pready_list";
    struct loom_request *r = send_request(fn, request);
    if (r == NULL)
        return MPI_ERR_REQUEST;
    if (length < 0)
        return loom__api_error(r->comm, fn, MPI_ERR_ARG, "length %d is negative", length);
    if (length > 0 && array_of_partitions == NULL)
        return loom__api_error(r->comm, fn, MPI_ERR_ARG, "array_of_partitions is NULL");
    int n = loom__part_partitions(r);
    /* every entry is checked before any is marked: a bad list changes nothing */
    for (int k = 0; k < length; k++)
        if (array_of_partitions[k] < 0 || array_of_partitions[k] >= n)
            return bad_partition(fn, r, array_of_partitions[k], n);
    for (int k = 0; k < length; k++) {
        int rc = ready_one(fn, r, array_of_partitions[k]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int loom__mpi_parrived(MPI_Request request, int partition, int *flag)
{
    LOOM_API_ENTER("MPI_Parrived");
    const char *fn = "MPI_Parrived";
    if (flag == NULL)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "flag is NULL");
    if (request == MPI_REQUEST_NULL) { /* MPI 4.1, chapter 4: a null request has arrived */
        *flag = 1;
        return MPI_SUCCESS;
    }
    if (!loom__object_is(request, LOOM_MAGIC_REQUEST))
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_REQUEST,
                               "not a valid request (freed?)");
    if (request->kind != LOOM_REQ_PRECV)
        return loom__api_error(request->comm, fn, MPI_ERR_REQUEST,
                               "not a partitioned receive request");
    int n = loom__part_partitions(request);
    if (partition < 0 || partition >= n)
        return bad_partition(fn, request, partition, n);
    if (!request->active) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    *flag = loom__part_parrived(request, partition);
    if (!*flag && loom__wait_progress)
        loom__wait_progress(); /* a keypoint, as MPI_Test is (a poller lets other work run) */
    return MPI_SUCCESS;
}
