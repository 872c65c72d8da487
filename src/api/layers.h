/* api/layers.h — per-rank start of the layers (MPI_Init); see layers.c. */
#ifndef LOOM_API_LAYERS_H
#define LOOM_API_LAYERS_H
/* Set up the calling rank's state in every layer. 0 or a negative loom code. */
int loom__layers_rank_init(void);

/* A new session of the calling rank (MPI_Session_init, api/session.c): brings the rank's
 * layers up if nothing did yet, and counts the session. MPI_SUCCESS, or (after the rank's
 * layers went down at MPI_Finalize) the fatal "after MPI_Finalize" report. */
int loom__api_rank_join_session(const char *fn);
/* One of the calling rank's sessions was finalized; the last one after MPI_Finalize takes
 * the rank's layers down (api/init.c). */
void loom__api_rank_leave_session(void);
#endif
