/* comm/comm.h — communicators, groups, attributes, info, error handlers (private header).
 *
 * A communicator has two halves:
 *  - struct loom_comm_shared: what all member ranks share (group, context id, matching
 *    contexts, the creation/barrier rendezvous). Created by one member (the lowest rank of the
 *    new group), handed to the others, freed when the last member frees its handle (refs).
 *    Over several node processes each node process has its own, with the same context id,
 *    made by its first member to attach (comm/attach.c); refs counts that process's members.
 *  - struct loom_comm: the handle one rank holds (its rank, error handler, attributes, name,
 *    info). Touched only by the threads of that rank.
 * MPI_COMM_WORLD and MPI_COMM_SELF are sentinel objects; loom__comm_resolve() maps them to the
 * calling rank's own handles (loom__self->world / ->self). */
#ifndef LOOM_COMM_COMM_H
#define LOOM_COMM_COMM_H
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "mpi.h"
#include "core/object.h"
#include "core/event.h"
#include "core/rank.h"
#include "coll/shm.h"

struct loom_p2p_ctx;
struct loom_attr_list;
struct loom_bsend;
struct loom_vtopo;

/* An ordered set of world ranks. Immutable once built; shared by reference. */
struct loom_group {
    struct loom_object obj;
    _Atomic int refs;     /* handles + communicators using it; freed at 0 (never for EMPTY) */
    int size;
    int *world;           /* [size] world rank of each group rank */
    struct loom_bsend *session_bsend; /* a group made by one rank from a session's process
                                         set (or from such groups): that session's buffer
                                         owner (p2p/bsend.h), a reference; NULL otherwise.
                                         Set before the handle is returned, read-only */
};

/* A sense-reversing rendezvous of the members of one communicator. Used to create
 * communicators (exchange of contributions) and by MPI_Barrier until the collectives layer.
 * Protocol: each member writes its slot, then arrives; the last arriver flips `gen` (release)
 * and notifies every member's event; the others wait for `gen` to change (acquire). */
struct loom_rendezvous {
    _Atomic uint32_t arrived;
    _Atomic uint32_t gen;
    const void **slots;   /* [size]: member i's contribution during an exchange session;
                             written by member i before it arrives at the session's first
                             rendezvous, read by all after gen flips, until they arrive at the
                             session's last rendezvous (see comm/rendezvous.c) */
};

struct loom_comm_shared {
    _Atomic int refs;              /* member handles alive; the last free releases it */
    uint64_t context_id;           /* unique in the job: the maker's node process and a
                                      per-process counter (comm/shared.c); the same in every
                                      node process's half of one communicator */
    int spans_nodes;               /* 1 if some member, or (intercommunicator half) some peer,
                                      runs in another node process (net/): its collectives go
                                      through point-to-point schedules and its contexts are
                                      registered with the network. Set before publication */
    int size;
    const int *world_of;           /* [size] world rank of each comm rank (== group->world) */
    /* The ranks that point-to-point names (destinations and sources): this half's own for an
     * intracommunicator, the remote group's for an intercommunicator. Read-only; set before
     * the half is published. The fast paths load them where they loaded size / world_of /
     * pt2pt before, so an intracommunicator pays nothing for them. */
    int peer_size;
    const int *peer_world;         /* [peer_size] world rank of each peer rank */
    struct loom_p2p_ctx *peer_pt2pt; /* where sends to a peer match (its receive queues) */
    /* Intercommunicator (comm/inter.c): the other group's half, NULL for an intracommunicator.
     * The two halves of a pair are made together and freed together: `inter_first` is 1 on
     * the half whose group comes first in the union (the one that also counts the references
     * of the pair: refs = both groups' handles); the other's refs is unused. */
    struct loom_comm_shared *remote;
    int inter_first;
    struct loom_group *group;      /* read-only */
    struct loom_event **events;    /* [size] each member rank's event, for notification */
    struct loom_p2p_ctx *pt2pt;    /* matching for user point-to-point */
    struct loom_p2p_ctx *coll;     /* hidden context for collectives built on point-to-point */
    struct loom_rendezvous rv;
    struct loom_coll_shm shm;      /* the shm collectives' slot (coll/shm.h, coll/shm_sync.c):
                                      zero from calloc, freed with this struct */
};

