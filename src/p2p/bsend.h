/* p2p/bsend.h — buffered sends and the buffers they use (MPI 4.1 section 3.6).
 *
 * A buffer owner (struct loom_bsend) is the state behind one attach point: the rank's
 * (MPI_Buffer_attach), a communicator handle's (MPI_Comm_attach_buffer) or a session's
 * (MPI_Session_attach_buffer). Each holds at most one attached buffer, a user's memory or
 * MPI_BUFFER_AUTOMATIC (loom allocates each message's room and frees it when that send
 * completes), and the flush state of the buffered sends that use it.
 *
 * Contexts: every function is called by a thread of the owner's rank, except what runs when a
 * buffered send completes (any thread; p2p/bsend.c). Attach, detach, flush and sends on one
 * owner may come from several threads of the rank at once: the owner's lock orders them. */
#ifndef LOOM_P2P_BSEND_H
#define LOOM_P2P_BSEND_H
#include <stddef.h>
#include "p2p/request.h"

struct loom_bsend;

/* A new owner with nothing attached, refs 1, notifying the calling rank when its messages
 * leave it; NULL on ENOMEM. Freed by the last loom__bsend_release. */
struct loom_bsend *loom__bsend_new(void);
void loom__bsend_retain(struct loom_bsend *b);
void loom__bsend_release(struct loom_bsend *b);
/* The calling rank's owner (MPI_Buffer_attach's), made at the first call when create; NULL
 * when none was made (or on ENOMEM with create). */
struct loom_bsend *loom__bsend_rank(int create);
/* 1 if a buffer (or MPI_BUFFER_AUTOMATIC) is attached to b now (a hint unless the caller
 * orders attach/detach against it). */
int loom__bsend_attached(struct loom_bsend *b);

/* Attach buf of size bytes to b; buf == MPI_BUFFER_AUTOMATIC: automatic buffering (size
 * ignored). 0, or LOOM_ERR_BUFFER if b has one attached already. */
int loom__bsend_attach(struct loom_bsend *b, void *buf, size_t size);
/* Detach b's buffer: waits until every buffered message has left it, then gives its address
 * and size (MPI_BUFFER_AUTOMATIC and 0 for automatic buffering). LOOM_ERR_BUFFER if none is
 * attached; LOOM_ERR_ARG, leaving it attached and without waiting, if its size is above max
 * (the int forms of the detach calls). */
int loom__bsend_detach(struct loom_bsend *b, void **buf, size_t *size, size_t max);
/* Detach whatever b has, waiting as detach does; nothing when none (MPI_Comm_free,
 * MPI_Session_finalize). */
void loom__bsend_drain(struct loom_bsend *b);

/* Copy the message of s (fields filled, mode ignored) into the buffer that a buffered send on
 * its communicator uses and start it from there; s itself is not used afterwards. The
 * buffer: comm_b's (the communicator's owner) if one is attached to it, else session_b's (the
 * owner of the session the communicator derives from), else the rank's; either may be NULL.
 * LOOM_ERR_BUFFER when that buffer lacks room or no buffer is attached at all. */
int loom__bsend_start(const struct loom_request *s, struct loom_bsend *comm_b,
                      struct loom_bsend *session_b);

/* Flush: wait until every buffered send started on b so far has left its buffer. b may be
 * NULL (nothing to wait for). */
void loom__bsend_flush(struct loom_bsend *b);
/* Iflush: 1 if nothing is to wait for (req untouched), 0 if req (unpublished, the caller's)
 * will be completed by the thread that gives back the last such send, LOOM_ERR_NOMEM. b may
 * be NULL (1). */
int loom__bsend_iflush(struct loom_bsend *b, struct loom_request *req);

/* Free the rank's owner at finalize. */
void loom__bsend_rank_fini(void);
#endif
