/* coll/shm.h — direct-access ("shm") blocking collectives and the per-rank scratch cache,
 * private to coll/ (comm/comm.h includes it only for the slot embedded in every
 * communicator's shared half).
 *
 * All ranks of a job are threads of one process, so a blocking collective need not send
 * messages: each rank publishes a pointer to its call's arguments (struct loom_coll_args,
 * on its stack for the length of the call) in the communicator's slot, the ranks
 * synchronise, each reads or writes the others' buffers directly (one copy per byte), and a
 * closing synchronisation keeps every buffer alive until all its readers are done. The
 * protocol is described at the top of shm_sync.c; the collectives are in shm_root.c
 * (rooted ones and barrier) and shm_all.c (everyone to everyone, scans).
 *
 * The slot lives inside struct loom_comm_shared: zero-filled with it (memset), so it needs
 * no initialisation, and freed with it, so it needs no free. Its arrays have room for
 * LOOM_SHM_MAX_RANKS members; larger communicators use the point-to-point schedules. */
#ifndef LOOM_COLL_SHM_H
#define LOOM_COLL_SHM_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define LOOM_SHM_MAX_RANKS 64
/* A bcast of at most this many bytes goes through the root's entry (see `in` below). */
#define LOOM_SHM_INLINE 2048

struct loom_coll_args;
struct loom_comm;
struct loom_rank;
struct loom_event;
struct loom_datatype;

/* One member's entry in a communicator's slot: written only by that member (the owner),
 * read by the others. Each entry is a 128-byte block of its own (the communicator's shared
 * half is allocated so aligned), so a member writing its entry never takes a line, or the
 * adjacent line that many x86 cores prefetch with it, that another member spins on. (Entries
 * were once 104 bytes apart from a 16-byte-aligned start: some members' args then sat on the
 * line after their pub.) Its first line holds everything a reader of a small collective needs
 * once it sees pub change: the inline marks, args, and the tiny contributions themselves, so
 * that reading one costs the reader the one line transfer that brought it pub. The second line
 * holds what changes rarely (trunc, data, in), and the owner writes it only when a value
 * changes, so readers keep it cached from one collective to the next. Sequence numbers count
 * the shm collectives started on the communicator (every member calls them in the same order,
 * so the numbers agree; they advance by 2, the odd one naming a middle phase) and are compared
 * modulo 2^32.
 *   pub    the last phase the owner has published: its current collective's number once args
 *          and data are set (release; readers acquire), and, for collectives with a middle
 *          phase, that number + 1 once its middle phase is done.
 *   done   the last collective in which the owner finished touching other members' buffers
 *          (release; owners of those buffers acquire before they return). The owner's next
 *          number is done + 2 (only it writes done).
 *   args   the owner's arguments for its current collective; valid while pub is that
 *          collective's number (or + 1) and the owner has not returned from it.
 *   inl, tiny_bytes, tiny, in
 *          the owner's small contributions (bcast and scatter root, gather non-root,
 *          allgather, alltoall, the inputs of small reduce and allreduce) go inline: in
 *          collective s it packs its data into buffer i = (s / 2) & 1 and sets inl[i] = s
 *          before it publishes s, and then need not wait for its readers before it returns,
 *          as a shared-memory eager send would not. Buffer i is tiny[i] for at most
 *          LOOM_SHM_TINY bytes (tiny_bytes[i] says how many), else in[i] (tiny_bytes[i] =
 *          LOOM_SHM_NOT_TINY; `in` is allocated by the owner at its first such contribution,
 *          freed with the slot). When its data does not go inline (too large, or a type a
 *          reduction cannot fold from packed) it sets that mark to s + 1 instead, and readers
 *          read its own buffer. Readers take buffer i as s's data only if inl[i] == s (a mark
 *          never written, 0, reads as "not inline"). It writes a buffer or its mark again
 *          only for collective s + 4 or later, and when the buffer's last use went inline,
 *          only after waiting until every member's done is at least s: nobody still reads them
 *          (when it did not, it waited for its readers before it returned). Written by the
 *          owner, read after an acquire of pub; the marks sit beside pub, so "not inline"
 *          costs a reader no other line.
 *   trunc  the number of a collective in which a block the owner pushed into another
 *          member's buffer was truncated (relaxed: published by the owner's release of done;
 *          the receiver reads it after acquiring done).
 *   data   an extra buffer of the owner for the current collective (a packed copy of its
 *          in-place input), same validity as args.
 *   view   the one buffer of a rooted collective's root that the others read or write (bcast
 *          and gather: rbuf, scatter: sbuf), with its count and type, when one count and type
 *          describe every member's block (not the v forms: then view.plain = 0 and readers
 *          take the counts and displacements from args). Same validity as args. Readers
 *          take it from this line, which keeps its value from one call to the next in a loop
 *          over the same buffer and so stays in their caches, where the fields of args sit on
 *          the owner's stack, rewritten by every call: one line transfer fewer on the path
 *          from the root's publication to a reader's done.
 */
