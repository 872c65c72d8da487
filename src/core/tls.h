/* core/tls.h — how loom declares the thread-local variables read on every call.
 * In a shared library a plain _Thread_local costs a call to __tls_get_addr on each access;
 * the initial-exec model makes it one load relative to the thread pointer. libloom is linked
 * into the program (not loaded later with dlopen), so its few such variables fit in the static
 * TLS block; the rest keep the default model. */
#ifndef LOOM_CORE_TLS_H
#define LOOM_CORE_TLS_H
#define LOOM_TLS_FAST _Thread_local __attribute__((tls_model("initial-exec")))
#endif
