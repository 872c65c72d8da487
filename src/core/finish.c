/* core/finish.c — how a rank ends: MPI_Finalize's rendezvous and the end of its main. */
#include "core/atomic.h"
#include "core/config.h"
#include "core/rank.h"
#include "core/runtime.h"
#include "net/net.h"

void (*loom__rank_fini_hook)(void);
void (*loom__rank_prefini_hook)(void);

static void notify_all(void)
{
    for (int i = loom__job.first; i < loom__job.first + loom__job.nlocal; i++)
        loom__event_notify(&loom__job.ranks[i].event);
}

/* 1 when every rank of the job has entered MPI_Finalize or ended: this node process's, then
 * (net/net.h) the other node processes'. */
static int all_finalizing(void *unused)
{
    (void)unused;
    for (int i = loom__job.first; i < loom__job.first + loom__job.nlocal; i++)
        if (loom__load_acquire(&loom__job.ranks[i].state) < LOOM_RANK_FINALIZING)
            return 0;
    return loom__net_finalize_met();
}

void loom__rank_finalize(struct loom_rank *r)
{
    if (loom__rank_prefini_hook)
        loom__rank_prefini_hook();
    /* release: pairs with the acquire loads of all_finalizing() in other ranks */
    loom__store_release(&r->state, LOOM_RANK_FINALIZING);
    notify_all();
    loom__wait_until(&r->event, all_finalizing, NULL);
    if (loom__rank_fini_hook)
        loom__rank_fini_hook();
    loom__store_release(&r->state, LOOM_RANK_FINALIZED);
}

void loom__rank_finish(struct loom_rank *r, int code)
{
    if (loom__load_acquire(&r->state) == LOOM_RANK_INITIALIZED) {
        /* A rank that used sessions only, and finalized them all, ends here quietly: its
         * layers stayed up for a session to come (docs/sessions.md). */
        if (loom__config_int(LOOM_CFG_WARN_UNFINALIZED)) {
            if (loom__load_relaxed(&r->world_model) == 1)
                loom__log("warning: main returned without calling MPI_Finalize; finalizing it");
            else if (loom__load_relaxed(&r->sessions) > 0)
                loom__log("warning: main returned with %d session(s) not finalized; "
                          "finalizing them", loom__load_relaxed(&r->sessions));
        }
        loom__rank_finalize(r);
    }
    r->exit_code = code;
    loom__store_release(&r->state, LOOM_RANK_DONE);
    notify_all();
}
