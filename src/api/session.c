/* api/session.c — the Sessions Model (MPI 4.1 chapter 11.3): MPI_Session_init/finalize, the
 * process sets a session sees, groups made from them, and a session's error handler.
 *
 * A session belongs to the rank whose thread made it; any thread of that rank may use it,
 * no other rank may (a rank is a process of the standard). The first session, or MPI_Init,
 * brings the rank's layers up; they go down at MPI_Finalize when no session is left, at the
 * last MPI_Session_finalize after MPI_Finalize, or at the end of the rank's main
 * (api/init.c, docs/sessions.md). So a rank that never calls MPI_Init can communicate on
 * communicators made from a process set's group (MPI_Comm_create_from_group).
 *
 * Process sets: "mpi://WORLD" (every rank of the job), "mpi://SELF" (the calling rank), then
 * one per hardware level holding the rank ("hwloc://NUMANode": the ranks bound inside the
 * calling rank's NUMA node; see rank_psets). The list never changes while the job runs.
 *
 * Errors: an invalid session handle goes to MPI_COMM_SELF's handler (there is no session to
 * raise it on: fatal until the rank's layers are up); any other error of a call on a valid
 * session goes to that session's handler; MPI_Session_init's own errors go to its
 * errhandler argument. */
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "api/api.h"
#include "api/layers.h"
#include "comm/comm.h"
#include "comm/errhandler.h"
#include "core/quarantine.h"
#include "p2p/bsend.h"
#include "api/p2p_args.h"
#include "topo/topo.h"

struct loom_session {
    struct loom_object obj;
    struct loom_rank *rank;          /* read-only: the rank whose threads may use it */
    _Atomic int open;                /* 1 until MPI_Session_finalize takes it (exchange) */
    pthread_mutex_t lock;            /* protects errh; taken after the rank's life_lock */
    struct loom_errhandler *errh;    /* a reference, never NULL; under lock */
    struct loom_info *info;          /* the hints given and the thread level provided;
                                        read-only between init and finalize */
    struct loom_bsend *bsend;        /* the buffer owner of MPI_Session_attach_buffer
                                        (p2p/bsend.h), made at init, read-only pointer; the
                                        groups and communicators derived from the session
                                        hold references on it, so it outlives the session
                                        (detached at finalize) */
};

/* The process sets a rank sees: "mpi://WORLD", "mpi://SELF", then "hwloc://<Type>" for
 * each hardware resource type (MPI_Get_hw_resource_info's order, the largest first) of which
 * one object holds the rank's CPU set: the ranks bound inside that same object. Fixed for
 * the rank while the job runs (bindings and the machine do not change), so the indexes are
 * stable; computed on each call from read-only job data. */
enum { MAX_TYPES = 16, MAX_PSETS = 2 + MAX_TYPES };

struct pset_list {
    int n;
    char name[MAX_PSETS][MPI_MAX_PSET_NAME_LEN];
    const char *type[MAX_PSETS]; /* the hardware type, NULL for the mpi:// sets */
};

/* Where rank w runs (the whole machine when it is not bound). */
static const struct loom_cpuset *rank_set(int w)
{
    const struct loom_cpuset *s = loom__job.ranks[w].cpuset;
    return s ? s : loom__topo_machine_set(loom__job.topo);
}

static void rank_psets(struct pset_list *l)
{
    snprintf(l->name[0], sizeof l->name[0], "mpi://WORLD");
    snprintf(l->name[1], sizeof l->name[1], "mpi://SELF");
    l->type[0] = l->type[1] = NULL;
    l->n = 2;
    const char *types[MAX_TYPES];
    int nt = loom__topo_resource_types(loom__job.topo, types, MAX_TYPES);
    const struct loom_cpuset *mine = rank_set(loom__self->world_rank);
    for (int i = 0; i < nt && l->n < MAX_PSETS; i++)
        if (loom__topo_resource_of(loom__job.topo, types[i], mine) >= 0) {
            snprintf(l->name[l->n], sizeof l->name[l->n], "%s%s", LOOM_HW_URI_PREFIX,
                     types[i]);
            l->type[l->n++] = types[i];
        }
}

/* The pset's index in l, or -1 when the name is none of them (exact match: case counts). */
static int pset_index(const struct pset_list *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(name, l->name[i]) == 0)
            return i;
    return -1;
}

/* 1 if world rank w is a member of pset i of l (the calling rank's list). A hardware set
 * holds ranks of the calling rank's node process only: another node process's objects are
 * other objects, even of the same type and number (as for MPI_COMM_TYPE_HW_GUIDED). */
