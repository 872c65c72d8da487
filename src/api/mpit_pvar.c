/* api/mpit_pvar.c — MPI_T performance variables: sessions, handles and the
 * start/stop/read/write/reset/readreset semantics of the standard over loom's message
 * counters (core/mpit.h, core/stats.h) and queue lengths (p2p/queues.c).
 *
 * A handle is bound to the rank of the thread that allocated it (the variables are per
 * calling rank; a rank is a thread, and threads it created act for it). It keeps the value
 * it shows as `value` plus, while started, what the rank's running total gained since
 * `base`. The counters are shared; a started handle is one reason for the count points to
 * count (loom__stats_count_on), so nothing is counted while no handle is started and
 * LOOM_STATS is off; a started timer handle likewise turns on the adding up of the rank
 * threads' MPI and wait times (loom__trace_times_on). A queue length is a continuous,
 * read-only level: its handle shows the length now, cannot be started, stopped, written or
 * reset. Sessions and handles are listed
 * here and looked up when a tool passes one (a bad one is reported, never followed);
 * everything is under the MPI_T lock (api/mpit.h). */
#include <stdlib.h>
#include <string.h>

#include "api/mpit.h"
#include "core/rank.h"
#include "core/stats.h"
#include "core/trace.h"

struct loom_mpit_pvar_handle {
    int index, rank, started;
    int continuous, readonly; /* the variable's: levels are both */
    int timer;                /* a timer (time in MPI, waiting): started, it turns timing on */
    uint64_t value; /* shown when stopped; when started, plus total - base */
    uint64_t base;  /* the running total when last started, written or reset */
    struct loom_mpit_pvar_handle *next;
};

struct loom_mpit_pvar_session {
    struct loom_mpit_pvar_handle *handles;
    struct loom_mpit_pvar_session *next;
};
static struct loom_mpit_pvar_session *sessions; /* under the MPI_T lock */

static int find_session(MPI_T_pvar_session s)
{
    for (struct loom_mpit_pvar_session *p = sessions; p; p = p->next)
        if (p == s)
            return 1;
    return 0;
}

static int find_handle(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    for (struct loom_mpit_pvar_handle *p = s->handles; p; p = p->next)
        if (p == h)
            return 1;
    return 0;
}

static uint64_t total(const struct loom_mpit_pvar_handle *h)
{
    return loom__mpit_pvar_total(h->index, h->rank);
}

static uint64_t current(const struct loom_mpit_pvar_handle *h)
{
    if (h->continuous)
        return total(h); /* a level: its value now */
    return h->started ? h->value + (total(h) - h->base) : h->value;
}

static void start(struct loom_mpit_pvar_handle *h)
{
    if (h->started || h->continuous)
        return; /* starting a started handle changes nothing */
    if (h->timer)
        loom__trace_times_on();
    else
        loom__stats_count_on();
    h->base = total(h); /* after counting is on: nothing after this is missed */
    h->started = 1;
}

static void stop(struct loom_mpit_pvar_handle *h)
{
    if (!h->started || h->continuous)
        return;
    h->value = current(h);
    h->started = 0;
    if (h->timer)
        loom__trace_times_off();
    else
        loom__stats_count_off();
}

static void set(struct loom_mpit_pvar_handle *h, uint64_t v)
{
    h->value = v;
    h->base = total(h);
}

static void free_handles(struct loom_mpit_pvar_session *s)
{
    while (s->handles) {
        struct loom_mpit_pvar_handle *next = s->handles->next;
        stop(s->handles);
        free(s->handles); /* allocated by MPI_T_pvar_handle_alloc */
        s->handles = next;
    }
}

void loom__mpit_free_sessions(void)
{
    while (sessions) {
        struct loom_mpit_pvar_session *next = sessions->next;
        free_handles(sessions);
        free(sessions); /* allocated by MPI_T_pvar_session_create */
        sessions = next;
    }
}

