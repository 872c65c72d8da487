/* core/privatize.c — the run-time half of privatized globals (core/privatize.h,
 * docs/privatize.md): each thread's distance to its rank's variables, the registry of per-unit
 * init functions, the large variables whose copies in the threads a rank creates are given
 * back, and the stack size threads need beside a large TLS.
 *
 * Each translation unit compiled by loomcc's plugin with an initializer that takes the address
 * of a privatized variable registers one function. The list only grows; its nodes live until
 * the process ends (reachable from `units`, so not a leak). Registration normally happens in
 * constructors before main, single-threaded, but a library loaded with dlopen may register
 * from any thread while ranks run, hence the lock. */
#include <link.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>
#include "core/atomic.h"
#include "core/privatize.h"
#include "core/rank.h"

struct unit {
    void (*init)(void);
    struct unit *next;
};

/* The registered units, newest first. Written and read under `lock`. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct unit *units;
static int nunits;

void loom_privatize_register(void (*init)(void))
{
    struct unit *u = malloc(sizeof *u);
    if (u == NULL) {
        loom__log("out of memory registering a privatized unit");
        loom__job_abort(1);
    }
    u->init = init;
    pthread_mutex_lock(&lock);
    u->next = units;
    units = u;
    nunits++;
    pthread_mutex_unlock(&lock);
    init();
}

/* Weak: the executable's definition (libloom-main, core/delta.c) takes precedence. This one
 * serves programs that keep their own main. */
__attribute__((weak)) LOOM_TLS_FAST size_t loom_privatize_delta;

/* The large per-rank variables (loom_privatize_large): where each one lies in any thread, as
 * an offset from that thread's loom_privatize_delta (the same in every thread: static TLS).
 * A list that only grows, pushed with a release CAS and read with acquire loads without lock
 * (by new threads); its nodes live until the process ends. */
struct large {
    intptr_t offset;
    size_t size;
    int zero; /* its image is all zeros */
    struct large *next;
};
static struct large *_Atomic larges;
static _Atomic uintptr_t page_size; /* set by every registration (the same value) */

void loom_privatize_large(void *addr, size_t size, int zero)
{
    struct large *l = malloc(sizeof *l); /* lives until the process ends */
    if (l == NULL)
        return; /* the pages just stay */
    loom__store_relaxed(&page_size, (uintptr_t)sysconf(_SC_PAGESIZE));
    /* addr is the caller's view: its rank's copy if it works for a rank */
    uintptr_t own = (uintptr_t)addr - loom_privatize_delta;
    l->offset = (intptr_t)(own - (uintptr_t)&loom_privatize_delta);
    l->size = size;
    l->zero = zero;
    l->next = loom__load_acquire(&larges);
    while (!atomic_compare_exchange_weak_explicit(&larges, &l->next, l, memory_order_release,
                                                  memory_order_acquire))
        ;
}

enum drop_what { DROP_ALL, DROP_ZERO, DROP_STILL_ZERO };

/* 1 if the n bytes at p (whole pages, so aligned) are all zero. */
static int all_zero(const void *p, size_t n)
{
    const uint64_t *w = p;
    for (size_t i = 0; i < n / sizeof *w; i++)
        if (w[i])
            return 0;
    return 1;
}

/* Give back the whole pages of the calling thread's own copies of the large variables: all of
 * them, those whose image is zero, or those whose image is zero and that are still zero. */
__attribute__((no_sanitize("address", "thread", "undefined"))) static void
drop(enum drop_what what)
{
    uintptr_t base = (uintptr_t)&loom_privatize_delta, page = loom__load_relaxed(&page_size);
    for (struct large *l = loom__load_acquire(&larges); l; l = l->next) {
        if (what != DROP_ALL && !l->zero)
            continue;
        uintptr_t start = base + (uintptr_t)l->offset, end = start + l->size;
        uintptr_t lo = (start + page - 1) & ~(page - 1), hi = end & ~(page - 1);
        if (hi <= lo)
            continue;
        if (what == DROP_STILL_ZERO && !all_zero((void *)lo, hi - lo))
            continue;
        /* only whole pages of the variable: nothing else lives there */
        syscall(SYS_madvise, (void *)lo, hi - lo, MADV_DONTNEED);
    }
}

__attribute__((no_sanitize("address", "thread", "undefined"))) void
loom__privatize_thread_start(const struct loom_rank *r)
{
    if (r->view == NULL)
        return; /* a rank that has not started its main (unit tests build such ranks) */
    loom_privatize_delta = (size_t)((uintptr_t)r->view - (uintptr_t)&loom_privatize_delta);
    drop(DROP_ALL);
}

void loom__privatize_main_start(void)
{
    /* The main thread's copies are read only by code outside the ranks (constructors,
     * destructors): a zero one that nothing wrote can be zero pages again. */
    drop(DROP_STILL_ZERO);
}

size_t loom__privatize_delta_to(const struct loom_rank *r)
{
    return (size_t)((uintptr_t)r->view - (uintptr_t)&loom_privatize_delta);
}

size_t loom__privatize_enter(const struct loom_rank *r)
{
    size_t saved = loom_privatize_delta;
    loom_privatize_delta = loom__privatize_delta_to(r);
    return saved;
}

void loom__privatize_rank_start(struct loom_rank *r)
{
    /* Any thread-local of a module loaded at start marks the thread's static TLS block: its
     * distance to the same variable in another thread is the distance between the blocks. */
    r->view = (char *)&loom_privatize_delta;
    drop(DROP_ZERO); /* zero pages come back as the rank touches them, on its NUMA node */
    /* The functions only store addresses into the rank's variables (its own thread's): running
     * them under the lock is safe and keeps a concurrent registration out of the walk. */
    pthread_mutex_lock(&lock);
    for (struct unit *u = units; u; u = u->next)
        u->init();
    pthread_mutex_unlock(&lock);
}

int loom__privatize_count(void)
{
    pthread_mutex_lock(&lock);
    int n = nunits;
    pthread_mutex_unlock(&lock);
    return n;
}

static int add_tls(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    size_t *total = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_TLS) {
            size_t align = ph->p_align ? ph->p_align : 1;
            *total += (ph->p_memsz + align - 1) / align * align;
        }
    }
    return 0;
}

int loom__privatize_stack_size(size_t *size)
{
    size_t tls = 0;
    dl_iterate_phdr(add_tls, &tls);
    if (tls < 64 * 1024)
        return 0;
    size_t stack = 8u << 20;
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur >= 64 * 1024)
        stack = (size_t)rl.rlim_cur;
    /* + 64 KB for the thread control block, alignment and libc's static TLS surplus */
    size_t want = stack + tls + 64 * 1024, page = (size_t)sysconf(_SC_PAGESIZE);
    want = (want + page - 1) / page * page;
    pthread_attr_t def;
    size_t current = 0;
    if (pthread_getattr_default_np(&def) == 0) {
        pthread_attr_getstacksize(&def, &current);
        pthread_attr_destroy(&def);
    }
    if (current >= want)
        return 0;
    *size = want;
    return 1;
}