struct loom_comm {
    struct loom_object obj;
    struct loom_comm_shared *sh;      /* NULL until the MPI_Comm_idup that made the handle
                                         completes (written by its schedule, read by the
                                         owner after the request's completion) */
    int rank;                         /* this rank's rank in the communicator */
    struct loom_errhandler *errh;     /* never NULL for a live handle */
    struct loom_attr_list *attrs;     /* cached attributes, NULL if none; newest first;
                                         under attr_lock */
    struct loom_info *info;           /* hints given by the user / set by loom; NULL if none;
                                         under attr_lock */
    char name[MPI_MAX_OBJECT_NAME];   /* under attr_lock */
    int is_predefined;                /* 1 for this rank's world/self handles */
    struct loom_vtopo *topo;          /* process topology (comm/vtopo.h), NULL if none; set
                                         before the handle is returned to the program, then
                                         read-only; a reference, shared with dups */
    struct loom_comm *all;            /* intercommunicator: this rank's hidden handle on the
                                         union of both groups (the first group's ranks, then
                                         the second's), through which the pair meets
                                         (constructors, merge, barrier); NULL otherwise.
                                         Made and freed with the handle */
    uint32_t shm_done_seen;           /* a number every other member's done in the shm slot
                                         had reached when this rank last waited for them
                                         (coll/shm_sync.c); done only grows, so it stays a
                                         lower bound. Owning rank's threads only, one
                                         collective at a time (MPI orders them) */
    _Atomic uint32_t coll_seq;        /* collectives started on this handle (coll/): every
                                         member starts them in the same order, so the count
                                         is the same on all members and makes the tag of the
                                         next one; owning rank's threads only (relaxed) */
    /* Buffered sends (p2p/bsend.h, MPI 4.1 section 3.6). bsend: the buffer owner of
     * MPI_Comm_attach_buffer, made at the first attach and installed with a release
     * compare-and-swap (two threads of the rank may attach at once), read with acquire by
     * every buffered send on the handle; the owner's lock orders its attach, detach and
     * sends; freed with the handle. session_bsend: the owner of the session the handle
     * derives from (MPI_Comm_create_from_group on a group from a session, and the
     * communicators made from such a handle), a reference, set before the handle is
     * returned, read-only; NULL for the world model's communicators. */
    struct loom_bsend *_Atomic bsend;
    struct loom_bsend *session_bsend;
    pthread_mutex_t attr_lock;        /* threads of the owning rank may use one handle at
                                         once: protects attrs, info and name. Lock order:
                                         attr_lock, then an info's lock. Never held
                                         while a user callback runs. */
};

struct loom_errhandler {
    struct loom_object obj;
    _Atomic int refs;                 /* handles + communicators using it (not for builtins) */
    int builtin;                      /* 1 FATAL, 2 RETURN, 3 ABORT, 0 user */
    MPI_Comm_errhandler_function *fn; /* user function for communicators (builtin == 0) */
    MPI_Session_errhandler_function *session_fn; /* or for sessions (api/session.c), */
    MPI_Win_errhandler_function *win_fn;          /* or for windows (api/win_error.c): a user
                                                     handler has exactly one of the three, and
                                                     is attached only to objects of its kind */
    /* A handler made from Fortran (api/fortran_callbacks.c): called instead of the one of the
     * three above, which holds this same procedure to mark the kind and is never called;
     * loom__errhandler_invoke chooses. */
    void (*fortran_fn)(MPI_Fint *handle, MPI_Fint *code);
};

/* ---- groups (comm/group.c, comm/group_ops.c) ---------------------------------------- */

/* A new group of `size` ranks with refs 1, world[] to be filled by the caller; size 0 gives
 * MPI_GROUP_EMPTY. NULL on ENOMEM. Freed by loom__group_release. */
struct loom_group *loom__group_new(int size);
void loom__group_retain(struct loom_group *g);
/* A new group with g's members (refs 1; MPI_GROUP_EMPTY when g is empty), or NULL on ENOMEM.
 * Why copies: a user's group handle must name an object only that handle holds, so that
 * MPI_Group_free makes every copy of the handle stale (MPI_ERR_GROUP), even while a
 * communicator still uses the same members. */
