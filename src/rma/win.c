/* rma/win.c — the life of a window: its collective creation, in every flavor, and its
 * collective free.
 *
 * Creation meets the members three times on a private communicator made for the window (a
 * copy of the creation communicator's group, with no attributes): in one exchange session each
 * member publishes what it brings (its memory, size and unit, or its failure to get them);
 * member 0 reads every contribution, builds the shared half (for MPI_Win_allocate_shared, the
 * one block every member's part lies in) and publishes it in its own slot; after the next
 * rendezvous every member takes it. Every member learns any member's failure in the same
 * session, so they all fail together and nothing is left half made.
 *
 * Where memory comes from: MPI_Win_create uses the program's; MPI_Win_allocate gives each
 * member memory it allocates itself (so its pages are first touched by the rank's own core,
 * near it); MPI_Win_allocate_shared one block of all the parts, contiguous unless
 * alloc_shared_noncontig asks otherwise (then each part starts a cache line apart), each
 * member zeroing its own part for the same reason. */
#include <stdlib.h>
#include <string.h>
#include "coll/coll.h"
#include "comm/comm.h"
#include "core/atomic.h"
#include "core/error.h"
#include "core/quarantine.h"
#include "core/rank.h"
#include "rma/rma.h"

/* What a member brings to the creation. */
struct contrib {
    void *base;
    size_t size;
    ptrdiff_t disp_unit;
    int err;                         /* the member's own failure, or 0 */
    /* member 0's answer, read by the others after the second rendezvous */
    struct loom_win_shared *sh;
    int sh_err;
};

enum { LINE = 64 };

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

void loom__win_shared_free(struct loom_win_shared *sh)
{
    for (int i = 0; i < sh->size; i++) {
        struct loom_win_seg *s = &sh->seg[i];
        free(s->expo_ranks);
        free(s->expo_started);
        free(s->rposts);
        free(s->regions);
        pthread_rwlock_destroy(&s->regions_lock);
    }
    free(sh->seg);
    free(sh->fast);
    free(sh->world_of);
    free(sh->win_of_world);
    free(sh->shared_block);
    free(sh);
}

int loom__win_shared_new(struct loom_comm *c, int flavor, struct loom_win_shared **out)
{
    int n = c->sh->size;
    struct loom_win_shared *sh = calloc(1, sizeof *sh); /* freed by the last loom__win_free */
    if (sh == NULL)
        return LOOM_ERR_NOMEM;
    sh->size = n;
    sh->flavor = flavor;
    sh->seg = aligned_alloc(LINE, round_up((size_t)n * sizeof *sh->seg, LINE));
    sh->fast = aligned_alloc(LINE, round_up((size_t)n * sizeof *sh->fast, LINE));
    sh->world_of = malloc((size_t)n * sizeof *sh->world_of);
    sh->win_of_world = malloc((size_t)loom__job.nranks * sizeof *sh->win_of_world);
    if (sh->seg == NULL || sh->fast == NULL || sh->world_of == NULL ||
        sh->win_of_world == NULL) {
        free(sh->seg);
        sh->seg = NULL;
        sh->size = 0;
        loom__win_shared_free(sh);
        return LOOM_ERR_NOMEM;
    }
    memset(sh->seg, 0, (size_t)n * sizeof *sh->seg);
    memset(sh->fast, 0, (size_t)n * sizeof *sh->fast);
    for (int w = 0; w < loom__job.nranks; w++)
        sh->win_of_world[w] = -1;
    for (int i = 0; i < n; i++) {
        struct loom_win_seg *s = &sh->seg[i];
        pthread_rwlock_init(&s->regions_lock, NULL);
        sh->world_of[i] = c->sh->world_of[i];
        sh->win_of_world[sh->world_of[i]] = i;
        s->remote = !loom__rank_is_local(sh->world_of[i]);
        s->node = s->remote ? loom__node_of(sh->world_of[i]) : loom__job.node;
    }
    *out = sh;
    return 0;
}

