/* api/win_create.c — windows: MPI_Win_create, _allocate, _allocate_shared (and their _c
 * forms, whose implementations take the name of the call made), _create_dynamic, _free,
 * _attach, _detach, _shared_query(_c), _get_group, _set_info and _get_info.
 *
 * The creation calls check their arguments on the communicator, whose handler reports them,
 * then make the window collectively (rma/win.c). Every memory in this process can be read and
 * written by every rank, so MPI_Win_shared_query answers for a window of any flavor but the
 * dynamic one (MPI 4.1 lets it: windows whose memory is shareable). */
#include <stdint.h>
#include <stdlib.h>
#include "api/win.h"
#include "comm/comm.h"

/* The communicator of a creation call: an intracommunicator of the calling rank, or NULL
 * after reporting MPI_ERR_COMM in *rc. */
static struct loom_comm *creation_comm(const char *fn, MPI_Comm comm, int *rc)
{
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL) {
        *rc = loom__api_error(comm, fn, MPI_ERR_COMM, "%s", loom__comm_invalid_reason(comm));
        return NULL;
    }
    if (loom__comm_is_inter(c)) {
        *rc = loom__api_error(comm, fn, MPI_ERR_COMM,
                              "communicator is an intercommunicator (windows need an "
                              "intracommunicator)");
        return NULL;
    }
    return c;
}

/* Checks common to every creation call; MPI_SUCCESS or the class reported on comm. */
static int check_creation(const char *fn, MPI_Comm comm, MPI_Aint size, MPI_Aint disp_unit,
                          MPI_Info info, MPI_Win *win, struct loom_comm **c)
{
    int rc = MPI_SUCCESS;
    *c = creation_comm(fn, comm, &rc);
    if (*c == NULL)
        return rc;
    if (size < 0)
        return loom__api_error(comm, fn, MPI_ERR_SIZE, "size %lld is negative",
                               (long long)size);
    if ((uint64_t)size > (uint64_t)PTRDIFF_MAX / 2)
        return loom__api_error(comm, fn, MPI_ERR_SIZE, "size %lld is beyond the address space",
                               (long long)size);
    if (disp_unit <= 0)
        return loom__api_error(comm, fn, MPI_ERR_DISP, "disp_unit %lld is not positive",
                               (long long)disp_unit);
    if (info != MPI_INFO_NULL && loom__info_invalid_reason(info) != NULL)
        return loom__api_error(comm, fn, MPI_ERR_INFO, "%s", loom__info_invalid_reason(info));
    if (win == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "win is NULL");
    return MPI_SUCCESS;
}

static int create(const char *fn, int flavor, void **base, MPI_Aint size, MPI_Aint disp_unit,
                  MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    struct loom_comm *c;
    int rc = check_creation(fn, comm, size, disp_unit, info, win, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    if (flavor == MPI_WIN_FLAVOR_SHARED && c->sh->spans_nodes) /* every member alike */
        return loom__api_error(comm, fn, MPI_ERR_RMA_SHARED, "the communicator's ranks run in "
                               "several node processes, which share no memory (split it "
                               "with MPI_COMM_TYPE_SHARED first)");
    struct loom_win *w;
    rc = loom__win_create(c, flavor, base, (size_t)size, (ptrdiff_t)disp_unit,
                          info == MPI_INFO_NULL ? NULL : info, &w);
    if (rc != 0)
        return loom__api_error(comm, fn, loom__error_class(rc), "cannot make the window: %s",
                               loom__error_reason(rc));
    *win = w;
    return MPI_SUCCESS;
}

int loom__mpi_win_create_c(const char *fn, void *base, MPI_Aint size, MPI_Aint disp_unit,
                           MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    LOOM_API_ENTER(fn);
    return create(fn, MPI_WIN_FLAVOR_CREATE, &base, size, disp_unit, info, comm, win);
}

/* baseptr: a void * that points at the caller's pointer (MPI 4.1, section 12.2.2) */
static int allocate(const char *fn, int flavor, MPI_Aint size, MPI_Aint disp_unit,
                    MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    if (baseptr == NULL) {
        int rc = MPI_SUCCESS;
        if (creation_comm(fn, comm, &rc) == NULL)
            return rc;
        return loom__api_error(comm, fn, MPI_ERR_ARG, "baseptr is NULL");
    }
    void *base = NULL;
    int rc = create(fn, flavor, &base, size, disp_unit, info, comm, win);
    if (rc == MPI_SUCCESS)
        *(void **)baseptr = base;
    return rc;
}

int loom__mpi_win_allocate_c(const char *fn, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                             MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    LOOM_API_ENTER(fn);
    return allocate(fn, MPI_WIN_FLAVOR_ALLOCATE, size, disp_unit, info, comm, baseptr, win);
}

int loom__mpi_win_allocate_shared_c(const char *fn, MPI_Aint size, MPI_Aint disp_unit,
                                    MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    LOOM_API_ENTER(fn);
    return allocate(fn, MPI_WIN_FLAVOR_SHARED, size, disp_unit, info, comm, baseptr, win);
}

int loom__mpi_win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    static const char fn[] = "MPI_Win_create_dynamic";
    LOOM_API_ENTER(fn);
    return create(fn, MPI_WIN_FLAVOR_DYNAMIC, NULL, 0, 1, info, comm, win);
}