struct loom_group *loom__group_copy(const struct loom_group *g);
/* Drop one reference; the last one quarantines the object (never for MPI_GROUP_EMPTY). */
void loom__group_release(struct loom_group *g);
/* g's rank of world rank w, or MPI_UNDEFINED. O(size). */
int loom__group_rank_of(const struct loom_group *g, int world_rank);
/* MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL (same order / same members / otherwise). */
int loom__group_compare(const struct loom_group *a, const struct loom_group *b);
/* 1 if a and b are both NULL, or both groups with the same members in the same order. */
static inline int loom__group_same(const struct loom_group *a, const struct loom_group *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    return loom__group_compare(a, b) == MPI_IDENT;
}
/* Why handle g is not a usable group ("is MPI_GROUP_NULL", "was freed", ...), or NULL if it
 * is one. */
const char *loom__group_invalid_reason(MPI_Group g);
/* Set operations; *out gets a new group (MPI_GROUP_EMPTY when empty). 0 or LOOM_ERR_NOMEM. */
int loom__group_union(const struct loom_group *a, const struct loom_group *b,
                      struct loom_group **out);
int loom__group_intersection(const struct loom_group *a, const struct loom_group *b,
                             struct loom_group **out);
int loom__group_difference(const struct loom_group *a, const struct loom_group *b,
                           struct loom_group **out);
/* The group of ranks[0..n-1] of g (ranks already checked: valid and distinct). */
int loom__group_incl(const struct loom_group *g, int n, const int *ranks,
                     struct loom_group **out);
/* g without ranks[0..n-1] (already checked). */
int loom__group_excl(const struct loom_group *g, int n, const int *ranks,
                     struct loom_group **out);

/* ---- info (comm/info.c) ------------------------------------------------------------- */

/* An ordered list of (key, value) strings. Any thread may use an info object; its mutex (a
 * leaf lock, taken after a handle's attr_lock when both are held) protects the list. MPI_INFO_ENV is filled at job start and read-only after. */
struct loom_info {
    struct loom_object obj;
    pthread_mutex_t lock;             /* protects n, cap, keys, vals */
    int n, cap;
    char **keys, **vals;              /* [n], malloc'd copies; freed with the object */
    int is_predefined;                /* 1 for MPI_INFO_ENV: cannot be changed or freed */
};

/* A new empty info (NULL on ENOMEM). */
struct loom_info *loom__info_new(void);
/* A copy of src (NULL on ENOMEM). */
struct loom_info *loom__info_dup(struct loom_info *src);
/* Free a user info object: its entries now, its header into the quarantine. */
void loom__info_free(struct loom_info *info);
/* Set key to value (copies both; lengths already checked). 0 or LOOM_ERR_NOMEM. */
int loom__info_set(struct loom_info *info, const char *key, const char *value);
/* Copy key's value (at most len bytes including the NUL) into buf; returns the value's
 * strlen, or -1 when key is absent. buf may be NULL when len is 0. */
int loom__info_get(struct loom_info *info, const char *key, char *buf, size_t len);
/* Remove key; 0, or -1 when absent. */
int loom__info_delete(struct loom_info *info, const char *key);
int loom__info_nkeys(struct loom_info *info);
/* Copy the n-th key into key[MPI_MAX_INFO_KEY + 1]; 0, or -1 when n is out of range. */
int loom__info_nthkey(struct loom_info *info, int n, char *key);
/* Why handle i is not a usable info, or NULL if it is one. */
const char *loom__info_invalid_reason(MPI_Info i);
/* Set in info the keys of MPI_INFO_ENV (MPI 4.1, section 11.2.4) that a loom job has: command
 * and argv (from argv[0..argc-1]; left out when argv is NULL), maxprocs and soft (nranks),
 * host, arch, wdir, thread_level (comm/info_env.c). 0 or LOOM_ERR_NOMEM. */
int loom__info_fill_env(struct loom_info *info, int argc, char **argv, int nranks);
/* Fill MPI_INFO_ENV (job start) and empty it (job end). */
int loom__info_env_init(int nranks);
void loom__info_env_fini(void);

/* ---- attributes (comm/attr.c, comm/keyval.c) ---------------------------------------- */

/* The kinds of object that cache attributes. A keyval serves one kind: using it on another
 * is MPI_ERR_KEYVAL. */
enum loom_attr_kind { LOOM_ATTR_COMM = 0, LOOM_ATTR_TYPE, LOOM_ATTR_WIN };

