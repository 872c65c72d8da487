/* p2p/part.h — partitioned point-to-point communication (MPI 4.1 chapter 4), private header.
 *
 * A partitioned send (MPI_Psend_init) and a partitioned receive (MPI_Precv_init) match once,
 * at the later of the two init calls, by (context, source, destination, tag) in the order of
 * the init calls, as persistent point-to-point would; from then on they share one channel
 * (struct loom_part in part.c) for every round. Round k of a side is begun by its k-th
 * MPI_Start. Ranks share one address space, so a send partition moves once, straight from
 * the sender's buffer into the receiver's, by whichever of two threads gets there first:
 *  - MPI_Pready (any thread of the sender) copies it at once if the receiver has started the
 *    same round;
 *  - else the receiver's MPI_Start copies every partition already made ready for its round.
 * Nothing is left to background progress: once both sides have started a round, each ready
 * partition has been copied by the time the call that made it movable returns.
 * The request-level fields follow request.h; the channel's atomic protocol is in part.c. */
#ifndef LOOM_P2P_PART_H
#define LOOM_P2P_PART_H
#include "p2p/request.h"

/* Set up the partitioned side of r: r is a fresh persistent request of kind LOOM_REQ_PSEND or
 * LOOM_REQ_PRECV filled by loom__p2p_fill with `count` the elements of ONE partition; this
 * turns r->count into the whole buffer's count, and matches r with a waiting peer or leaves
 * it waiting. 0, or LOOM_ERR_NOMEM (r untouched: the caller discards it). Owner's thread. */
int loom__part_init(struct loom_request *r, int partitions);
/* The number of partitions of r (its own side). */
int loom__part_partitions(const struct loom_request *r);
/* Begin a round of r (MPI_Start): r's flags, error and `active` are already reset by the
 * caller. May copy partitions the sender made ready, and complete the round. Owner's threads. */
void loom__part_start(struct loom_request *r);
/* Mark send partition i (in range; r active) ready in the current round and move it if the
 * receiver is in the round. 0, or 1 if it was already ready in this round (nothing done).
 * Any thread of the owner, several at once. */
int loom__part_pready(struct loom_request *r, int i);
/* 1 if receive partition i (in range; r active) has arrived in the current round. Any thread
 * of the owner. */
int loom__part_parrived(struct loom_request *r, int i);
#endif
