/* core/delta.c — the executable's definition of loom_privatize_delta (in libloom-main.a, apart
 * from main so that a program with a main of its own can take it alone).
 *
 * The code of loomcc's plugin reads this variable at every function that touches a per-rank
 * global (core/privatize.h). Defined in the executable, it sits at an offset from the thread
 * pointer known at link time: the plugin reads it with one load in code built for an
 * executable (local-exec), where an initial-exec read of a variable of libloom takes two (its
 * offset from the GOT, then the variable). libloom, whose own definition is weak, and shared
 * libraries built by loomcc find this one by the dynamic symbol table. */
#include <stddef.h>

__attribute__((visibility("default"))) _Thread_local __attribute__((tls_model("local-exec")))
size_t loom_privatize_delta;
