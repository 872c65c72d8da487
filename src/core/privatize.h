/* core/privatize.h — run-time half of privatized globals (docs/privatize.md).
 *
 * loomcc's GCC plugin (tools/gcc-plugin/) makes every global and static variable of the
 * program thread-local, and the copy in a rank's own thread is the rank's: every thread of the
 * rank reaches it through loom_privatize_delta (below). The parts of their initializers that
 * take the address of another privatized variable (`int *p = &x;`) cannot live in the TLS
 * image: the plugin gives each translation unit an init function that stores them, and a
 * constructor that registers it here. loom runs every registered function once per rank, on
 * the rank thread, before the rank's main. */
#ifndef LOOM_CORE_PRIVATIZE_H
#define LOOM_CORE_PRIVATIZE_H
#include <stddef.h>
#include <stdint.h>
#include "core/tls.h"

struct loom_rank;

/* The calling thread's distance to its rank's privatized variables: code compiled by the
 * plugin reaches the rank's copy of `x` at (char *)&x + loom_privatize_delta, &x being the
 * calling thread's own thread-local copy (tools/gcc-plugin/access.cc). The rank's copies are
 * its rank thread's, so this is the distance from the calling thread's static TLS block to its
 * rank thread's: 0 in rank threads and in threads of no rank; set when a rank's thread starts
 * another (core/thread_inherit.c); changed only around a rank's callback run by a thread of
 * another rank (loom__privatize_enter). Own thread only. Exported: part of the plugin's ABI
 * (the plugin declares it const: it does not change while a user function runs). */
extern __attribute__((visibility("default"))) LOOM_TLS_FAST size_t loom_privatize_delta;

/* The distance from the calling thread's thread-local block to rank r's rank thread's. r's
 * thread has set r->view (loom__privatize_rank_start). */
size_t loom__privatize_delta_to(const struct loom_rank *r);

/* The calling thread sees rank r's privatized variables until loom__privatize_leave(saved)
 * with what this returned: for user callbacks (a user-defined reduction) that a thread of
 * another rank runs on r's behalf. */
size_t loom__privatize_enter(const struct loom_rank *r);
static inline void loom__privatize_leave(size_t saved)
{
    loom_privatize_delta = saved;
}

/* Called by the code the plugin generates (a constructor per translation unit, normally on
 * the main thread before main; later for a library loaded at run time). Records `init` and
 * runs it at once on the calling thread, so that the caller's own copies are consistent too.
 * Exported; the name is part of the plugin's ABI. Any thread. */
__attribute__((visibility("default"))) void loom_privatize_register(void (*init)(void));

/* Called by the code the plugin generates (the constructor of a unit that defines a per-rank
 * variable of at least 64 KiB): `addr` is the calling thread's view of the variable, `size`
 * its size, `zero` 1 if its initial image is all zeros. In a thread that a rank creates, that
 * variable's own thread-local copy is never used (every access goes to the rank's), so loom
 * gives its whole pages back to the system when the thread starts
 * (loom__privatize_thread_start). In a rank thread, glibc has zeroed (so touched) a zero
 * variable's pages; loom gives them back too, so that they come back, zero, as the rank
 * touches them, from the rank's own NUMA node, as a process's untouched data would
 * (loom__privatize_rank_start). Exported; part of the plugin's ABI. Any thread. */
__attribute__((visibility("default"))) void loom_privatize_large(void *addr, size_t size,
                                                                  int zero);

/* Called by the code the plugin generates in a C++ unit whose static initialization
 * (`_GLOBAL__sub_I_*`, the constructors of its global objects) touches per-rank variables:
 * records `fn`, which loom runs once per rank, on the rank thread, before the rank's main
 * (loom__privatize_run_ctors), by `priority` (its init_priority, 65535 by default; lower
 * first), then in registration order; not on the calling thread at process start. On a thread
 * of a running rank (a library loaded with dlopen) it also runs it at once, for that rank.
 * Exported; part of the plugin's ABI. Any thread. */
__attribute__((visibility("default"))) void loom_privatize_register_ctor(void (*fn)(void),
                                                                          int priority);

/* The plugin redirects here C++'s `__cxa_atexit(dtor, obj, dso)` when obj is a per-rank
 * object (or dtor destroys per-rank ones): on a thread of a rank, records the destructor in the
 * rank's list, run when the rank's main returns (loom__privatize_rank_end); elsewhere it is
 * __cxa_atexit. Returns 0, or nonzero when it cannot record it. Exported; part of the plugin's
 * ABI. Any thread. */
__attribute__((visibility("default"))) int loom_privatize_atexit(void (*fn)(void *), void *obj,
                                                                  void *dso);

/* On rank r's own thread, after loom__privatize_rank_start: construct the rank's C++ objects
 * (every registered static initialization function, oldest first). */
void loom__privatize_run_ctors(void);

/* On rank r's own thread, when its main has returned: run the destructors recorded for it,
 * newest first, until none is left. */
void loom__privatize_rank_end(struct loom_rank *r);

/* In a thread that a thread of rank r has just created, before it runs any of the program's
 * code: make it see r's variables (loom_privatize_delta), and give back the pages of its own
 * copies of the large ones (glibc filled them when it made the thread; nothing reads them).
 * Uninstrumented, raw system calls only: it runs in pthread_create's trampoline, before any
 * sanitizer has set the thread up. */
void loom__privatize_thread_start(const struct loom_rank *r);

/* On loom_run's thread, before the ranks start: give back the pages of its copies of large
 * variables whose image is zero and that are still zero (nobody else reads them). */
void loom__privatize_main_start(void);

/* On rank r's own thread, before the rank's main: record where its variables are (r->view)
 * and run every registered init function on them. */
void loom__privatize_rank_start(struct loom_rank *r);

/* How many init functions are registered (for tests and loom-info). */
int loom__privatize_count(void);

/* glibc carves a thread's static TLS block out of its stack, and when the TLS is larger than
 * the default stack it only adds a few pages: a program with a 64 MB privatized array would
 * give its threads ~16 KB of stack. Return 1 and the stack size a thread needs (the usual
 * stack, RLIMIT_STACK or 8 MB, plus the TLS of every loaded module), or 0 when the TLS is small
 * enough for the default. loom_run makes it the process's default thread stack size before it
 * starts the ranks, so ranks, progress threads and the program's own threads get it. */
int loom__privatize_stack_size(size_t *size);
#endif