/* A keyval (MPI_Comm_create_keyval, MPI_Type_create_keyval). Lives until the job ends, so
 * attributes made with it can still run its callbacks after it is freed. */
struct loom_keyval {
    int id;
    int kind;                                 /* enum loom_attr_kind */
    MPI_Comm_copy_attr_function *copy_fn;     /* COMM: NULL acts as MPI_COMM_NULL_COPY_FN */
    MPI_Comm_delete_attr_function *delete_fn; /* COMM: NULL acts as MPI_COMM_NULL_DELETE_FN */
    MPI_Type_copy_attr_function *type_copy_fn;     /* TYPE: NULL acts as the NULL copy fn */
    MPI_Type_delete_attr_function *type_delete_fn; /* TYPE: NULL acts as the NULL delete fn */
    MPI_Win_copy_attr_function *win_copy_fn;       /* WIN: never called (no window is
                                                      duplicated), kept as given */
    MPI_Win_delete_attr_function *win_delete_fn;   /* WIN: NULL acts as the NULL delete fn */
    void *extra_state;
    /* A keyval made from Fortran (api/fortran_callbacks.c): the C functions above are its
     * trampolines, which call these procedures (cast back to their Fortran signatures) with
     * f_extra, the integer extra state. NULL / 0 for C keyvals. */
    void (*f_copy)(void);
    void (*f_delete)(void);
    MPI_Aint f_extra;
    struct loom_rank *rank;                   /* the rank that created it (read-only) */
    _Atomic int freed;                        /* 1 after MPI_*_free_keyval */
};

/* One cached attribute of an object (a node of its list). */
struct loom_attr_list {
    struct loom_attr_list *next;
    struct loom_keyval *kv;
    void *val;
};

/* User keyvals start here; 1..MPI_LASTUSEDCODE are the predefined attribute keys. */
#define LOOM_KEYVAL_FIRST 64

/* New keyval of kind LOOM_ATTR_COMM; 0 or LOOM_ERR_NOMEM. */
int loom__keyval_create(MPI_Comm_copy_attr_function *copy_fn,
                        MPI_Comm_delete_attr_function *delete_fn, void *extra_state,
                        int *keyval);
/* New keyval of kind LOOM_ATTR_TYPE; 0 or LOOM_ERR_NOMEM. */
int loom__keyval_create_type(MPI_Type_copy_attr_function *copy_fn,
                             MPI_Type_delete_attr_function *delete_fn, void *extra_state,
                             int *keyval);
/* New keyval of kind LOOM_ATTR_WIN; 0 or LOOM_ERR_NOMEM. */
int loom__keyval_create_win(MPI_Win_copy_attr_function *copy_fn,
                            MPI_Win_delete_attr_function *delete_fn, void *extra_state,
                            int *keyval);
/* New keyval of tmpl's kind with all of tmpl's callbacks (C and Fortran) and extra state;
 * 0 or LOOM_ERR_NOMEM. */
int loom__keyval_create_from(const struct loom_keyval *tmpl, int *keyval);
/* The live keyval of id, or NULL (never created, predefined, or freed when !allow_freed). */
struct loom_keyval *loom__keyval_get(int id, int allow_freed);
/* 1 if id is a predefined attribute key (MPI_TAG_UB...). */
int loom__keyval_is_predefined(int id);
/* The value of a predefined attribute (a pointer to an int, as the standard says). */
void *loom__attr_predefined(int id);
/* The job's MPI_LASTUSEDCODE becomes v (comm/error_class.c, under its lock); each rank sees
 * it at its next MPI_Comm_get_attr (comm/keyval.c says why). */
void loom__attr_set_lastusedcode(int v);
/* Set the predefined attributes' values (job start, before ranks run). */
void loom__keyval_job_init(int nranks);
/* Free every keyval (job end). */
void loom__keyval_fini(void);

/* An object's attribute cache as the generic operations (comm/attr.c) see it: any kind of
 * object that keeps a list head and names a lock guarding it can cache attributes. */
