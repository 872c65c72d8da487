/* api/p2p_probe.c — Probe, Iprobe and matched probes (Mprobe, Improbe, Mrecv, Imrecv). */
#include <stdlib.h>
#include "api/p2p_args.h"
#include "core/fhandle.h"
#include "dt/dt.h"

/* A matched message: taken out of its queue by a matched probe, waiting for Mrecv. */
struct loom_message {
    struct loom_object obj;     /* LOOM_MAGIC_MESSAGE */
    struct loom_envelope *env;  /* NULL for MPI_MESSAGE_NO_PROC */
    MPI_Comm comm;
};

struct loom_message loom_mpi_message_no_proc = {{LOOM_MAGIC_MESSAGE, 0}, NULL, NULL};

static int check_probe(const char *fn, int source, int tag, MPI_Comm comm,
                       struct loom_comm **out)
{
    return loom__p2p_check(fn, comm, NULL, 0, MPI_BYTE, source, tag, LOOM_P2P_RECV, out);
}

struct probe {
    struct loom_comm *c;
    int source, tag, take;
    MPI_Status *st;
    struct loom_envelope *env;
};

static int probe_ready(void *arg)
{
    struct probe *p = arg;
    return loom__p2p_probe(p->c->sh->pt2pt, p->c->rank, p->source, p->tag, p->st, p->take,
                           &p->env);
}

static void proc_null_status(MPI_Status *status)
{
    MPI_Status st;
    loom__p2p_status_empty(&st, MPI_PROC_NULL);
    loom__p2p_status_out(status, &st);
}

int loom__mpi_probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    LOOM_API_ENTER("MPI_Probe");
    struct loom_comm *c;
    int rc = check_probe("MPI_Probe", source, tag, comm, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__p2p_check_status("MPI_Probe", comm, status, "status");
    if (rc != MPI_SUCCESS)
        return rc;
    if (source == MPI_PROC_NULL) {
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    struct probe p = {c, source, tag, 0, status, NULL};
    loom__wait_until(&loom__self->event, probe_ready, &p);
    return MPI_SUCCESS;
}

int loom__mpi_iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    LOOM_API_ENTER("MPI_Iprobe");
    struct loom_comm *c;
    int rc = check_probe("MPI_Iprobe", source, tag, comm, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__p2p_check_status("MPI_Iprobe", comm, status, "status");
    if (rc != MPI_SUCCESS)
        return rc;
    if (flag == NULL)
        return loom__api_error(comm, "MPI_Iprobe", MPI_ERR_ARG, "flag is NULL");
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    struct probe p = {c, source, tag, 0, status, NULL};
    *flag = probe_ready(&p);
    if (!*flag)
        loom__test_missed(); /* a loop of Iprobes is a loop of tests (core/event.h) */
    return MPI_SUCCESS;
}

static int matched_probe(const char *fn, int source, int tag, MPI_Comm comm, int *flag,
                         MPI_Message *message, MPI_Status *status)
{
    struct loom_comm *c;
    int rc = check_probe(fn, source, tag, comm, &c);
    if (rc == MPI_SUCCESS)
        rc = loom__p2p_check_status(fn, comm, status, "status");
    if (rc != MPI_SUCCESS)
        return rc;
    if (message == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "message is NULL");
    if (source == MPI_PROC_NULL) {
        if (flag)
            *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    struct loom_message *m = malloc(sizeof *m);
    if (m == NULL)
        return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
    struct probe p = {c, source, tag, 1, status, NULL};
    if (flag) {
        *flag = probe_ready(&p);
        if (!*flag) {
            free(m);
            loom__test_missed();
            return MPI_SUCCESS;
        }
    } else {
        loom__wait_until(&loom__self->event, probe_ready, &p);
    }
    loom__object_init(&m->obj, LOOM_MAGIC_MESSAGE);
    m->env = p.env;
    m->comm = comm;
    *message = m;
    return MPI_SUCCESS;
}

int loom__mpi_mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    LOOM_API_ENTER("MPI_Mprobe");
    return matched_probe("MPI_Mprobe", source, tag, comm, NULL, message, status);
}

int loom__mpi_improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                      MPI_Status *status)
{
    LOOM_API_ENTER("MPI_Improbe");
    if (flag == NULL)
        return loom__api_error(comm, "MPI_Improbe", MPI_ERR_ARG, "flag is NULL");
    return matched_probe("MPI_Improbe", source, tag, comm, flag, message, status);
}

/* Receive a matched message into a request (complete on return). */
static int matched_recv(const char *fn, void *buf, MPI_Count count, MPI_Datatype type,
                        MPI_Message *message, struct loom_request *r)
{
    if (message == NULL)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "message is NULL");
    if (!loom__object_is(*message, LOOM_MAGIC_MESSAGE))
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_REQUEST,
                               "message is not a valid message handle");
    struct loom_message *m = *message;
    struct loom_comm *c;
    if (m == MPI_MESSAGE_NO_PROC) {
        /* a receive from MPI_PROC_NULL: its arguments are checked all the same (on
         * MPI_COMM_SELF: the message names no communicator) */
        int rc = loom__p2p_check(fn, MPI_COMM_SELF, buf, count, type, MPI_PROC_NULL,
                                 MPI_ANY_TAG, LOOM_P2P_RECV, &c);
        if (rc != MPI_SUCCESS)
            return rc;
        loom__p2p_status_empty(&r->status, MPI_PROC_NULL);
        atomic_store_explicit(&r->flags, LOOM_REQ_COMPLETE, memory_order_relaxed);
        *message = MPI_MESSAGE_NULL;
        return MPI_SUCCESS;
    }
    int rc = loom__p2p_check(fn, m->comm, buf, count, type, MPI_ANY_SOURCE, MPI_ANY_TAG,
                             LOOM_P2P_RECV, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    loom__p2p_fill(r, c, m->comm, buf, count, type, m->env->source, m->env->tag);
    struct loom_envelope *e = m->env;
    m->obj.magic = LOOM_MAGIC_FREED;
    loom__fhandle_forget(m);
    free(m);
    *message = MPI_MESSAGE_NULL;
    loom__p2p_recv_envelope(r, e);
    return MPI_SUCCESS;
}

int loom__mpi_mrecv_c(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Message *message, MPI_Status *status)
{
    LOOM_API_ENTER(fn);
    if (status == NULL) /* before the message is taken: the call then has no effect */
        return loom__p2p_check_status(fn, MPI_COMM_WORLD, status, "status");
    struct loom_request r;
    loom__req_init_stack(&r, LOOM_REQ_RECV);
    int rc = matched_recv(fn, buf, count, datatype, message, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    loom__req_wait(&r);
    loom__p2p_status_out(status, &r.status);
    return loom__p2p_request_error(fn, &r);
}

int loom__mpi_imrecv_c(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Message *message, MPI_Request *request)
{
    LOOM_API_ENTER(fn);
    if (request == NULL)
        return loom__api_error(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "request is NULL");
    struct loom_request *r = loom__req_new(LOOM_REQ_RECV);
    if (r == NULL)
        return loom__api_error_code(MPI_COMM_WORLD, fn, LOOM_ERR_NOMEM);
    int rc = matched_recv(fn, buf, count, datatype, message, r);
    if (rc != MPI_SUCCESS) {
        loom__req_discard(r); /* never published */
        return rc;
    }
    if (r->type)
        loom__dt_retain(r->type); /* dropped when the request is retired */
    *request = r;
    return MPI_SUCCESS;
}
