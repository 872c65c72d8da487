/* p2p/bsend.h — buffered sends in the buffer a rank attached (MPI_Buffer_attach). */
#ifndef LOOM_P2P_BSEND_H
#define LOOM_P2P_BSEND_H
#include <stddef.h>
#include "p2p/request.h"

/* Attach / detach the calling rank's buffer. attach: LOOM_ERR_BUFFER if one is attached.
 * detach waits until every buffered message has left the buffer; LOOM_ERR_BUFFER if none. */
int loom__bsend_attach(void *buf, size_t size);
int loom__bsend_detach(void **buf, size_t *size);
/* Copy the message of s (fields filled, mode ignored) into the attached buffer and start it
 * from there; s itself is not used afterwards. LOOM_ERR_BUFFER when the buffer lacks room. */
int loom__bsend_start(const struct loom_request *s);
/* MPI_Buffer_flush: wait until every buffered send the rank started so far has left the
 * buffer. */
void loom__bsend_flush(void);
/* MPI_Buffer_iflush: 1 if nothing is to wait for (req untouched), 0 if req (unpublished, the
 * caller's) will be completed by the thread that gives back the last such send,
 * LOOM_ERR_NOMEM. */
int loom__bsend_iflush(struct loom_request *req);
/* Free the per-rank state at finalize. */
void loom__bsend_rank_fini(void);
#endif
