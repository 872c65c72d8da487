/* core/privatize.h — run-time half of privatized globals (docs/privatize.md).
 *
 * loomcc's GCC plugin (tools/gcc-plugin/) makes every global and static variable of the
 * program thread-local, so each rank thread has its own. The parts of their initializers that
 * take the address of another privatized variable (`int *p = &x;`) cannot live in the TLS
 * image: the plugin gives each translation unit an init function that stores them, and a
 * constructor that registers it here. loom runs every registered function on each rank thread
 * before the rank's main. */
#ifndef LOOM_CORE_PRIVATIZE_H
#define LOOM_CORE_PRIVATIZE_H
#include <stddef.h>

/* Called by the code the plugin generates (a constructor per translation unit, normally on
 * the main thread before main; later for a library loaded at run time). Records `init` and
 * runs it at once on the calling thread, so that the caller's own copies are consistent too.
 * Exported; the name is part of the plugin's ABI. Any thread. */
__attribute__((visibility("default"))) void loom_privatize_register(void (*init)(void));

/* Run every registered init function on the calling thread: a rank thread, before the rank's
 * main. */
void loom__privatize_rank_start(void);

/* How many init functions are registered (for tests and loom-info). */
int loom__privatize_count(void);

/* glibc carves a thread's static TLS block out of its stack, and when the TLS is larger than
 * the default stack it only adds a few pages: a program with a 64 MB privatized array would
 * give its ranks ~16 KB of stack. Return 1 and the stack size rank threads need (the usual
 * stack, RLIMIT_STACK or 8 MB, plus the TLS of every loaded module), or 0 when the TLS is small
 * enough for the default. loom_run's thread, before starting the ranks. */
int loom__privatize_stack_size(size_t *size);
#endif