struct loom_attr_host {
    int kind;                     /* enum loom_attr_kind of the object */
    void *handle;                 /* the user handle its callbacks receive */
    struct loom_attr_list **list; /* the object's list, newest first, under *lock */
    pthread_mutex_t *lock;        /* a leaf lock, never held while a callback runs */
    int shared;                   /* 1: the object is shared by every rank (a predefined
                                     datatype): copy_all takes the calling rank's only */
};
/* The generic operations; same contracts as the communicator ones below. */
int loom__attrs_set(const struct loom_attr_host *h, struct loom_keyval *kv, void *val);
int loom__attrs_get(const struct loom_attr_host *h, struct loom_keyval *kv, void **val,
                    int *flag);
int loom__attrs_delete(const struct loom_attr_host *h, struct loom_keyval *kv);
int loom__attrs_copy_all(const struct loom_attr_host *src, const struct loom_attr_host *dst);
int loom__attrs_delete_all(const struct loom_attr_host *h);
/* Unlink and free every node of h without calling back (objects of a job that has ended). */
void loom__attrs_drop_all(const struct loom_attr_host *h);

/* The user handle by which callbacks see c (MPI_COMM_WORLD / MPI_COMM_SELF for the calling
 * rank's predefined handles). */
MPI_Comm loom__comm_user_handle(struct loom_comm *c);
/* Attribute operations on one handle. Callbacks run without any lock held. Each returns 0,
 * or the MPI error code that a user callback returned (a positive value); *flag/val for get. */
int loom__attr_set(struct loom_comm *c, struct loom_keyval *kv, void *val);
int loom__attr_get(struct loom_comm *c, struct loom_keyval *kv, void **val, int *flag);
int loom__attr_delete(struct loom_comm *c, struct loom_keyval *kv);
/* Run the copy callbacks of src's attributes into dst (a new handle nobody else sees yet),
 * as MPI_Comm_dup does. 0, LOOM_ERR_NOMEM, or a callback's error code (positive); on
 * failure, dst's copied attributes have been deleted again. */
int loom__attr_copy_all(struct loom_comm *src, MPI_Comm src_handle, struct loom_comm *dst);
/* Delete every attribute of c, newest first (MPI_Comm_free, finalize). 0 or the error code a
 * delete callback returned (positive); on failure, the attributes not deleted stay. */
int loom__attr_delete_all(struct loom_comm *c);

/* ---- communicators ------------------------------------------------------------------ */

/* loom__comm_resolve for a handle that is neither MPI_COMM_WORLD nor MPI_COMM_SELF. */
struct loom_comm *loom__comm_resolve_handle(MPI_Comm comm);

/* The calling rank's handle for a user handle (maps MPI_COMM_WORLD/SELF); NULL if the handle
 * is not a valid live communicator. Inline for the predefined handles: every call resolves
 * its communicator, and a small message's latency pays for it (docs/p2p.md). */
static inline struct loom_comm *loom__comm_resolve(MPI_Comm comm)
{
    struct loom_rank *self = loom__self;
    if (comm == MPI_COMM_WORLD)
        return self ? self->world : NULL;
    if (comm == MPI_COMM_SELF)
        return self ? self->self : NULL;
    return loom__comm_resolve_handle(comm);
}

/* Why user handle comm is not a usable communicator for the calling rank, or NULL if it is. */
const char *loom__comm_invalid_reason(MPI_Comm comm);

/* A shared half for the members of group g (a copy of it; g is not kept): fresh context id, both matching
 * contexts, refs == g->size (one per future member handle). 0 or LOOM_ERR_NOMEM. All of g
 * must run in this node process (else the job ends with a message saying so). */
int loom__comm_shared_new(struct loom_group *g, struct loom_comm_shared **out);
/* The same with context id `id` and `refs` references: the world's half (id 0), and the
 * halves of communicators across node processes (comm/attach.c). A half whose group spans
 * node processes registers its contexts with the network. */
int loom__comm_shared_make(struct loom_group *g, uint64_t id, int refs,
                           struct loom_comm_shared **out);
/* The same, registered later by loom__comm_shared_register (an intercommunicator's halves,
 * linked first: a message that came before must find the pair whole), which also marks the
 * half as spanning node processes (spans_nodes). */
int loom__comm_shared_make_unregistered(struct loom_group *g, uint64_t id, int refs,
                                        struct loom_comm_shared **out);