/* Why the calling origin may not free w now, or NULL. */
static const char *open_epoch(struct loom_win *w)
{
    int a = atomic_load_explicit(&w->access, memory_order_relaxed);
    if (a & LOOM_RMA_LOCK_ALL)
        return "MPI_Win_lock_all's epoch is open (MPI_Win_unlock_all first)";
    if (a & LOOM_RMA_START)
        return "MPI_Win_start's access epoch is open (MPI_Win_complete first)";
    if (loom__rma_any_held(w))
        return "a target is still locked (MPI_Win_unlock first)";
    if (atomic_load_explicit(&w->exposing, memory_order_relaxed))
        return "MPI_Win_post's exposure epoch is open (MPI_Win_wait first)";
    return NULL;
}

int loom__mpi_win_free(MPI_Win *win)
{
    static const char fn[] = "MPI_Win_free";
    LOOM_API_ENTER(fn);
    if (win == NULL)
        return loom__api_error(MPI_COMM_SELF, fn, MPI_ERR_ARG, "win is NULL");
    int rc;
    struct loom_win *w = loom__win_arg(fn, *win, &rc);
    if (w == NULL)
        return rc;
    const char *why = open_epoch(w);
    if (why != NULL)
        return loom__win_error(w, fn, MPI_ERR_RMA_SYNC, "%s", why);
    rc = loom__win_free(w);
    if (rc > 0)
        return loom__win_error(w, fn, rc <= MPI_ERR_LASTCODE ? rc : MPI_ERR_OTHER,
                               "an attribute's delete callback returned error %d", rc);
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}

/* A window argument that must be dynamic. */
static struct loom_win *dynamic_arg(const char *fn, MPI_Win win, int *rc)
{
    struct loom_win *w = loom__win_arg(fn, win, rc);
    if (w != NULL && w->sh->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        *rc = loom__win_error(w, fn, MPI_ERR_RMA_FLAVOR,
                              "the window was not made by MPI_Win_create_dynamic");
        return NULL;
    }
    return w;
}

int loom__mpi_win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    static const char fn[] = "MPI_Win_attach";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = dynamic_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if (size < 0)
        return loom__win_error(w, fn, MPI_ERR_SIZE, "size %lld is negative", (long long)size);
    if (base == NULL && size > 0)
        return loom__win_error(w, fn, MPI_ERR_ARG, "base is NULL");
    if ((uintptr_t)base > UINTPTR_MAX - (uintptr_t)size)
        return loom__win_error(w, fn, MPI_ERR_SIZE, "the region wraps around the address "
                               "space");
    rc = loom__rma_attach(w, base, (size_t)size);
    if (rc == LOOM_ERR_RMA_ATTACH)
        return loom__win_error(w, fn, MPI_ERR_RMA_ATTACH, "[%p, +%lld) overlaps a region "
                               "already attached", base, (long long)size);
    return rc ? loom__win_error_code(w, fn, rc) : MPI_SUCCESS;
}

int loom__mpi_win_detach(MPI_Win win, const void *base)
{
    static const char fn[] = "MPI_Win_detach";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = dynamic_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if (loom__rma_detach(w, base) != 0)
        return loom__win_error(w, fn, MPI_ERR_RMA_ATTACH,
                               "no region attached by this rank starts at %p", base);
    return MPI_SUCCESS;
}

/* The part of window rank r (MPI_PROC_NULL: the lowest rank whose part is not empty) in
 * *size, *unit and *base. */