/* Member 0: the shared half from every member's contribution. 0 or LOOM_ERR_NOMEM. */
static int build_shared(struct loom_comm *c, int flavor, int noncontig,
                        struct loom_win_shared **out)
{
    int n = c->sh->size;
    struct loom_win_shared *sh;
    int rc = loom__win_shared_new(c, flavor, &sh);
    if (rc != 0)
        return rc;
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        const struct contrib *m = loom__comm_xslot(c, i);
        struct loom_win_seg *s = &sh->seg[i];
        s->base = m->base;
        s->size = m->size;
        s->disp_unit = m->disp_unit;
        if (flavor == MPI_WIN_FLAVOR_SHARED) {
            s->base = (char *)(uintptr_t)total; /* an offset until the block exists */
            total += noncontig ? round_up(m->size, LINE) : m->size;
        }
    }
    if (flavor == MPI_WIN_FLAVOR_SHARED) {
        /* One block; 0 bytes still get a real block so that every base is an address. */
        sh->shared_block = aligned_alloc(LINE, round_up(total ? total : 1, LINE));
        if (sh->shared_block == NULL) {
            loom__win_shared_free(sh);
            return LOOM_ERR_NOMEM;
        }
        for (int i = 0; i < n; i++)
            sh->seg[i].base = (char *)sh->shared_block + (uintptr_t)sh->seg[i].base;
    }
    for (int i = 0; i < n; i++)
        loom__win_fast_fill(sh, i);
    atomic_init(&sh->refs, n);
    *out = sh;
    return 0;
}

void loom__win_fast_fill(struct loom_win_shared *sh, int i)
{
    const struct loom_win_seg *s = &sh->seg[i];
    if (sh->flavor != MPI_WIN_FLAVOR_DYNAMIC && !s->remote)
        sh->fast[i] = (struct loom_win_fast){s->base, s->size, s->disp_unit, 0};
}

/* This member's memory for flavor: 0 or LOOM_ERR_NOMEM. */
static int own_memory(int flavor, void **base, size_t size, void **alloc)
{
    *alloc = NULL;
    if (flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        *base = NULL;
        return 0;
    }
    if (flavor != MPI_WIN_FLAVOR_ALLOCATE)
        return 0;
    if (size == 0) {
        *base = NULL;
        return 0;
    }
    /* freed by loom__win_free, after every member has met there */
    *alloc = aligned_alloc(LINE, round_up(size, LINE));
    if (*alloc == NULL)
        return LOOM_ERR_NOMEM;
    *base = *alloc;
    return 0;
}

static struct loom_win *handle_new(void)
{
    struct loom_win *w = calloc(1, sizeof *w); /* quarantined by loom__win_free */
    if (w == NULL)
        return NULL;
    loom__object_init(&w->obj, LOOM_MAGIC_WIN);
    pthread_mutex_init(&w->attr_lock, NULL);
    atomic_init(&w->access, 0);
    atomic_init(&w->fence_ops, 0);
    atomic_init(&w->held, NULL);
    atomic_init(&w->exposing, 0);
    atomic_init(&w->pending, 0);
    atomic_init(&w->refused, 0);
    atomic_init(&w->acc_reads, 0);
    return w;
}

static void release_handle(void *obj)
{
    struct loom_win *w = obj;
    pthread_mutex_destroy(&w->attr_lock);
    free(w);
}

/* Give back what a member made for a window that will not exist (or no longer does). */
static void drop_member(struct loom_win *w, struct loom_comm *c)
{
    free(w->alloc);
    if (w->info)
        loom__info_free(w->info);
    if (w->group)
        loom__group_release(w->group);
    release_handle(w);
    if (c)
        loom__comm_handle_free(c);
}

