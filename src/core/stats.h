/* core/stats.h — LOOM_STATS: what each rank did, printed as one line per rank at job end
 * (the numbers of Figs. 6 and 7 of the collaborative polling paper, Didelot et al. 2014).
 *
 * Message counters are per rank and updated by whichever thread does the work (the sender's
 * thread for sends; for receives the thread that lands the data: the receiver, the sender,
 * another rank or a progress thread): relaxed atomic adds on the rank's own cache line. No
 * ordering is needed: they are read at job end, after every thread has been joined, or by
 * MPI_T performance variables (api/mpit_pvar.c) as running totals where any value between
 * two reads will do. The report's task counts come from the task engine's worker statistics,
 * times from core/trace.h.
 *
 * Count points sit in the point-to-point layer and at the task engine's keypoint, one line
 * each. Counting is on while loom__stats_counting is not 0: LOOM_STATS holds one reason for
 * the whole job, and each started MPI_T counter handle one more; when nothing counts, each
 * count point costs one relaxed load (a plain load) and one predictable branch. */
#ifndef LOOM_CORE_STATS_H
#define LOOM_CORE_STATS_H
#include <stddef.h>
#include <stdint.h>

#include "core/atomic.h"

struct loom_rank;

/* 1 when LOOM_STATS is on: print the report at job end. Set once at job start by
 * loom__stats_job_init (main thread, before ranks run), read-only afterwards. */
extern int loom__stats_enabled;
/* The number of reasons to count (see above); 0: count points do nothing. Changed with
 * loom__stats_count_on / _off, read relaxed by the count points: a thread that turned
 * counting on sees its own messages counted, and so does any thread that the message's
 * matching orders after it (the matching lock's release/acquire carries the store). */
extern _Atomic int loom__stats_counting;

/* Allocate the counters of nranks ranks (always: MPI_T may read them) and, when report is 1
 * (LOOM_STATS), turn counting and the report on. 0 or -1 (ENOMEM). Main thread, before ranks
 * run. loom__stats_job_fini frees them (after the report, every thread joined). */
int loom__stats_job_init(int nranks, int report);
void loom__stats_job_fini(void);

/* Add / remove one reason to count. Any thread. */
void loom__stats_count_on(void);
void loom__stats_count_off(void);

/* Count one task run by a worker of world rank `rank` (its own thread, a thread it created
 * or one of its progress threads): for itself, for a rank homed on the same NUMA node, for a
 * rank on another. Any thread. The report's task counts come from the workers' own
 * statistics; these are for MPI_T, which may read them while the workers run. */
enum { LOOM_STATS_TASK_OWN, LOOM_STATS_TASK_SAME_NUMA, LOOM_STATS_TASK_OTHER_NUMA };
void loom__stats_count_task(int rank, int kind);

/* Count one message of `bytes` bytes sent by rank r (its send started) / received by rank r
 * (its data landed in r's buffer; bytes = what landed). r may be NULL (nothing counted).
 * Any thread. */
void loom__stats_count_sent(const struct loom_rank *r, size_t bytes);
void loom__stats_count_received(const struct loom_rank *r, size_t bytes);

/* The running totals of world rank `rank`, in out[LOOM_STATS_NTOTALS]: messages and bytes
 * sent, messages and bytes received, tasks run for itself, for the same NUMA node, for
 * another. 0, or -1 when no job's counters exist or rank is out of range (out is then
 * zeroed). Any thread while the job's counters exist (until loom__stats_job_fini). */
#define LOOM_STATS_NTOTALS 7
int loom__stats_totals(int rank, uint64_t out[LOOM_STATS_NTOTALS]);

#define LOOM_STATS_SENT(rank, bytes)                                                           \
    do {                                                                                       \
        /* relaxed: a hint; see loom__stats_counting */                                        \
        if (__builtin_expect(loom__load_relaxed(&loom__stats_counting) != 0, 0))               \
            loom__stats_count_sent((rank), (bytes));                                           \
    } while (0)
#define LOOM_STATS_TASK(rank, kind)                                                            \
    do {                                                                                       \
        /* relaxed: a hint; see loom__stats_counting */                                        \
        if (__builtin_expect(loom__load_relaxed(&loom__stats_counting) != 0, 0))               \
            loom__stats_count_task((rank), (kind));                                            \
    } while (0)
#define LOOM_STATS_RECEIVED(rank, bytes)                                                       \
    do {                                                                                       \
        /* relaxed: a hint; see loom__stats_counting */                                        \
        if (__builtin_expect(loom__load_relaxed(&loom__stats_counting) != 0, 0))               \
            loom__stats_count_received((rank), (bytes));                                       \
    } while (0)
#endif
