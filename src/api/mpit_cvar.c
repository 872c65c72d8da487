/* api/mpit_cvar.c — MPI_T control variables: the rows of loom's configuration table
 * (core/mpit.h). Handles are allocated by tools and listed here, so that a handle is checked
 * by looking it up (a bad one is reported, never followed); the list is under the MPI_T lock
 * (api/mpit.h). */
#include <stdlib.h>
#include <string.h>

#include "api/mpit.h"

struct loom_mpit_cvar_handle {
    int index, count;
    struct loom_mpit_cvar_handle *next;
};
static struct loom_mpit_cvar_handle *handles; /* under the MPI_T lock */

static int find(MPI_T_cvar_handle h)
{
    for (struct loom_mpit_cvar_handle *p = handles; p; p = p->next)
        if (p == h)
            return 1;
    return 0;
}

void loom__mpit_free_cvar_handles(void)
{
    while (handles) {
        struct loom_mpit_cvar_handle *next = handles->next;
        free(handles); /* allocated by MPI_T_cvar_handle_alloc */
        handles = next;
    }
}

int loom__mpi_t_cvar_get_num(int *num_cvar)
{
    MPIT_ENTER();
    if (num_cvar == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    *num_cvar = LOOM_MPIT_NUM_CVARS;
    MPIT_RETURN(MPI_SUCCESS);
}

/* Every OUT argument may be NULL: that information is not returned. */
int loom__mpi_t_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity,
                              MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc,
                              int *desc_len, int *bind, int *scope)
{
    struct loom_mpit_cvar_info in;
    MPIT_ENTER();
    if (cvar_index < 0 || cvar_index >= LOOM_MPIT_NUM_CVARS)
        MPIT_RETURN(MPI_T_ERR_INVALID_INDEX);
    loom__mpit_cvar_info(cvar_index, &in);
    loom__mpit_string(name, name_len, in.name);
    loom__mpit_string(desc, desc_len, in.desc);
    if (verbosity)
        *verbosity = in.verbosity;
    if (datatype)
        *datatype = in.datatype;
    if (enumtype)
        *enumtype = in.enumtype;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (scope)
        *scope = in.scope;
    MPIT_RETURN(MPI_SUCCESS);
}

int loom__mpi_t_cvar_get_index(const char *name, int *cvar_index)
{
    MPIT_ENTER();
    if (name == NULL || cvar_index == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    for (int i = 0; i < LOOM_MPIT_NUM_CVARS; i++) {
        if (strcmp(loom__config_name((enum loom_config_id)i), name) == 0) {
            *cvar_index = i;
            MPIT_RETURN(MPI_SUCCESS);
        }
    }
    MPIT_RETURN(MPI_T_ERR_INVALID_NAME);
}

/* obj_handle is ignored: every cvar is bound to no object. */
int loom__mpi_t_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
                                  int *count)
{
    (void)obj_handle;
    MPIT_ENTER();
    if (cvar_index < 0 || cvar_index >= LOOM_MPIT_NUM_CVARS)
        MPIT_RETURN(MPI_T_ERR_INVALID_INDEX);
    if (handle == NULL || count == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    struct loom_mpit_cvar_handle *h = malloc(sizeof *h); /* freed by MPI_T_cvar_handle_free */
    if (h == NULL)
        MPIT_RETURN(MPI_T_ERR_MEMORY);
    h->index = cvar_index;
    h->count = loom__mpit_cvar_count(cvar_index);
    h->next = handles;
    handles = h;
    *handle = h;
    *count = h->count;
    MPIT_RETURN(MPI_SUCCESS);
}

int loom__mpi_t_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    MPIT_ENTER();
    if (handle == NULL || !find(*handle))
        MPIT_RETURN(MPI_T_ERR_INVALID_HANDLE);
    for (struct loom_mpit_cvar_handle **p = &handles; *p; p = &(*p)->next) {
        if (*p == *handle) {
            *p = (*handle)->next;
            break;
        }
    }
    free(*handle); /* allocated by MPI_T_cvar_handle_alloc */
    *handle = MPI_T_CVAR_HANDLE_NULL;
    MPIT_RETURN(MPI_SUCCESS);
}

int loom__mpi_t_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    MPIT_ENTER();
    if (!find(handle))
        MPIT_RETURN(MPI_T_ERR_INVALID_HANDLE);
    if (buf == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    loom__mpit_cvar_read(handle->index, buf);
    MPIT_RETURN(MPI_SUCCESS);
}

/* Only LIVE rows (read at each use) may change: the others give MPI_T_ERR_CVAR_SET_NEVER. A
 * value the row does not accept gives MPI_T_ERR_INVALID and changes nothing. */
int loom__mpi_t_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    char err[256];
    MPIT_ENTER();
    if (!find(handle))
        MPIT_RETURN(MPI_T_ERR_INVALID_HANDLE);
    if (buf == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    int rc = loom__mpit_cvar_write(handle->index, buf, err, sizeof err);
    MPIT_RETURN(rc == 0 ? MPI_SUCCESS : rc == -2 ? MPI_T_ERR_CVAR_SET_NEVER : MPI_T_ERR_INVALID);
}