/* The root's buffer, as entry.view says. */
struct loom_shm_view {
    const void *buf;
    size_t count;
    struct loom_datatype *type;
    int plain;
};
#define LOOM_SHM_TINY 16
#define LOOM_SHM_NOT_TINY 0xffu
struct loom_coll_shm_entry {
    _Atomic uint32_t pub;
    _Atomic uint32_t done;
    _Atomic uint32_t inl[2];
    const struct loom_coll_args *args;
    uint8_t tiny_bytes[2];
    unsigned char tiny[2][LOOM_SHM_TINY] __attribute__((aligned(16)));
    /* the second line */
    _Atomic uint32_t trunc __attribute__((aligned(64)));
    const void *data;
    struct loom_coll_shm_inline {
        uint64_t bytes;
        unsigned char data[LOOM_SHM_INLINE];
    } *in;
    struct loom_shm_view view;
} __attribute__((aligned(128)));
_Static_assert(sizeof(struct loom_coll_shm_entry) == 128, "an entry is two lines");
_Static_assert(offsetof(struct loom_coll_shm_entry, tiny) + 2 * LOOM_SHM_TINY <= 64,
               "what a reader of a tiny contribution needs fits in the entry's first line");

/* A communicator's slot: one entry per member. */
struct loom_coll_shm {
    struct loom_coll_shm_entry e[LOOM_SHM_MAX_RANKS];
};

/* Free what the members allocated in the slot of a communicator of n members (its inline
 * buffers); called when the communicator's shared half is destroyed. */
void loom__coll_shm_free(struct loom_coll_shm *m, int n);

/* ---- collectives (shm_sync.c dispatches; kind is an enum loom_coll_kind) ---- */
/* 1 if collective `kind` can run as an shm collective on a communicator of n ranks with
 * these arguments. Depends only on what every member passes alike (kind, n, in place for the
 * calls where the standard asks all members to agree), so every member makes the same
 * choice. */
int loom__coll_shm_usable(int kind, int n, const struct loom_coll_args *a);
/* Run collective `kind` on c for the calling rank (blocking). 0 or a negative loom code; an
 * MPI error class met on the way (a truncated block) goes to *mpi_err. */
int loom__coll_shm_run(int kind, struct loom_comm *c, const struct loom_coll_args *a,
                       int *mpi_err);

/* ---- the protocol's steps (shm_sync.c), used by shm_root.c and shm_all.c ---- */
/* One member's view of one shm collective (on its stack). */
struct loom_shm_call {
    struct loom_coll_shm *m;
    struct loom_event **events; /* [n] every member's event (the communicator's) */
    struct loom_rank *self;
    int me, n;
    uint32_t seq;               /* this collective's number; seq + 1 names its middle phase */
    uint32_t *done_seen;        /* the handle's shm_done_seen (comm/comm.h) */
    int err;                    /* MPI error class to report (truncation), or 0 */
};
/* Start: take the next number (init), then publish a and data (or NULL); begin does both.
 * quiet: nobody waits for this member's publication in this collective (its role reads
 * only), so no notify is needed: saves a fence on the latency path. */
