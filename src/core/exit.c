/* core/exit.c — exit() as a rank thread sees it.
 *
 * loom defines exit() itself (the dynamic linker finds the program's libloom before libc), so
 * that a rank calling exit(code) behaves as a process of a multi-process MPI job would:
 *  - after MPI_Finalize (or, using sessions only, once it finalized them all), it ends only
 *    itself: its main is over, with status `code`;
 *  - before, it ends the whole job with `code`, as a process dying mid-job does.
 * Threads that are not ranks (the process's main thread, helper threads) get libc's exit. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include "core/atomic.h"
#include "core/privatize.h"
#include "core/rank.h"
#include "core/runtime.h"

static _Noreturn void real_exit(int code)
{
    void (*next)(int) = (void (*)(int))dlsym(RTLD_NEXT, "exit");
    if (next)
        next(code);
    _Exit(code);
}

__attribute__((visibility("default"))) void exit(int code)
{
    struct loom_rank *r = loom__self;
    if (r == NULL || loom__job.ranks == NULL)
        real_exit(code);
    int state = loom__load_acquire(&r->state);
    /* Done with MPI: after MPI_Finalize, or (sessions only) with every session finalized. */
    if (state >= LOOM_RANK_FINALIZED ||
        (state == LOOM_RANK_INITIALIZED && loom__load_relaxed(&r->world_model) != 1 &&
         loom__load_relaxed(&r->sessions) == 0)) {
        /* as exit runs a process's destructors: the rank's C++ objects (any thread of the
         * rank sees the rank's copies) */
        loom__privatize_rank_end(r);
        loom__rank_finish(r, code);
        pthread_exit(NULL);
    }
    loom__log("exit(%d) before MPI_Finalize: ending the job", code);
    loom__job_abort(code);
}
