/* p2p/inbox.h — small messages matched by their receiver: a ring of cells per (sender,
 * receiver) pair of ranks.
 *
 * Why: a send matched by its sender (p2p.h) reads the receiver's queue and request and writes
 * its status and flag, lines the receiver keeps touching; a ping-pong of 8 bytes then moves
 * four or five cache lines one after the other each way. A message of at most loom__cell_max
 * bytes sent by MPI_Send / MPI_Isend / MPI_Rsend instead goes, envelope and data, into one
 * 64-byte cell (or a few consecutive ones) of a ring that only its sender writes; the receiver
 * finds it when it starts a receive, probes, or polls in a wait, and matches it itself. One
 * line moves per cell.
 *
 * Order (non-overtaking): a ring keeps its sender's order. Every other way a message goes
 * from S to R (larger, synchronous, buffered, collective traffic) first drains the ring S->R
 * into R's queues (loom__inbox_flush_pair), so nothing overtakes a cell. Draining takes cells
 * in ring order and matches each under its queue's lock exactly as its sender would have
 * (posted receives first, else the unexpected queue), so once drained a cell is an ordinary
 * unexpected eager message. Anything in R's unexpected queue from S is therefore older than
 * every cell still in the ring S->R.
 *
 * Who may touch what:
 *  - a ring's producer half (head, tail_seen, the cells' contents) is written by threads of
 *    the sender under prod.lock;
 *  - its consumer half (tail) by whichever thread drains it, under cons.lock: the receiver's
 *    threads, a sender that must flush the ring or finds it full, a communicator's last free;
 *  - a cell is published by a release store of seq = its position + 1 and read after an
 *    acquire load of seq; it is written again only once tail (release by the drainer, after
 *    it has read the cell) has passed it. A nonblocking send may leave its message
 *    unpublished in the ring's batch, published later by whoever holds prod.lock (batch.h);
 *  - lock order: prod.lock, then cons.lock, then a queue's match lock.
 * Rings are made on a pair's first small message, or by the receiver's first blocking receive
 * from that sender, at most loom__ring_limit per receiver (a pair refused one sends the
 * sender-matched way), and live until the job ends. */
#ifndef LOOM_P2P_INBOX_H
#define LOOM_P2P_INBOX_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "core/lock.h"

struct loom_match;
struct loom_request;
struct loom_datatype;

/* The payload of a message's first cell, and the cells of one ring (a power of two). A
 * message of more than LOOM_CELL_DATA bytes takes the cells that follow its first one as
 * well: each such continuation cell keeps its sequence word at 0 (never a position + 1, so a
 * drainer can never take it for a message's first cell) and carries LOOM_CELL_MORE bytes
 * after it. A message takes at most loom__cell_span_for(its ring's cells) cells (a quarter of
 * the ring, at most LOOM_CELL_SPAN_MAX): loom__cell_max bytes, never more than LOOM_CELL_MAX. */
#define LOOM_CELL_DATA 40
#define LOOM_CELL_MORE 60
#define LOOM_CELL_SPAN_MAX 16
#define LOOM_CELL_BYTES(span) (LOOM_CELL_DATA + ((span) - 1) * LOOM_CELL_MORE)
#define LOOM_CELL_MAX LOOM_CELL_BYTES(LOOM_CELL_SPAN_MAX)
/* The cells of a ring: a power of two from LOOM_RING_MIN to LOOM_RING_MAX, the same for every
 * ring of the node process (loom__ring_cells). More cells let a sender run further ahead of a
 * receiver that drains in batches (a window of messages of two or three cells each ran 1.2 -
 * 1.4 times faster with 64 than with 16, docs/p2p.md); fewer keep the rings of many ranks
 * small, since a pair that ever sent a small message keeps its ring. */
#define LOOM_RING_MIN 16
#define LOOM_RING_MAX 64
/* The bytes of the rings one rank receives through: what sizes the rings and bounds how many
 * a rank may have (loom__inbox_job_init), so that their memory grows with the ranks, not
 * with their pairs. */
#define LOOM_RING_BUDGET (256u * 1024u)

struct loom_cell {
    _Atomic uint32_t seq;     /* position + 1 once full (release by the producer) */
    uint16_t bytes;           /* size of the message (at most loom__cell_max) */
    uint16_t ahead;           /* on the oldest message of a batch (batch.h), the cells that
                                 were published with it after its own; else 0. Written
                                 before the release of seq, like the rest */
    int source;               /* the sender's rank in the communicator */
    int tag;
    struct loom_match *to;    /* the receiver's queue on the message's context */
    unsigned char data[LOOM_CELL_DATA];
} __attribute__((aligned(64)));
_Static_assert(sizeof(struct loom_cell) == 64 && sizeof(uint32_t) + LOOM_CELL_MORE == 64,
               "a continuation cell is its sequence word and LOOM_CELL_MORE bytes");
_Static_assert(LOOM_CELL_BYTES(LOOM_CELL_SPAN_MAX) <= UINT16_MAX && LOOM_RING_MAX <= UINT16_MAX,
               "a cell's bytes and ahead fit in 16 bits");
_Static_assert(LOOM_CELL_SPAN_MAX <= LOOM_RING_MAX / 4,
               "a message takes at most a quarter of a ring");