void loom__shm_init(struct loom_shm_call *k, struct loom_comm *c);
void loom__shm_publish(struct loom_shm_call *k, const struct loom_coll_args *a,
                       const void *data, int quiet);
void loom__shm_begin(struct loom_shm_call *k, struct loom_comm *c,
                     const struct loom_coll_args *a, const void *data, int quiet);
/* Wait until member r has published this collective (phase 0) or its middle phase
 * (phase 1); then its args / data may be read until this member calls loom__shm_done. */
void loom__shm_wait_pub(struct loom_shm_call *k, int r, int phase);
const struct loom_coll_args *loom__shm_args(struct loom_shm_call *k, int r);
/* Before publishing: set this member's view (shm.h, entry.view); plain = 0 for a v form. */
void loom__shm_set_view(struct loom_shm_call *k, const void *buf, size_t count,
                        struct loom_datatype *type, int plain);
/* After r's publication: r's view, or NULL when r's blocks vary (read its args). */
const struct loom_shm_view *loom__shm_view(struct loom_shm_call *k, int r);
const void *loom__shm_data(struct loom_shm_call *k, int r);
/* Publish this member's middle phase (its part of a two-step collective is in place). */
void loom__shm_middle(struct loom_shm_call *k);
/* This member has finished touching other members' buffers (always called, once, last but
 * for the waits below). */
void loom__shm_done(struct loom_shm_call *k);
/* The same when nobody waits for this member's done in this collective (it only moves the
 * member's numbering on). */
void loom__shm_done_quiet(struct loom_shm_call *k);
/* Wait until member r (every member but this one) has called loom__shm_done: after that
 * nobody touches this member's buffers any more, and it may return. */
void loom__shm_wait_done(struct loom_shm_call *k, int r);
void loom__shm_wait_all_done(struct loom_shm_call *k);
/* Wait until every other member's done is at least seq (an earlier collective's number). */
void loom__shm_wait_all_done_from(struct loom_shm_call *k, uint32_t seq);
/* Inline contributions (see `in` above). put: pack count x type from buf into this member's
 * inline buffer for its current collective, before it publishes, if it is at most max bytes
 * (at most LOOM_SHM_INLINE); 1 if it did, 0 if not (readers then read buf). mine: whether put
 * did. stream: after r's publication, r's packed inline data for this collective and its
 * size, or NULL when r's data is in its own buffer. get: stream, unpacked into buf (k->err =
 * MPI_ERR_TRUNCATE if it does not fit); 1 if r's data was inline, 0 if not (nothing done). */
int loom__shm_inline_put(struct loom_shm_call *k, const void *buf, size_t count,
                         const struct loom_datatype *type, size_t max);
int loom__shm_inline_mine(struct loom_shm_call *k);
const void *loom__shm_inline_stream(struct loom_shm_call *k, int r, size_t *bytes);
int loom__shm_inline_get(struct loom_shm_call *k, int r, void *buf, size_t count,
                         const struct loom_datatype *type);
/* Inline inputs of small reductions (reduce, allreduce), which MPI has every member call with
 * the same count and type. put_input: as put, but only a type whose packed stream is its
 * layout (dense, at offset 0) goes inline, so that readers fold straight out of the buffer;
 * any other is marked not inline. input: after r's publication, r's input for the fold: its
 * inline data, or NULL when r's input is in its own buffer; when r's count or type differs
 * from ours (erroneous) k->err = MPI_ERR_TRUNCATE and `fallback` comes back instead. */
int loom__shm_inline_put_input(struct loom_shm_call *k, const void *buf, size_t count,
                               const struct loom_datatype *type, size_t max);
const void *loom__shm_inline_input(struct loom_shm_call *k, int r, const void *fallback,
                                   size_t count, const struct loom_datatype *type);
/* dst <- src as the dt layer copies (the smaller stream); a larger source sets k->err to
 * MPI_ERR_TRUNCATE (or, with push = 1, reports it to the owner of dst through trunc[]). */
void loom__shm_copy(struct loom_shm_call *k, void *dst, size_t dcount,
                    const struct loom_datatype *dtype, const void *src, size_t scount,
                    const struct loom_datatype *stype, int push);