void loom__comm_shared_register(struct loom_comm_shared *sh);
/* A context id no other communicator of the job has (comm/shared.c). Any thread. */
uint64_t loom__comm_context_id_new(void);
/* 1 if some rank of g runs in another node process. */
int loom__group_spans_nodes(const struct loom_group *g);
/* The calling rank's reference on this node process's shared half of the communicator with
 * context id `id` and group g (comm/attach.c): the first member of this process to ask makes
 * it, with one reference per member of g in this process; the others get the same one.
 * Every member of g in this process must ask once, with the same id and an equal group.
 * 0 or LOOM_ERR_NOMEM. Any thread. */
int loom__comm_shared_attach(uint64_t id, struct loom_group *g, struct loom_comm_shared **out);
/* Drop one member's reference; the last one frees the shared half. */
void loom__comm_shared_release(struct loom_comm_shared *sh);
/* One more reference on sh if it still has one (1), else 0: it is being freed. For a
 * holder that found sh through a table rather than a handle (the network's poller). */
int loom__comm_shared_try_retain(struct loom_comm_shared *sh);
/* Take one more reference on sh (a nonblocking or persistent collective's request keeps the
 * communicator's matching contexts alive after MPI_Comm_free, coll/run.c); dropped by
 * loom__comm_shared_release. The caller holds a reference already (a live handle). */
void loom__comm_shared_retain(struct loom_comm_shared *sh);
/* A handle of the calling rank on sh (whose reference it takes over), rank `rank`, error
 * handler inherited from parent (or MPI_ERRORS_ARE_FATAL when parent is NULL). 0 or
 * LOOM_ERR_NOMEM (then the reference on sh has been dropped). sh may be NULL: a handle whose
 * shared half comes later (MPI_Comm_idup); it resolves to nothing until then. */
int loom__comm_handle_new(struct loom_comm_shared *sh, int rank, struct loom_comm *parent,
                          struct loom_comm **out);
/* Free a handle: its attributes must already be deleted. Drops its reference on sh and
 * quarantines the handle. */
void loom__comm_handle_free(struct loom_comm *c);

/* Communicator constructors (collective over parent, except create_group: over g). Each
 * sets *out to the calling rank's new handle, or NULL when it is not a member. 0, a negative
 * loom code, or a copy callback's MPI error code (positive, dup only). */
int loom__comm_dup(struct loom_comm *parent, MPI_Comm parent_handle, struct loom_info *info,
                   int use_info, struct loom_comm **out);
int loom__comm_split(struct loom_comm *parent, int color, int key, struct loom_comm **out);
int loom__comm_create(struct loom_comm *parent, struct loom_group *g, struct loom_comm **out);
/* A member of a split: its key and its rank in the communicator split. Ordered by key, then
 * rank (loom__comm_member_cmp, for qsort), as MPI_Comm_split orders the new ranks. */
struct loom_member {
    int key, rank;
};
int loom__comm_member_cmp(const void *a, const void *b);
/* Split and create over a parent whose members run in several node processes
 * (comm/create_net.c; dup is a split with one colour): the members' contributions go through
 * an allgather on the parent, then each member attaches to its node process's half of the new
 * communicator. */
int loom__comm_split_net(struct loom_comm *parent, int color, int key, struct loom_comm **out);
int loom__comm_create_net(struct loom_comm *parent, struct loom_group *g,
                          struct loom_comm **out);
int loom__comm_create_group(struct loom_comm *parent, struct loom_group *g, int tag,
                            struct loom_comm **out);
/* MPI_Comm_create_group for a group g of several node processes, the caller its rank `me`
 * (comm/create_group_net.c). */
int loom__comm_create_group_net(struct loom_comm *parent, struct loom_group *g, int tag,
                                int me, struct loom_comm **out);
/* 1 if every rank of g is a member of c; 0 if not; LOOM_ERR_NOMEM. */
int loom__comm_group_is_subset(struct loom_comm *c, const struct loom_group *g);

/* ---- intercommunicators (comm/inter.c) ---------------------------------------------- */

/* 1 if c is an intercommunicator. */
static inline int loom__comm_is_inter(const struct loom_comm *c)
{
    return c->sh->remote != NULL;
}

/* The two halves of an intercommunicator and the union of its groups, as one member builds
 * and publishes them (or the reason it could not: err). */
