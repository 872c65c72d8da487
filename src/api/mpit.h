/* api/mpit.h — what the MPI_T entry points (api/mpit_*.c) share: the process-wide MPI_T
 * state and the string convention of chapter 15.
 *
 * MPI_T is per process, and in loom a process holds every rank: the state (how many times
 * MPI_T_init_thread was called and not yet finalized, the sessions and handles tools
 * allocated) is one for the whole job, shared by every rank and every thread. All of it is
 * under one mutex, taken by every MPI_T call for its whole duration (MPI_T_ENTER / _LEAVE),
 * so any thread may call any MPI_T function at any time, before MPI_Init and after
 * MPI_Finalize included; the lock is a leaf (nothing else is taken under it except the
 * configuration's write lock, core/config.c). MPI_T calls return their error class and never
 * call an error handler, as the standard says. */
#ifndef LOOM_API_MPIT_H
#define LOOM_API_MPIT_H
#include "mpi.h"
#include "core/mpit.h"

/* Take the MPI_T lock; MPI_T_ERR_NOT_INITIALIZED (lock released) when MPI_T is not
 * initialized, else MPI_SUCCESS with the lock held. */
int loom__mpit_enter(void);
void loom__mpit_leave(void);
/* Return rc from an MPI_T call that holds the lock. */
#define MPIT_RETURN(rc)                                                                        \
    do {                                                                                       \
        int mpit_rc_ = (rc);                                                                   \
        loom__mpit_leave();                                                                    \
        return mpit_rc_;                                                                       \
    } while (0)
#define MPIT_ENTER()                                                                           \
    do {                                                                                       \
        int mpit_rc_ = loom__mpit_enter();                                                     \
        if (mpit_rc_ != MPI_SUCCESS)                                                           \
            return mpit_rc_;                                                                   \
    } while (0)

/* Return src through (buf, *len) as chapter 15 says: len NULL, nothing; *len 0, *len becomes
 * the size src needs (its length + 1) and buf is untouched; otherwise at most *len - 1
 * characters and a NUL go into buf (when buf is not NULL) and *len becomes what was written,
 * NUL included. */
void loom__mpit_string(char *buf, int *len, const char *src);

/* Stop and free every session and cvar handle (MPI_T_finalize's last call). Lock held. */
void loom__mpit_free_cvar_handles(void);
void loom__mpit_free_sessions(void);
#endif