static int pset_has(const struct pset_list *l, int i, int w)
{
    if (i == 0)
        return 1;
    if (i == 1)
        return w == loom__self->world_rank;
    if (!loom__rank_is_local(w))
        return 0;
    const struct loom_topo *t = loom__job.topo;
    return loom__topo_resource_of(t, l->type[i], rank_set(w)) ==
           loom__topo_resource_of(t, l->type[i], rank_set(loom__self->world_rank));
}

static int pset_size(const struct pset_list *l, int i)
{
    int n = 0;
    for (int w = 0; w < loom__job.nranks; w++)
        n += pset_has(l, i, w);
    return n;
}

/* The calling rank's open session named by h, or NULL. */
static struct loom_session *resolve(MPI_Session h)
{
    if (!loom__object_is(h, LOOM_MAGIC_SESSION))
        return NULL;
    struct loom_session *s = h;
    if (s->rank != loom__self || !loom__load_relaxed(&s->open))
        return NULL;
    return s;
}

/* Raise class cls for call fn through handler eh, on session handle h (MPI_SESSION_NULL
 * while MPI_Session_init has none yet). Returns cls when the handler returns. */
static int raise_with(struct loom_errhandler *eh, MPI_Session h, const char *fn, int cls,
                      const char *reason)
{
    if (eh->builtin == 1 || eh->builtin == 3) {
        loom__log("%s: %s", fn, reason);
        loom__job_abort(1);
    }
    if (eh->builtin == 0 && eh->session_fn != NULL) {
        int code = cls;
        if (eh->fortran_fn)
            loom__errhandler_call_fortran(eh, h, code);
        else
            eh->session_fn(&h, &code);
    }
    return cls;
}

/* Raise on session s (valid) through its current handler. The handler runs without the
 * session's lock: it may set another handler. */
static int session_error(struct loom_session *s, const char *fn, int cls, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int session_error(struct loom_session *s, const char *fn, int cls, const char *fmt, ...)
{
    char reason[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&s->lock);
    struct loom_errhandler *eh = s->errh;
    loom__errhandler_retain(eh);
    pthread_mutex_unlock(&s->lock);
    int rc = raise_with(eh, s, fn, cls, reason);
    loom__errhandler_release(eh);
    return rc;
}

#define BAD_SESSION(fn) loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_SESSION, "invalid session")

/* The session argument of fn: its object, or NULL after reporting MPI_ERR_SESSION in *rc. */
static struct loom_session *session_arg(const char *fn, MPI_Session h, int *rc)
{
    struct loom_session *s = resolve(h);
    if (s == NULL)
        *rc = BAD_SESSION(fn);
    return s;
}

/* An info argument that may be MPI_INFO_NULL: MPI_SUCCESS or the class raised on s. */
static int check_info(struct loom_session *s, const char *fn, MPI_Info info)
{
    if (info != MPI_INFO_NULL && loom__info_invalid_reason(info) != NULL)
        return session_error(s, fn, MPI_ERR_INFO, "%s", loom__info_invalid_reason(info));
    return MPI_SUCCESS;
}

/* An error handler that may be attached to a session. */
static int session_errhandler_ok(MPI_Errhandler eh)
{
    return loom__object_is(eh, LOOM_MAGIC_ERRHANDLER) && eh->fn == NULL && eh->win_fn == NULL;
}

int loom__mpi_session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    static const char fn[] = "MPI_Session_init";
    LOOM_TRACE_API_SCOPE(fn);
    if (loom__self == NULL)
        return loom__api_check_initialized(fn); /* not a rank: reported, never returns */
    if (!session_errhandler_ok(errhandler))
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_ARG, "%s",
                               loom__object_is(errhandler, LOOM_MAGIC_ERRHANDLER)
                                   ? "errhandler is a communicator's, not a session's"
                                   : "errhandler is not a valid error handler");
    if (info != MPI_INFO_NULL && loom__info_invalid_reason(info) != NULL)
        return raise_with(errhandler, MPI_SESSION_NULL, fn, MPI_ERR_INFO,
                          loom__info_invalid_reason(info));
    if (session == NULL)
        return raise_with(errhandler, MPI_SESSION_NULL, fn, MPI_ERR_ARG, "session is NULL");
    int rc = loom__api_rank_join_session(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    /* freed by MPI_Session_finalize (its memory through the quarantine) */
    struct loom_session *s = calloc(1, sizeof *s);
    struct loom_info *used = info != MPI_INFO_NULL ? loom__info_dup(info) : loom__info_new();
    struct loom_bsend *bsend = loom__bsend_new(); /* released at finalize */
    if (s == NULL || used == NULL || bsend == NULL ||
        loom__info_set(used, "thread_level", "MPI_THREAD_MULTIPLE") != 0) {
        free(s);
        if (used)
            loom__info_free(used);
        loom__bsend_release(bsend);
        loom__api_rank_leave_session();
        return raise_with(errhandler, MPI_SESSION_NULL, fn, MPI_ERR_NO_MEM, "out of memory");
    }
    loom__object_init(&s->obj, LOOM_MAGIC_SESSION);
    s->rank = loom__self;
    atomic_init(&s->open, 1);
    pthread_mutex_init(&s->lock, NULL);
    loom__errhandler_retain(errhandler);
    s->errh = errhandler;
    s->info = used;
    s->bsend = bsend;
    *session = s;
    return MPI_SUCCESS;
}

