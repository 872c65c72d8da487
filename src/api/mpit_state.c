/* api/mpit_state.c — MPI_T_init_thread, MPI_T_finalize: the reference-counted MPI_T state
 * of the process (api/mpit.h says who touches it), and the string convention. */
#include <pthread.h>
#include <string.h>

#include "api/mpit.h"

/* The MPI_T lock and what it protects here: the number of MPI_T_init_thread calls not yet
 * matched by MPI_T_finalize. Sessions and handles are under it too (api/mpit_cvar.c,
 * api/mpit_pvar.c). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int refcount;

int loom__mpit_enter(void)
{
    pthread_mutex_lock(&lock);
    if (refcount > 0)
        return MPI_SUCCESS;
    pthread_mutex_unlock(&lock);
    return MPI_T_ERR_NOT_INITIALIZED;
}

void loom__mpit_leave(void)
{
    pthread_mutex_unlock(&lock);
}

void loom__mpit_string(char *buf, int *len, const char *src)
{
    if (len == NULL)
        return;
    int need = (int)strlen(src) + 1;
    if (*len <= 0) {
        *len = need;
        return;
    }
    int n = *len < need ? *len : need; /* bytes written, NUL included */
    if (buf != NULL) {
        memcpy(buf, src, (size_t)n - 1);
        buf[n - 1] = '\0';
    }
    *len = n;
}

int loom__mpi_t_init_thread(int required, int *provided)
{
    if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE || provided == NULL)
        return MPI_T_ERR_INVALID;
    pthread_mutex_lock(&lock);
    refcount++;
    pthread_mutex_unlock(&lock);
    *provided = MPI_THREAD_MULTIPLE; /* every MPI_T call takes the MPI_T lock */
    return MPI_SUCCESS;
}

int loom__mpi_t_finalize(void)
{
    MPIT_ENTER();
    if (--refcount == 0) {
        /* The last one: every handle and session of this MPI_T "epoch" goes (the standard
         * makes them invalid); a later MPI_T_init_thread starts afresh. */
        loom__mpit_free_sessions();
        loom__mpit_free_cvar_handles();
    }
    MPIT_RETURN(MPI_SUCCESS);
}