int loom__win_create(struct loom_comm *comm, int flavor, void **base, size_t size,
                     ptrdiff_t disp_unit, struct loom_info *info, struct loom_win **out)
{
    *out = NULL;
    struct loom_comm *c = NULL;
    int rc = loom__comm_create(comm, comm->sh->group, &c);
    if (rc != 0)
        return rc; /* every member fails alike: the communicator's creation is collective */
    struct loom_win *w = handle_new();
    struct contrib mine = {0};
    mine.size = size;
    mine.disp_unit = disp_unit;
    if (w == NULL) {
        mine.err = LOOM_ERR_NOMEM;
    } else {
        mine.base = base ? *base : NULL;
        mine.err = own_memory(flavor, &mine.base, size, &w->alloc);
        w->info = loom__rma_hints_new(info);
        loom__group_retain(c->sh->group);
        w->group = c->sh->group;
        if (mine.err == 0 && w->info == NULL)
            mine.err = LOOM_ERR_NOMEM;
    }
    struct loom_win_shared *sh = NULL;
    if (c->sh->spans_nodes) {
        /* one shared half per node process, the parts of the others exchanged (win_net.c) */
        rc = loom__win_net_join(c, flavor, mine.base, size, disp_unit, mine.err, &sh);
    } else {
        loom__comm_xbegin(c, &mine);
        if (c->rank == 0) {
            for (int i = 0; i < c->sh->size && mine.sh_err == 0; i++)
                mine.sh_err = ((const struct contrib *)loom__comm_xslot(c, i))->err;
            if (mine.sh_err == 0)
                mine.sh_err =
                    build_shared(c, flavor, loom__rma_hint_noncontig(info), &mine.sh);
        }
        loom__comm_rendezvous(c); /* member 0's writes to its slot are visible after it */
        const struct contrib *zero = loom__comm_xslot(c, 0);
        sh = zero->sh;
        rc = zero->sh_err;
        loom__comm_xend(c);
    }
    if (rc != 0) {
        if (w)
            drop_member(w, c);
        else
            loom__comm_handle_free(c);
        return rc;
    }
    w->sh = sh;
    w->owner = loom__self;
    w->rank = c->rank;
    w->size = sh->size;
    w->fast = sh->fast;
    w->comm = c;
    w->net = sh->net_id != 0;
    w->errh = &loom_mpi_errors_are_fatal;
    struct loom_win_seg *s = &sh->seg[w->rank];
    if (flavor == MPI_WIN_FLAVOR_SHARED)
        memset(s->base, 0, s->size); /* first touch by the part's own rank */
    w->base_attr = s->base;
    w->size_attr = (MPI_Aint)s->size;
    w->disp_unit_attr = (int)disp_unit;
    w->flavor_attr = flavor;
    w->model_attr = MPI_WIN_UNIFIED;
    if (base)
        *base = s->base;
    *out = w;
    return 0;
}

struct loom_event *loom__win_event(const struct loom_win *w, int r)
{
    return &loom__job.ranks[w->sh->world_of[r]].event;
}

int loom__win_free(struct loom_win *w)
{
    loom__rma_flush(w);
    int rc = 0;
    /* the attributes first, while the window is whole: their callbacks may use it */
    if (w->attrs != NULL) {
        struct loom_attr_host h = {LOOM_ATTR_WIN, w, &w->attrs, &w->attr_lock, 0};
        rc = loom__attrs_delete_all(&h);
        if (rc != 0)
            return rc;
    }
    /* No member's memory or state goes away before every member is done with the window:
     * each has completed its own operations above, and this barrier orders them all before
     * what follows (its release/acquire carries their stores to the frees below). */
    struct loom_coll_args a = {0};
    int mpi_err = MPI_SUCCESS;
    loom__coll_run(LOOM_COLL_BARRIER, w->comm, w->comm, &a, NULL, &mpi_err);
    struct loom_win_shared *sh = w->sh;
    free(atomic_load_explicit(&w->held, memory_order_relaxed));
    free(w->start_set);
    free(w->start_ranks);
    loom__errhandler_release(w->errh);
    loom__info_free(w->info);
    loom__group_release(w->group);
    loom__comm_handle_free(w->comm);
    free(w->alloc);
    loom__quarantine_put(w, release_handle); /* marks it freed first */
    if (sh->net_id != 0)
        loom__win_net_leave(sh);
    /* acq_rel: the last member sees every other member's last use before it frees */
    else if (loom__fetch_sub_acq_rel(&sh->refs, 1) == 1)
        loom__win_shared_free(sh);
    return 0;
}