int loom__mpi_session_finalize(MPI_Session *session)
{
    static const char fn[] = "MPI_Session_finalize";
    LOOM_API_ENTER(fn);
    if (session == NULL)
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_ARG, "session is NULL");
    struct loom_session *s = resolve(*session);
    /* One finalize takes the session: a second, from another thread, finds it closed. */
    if (s == NULL || loom__exchange_acq_rel(&s->open, 0) != 1)
        return BAD_SESSION(fn);
    /* Its buffer, if still attached, is detached as MPI_Session_detach_buffer does (the
     * program completed its buffered sends before finalizing: this waits for them to leave
     * it). Communicators derived from the session may outlive it: they keep the owner, with
     * nothing attached. */
    loom__bsend_drain(s->bsend);
    loom__bsend_release(s->bsend);
    s->bsend = NULL;
    loom__errhandler_release(s->errh);
    loom__info_free(s->info);
    pthread_mutex_destroy(&s->lock);
    loom__quarantine_put(s, NULL); /* a stale handle still reads as no session */
    *session = MPI_SESSION_NULL;
    loom__api_rank_leave_session();
    return MPI_SUCCESS;
}

int loom__mpi_session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    static const char fn[] = "MPI_Session_get_num_psets";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_session *s = session_arg(fn, session, &rc);
    if (s == NULL)
        return rc;
    if ((rc = check_info(s, fn, info)) != MPI_SUCCESS)
        return rc;
    if (npset_names == NULL)
        return session_error(s, fn, MPI_ERR_ARG, "npset_names is NULL");
    struct pset_list l;
    rank_psets(&l);
    *npset_names = l.n;
    return MPI_SUCCESS;
}

int loom__mpi_session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len,
                                   char *pset_name)
{
    static const char fn[] = "MPI_Session_get_nth_pset";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_session *s = session_arg(fn, session, &rc);
    if (s == NULL)
        return rc;
    if ((rc = check_info(s, fn, info)) != MPI_SUCCESS)
        return rc;
    struct pset_list l;
    rank_psets(&l);
    if (n < 0 || n >= l.n)
        return session_error(s, fn, MPI_ERR_ARG, "n %d out of range (%d process sets)", n,
                             l.n);
    if (pset_len == NULL)
        return session_error(s, fn, MPI_ERR_ARG, "pset_len is NULL");
    if (*pset_len < 0)
        return session_error(s, fn, MPI_ERR_ARG, "*pset_len %d is negative", *pset_len);
    if (*pset_len > 0 && pset_name == NULL)
        return session_error(s, fn, MPI_ERR_ARG, "pset_name is NULL with *pset_len %d",
                             *pset_len);
    int len = (int)strlen(l.name[n]);
    if (*pset_len > 0) { /* truncated to the buffer, always terminated */
        int k = len < *pset_len - 1 ? len : *pset_len - 1;
        memcpy(pset_name, l.name[n], (size_t)k);
        pset_name[k] = '\0';
    }
    *pset_len = len + 1;
    return MPI_SUCCESS;
}

/* The pset named (its index in l, filled), or -1 after raising MPI_ERR_ARG in *rc. */
static int pset_arg(struct loom_session *s, const char *fn, const char *name,
                    struct pset_list *l, int *rc)
{
    if (name == NULL) {
        *rc = session_error(s, fn, MPI_ERR_ARG, "pset_name is NULL");
        return -1;
    }
    rank_psets(l);
    int i = pset_index(l, name);
    if (i < 0)
        *rc = session_error(s, fn, MPI_ERR_ARG, "no process set named \"%.*s\"",
                            MPI_MAX_PSET_NAME_LEN, name);
    return i;
}

