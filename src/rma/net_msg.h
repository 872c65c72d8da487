/* rma/net_msg.h — the messages of one-sided communication between node processes (private to
 * rma/net_origin.c and rma/net_target.c; docs/multinode.md "One-sided communication").
 *
 * A request goes from the origin's node process to the target's, whose poller carries it out
 * on the target's memory and answers (replies travel as LOOM_NET_RMA_REPLY, requests as
 * LOOM_NET_RMA: net/net.h). A request's payload is this header, then `nruns` runs (struct
 * loom_rma_run: where the piece's units go in the target's memory), then `len` bytes of the
 * origin's packed data for the kinds that carry it. Node processes of one job run one build,
 * so the layout is the compiler's. An operation larger than a network message is sent as
 * several pieces, each a request of its own with its part of the stream (offset). */
#ifndef LOOM_RMA_NET_MSG_H
#define LOOM_RMA_NET_MSG_H
#include <stddef.h>
#include <stdint.h>

enum loom_rma_msg_kind {
    LOOM_RMA_M_PUT = 1, /* runs + data: store; answered by ACK */
    LOOM_RMA_M_GET,     /* runs: load; answered by DATA (len bytes at offset) */
    LOOM_RMA_M_ACC,     /* runs + data: accumulate (type, op); answered by ACK */
    LOOM_RMA_M_GACC,    /* runs (+ data unless MPI_NO_OP): fetch and accumulate; DATA */
    LOOM_RMA_M_CAS,     /* one run of one element + origin and compare values; DATA */
    LOOM_RMA_M_LOCK,    /* lock `target` (flags: exclusive); answered by GRANT when taken */
    LOOM_RMA_M_UNLOCK,  /* release it (flags: exclusive); no answer */
    LOOM_RMA_M_POST,    /* `target` exposes its memory to `origin` (MPI_Win_post) */
    LOOM_RMA_M_COMPLETE, /* `origin` completed its access epoch at `target` */
    LOOM_RMA_M_PUT_READ, /* runs: a put larger than a message, whose len bytes of packed data
                            the target reads at (raddr, rkey) of the origin; answered by ACK */
    LOOM_RMA_M_ACC_READ, /* the same for an accumulate (type, op): runs of elements, the data
                            read into a buffer and accumulated from there; answered by ACK */
    LOOM_RMA_M_GET_READ, /* runs: a get larger than a message; the target exposes its len
                            bytes (its memory itself when one run, else a packed copy) and
                            answers EXPOSED; the origin reads them, then sends GET_DONE */
    LOOM_RMA_M_GET_DONE, /* the origin has read what the target's record `cookie` exposed:
                            let it go; no answer */
    LOOM_RMA_R_ACK,     /* replies: the piece of `cookie` was carried out */
    LOOM_RMA_R_DATA,    /* ... and here are its len bytes of stream at offset */
    LOOM_RMA_R_GRANT,   /* the lock asked for by `cookie` is held */
    LOOM_RMA_R_EXPOSED, /* the len bytes the GET_READ of `cookie` asked for are at (raddr,
                           rkey); `offset` names the target's record, for GET_DONE */
    LOOM_RMA_R_REFUSED, /* the piece of `cookie` was not carried out: a dynamic window's
                           target bytes from address `offset` are not inside a region the
                           target attached */
};

struct loom_rma_msg {
    uint32_t kind;      /* enum loom_rma_msg_kind */
    uint32_t flags;     /* LOCK, UNLOCK: 1 for exclusive; GACC: 1 when data is carried */
    int32_t target;     /* window ranks */
    int32_t origin;
    int32_t type;       /* ACC, GACC, CAS: the element type's fixed Fortran handle */
    int32_t op;         /* ACC, GACC: the operation's fixed Fortran handle */
    uint64_t win;       /* struct loom_win_shared.net_id */
    uint64_t cookie;    /* the origin's record, carried back by the reply */
    uint64_t offset;    /* this piece's first byte in the operation's stream */
    uint64_t len;       /* bytes of stream in this piece */
    uint64_t nruns;
    uint64_t raddr, rkey; /* PUT_READ, ACC_READ: where the origin exposed the data; EXPOSED:
                             where the target did */
    uint64_t span_lo, span_hi; /* data kinds on a dynamic window: the whole operation's
                                  target bytes, to lie inside one region attached there */
};

/* A reply to the operation of `cookie` (the origin's record): a DATA reply's len bytes of
 * stream at offset land where the operation's answers go; the last reply finishes the
 * operation (rma/net_origin.c). data NULL for an ACK. */
void loom__rma_net_answered(uint64_t cookie, const void *data, size_t offset, size_t len);
/* An EXPOSED reply m from node process `node`: the origin reads the get's data. */
void loom__rma_net_exposed(int node, const struct loom_rma_msg *m);
/* A REFUSED reply to a piece of `cookie`, for the memory at addr: counts as its answer. */
void loom__rma_net_refused(uint64_t cookie, uint64_t addr);
/* A GRANT reply to the lock request of `cookie` (rma/net_sync.c). */
void loom__rma_net_granted(uint64_t cookie);
/* No memory for what one-sided communication between node processes was `doing` (a message
 * half sent, a reply owed): nothing can be taken back, so the whole job ends with one line
 * (rma/net_target.c). */
_Noreturn void loom__rma_net_nomem(const char *doing);
#endif
