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
/* Free the per-rank state at finalize. */
void loom__bsend_rank_fini(void);
#endif