int loom__mpi_session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    static const char fn[] = "MPI_Session_get_pset_info";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_session *s = session_arg(fn, session, &rc);
    if (s == NULL)
        return rc;
    if (info == NULL)
        return session_error(s, fn, MPI_ERR_ARG, "info is NULL");
    struct pset_list l;
    int i = pset_arg(s, fn, pset_name, &l, &rc);
    if (i < 0)
        return rc;
    char size[16];
    snprintf(size, sizeof size, "%d", pset_size(&l, i));
    struct loom_info *out = loom__info_new(); /* the program frees it (MPI_Info_free) */
    if (out == NULL || loom__info_set(out, "mpi_size", size) != 0 ||
        (l.type[i] && loom__info_set(out, "mpi_hw_resource_type", l.type[i]) != 0)) {
        if (out)
            loom__info_free(out);
        return session_error(s, fn, MPI_ERR_NO_MEM, "out of memory");
    }
    *info = out;
    return MPI_SUCCESS;
}

int loom__mpi_session_get_info(MPI_Session session, MPI_Info *info_used)
{
    static const char fn[] = "MPI_Session_get_info";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_session *s = session_arg(fn, session, &rc);
    if (s == NULL)
        return rc;
    if (info_used == NULL)
        return session_error(s, fn, MPI_ERR_ARG, "info_used is NULL");
    struct loom_info *out = loom__info_dup(s->info); /* the program frees it */
    if (out == NULL)
        return session_error(s, fn, MPI_ERR_NO_MEM, "out of memory");
    *info_used = out;
    return MPI_SUCCESS;
}

int loom__mpi_group_from_session_pset(MPI_Session session, const char *pset_name,
                                      MPI_Group *newgroup)
{
    static const char fn[] = "MPI_Group_from_session_pset";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_session *s = session_arg(fn, session, &rc);
    if (s == NULL)
        return rc;
    if (newgroup == NULL)
        return session_error(s, fn, MPI_ERR_ARG, "newgroup is NULL");
    struct pset_list l;
    int i = pset_arg(s, fn, pset_name, &l, &rc);
    if (i < 0)
        return rc;
    struct loom_group *g = loom__group_new(pset_size(&l, i)); /* the program frees it */
    if (g == NULL)
        return session_error(s, fn, MPI_ERR_NO_MEM, "out of memory");
    for (int w = 0, k = 0; w < loom__job.nranks; w++) /* in world rank order */
        if (pset_has(&l, i, w))
            g->world[k++] = w;
    loom__bsend_retain(s->bsend); /* the group derives from s (MPI 4.1 section 3.6) */
    g->session_bsend = s->bsend;
    *newgroup = g;
    return MPI_SUCCESS;
}

/* Callable before MPI_Init and MPI_Session_init (MPI 4.1, section 11.4.1): the handler is
 * what MPI_Session_init is given. */
int loom__mpi_session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                        MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Session_create_errhandler";
    LOOM_TRACE_API_SCOPE(fn);
    if (loom__self == NULL)
        return loom__api_check_initialized(fn); /* not a rank: reported, never returns */
    if (session_errhandler_fn == NULL || errhandler == NULL)
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_ARG, "%s is NULL",
                               session_errhandler_fn == NULL ? "session_errhandler_fn"
                                                             : "errhandler");
    /* freed when its handle is freed and no session uses it (comm/errhandler.c) */
    struct loom_errhandler *eh = calloc(1, sizeof *eh);
    if (eh == NULL)
        return loom__api_error_code(MPI_COMM_SELF, fn, LOOM_ERR_NOMEM);
    loom__object_init(&eh->obj, LOOM_MAGIC_ERRHANDLER);
    atomic_init(&eh->refs, 1);
    eh->session_fn = session_errhandler_fn;
    *errhandler = eh;
    return MPI_SUCCESS;
}

int loom__mpi_session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    static const char fn[] = "MPI_Session_set_errhandler";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_session *s = session_arg(fn, session, &rc);
    if (s == NULL)
        return rc;
    if (!session_errhandler_ok(errhandler))
        return session_error(s, fn, MPI_ERR_ARG, "%s",
                             loom__object_is(errhandler, LOOM_MAGIC_ERRHANDLER)
                                 ? "errhandler is a communicator's, not a session's"
                                 : "errhandler is not a valid error handler");
    loom__errhandler_retain(errhandler);
    pthread_mutex_lock(&s->lock);
    struct loom_errhandler *old = s->errh;
    s->errh = errhandler;
    pthread_mutex_unlock(&s->lock);
    loom__errhandler_release(old);
    return MPI_SUCCESS;
}