static int shared_query(const char *fn, MPI_Win win, int rank, MPI_Aint *size,
                        MPI_Aint *unit, void *baseptr, struct loom_win **wp)
{
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    *wp = w;
    if (w == NULL)
        return rc;
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= w->size))
        return loom__win_error(w, fn, MPI_ERR_RANK, "rank %d out of range (the window has %d "
                               "members)", rank, w->size);
    if (size == NULL || unit == NULL || baseptr == NULL)
        return loom__win_error(w, fn, MPI_ERR_ARG, "%s is NULL",
                               size == NULL ? "size" : unit == NULL ? "disp_unit" : "baseptr");
    if (w->sh->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        return loom__win_error(w, fn, MPI_ERR_RMA_FLAVOR,
                               "a dynamic window has no memory of its own to share");
    int r = rank;
    if (r == MPI_PROC_NULL) {
        r = 0;
        while (r < w->size && w->sh->seg[r].size == 0)
            r++;
    }
    if (r == w->size) { /* every part is empty: the first member's base, size 0 */
        *size = 0;
        *unit = w->sh->seg[0].disp_unit;
        *(void **)baseptr = w->sh->seg[0].base;
        return MPI_SUCCESS;
    }
    const struct loom_win_seg *s = &w->sh->seg[r];
    if (s->remote) { /* memory of another node process: not shareable */
        *size = 0;
        *unit = s->disp_unit;
        *(void **)baseptr = NULL;
        return MPI_SUCCESS;
    }
    *size = (MPI_Aint)s->size;
    *unit = s->disp_unit;
    *(void **)baseptr = s->base;
    return MPI_SUCCESS;
}

int loom__mpi_win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit,
                               void *baseptr)
{
    static const char fn[] = "MPI_Win_shared_query";
    LOOM_API_ENTER(fn);
    MPI_Aint unit = 0;
    struct loom_win *w;
    int rc = shared_query(fn, win, rank, size, disp_unit ? &unit : NULL, baseptr, &w);
    if (rc != MPI_SUCCESS)
        return rc;
    if (unit > INT32_MAX)
        return loom__win_error(w, fn, MPI_ERR_VALUE_TOO_LARGE,
                               "disp_unit %lld does not fit an int (use "
                               "MPI_Win_shared_query_c)", (long long)unit);
    *disp_unit = (int)unit;
    return MPI_SUCCESS;
}

int loom__mpi_win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                                 void *baseptr)
{
    static const char fn[] = "MPI_Win_shared_query_c";
    LOOM_API_ENTER(fn);
    struct loom_win *w;
    return shared_query(fn, win, rank, size, disp_unit, baseptr, &w);
}

int loom__mpi_win_get_group(MPI_Win win, MPI_Group *group)
{
    static const char fn[] = "MPI_Win_get_group";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if (group == NULL)
        return loom__win_error(w, fn, MPI_ERR_ARG, "group is NULL");
    /* a group of the program's own, freed with MPI_Group_free (comm/comm.h says why a copy) */
    struct loom_group *g = loom__group_copy(w->group);
    if (g == NULL)
        return loom__win_error_code(w, fn, LOOM_ERR_NOMEM);
    *group = g;
    return MPI_SUCCESS;
}

int loom__mpi_win_set_info(MPI_Win win, MPI_Info info)
{
    static const char fn[] = "MPI_Win_set_info";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if (info != MPI_INFO_NULL && loom__info_invalid_reason(info) != NULL)
        return loom__win_error(w, fn, MPI_ERR_INFO, "%s", loom__info_invalid_reason(info));
    pthread_mutex_lock(&w->attr_lock);
    rc = loom__rma_hints_update(w->info, info == MPI_INFO_NULL ? NULL : info);
    pthread_mutex_unlock(&w->attr_lock);
    return rc ? loom__win_error_code(w, fn, rc) : MPI_SUCCESS;
}

int loom__mpi_win_get_info(MPI_Win win, MPI_Info *info_used)
{
    static const char fn[] = "MPI_Win_get_info";
    LOOM_API_ENTER(fn);
    int rc;
    struct loom_win *w = loom__win_arg(fn, win, &rc);
    if (w == NULL)
        return rc;
    if (info_used == NULL)
        return loom__win_error(w, fn, MPI_ERR_ARG, "info_used is NULL");
    pthread_mutex_lock(&w->attr_lock);
    struct loom_info *copy = loom__info_dup(w->info); /* the program frees it */
    pthread_mutex_unlock(&w->attr_lock);
    if (copy == NULL)
        return loom__win_error_code(w, fn, LOOM_ERR_NOMEM);
    *info_used = copy;
    return MPI_SUCCESS;
}