struct loom_inter_pair {
    struct loom_comm_shared *side[2]; /* side[0]: the group first in the union */
    struct loom_comm_shared *all;     /* the union: side[0]'s ranks, then side[1]'s */
    int err;
};
/* Build the pair for disjoint groups g0 (first) and g1: both halves linked, the union's half,
 * one reference per future member handle. 0, LOOM_ERR_NOMEM, or LOOM_ERR_ARG when the groups
 * overlap. */
int loom__inter_pair_new(struct loom_group *g0, struct loom_group *g1,
                         struct loom_inter_pair *out);
/* The same with context ids ids[0] (g0's half), ids[1] (g1's) and ids[2] (the union's), and
 * `refs` references on the first half and on the union. Over node processes: every half is
 * registered with the network (the other group's messages come to it). */
int loom__inter_pair_make(struct loom_group *g0, struct loom_group *g1, const uint64_t ids[3],
                          int refs, struct loom_inter_pair *out);
/* This node process's copy of the pair with ids `ids` (comm/attach.c), as
 * loom__comm_shared_attach does for one half: made by the first member of either group in
 * this node process to ask, with one reference per such member. 0 or a negative code. */
int loom__inter_pair_attach(const uint64_t ids[3], struct loom_group *g0, struct loom_group *g1,
                            struct loom_inter_pair *out);
/* MPI_Comm_create_from_group (g1 NULL: *sh gets this node process's half) and
 * MPI_Intercomm_create_from_groups (*pair gets the pair) over ranks of several node
 * processes: the members agree on the context ids without talking (a hash of the tag, the
 * groups and the member's count of creations with them) and attach by them. me: the calling
 * rank's place in g0, then g1. 0 or a negative loom code (comm/from_group_net.c). */
int loom__from_group_attach(const char *tag, struct loom_group *g0, struct loom_group *g1,
                            int me, struct loom_comm_shared **sh, struct loom_inter_pair *pair);
/* A blocking message between the leaders of MPI_Intercomm_create on peer (its user context,
 * the user's tag, synchronous): n bytes of buf. send: 0 or a negative loom code. */
int loom__inter_leader_send(struct loom_comm *peer, int dest, int tag, const void *buf,
                            size_t n);
void loom__inter_leader_recv(struct loom_comm *peer, int source, int tag, void *buf, size_t n);
/* MPI_Intercomm_create and the constructors over an intercommunicator, in a job of several
 * node processes (comm/inter_net.c): groups and context ids travel as messages. */
int loom__intercomm_create_net(struct loom_comm *local, int local_leader, struct loom_comm *peer,
                               int remote_leader, int tag, int leader_err,
                               struct loom_comm **out);
int loom__intercomm_split_net(struct loom_comm *c, int color, int key, struct loom_comm **out);
/* The calling rank's handle, rank `rank` of side `side` of pair p (taking over its references
 * on the half and on the union), error handler inherited from parent. 0 or LOOM_ERR_NOMEM. */
int loom__inter_handle_new(const struct loom_inter_pair *p, int side, int rank,
                           struct loom_comm *parent, struct loom_comm **out);
/* MPI_Intercomm_create (arguments already checked; peer and remote_leader significant only
 * at the local leader). Collective over local and the remote group. A leader whose own
 * arguments were wrong passes their loom code as leader_err: it does not meet the other
 * leader, and every member of local returns that code. */
int loom__intercomm_create(struct loom_comm *local, int local_leader, struct loom_comm *peer,
                           int remote_leader, int tag, int leader_err, struct loom_comm **out);
/* Constructors over an intercommunicator c, collective over both groups: *out is the new
 * intercommunicator, or NULL (not a member, or no member of the colour / group on the other
 * side). dup as loom__comm_dup; create_sub: g a subgroup of c's local group. */
int loom__intercomm_split(struct loom_comm *c, int color, int key, struct loom_comm **out);
int loom__intercomm_dup(struct loom_comm *c, MPI_Comm handle, struct loom_info *info,
                        int use_info, struct loom_comm **out);
int loom__intercomm_create_sub(struct loom_comm *c, struct loom_group *g,
                               struct loom_comm **out);
/* MPI_Comm_idup(_with_info) of c (an intra- or intercommunicator), comm/idup.c: *out is the
 * new handle at once, usable once *req completes (its shared halves come through a
 * nonblocking schedule over c, or over the union of an intercommunicator's groups);
 * attributes and info are copied during the call. 0, a negative loom code, or a copy
 * callback's MPI error code (positive; then *out is NULL and *req is not set). */