/* The cells of every ring: the most of 16, 32, 64 with which a ring from every rank of the node
 * process fits in LOOM_RING_BUDGET (64 up to 62 ranks, 32 up to 120, else 16); and the rings a
 * rank may receive through: as many as fit in LOOM_RING_BUDGET (62, 120, 227). A sender that
 * would make a ring past that limit sends the way larger messages go (p2p.h). Set by
 * loom__inbox_job_init before any rank runs; read-only afterwards. */
extern uint32_t loom__ring_cells;
extern int loom__ring_limit;
/* Those rules: the cells for nlocal ranks; the rings per rank for rings of `cells` cells. */
uint32_t loom__ring_cells_for(int nlocal);
int loom__ring_limit_for(uint32_t cells);

/* The most cells one message may take in rings of `cells` cells: a quarter of the ring, so
 * that a sender keeps at least four such messages in flight before its receiver drains, and
 * at most LOOM_CELL_SPAN_MAX (16 cells, 940 bytes: 4 in rings of 16 cells, 8 in rings of 32,
 * 16 in rings of 64). Why 16: a message in cells costs a few nanoseconds per cell (their
 * lines cross together, docs/p2p.md), the sender-matched path a fixed four or five line
 * transfers one after the other; where the two meet depends on what a line costs between
 * the two cores (about 650 bytes and above 940 in two phases of one machine, docs/p2p.md),
 * so the bound is structural: a quarter of the largest ring. */
uint32_t loom__cell_span_for(uint32_t cells);
/* The most bytes a message may carry in cells: LOOM_CELL_BYTES(loom__cell_span_for(
 * loom__ring_cells)). Set by loom__inbox_job_init; read-only afterwards. */
extern size_t loom__cell_max;

/* The cells a message of `bytes` takes (1 .. the span for bytes <= loom__cell_max). */
static inline uint32_t loom__cell_count(size_t bytes)
{
    return bytes <= LOOM_CELL_DATA
               ? 1
               : 1 + (uint32_t)((bytes - LOOM_CELL_DATA + LOOM_CELL_MORE - 1) / LOOM_CELL_MORE);
}

/* A continuation cell's payload: the bytes after its sequence word, written and read as
 * characters (which may alias the cell's fields). */
static inline unsigned char *loom__cell_more(struct loom_cell *c)
{
    return (unsigned char *)c + sizeof(uint32_t);
}

/* Nonzero if small messages use cells (LOOM_CELLS), set once at start. */
extern int loom__p2p_cells;

/* Tables of rings for the ranks of this node process (loom__job.first, nlocal): nlocal
 * squared pointers, since any of them may send to any other; 0 or LOOM_ERR_NOMEM. Before any
 * rank runs. */
int loom__inbox_job_init(void);
/* Free every ring (messages never received die with them). After every rank has ended. */
void loom__inbox_job_fini(void);

/* Put a message of `bytes` (<= loom__cell_max) into the ring from world rank `from` to world
 * rank `dest`, whose queue on the context is `to`; `source` and `tag` are its envelope. The
 * send is complete on return. 0, or LOOM_ERR_NOMEM if the pair's ring could not be made (then
 * nothing was sent). loom__inbox_send (ring.h) is the inline front: it comes here only when
 * the pair has no ring yet or its ring is full. */
int loom__inbox_send_slow(int from, int dest, struct loom_match *to, int source, int tag,
                          const void *buf, size_t count, struct loom_datatype *type,
                          size_t bytes);
/* A message was put into `dest`'s rings (by the calling thread, for rank `from`): count it
 * (LOOM_STATS) and wake `dest` if it sleeps in a wait or a probe. */
void loom__inbox_sent(int from, int dest, size_t bytes);

/* Before a message from `from` to `dest` takes another way: drain the cells still in their
 * ring into dest's queues. Cheap when the ring is empty. */
void loom__inbox_flush_pair(int from, int dest);

/* The receives' fast path (loom__p2p_recv_cell): receive the cell at the head of the ring
 * from `from` to `dest` if it is the receive's message (loom__p2p_cell_claims). With `wait`
 * (a blocking receive) the ring is made if the pair has none and the cell is waited for a
 * little; without (MPI_Irecv) only a cell already there is taken. 1 if received; 0 if no cell
 * was ready in that ring (no ring, or none within the spin budget); -1 if one was, but not
 * this receive's (or another drainer took it first). */
struct MPI_Status;
int loom__inbox_recv(int from, int dest, struct loom_match *m, int source, int tag, void *buf,
                     size_t count, struct loom_datatype *type, struct MPI_Status *st, int wait);

/* 1 if a cell waits in rank `dest`'s rings (from world rank `from`, or from any if from < 0). */
int loom__inbox_has_cells(int dest, int from);

/* Drain rank `dest`'s rings (from `from`, or all if from < 0), offering each cell that no
 * posted receive takes to `want` (a receive being started and not yet posted, or NULL):
 * returns 1 once a cell has completed `want` (draining stops there), else 0. */
int loom__inbox_drain(int dest, int from, struct loom_request *want);

/* For the wait hooks: drain the calling rank's rings (1 if a cell moved); 1 if a cell waits
 * in them; the calling thread starts (on = 1) or ends (0) a wait (the rank's own thread is
 * counted: senders whose ring is full leave the ring to a rank that waits awake). */
int loom__inbox_poll(void);
int loom__inbox_pending(void);
void loom__inbox_tend(int on);
#endif
