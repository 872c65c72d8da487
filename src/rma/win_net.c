/* rma/win_net.c — windows whose members run in several node processes: their creation, their
 * free, and the registry by which the network's poller finds a window's memory.
 *
 * Each node process holds its own shared half of such a window, with a part for every
 * member: its own members' parts as in a window of one node process, the others' as numbers
 * (base, size, unit: the origin checks a target's range and computes its addresses itself).
 * The halves are registered here under the window's id (its private communicator's context
 * id, the same in every node process).
 *
 * Who touches what: the registry (`reg`, and in each entry `joined` and `filled`) under
 * reg_lock. A member writes its own part under reg_lock before it sends its contribution to
 * the exchange; the others' parts are written once, by the first member of the node process
 * back from the exchange, under reg_lock. Every member takes reg_lock after the exchange, and
 * the poller holds it while it carries out an operation (loom__win_net_enter), so every part
 * it reads was written before (the mutex orders them), and no half is freed under it. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "coll/coll.h"
#include "comm/comm.h"
#include "core/rank.h"
#include "dt/dt.h"
#include "net/net.h"
#include "rma/net_msg.h"
#include "rma/rma.h"

struct entry {
    uint64_t id;
    struct loom_win_shared *sh;
    int joined; /* members of this node process in the window */
    int filled; /* the other node processes' parts are written */
    struct entry *next;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct entry *reg;

/* What a member brings to the exchange. */
struct part {
    uint64_t base, size;
    int64_t disp_unit;
    int32_t err;
    int32_t pad;
};

static struct entry *find(uint64_t id)
{
    for (struct entry *e = reg; e != NULL; e = e->next)
        if (e->id == id)
            return e;
    return NULL;
}

/* This node process's entry of window id, made by its first member; reg_lock held. NULL on
 * ENOMEM. */
static struct entry *entry_of(struct loom_comm *c, uint64_t id, int flavor)
{
    struct entry *e = find(id);
    if (e != NULL)
        return e;
    e = calloc(1, sizeof *e); /* freed by the last loom__win_net_leave */
    if (e == NULL)
        return NULL;
    if (loom__win_shared_new(c, flavor, &e->sh) != 0) {
        free(e);
        return NULL;
    }
    e->id = id;
    e->sh->net_id = id;
    e->next = reg;
    reg = e;
    return e;
}

/* Drop one member of entry e; the last frees it. reg_lock held. */
static void drop(struct entry *e)
{
    if (--e->joined > 0)
        return;
    for (struct entry **p = &reg; *p != NULL; p = &(*p)->next)
        if (*p == e) {
            *p = e->next;
            break;
        }
    loom__win_shared_free(e->sh);
    free(e);
}

int loom__win_net_join(struct loom_comm *c, int flavor, void *base, size_t size,
                       ptrdiff_t disp_unit, int err, struct loom_win_shared **out)
{
    /* + 1: an id of 0 means "one node process" (struct loom_win_shared.net_id) */
    uint64_t id = c->sh->context_id + 1;
    struct part mine = {(uint64_t)(uintptr_t)base, size, disp_unit, err, 0};
    struct entry *e = NULL;
    if (err == 0) {
        pthread_mutex_lock(&reg_lock);
        e = entry_of(c, id, flavor);
        if (e != NULL) {
            e->joined++;
            struct loom_win_seg *s = &e->sh->seg[c->rank];
            s->base = base;
            s->size = size;
            s->disp_unit = disp_unit;
            loom__win_fast_fill(e->sh, c->rank);
        } else {
            mine.err = LOOM_ERR_NOMEM;
        }
        pthread_mutex_unlock(&reg_lock);
    }
    int n = c->sh->size;
    struct part *all = malloc((size_t)n * sizeof *all);
    if (all == NULL) /* the exchange cannot be left: the others would wait for this one */
        loom__rma_net_nomem("creating a window over several node processes");
    /* every member takes part in the exchange, even one that failed, so that all learn it */
    struct loom_coll_args a = {0};
    a.sbuf = &mine;
    a.rbuf = all;
    a.scount = a.rcount = sizeof mine;
    a.stype = a.rtype = (struct loom_datatype *)MPI_BYTE;
    int mpi_err = MPI_SUCCESS;
    int rc = loom__coll_run(LOOM_COLL_ALLGATHER, c, c, &a, NULL, &mpi_err);
    for (int i = 0; i < n && rc == 0; i++)
        rc = all[i].err;
    pthread_mutex_lock(&reg_lock);
    if (rc != 0) {
        if (e != NULL)
            drop(e);
        pthread_mutex_unlock(&reg_lock);
        free(all);
        return rc;
    }
    if (!e->filled) {
        for (int i = 0; i < n; i++) {
            struct loom_win_seg *s = &e->sh->seg[i];
            if (!s->remote)
                continue;
            s->base = (char *)(uintptr_t)all[i].base;
            s->size = (size_t)all[i].size;
            s->disp_unit = (ptrdiff_t)all[i].disp_unit;
        }
        e->filled = 1;
    }
    *out = e->sh;
    pthread_mutex_unlock(&reg_lock);
    free(all);
    /* the network is looked at while the window lives, so that operations on this node
     * process's members move while they compute (passive target) */
    loom__net_watch_arm();
    return 0;
}

void loom__win_net_leave(struct loom_win_shared *sh)
{
    loom__net_watch_disarm();
    pthread_mutex_lock(&reg_lock);
    struct entry *e = find(sh->net_id);
    if (e != NULL)
        drop(e);
    pthread_mutex_unlock(&reg_lock);
}

struct loom_win_shared *loom__win_net_enter(uint64_t id)
{
    pthread_mutex_lock(&reg_lock);
    struct entry *e = find(id);
    return e ? e->sh : NULL;
}

void loom__win_net_exit(void)
{
    pthread_mutex_unlock(&reg_lock);
}