int loom__mpi_t_pvar_get_num(int *num_pvar)
{
    MPIT_ENTER();
    if (num_pvar == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    *num_pvar = LOOM_MPIT_NUM_PVARS;
    MPIT_RETURN(MPI_SUCCESS);
}

/* Every OUT argument may be NULL: that information is not returned. */
int loom__mpi_t_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity,
                              int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
                              char *desc, int *desc_len, int *bind, int *readonly, int *continuous,
                              int *atomic)
{
    struct loom_mpit_pvar_info in;
    MPIT_ENTER();
    if (pvar_index < 0 || pvar_index >= LOOM_MPIT_NUM_PVARS)
        MPIT_RETURN(MPI_T_ERR_INVALID_INDEX);
    loom__mpit_pvar_info(pvar_index, &in);
    loom__mpit_string(name, name_len, in.name);
    loom__mpit_string(desc, desc_len, in.desc);
    if (verbosity)
        *verbosity = in.verbosity;
    if (var_class)
        *var_class = in.var_class;
    if (datatype)
        *datatype = in.datatype;
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (readonly)
        *readonly = in.readonly; /* counters: a handle's value may be written and reset */
    if (continuous)
        *continuous = in.continuous; /* counters: nothing is counted until one is started */
    if (atomic)
        *atomic = 1; /* readreset is one step under the MPI_T lock */
    MPIT_RETURN(MPI_SUCCESS);
}

int loom__mpi_t_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    struct loom_mpit_pvar_info in;
    MPIT_ENTER();
    if (name == NULL || pvar_index == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    for (int i = 0; i < LOOM_MPIT_NUM_PVARS; i++) {
        loom__mpit_pvar_info(i, &in);
        if (in.var_class == var_class && strcmp(in.name, name) == 0) {
            *pvar_index = i;
            MPIT_RETURN(MPI_SUCCESS);
        }
    }
    MPIT_RETURN(MPI_T_ERR_INVALID_NAME);
}

int loom__mpi_t_pvar_session_create(MPI_T_pvar_session *session)
{
    MPIT_ENTER();
    if (session == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    struct loom_mpit_pvar_session *s = calloc(1, sizeof *s); /* freed by _session_free */
    if (s == NULL)
        MPIT_RETURN(MPI_T_ERR_OUT_OF_SESSIONS);
    s->next = sessions;
    sessions = s;
    *session = s;
    MPIT_RETURN(MPI_SUCCESS);
}

int loom__mpi_t_pvar_session_free(MPI_T_pvar_session *session)
{
    MPIT_ENTER();
    if (session == NULL || !find_session(*session))
        MPIT_RETURN(MPI_T_ERR_INVALID_SESSION);
    for (struct loom_mpit_pvar_session **p = &sessions; *p; p = &(*p)->next) {
        if (*p == *session) {
            *p = (*session)->next;
            break;
        }
    }
    free_handles(*session);
    free(*session); /* allocated by MPI_T_pvar_session_create */
    *session = MPI_T_PVAR_SESSION_NULL;
    MPIT_RETURN(MPI_SUCCESS);
}

/* obj_handle is ignored: every pvar is bound to no object. The handle is bound to the
 * calling thread's rank: a thread that works for no rank gets MPI_T_ERR_INVALID. */
int loom__mpi_t_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                                  MPI_T_pvar_handle *handle, int *count)
{
    (void)obj_handle;
    MPIT_ENTER();
    if (!find_session(session))
        MPIT_RETURN(MPI_T_ERR_INVALID_SESSION);
    if (pvar_index < 0 || pvar_index >= LOOM_MPIT_NUM_PVARS)
        MPIT_RETURN(MPI_T_ERR_INVALID_INDEX);
    if (handle == NULL || count == NULL || loom__self == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    struct loom_mpit_pvar_handle *h = calloc(1, sizeof *h); /* freed by _handle_free */
    if (h == NULL)
        MPIT_RETURN(MPI_T_ERR_OUT_OF_HANDLES);
    struct loom_mpit_pvar_info in;
    loom__mpit_pvar_info(pvar_index, &in);
    h->index = pvar_index;
    h->rank = loom__self->world_rank;
    h->continuous = in.continuous;
    h->readonly = in.readonly;
    h->timer = in.var_class == MPI_T_PVAR_CLASS_TIMER;
    h->started = in.continuous; /* a continuous variable is always active */
    h->next = session->handles;
    session->handles = h;
    *handle = h;
    *count = 1;
    MPIT_RETURN(MPI_SUCCESS);
}

int loom__mpi_t_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    MPIT_ENTER();
    if (!find_session(session))
        MPIT_RETURN(MPI_T_ERR_INVALID_SESSION);
    if (handle == NULL || !find_handle(session, *handle))
        MPIT_RETURN(MPI_T_ERR_INVALID_HANDLE);
    for (struct loom_mpit_pvar_handle **p = &session->handles; *p; p = &(*p)->next) {
        if (*p == *handle) {
            *p = (*handle)->next;
            break;
        }
    }
    stop(*handle);
    free(*handle); /* allocated by MPI_T_pvar_handle_alloc */
    *handle = MPI_T_PVAR_HANDLE_NULL;
    MPIT_RETURN(MPI_SUCCESS);
}

