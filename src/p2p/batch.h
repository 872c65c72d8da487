/* p2p/batch.h — nonblocking sends into a ring of cells, published in batches.
 *
 * Why: a window of MPI_Isend through a ring ran at the rate of one line handoff per message.
 * Its receiver, waiting, reads the very cell its sender is about to fill, so each message's
 * stores wait for that line to come back from the receiver's core, and the receiver then
 * fetches it again, one message after the other (docs/p2p.md, "Message rate"). A batch
 * breaks that chain: MPI_Isend of a message that goes into cells writes them, envelope and
 * data, under the ring's producer lock as any send does, but does not store its first cell's
 * sequence word. The sender asks for the lines of the batch's next cells when it opens it
 * (their stores then do not wait), and the batch is published all at once, newest message
 * first, so that a receiver that sees its oldest finds all of them and fetches their lines
 * together.
 *
 * The protocol (fields in ring.h, struct loom_ring):
 *  - prod.published: the cells from it up to prod.head are the ring's batch: whole messages,
 *    written, not published. Both are written under prod.lock only; whoever holds the lock
 *    may publish the batch (loom__batch_publish_locked): it stores the first cells' sequence
 *    words (release, newest first) and sets published = head.
 *  - A batch holds at most loom__batch_cells cells; a message of more than half that is not
 *    batched (loom__inbox_send). A message put without batching, or one for which the batch
 *    has no room left, publishes the batch before it (the ring keeps its order); a batch that
 *    reaches loom__batch_cells cells is published at once.
 *  - A thread that batched into a ring remembers it (loom__batch_ring, its own variable) and
 *    publishes it at its next MPI call of any kind but a nonblocking send into the same ring
 *    (LOOM_API_ENTER), and before it batches into another ring: so a message is published by
 *    the time its sender waits, tests, receives, or calls anything else.
 *  - A sender that leaves MPI after MPI_Isend must not keep the message from its receiver
 *    (MPI 4.1, 3.7.4: a receive completes even if the sender makes no further call). So the
 *    receiver publishes its rings' batches itself (loom__batch_pull) when it waits: after
 *    LOOM_SPIN polls that found no cell, and before it sleeps. Sleeping needs one more step,
 *    as with a notify: the send that opens a batch (the ring had none) fences and looks at the
 *    receiver's sleepers (loom__batch_opened); a waiter counts itself asleep, fences, then
 *    pulls. Either the waiter's pull sees the batch, or the sender sees the sleeper and
 *    publishes at once and wakes it. The messages added to an open batch need no fence: a
 *    waiter that falls asleep after the batch was opened pulls it (with them) first.
 *  - Lock order: a puller takes prod.lock with nothing held, and only tries it (a producer
 *    holds it for one put; the waiter then polls again instead of sleeping). */
#ifndef LOOM_P2P_BATCH_H
#define LOOM_P2P_BATCH_H
#include <stddef.h>
#include <stdint.h>
#include "core/tls.h"

struct loom_ring;

/* LOOM_BATCH, set once at start; and the most cells of a batch: a quarter of a ring (as many
 * as one message may take, inbox.h, so that any message fits in a batch), so that the
 * receiver drains one batch while its sender fills the next. Set by loom__inbox_job_init
 * before any rank runs. */
extern int loom__batching;
extern uint32_t loom__batch_cells;

/* The ring the calling thread last batched a message into (its batch may have been published
 * since by another thread), or NULL. The thread's own. */
extern LOOM_TLS_FAST struct loom_ring *loom__batch_ring;

/* Publish ring g's batch (prod.lock held). */
void loom__batch_publish_locked(struct loom_ring *g);
/* Publish g's batch if it has one: with `wait`, even if the ring's lock must be waited for;
 * without, only if the lock is free. 1 if g had a batch (published, or left to the lock's
 * holder). */
int loom__batch_publish(struct loom_ring *g, int wait);
/* Publish the batch of loom__batch_ring, if any, and forget it. */
void loom__batch_publish_mine(void);
/* A message of `bytes` from world rank `from` opened a batch in g, its ring to `dest`: count it
 * (LOOM_STATS), and publish the batch now and wake dest if one of its threads sleeps;
 * otherwise ask for the lines of the batch's next cells (prefetch for writing). */
void loom__batch_opened(struct loom_ring *g, int from, int dest, size_t bytes);
/* Publish the batches waiting in rank dest's rings: 1 if there was one (published now, or,
 * without `wait`, left to its producer, which held the ring's lock). */
int loom__batch_pull(int dest, int wait);

/* At every MPI call (LOOM_API_ENTER): the calling thread's batch goes out. */
static inline __attribute__((always_inline)) void loom__batch_flush_mine(void)
{
    if (__builtin_expect(loom__batch_ring != NULL, 0))
        loom__batch_publish_mine();
}
#endif