/* After loom__shm_wait_done(k, r): did r report a truncated block pushed into our buffer? */
void loom__shm_check_trunc(struct loom_shm_call *k, int r);

/* The collectives (shm_root.c, shm_all.c). The int ones are called after loom__shm_init
 * and publish themselves (they take scratch first); 0 or LOOM_ERR_NOMEM (before publishing).
 * The others are called after loom__shm_begin. */
void loom__shm_barrier(struct loom_shm_call *k);
/* bcast takes its number and publishes itself (the root fills its inline buffer first). */
void loom__shm_bcast_publish(struct loom_shm_call *k, struct loom_comm *c,
                             const struct loom_coll_args *a);
void loom__shm_bcast(struct loom_shm_call *k, const struct loom_coll_args *a);
int loom__shm_reduce(struct loom_shm_call *k, const struct loom_coll_args *a);
/* gather(v) and scatter(v) take their number and publish themselves (inline data first). */
void loom__shm_gather_publish(struct loom_shm_call *k, struct loom_comm *c,
                              const struct loom_coll_args *a);
void loom__shm_gather(struct loom_shm_call *k, const struct loom_coll_args *a);
void loom__shm_scatter_publish(struct loom_shm_call *k, struct loom_comm *c,
                               const struct loom_coll_args *a, int kind);
void loom__shm_scatter(struct loom_shm_call *k, const struct loom_coll_args *a);
int loom__shm_allreduce(struct loom_shm_call *k, const struct loom_coll_args *a);
/* allgather(v) takes its number and publishes itself (its inline contribution first). */
void loom__shm_allgather_publish(struct loom_shm_call *k, struct loom_comm *c,
                                 const struct loom_coll_args *a, int kind);
void loom__shm_allgather(struct loom_shm_call *k, const struct loom_coll_args *a, int kind);
int loom__shm_alltoall(struct loom_shm_call *k, const struct loom_coll_args *a, int kind);
int loom__shm_reduce_scatter(struct loom_shm_call *k, const struct loom_coll_args *a);
int loom__shm_scan(struct loom_shm_call *k, const struct loom_coll_args *a, int exclusive);

/* ---- per-rank scratch cache (shm_scratch.c) ----
 * Scratch buffers of collectives (schedules' temporary vectors, shm in-place copies) come
 * from here so that a rank that calls the same collective over and over reuses the same
 * pages instead of mapping and faulting in fresh ones on every call. Each rank keeps a few
 * released buffers; any thread may take from or give back to any rank's cache (lock-free
 * slots). Buffers are 64-byte aligned. */
/* A buffer of at least n bytes for rank owner (n > 0); NULL on ENOMEM. */
void *loom__coll_scratch_get(struct loom_rank *owner, size_t n);
/* Give p (from loom__coll_scratch_get, or NULL) back to owner's cache, or free it. */
void loom__coll_scratch_put(struct loom_rank *owner, void *p);
/* Free p (from loom__coll_scratch_get, or NULL) without caching it. */
void loom__coll_scratch_free(void *p);
/* Scratch room for count elements of type: *raw is what to give back (NULL when nothing was
 * needed), the result the address of element 0. NULL on ENOMEM. */
void *loom__shm_scratch(struct loom_rank *self, size_t count, const struct loom_datatype *type,
                        void **raw);
/* [lo, hi) of count elements: member i's slice of n. */
static inline void loom__shm_slice(size_t count, int n, int i, size_t *lo, size_t *hi)
{
    size_t q = count / (size_t)n, r = count % (size_t)n;
    *lo = (size_t)i * q + ((size_t)i < r ? (size_t)i : r);
    *hi = *lo + q + ((size_t)i < r ? 1 : 0);
}
/* Job start (before any rank runs) and end (after all stopped): the per-rank caches. Without
 * a job, every buffer is malloc'ed and freed. 0 or -1 (ENOMEM). */
int loom__coll_scratch_job_init(int nranks);
void loom__coll_scratch_job_fini(void);
/* MPI_Finalize of the calling rank, once nothing of it runs any more: empty its cache. */
void loom__coll_scratch_rank_fini(void);
#endif