int loom__mpi_session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Session_get_errhandler";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_session *s = session_arg(fn, session, &rc);
    if (s == NULL)
        return rc;
    if (errhandler == NULL)
        return session_error(s, fn, MPI_ERR_ARG, "errhandler is NULL");
    /* a new reference, which the program frees with MPI_Errhandler_free */
    pthread_mutex_lock(&s->lock);
    loom__errhandler_retain(s->errh);
    *errhandler = s->errh;
    pthread_mutex_unlock(&s->lock);
    return MPI_SUCCESS;
}

int loom__mpi_session_call_errhandler(MPI_Session session, int errorcode)
{
    static const char fn[] = "MPI_Session_call_errhandler";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_session *s = session_arg(fn, session, &rc);
    if (s == NULL)
        return rc;
    char text[MPI_MAX_ERROR_STRING];
    if (loom__api_error_text(errorcode, text) < 0)
        snprintf(text, sizeof text, "not an MPI error code");
    session_error(s, fn, errorcode, "error %d: %s", errorcode, text);
    return MPI_SUCCESS;
}

/* ---- the session's buffer for buffered sends (MPI 4.1 section 3.6; p2p/bsend.h) -------- */

int loom__mpi_session_attach_buffer_c(const char *fn, MPI_Session session, void *buffer,
                                      MPI_Count size)
{
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_session *s = session_arg(fn, session, &rc);
    if (s == NULL)
        return rc;
    if (buffer != MPI_BUFFER_AUTOMATIC) { /* else size is ignored */
        if (size < 0)
            return session_error(s, fn, MPI_ERR_ARG, "size %lld is negative", (long long)size);
        if (buffer == NULL && size > 0)
            return session_error(s, fn, MPI_ERR_BUFFER, "buffer is NULL");
    }
    if (loom__bsend_attach(s->bsend, buffer, (size_t)size) != 0)
        return session_error(s, fn, MPI_ERR_BUFFER, "a buffer is already attached to the session");
    return MPI_SUCCESS;
}

static int session_detach(MPI_Session session, const char *fn, void *buffer_addr, void *size,
                          int wide)
{
    int rc;
    struct loom_session *s = session_arg(fn, session, &rc);
    if (s == NULL)
        return rc;
    if (buffer_addr == NULL || size == NULL)
        return session_error(s, fn, MPI_ERR_ARG, "%s is NULL",
                             buffer_addr == NULL ? "buffer_addr" : "size");
    void *buf;
    size_t len;
    rc = loom__bsend_detach(s->bsend, &buf, &len, wide ? (size_t)LLONG_MAX : (size_t)INT_MAX);
    if (rc == LOOM_ERR_BUFFER)
        return session_error(s, fn, MPI_ERR_BUFFER, "no buffer is attached to the session");
    if (rc == LOOM_ERR_ARG)
        return session_error(s, fn, MPI_ERR_VALUE_TOO_LARGE,
                             "the attached buffer's size is above %d (use the _c form)",
                             INT_MAX);
    *(void **)buffer_addr = buf;
    if (wide)
        *(MPI_Count *)size = (MPI_Count)len;
    else
        *(int *)size = (int)len;
    return MPI_SUCCESS;
}

int loom__mpi_session_detach_buffer(MPI_Session session, void *buffer_addr, int *size)
{
    LOOM_API_ENTER("MPI_Session_detach_buffer");
    return session_detach(session, "MPI_Session_detach_buffer", buffer_addr, size, 0);
}

int loom__mpi_session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size)
{
    LOOM_API_ENTER("MPI_Session_detach_buffer_c");
    return session_detach(session, "MPI_Session_detach_buffer_c", buffer_addr, size, 1);
}

int loom__mpi_session_flush_buffer(MPI_Session session)
{
    static const char fn[] = "MPI_Session_flush_buffer";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_session *s = session_arg(fn, session, &rc);
    if (s == NULL)
        return rc;
    loom__bsend_flush(s->bsend);
    return MPI_SUCCESS;
}

int loom__mpi_session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    static const char fn[] = "MPI_Session_iflush_buffer";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_session *s = session_arg(fn, session, &rc);
    if (s == NULL)
        return rc;
    if (request == NULL)
        return session_error(s, fn, MPI_ERR_ARG, "request is NULL");
    struct loom_request *r = loom__req_new(LOOM_REQ_FLUSH);
    if (r == NULL)
        return session_error(s, fn, MPI_ERR_NO_MEM, "out of memory");
    r->comm = MPI_COMM_SELF; /* a request's errors go to a communicator: the rank's own */
    loom__p2p_status_empty(&r->status, MPI_ANY_SOURCE);
    if (loom__api_buffer_iflush_start(s->bsend, r) != 0) {
        loom__req_discard(r);
        return session_error(s, fn, MPI_ERR_NO_MEM, "out of memory");
    }
    *request = r;
    return MPI_SUCCESS;
}