/* What a call does to the handle, for check(). */
enum use { READ, START_STOP, WRITE };

/* The checks of the calls that take (session, handle): MPI_SUCCESS, or the class. all: the
 * call accepts MPI_T_PVAR_ALL_HANDLES (which then leaves out the variables it cannot apply
 * to: continuous ones for start and stop, read-only ones for reset). */
static int check(MPI_T_pvar_session session, MPI_T_pvar_handle handle, int all, enum use use)
{
    if (!find_session(session))
        return MPI_T_ERR_INVALID_SESSION;
    if (handle == MPI_T_PVAR_ALL_HANDLES)
        return all ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
    if (!find_handle(session, handle))
        return MPI_T_ERR_INVALID_HANDLE;
    if (use == START_STOP && handle->continuous)
        return MPI_T_ERR_PVAR_NO_STARTSTOP;
    if (use == WRITE && handle->readonly)
        return MPI_T_ERR_PVAR_NO_WRITE;
    return MPI_SUCCESS;
}

int loom__mpi_t_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    MPIT_ENTER();
    int rc = check(session, handle, 1, START_STOP);
    if (rc != MPI_SUCCESS)
        MPIT_RETURN(rc);
    for (struct loom_mpit_pvar_handle *h = session->handles; h; h = h->next)
        if (handle == MPI_T_PVAR_ALL_HANDLES || h == handle)
            start(h);
    MPIT_RETURN(MPI_SUCCESS);
}

int loom__mpi_t_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    MPIT_ENTER();
    int rc = check(session, handle, 1, START_STOP);
    if (rc != MPI_SUCCESS)
        MPIT_RETURN(rc);
    for (struct loom_mpit_pvar_handle *h = session->handles; h; h = h->next)
        if (handle == MPI_T_PVAR_ALL_HANDLES || h == handle)
            stop(h);
    MPIT_RETURN(MPI_SUCCESS);
}

/* buf: one unsigned long long (every pvar's datatype). */
int loom__mpi_t_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    MPIT_ENTER();
    int rc = check(session, handle, 0, READ);
    if (rc != MPI_SUCCESS)
        MPIT_RETURN(rc);
    if (buf == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    *(unsigned long long *)buf = current(handle);
    MPIT_RETURN(MPI_SUCCESS);
}

/* The handle shows the value written, and counts on from it while started. */
int loom__mpi_t_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    MPIT_ENTER();
    int rc = check(session, handle, 0, WRITE);
    if (rc != MPI_SUCCESS)
        MPIT_RETURN(rc);
    if (buf == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    set(handle, *(const unsigned long long *)buf);
    MPIT_RETURN(MPI_SUCCESS);
}

int loom__mpi_t_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    MPIT_ENTER();
    int rc = check(session, handle, 1, WRITE);
    if (rc != MPI_SUCCESS)
        MPIT_RETURN(rc);
    for (struct loom_mpit_pvar_handle *h = session->handles; h; h = h->next)
        if ((handle == MPI_T_PVAR_ALL_HANDLES && !h->readonly) || h == handle)
            set(h, 0);
    MPIT_RETURN(MPI_SUCCESS);
}

int loom__mpi_t_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    MPIT_ENTER();
    int rc = check(session, handle, 0, WRITE);
    if (rc != MPI_SUCCESS)
        MPIT_RETURN(rc);
    if (buf == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    /* One total read for both, so nothing counted between the read and the reset is lost. */
    uint64_t t = total(handle);
    *(unsigned long long *)buf =
        handle->started ? handle->value + (t - handle->base) : handle->value;
    handle->value = 0;
    handle->base = t;
    MPIT_RETURN(MPI_SUCCESS);
}
