/* core/stats.h — LOOM_STATS: what each rank did, printed as one line per rank at job end
 * (the numbers of Figs. 6 and 7 of the collaborative polling paper, Didelot et al. 2014).
 *
 * Message counters are per rank and updated by whichever thread does the work (the sender's
 * thread for sends; for receives the thread that lands the data: the receiver, the sender,
 * another rank or a progress thread): relaxed atomic adds on the rank's own cache line. No
 * ordering is needed: they are read once, at job end, after every thread has been joined.
 * Task counts come from the task engine's worker statistics, times from core/trace.h.
 *
 * Count points sit in the point-to-point layer, one line each; when LOOM_STATS is off each
 * costs one predictable branch. */
#ifndef LOOM_CORE_STATS_H
#define LOOM_CORE_STATS_H
#include <stddef.h>

struct loom_rank;

/* 1 when LOOM_STATS is on. Set once at job start by loom__stats_job_init (main thread,
 * before ranks run), read-only afterwards. */
extern int loom__stats_enabled;

/* Allocate the counters of nranks ranks and turn counting on. 0 or -1 (ENOMEM). Main thread,
 * before ranks run. loom__stats_job_fini frees them (after the report). */
int loom__stats_job_init(int nranks);
void loom__stats_job_fini(void);

/* Count one message of `bytes` bytes sent by rank r (its send started) / received by rank r
 * (its data landed in r's buffer; bytes = what landed). r may be NULL (nothing counted).
 * Any thread. */
void loom__stats_count_sent(const struct loom_rank *r, size_t bytes);
void loom__stats_count_received(const struct loom_rank *r, size_t bytes);

#define LOOM_STATS_SENT(rank, bytes)                                                           \
    do {                                                                                       \
        if (__builtin_expect(loom__stats_enabled, 0))                                          \
            loom__stats_count_sent((rank), (bytes));                                           \
    } while (0)
#define LOOM_STATS_RECEIVED(rank, bytes)                                                       \
    do {                                                                                       \
        if (__builtin_expect(loom__stats_enabled, 0))                                          \
            loom__stats_count_received((rank), (bytes));                                       \
    } while (0)
#endif