int loom__comm_idup(struct loom_comm *c, MPI_Comm handle, struct loom_info *info, int use_info,
                    struct loom_comm **out, MPI_Request *req);

/* The schedule of MPI_Comm_idup over an intracommunicator of several node processes, or an
 * intercommunicator in a job of several (comm/idup_net.c), run over `over` (the parent, or
 * its union): fills nc->sh (and nc->all->sh) before *req completes. 0 or LOOM_ERR_NOMEM. */
int loom__comm_idup_net(struct loom_comm *parent, struct loom_comm *over, MPI_Comm h,
                        struct loom_comm *nc, MPI_Request *req);

/* MPI_Comm_create_from_group / MPI_Intercomm_create_from_groups (comm/from_group.c; the
 * calling rank is a member of g / local, arguments checked, local and remote disjoint):
 * collective over the group(s) and the string tag; *out takes errh and a copy of info.
 * 0, LOOM_ERR_NOMEM, or LOOM_ERR_ARG when the groups of an intercommunicator overlap. */
int loom__comm_create_from_group(struct loom_group *g, const char *tag, struct loom_info *info,
                                 struct loom_errhandler *errh, struct loom_comm **out);
int loom__intercomm_create_from_groups(struct loom_group *local, int local_leader,
                                       struct loom_group *remote, int remote_leader,
                                       const char *tag, struct loom_info *info,
                                       struct loom_errhandler *errh, struct loom_comm **out);

/* MPI_Intercomm_merge: the intracommunicator of both groups, the one whose members passed
 * high = 0 first (the first group first when both passed the same). */
int loom__intercomm_merge(struct loom_comm *c, int high, struct loom_comm **out);

/* MPI_Comm_split_type's plan for the calling rank (comm/split_type.c; struct in
 * comm/split_hw.h): its colour, and for the hardware types what to record on the new
 * communicator. Each split type computes it in a function of its own. Collective over parent
 * when it spans node processes (a guided split exchanges the members' colours). 0 or
 * LOOM_ERR_UNSUPPORTED (type known but not implemented yet) or LOOM_ERR_ARG (not a split
 * type) or LOOM_ERR_NOMEM. */
struct loom_hw_split;
typedef int (*loom_split_color_fn)(struct loom_comm *parent, struct loom_info *info,
                                   struct loom_hw_split *plan);
int loom__comm_split_type_color(struct loom_comm *parent, int split_type,
                                struct loom_info *info, struct loom_hw_split *plan);

/* The rendezvous of c's members, in pieces (comm/rendezvous.c). An exchange session:
 * loom__comm_xbegin publishes `mine` and waits for every member; from then on any member
 * may read any member's contribution through loom__comm_xslot, across any number of
 * loom__comm_rendezvous, until loom__comm_xend (the last rendezvous of the session, after
 * which no slot may be read). Collective over c; one session at a time per communicator. */
void loom__comm_xbegin(struct loom_comm *c, const void *mine);
const void *loom__comm_xslot(struct loom_comm *c, int rank);
void loom__comm_rendezvous(struct loom_comm *c);
#define loom__comm_xend(c) loom__comm_rendezvous(c)

/* Delete the calling rank's attributes on MPI_COMM_SELF (newest first), as the start of
 * MPI_Finalize must, while MPI calls are still allowed in the callbacks. 0 or the error a
 * callback returned. loom__comm_rank_fini does it too if it was not done. */
int loom__comm_rank_free_self_attrs(void);

/* Per-rank communicator state, made at MPI_Init and undone at MPI_Finalize (after the final
 * rendezvous). Creates the rank's world and self handles. 0 or a negative loom code. */
int loom__comm_rank_init(void);
void loom__comm_rank_fini(void);
/* Build the job-wide shared half of MPI_COMM_WORLD before ranks start; free it after. */
int loom__comm_job_init(int nranks);
void loom__comm_job_fini(void);

/* Rendezvous of all members of c: returns when every member has called it. Each member may
 * pass `mine` (len bytes); when `all` is non-NULL it receives the size*len contributions in
 * comm rank order. Collective over c. 0 or a negative loom code. */
int loom__comm_exchange(struct loom_comm *c, const void *mine, size_t len, void *all);
#include "comm/errhandler.h"
#endif
