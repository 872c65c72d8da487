/* core/mpit_vars.c — the variables MPI_T shows (core/mpit.h): every row of the configuration
 * table as a control variable, the message counters as performance variables, the layers as
 * categories, the keyword rows as enumerations.
 *
 * Why control variables are the table itself rather than a list of their own: the table is
 * the one declaration of every setting (core/config_table.h), so MPI_T, loom-info and
 * docs/config.md cannot disagree, and a new row is a new control variable with nothing else
 * to edit. Only tables and readers live here: nothing is allocated. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/event.h" /* loom__wait_spin, loom__wait_yield: LOOM_SPIN / LOOM_YIELD in effect */
#include "core/mpit.h"
#include "core/rank.h"
#include "core/stats.h"
#include "core/trace.h" /* loom__trace_rank_times */
#include "net/net.h" /* loom__net_watch_pending */
#include "p2p/p2p.h" /* loom__p2p_queue_lengths */

/* ---- enumerations ------------------------------------------------------------------------ */

/* The enumeration handles: one object per row, used only for its address (a keyword row's
 * handle is &enums[row]). Constant. */
struct loom_mpit_enum {
    char unused;
};
static const struct loom_mpit_enum enums[LOOM_CFG_COUNT_];

static int is_enum_row(int row)
{
    const struct loom_config_row *r = loom__config_row((enum loom_config_id)row);
    return r && r->type == LOOM_CONFIG_ENUM;
}

MPI_T_enum loom__mpit_enum_of(int i)
{
    return is_enum_row(i) ? (MPI_T_enum)&enums[i] : MPI_T_ENUM_NULL;
}

int loom__mpit_enum_row(MPI_T_enum e)
{
    /* compare addresses as integers: e may point anywhere */
    uintptr_t a = (uintptr_t)e, lo = (uintptr_t)&enums[0];
    if (a < lo || a >= lo + sizeof enums || (a - lo) % sizeof enums[0] != 0)
        return -1;
    int row = (int)((a - lo) / sizeof enums[0]);
    return is_enum_row(row) ? row : -1;
}

int loom__mpit_enum_count(int row)
{
    const char *w = loom__config_row((enum loom_config_id)row)->accepts;
    int n = 1;
    for (; *w; w++)
        n += *w == '|';
    return n;
}

int loom__mpit_enum_item(int row, int k, char *buf, size_t len)
{
    const char *w = loom__config_row((enum loom_config_id)row)->accepts;
    for (int i = 0; i < k && w; i++) {
        w = strchr(w, '|');
        w = w ? w + 1 : NULL;
    }
    if (!w)
        return -1;
    int n = (int)strcspn(w, "|");
    if (len)
        snprintf(buf, len, "%.*s", n, w);
    return n;
}

/* ---- control variables ------------------------------------------------------------------- */

/* A cvar's description: the row's text and its default, made by the compiler from the row. */
static const char *const descs[LOOM_CFG_COUNT_] = {
#define LOOM_MPIT_DESC(name, type, when, layer, def, accepts, check, doc)                      \
    doc " (default \"" def "\")",
    LOOM_CONFIG_TABLE(LOOM_MPIT_DESC)
#undef LOOM_MPIT_DESC
};

/* Settings a user picks (placement, progress, observability) are USER_BASIC; those that tune
 * performance (spinning, sizes, algorithms) TUNER_BASIC. */
static int cvar_verbosity(int i)
{
    switch (i) {
    case LOOM_CFG_NP:
    case LOOM_CFG_BIND:
    case LOOM_CFG_TOPOLOGY:
    case LOOM_CFG_PROGRESS:
    case LOOM_CFG_STATS:
    case LOOM_CFG_TRACE:
    case LOOM_CFG_WARN_UNFINALIZED: return MPI_T_VERBOSITY_USER_BASIC;
    default: return MPI_T_VERBOSITY_TUNER_BASIC;
    }
}

void loom__mpit_cvar_info(int i, struct loom_mpit_cvar_info *out)
{
    const struct loom_config_row *r = loom__config_row((enum loom_config_id)i);
    out->name = r->name;
    out->desc = descs[i];
    out->verbosity = cvar_verbosity(i);
    out->datatype = r->type == LOOM_CONFIG_STRING ? MPI_CHAR
                    : r->type == LOOM_CONFIG_SIZE ? MPI_UNSIGNED_LONG_LONG
                                                  : MPI_INT;
    out->enumtype = loom__mpit_enum_of(i);
    /* A LIVE row is process-wide: one write changes it for every rank at once, so it is
     * equal everywhere by construction (docs/mpit.md). */
    out->scope = loom__config_is_live((enum loom_config_id)i) ? MPI_T_SCOPE_ALL_EQ
                                                              : MPI_T_SCOPE_CONSTANT;
}

int loom__mpit_cvar_count(int i)
{
    if (loom__config_row((enum loom_config_id)i)->type != LOOM_CONFIG_STRING)
        return 1;
    if (loom__config_is_live((enum loom_config_id)i))
        return LOOM_MPIT_LIVE_STRING_MAX;
    return (int)strlen(loom__config_str((enum loom_config_id)i)) + 1; /* constant */
}

/* The value in effect of an integer row: the table's, except LOOM_SPIN and LOOM_YIELD, which
 * start-up lowers when ranks outnumber cores and the variable is unset (core/run.c). */
static long long int_value(int i)
{
    if (loom__job.ranks != NULL && i == LOOM_CFG_SPIN)
        return loom__wait_spin;
    if (loom__job.ranks != NULL && i == LOOM_CFG_YIELD)
        return loom__wait_yield;
    return loom__config_int((enum loom_config_id)i);
}

void loom__mpit_cvar_read(int i, void *buf)
{
    const struct loom_config_row *r = loom__config_row((enum loom_config_id)i);
    switch (r->type) {
    case LOOM_CONFIG_STRING: {
        int n = loom__mpit_cvar_count(i);
        snprintf(buf, (size_t)n, "%s", loom__config_str((enum loom_config_id)i));
        break;
    }
    case LOOM_CONFIG_SIZE: *(unsigned long long *)buf = (unsigned long long)int_value(i); break;
    default: *(int *)buf = (int)int_value(i); break;
    }
}

int loom__mpit_cvar_write(int i, const void *buf, char *err, size_t errlen)
{
    enum loom_config_id id = (enum loom_config_id)i;
    const struct loom_config_row *r = loom__config_row(id);
    char text[LOOM_MPIT_LIVE_STRING_MAX + 32];
    if (!loom__config_is_live(id)) {
        snprintf(err, errlen, "%s is read only when the job starts", r->name);
        return -2;
    }
    switch (r->type) {
    case LOOM_CONFIG_STRING: {
        const char *s = buf;
        size_t n = strnlen(s, LOOM_MPIT_LIVE_STRING_MAX);
        if (n == LOOM_MPIT_LIVE_STRING_MAX) {
            snprintf(err, errlen, "%s: a value has at most %d characters", r->name,
                     LOOM_MPIT_LIVE_STRING_MAX - 1);
            return -1;
        }
        memcpy(text, s, n + 1);
        break;
    }
    case LOOM_CONFIG_ENUM: {
        int v = *(const int *)buf;
        if (v < 0 || loom__mpit_enum_item(i, v, text, sizeof text) < 0) {
            snprintf(err, errlen, "%s: %d is not an item of its enumeration (0-%d)", r->name,
                     v, loom__mpit_enum_count(i) - 1);
            return -1;
        }
        break;
    }
    case LOOM_CONFIG_SIZE:
        snprintf(text, sizeof text, "%llu", *(const unsigned long long *)buf);
        break;
    default: snprintf(text, sizeof text, "%d", *(const int *)buf); break;
    }
    return loom__config_write(id, text, err, errlen);
}

/* ---- performance variables --------------------------------------------------------------- */

#define COUNTER(text) text, MPI_T_VERBOSITY_USER_BASIC, MPI_T_PVAR_CLASS_COUNTER, \
                      MPI_UNSIGNED_LONG_LONG, 0, 0, "p2p"
#define TASKS(text) text, MPI_T_VERBOSITY_USER_BASIC, MPI_T_PVAR_CLASS_COUNTER, \
                    MPI_UNSIGNED_LONG_LONG, 0, 0, "task"
#define TIMER(text) text, MPI_T_VERBOSITY_USER_BASIC, MPI_T_PVAR_CLASS_TIMER, \
                    MPI_UNSIGNED_LONG_LONG, 0, 0, "core"
#define LEVEL(text) text, MPI_T_VERBOSITY_TUNER_BASIC, MPI_T_PVAR_CLASS_LEVEL, \
                    MPI_UNSIGNED_LONG_LONG, 1, 1, "p2p"
static const struct loom_mpit_pvar_info pvars[LOOM_MPIT_NUM_PVARS] = {
    [LOOM_MPIT_PVAR_MESSAGES_SENT] = {"loom_messages_sent",
                                      COUNTER("point-to-point messages the calling rank "
                                              "started sending (collectives built on them "
                                              "included)")},
    [LOOM_MPIT_PVAR_BYTES_SENT] = {"loom_bytes_sent",
                                   COUNTER("bytes of the messages the calling rank started "
                                           "sending")},
    [LOOM_MPIT_PVAR_MESSAGES_RECEIVED] = {"loom_messages_received",
                                          COUNTER("messages that landed in the calling rank's "
                                                  "receive buffers")},
    [LOOM_MPIT_PVAR_BYTES_RECEIVED] = {"loom_bytes_received",
                                       COUNTER("bytes that landed in the calling rank's "
                                               "receive buffers")},
    [LOOM_MPIT_PVAR_TASKS_OWN] = {"loom_tasks_own",
                                  TASKS("tasks the calling rank's threads (its own, those it "
                                        "created, its progress threads) ran for the rank "
                                        "itself")},
    [LOOM_MPIT_PVAR_TASKS_SAME_NUMA] = {"loom_tasks_same_numa",
                                        TASKS("tasks the calling rank's threads ran for "
                                              "another rank homed on the same NUMA node")},
    [LOOM_MPIT_PVAR_TASKS_OTHER_NUMA] = {"loom_tasks_other_numa",
                                         TASKS("tasks the calling rank's threads ran for a "
                                               "rank homed on another NUMA node")},
    [LOOM_MPIT_PVAR_TIME_IN_MPI] = {"loom_time_in_mpi",
                                    TIMER("nanoseconds the calling rank's threads spent inside "
                                          "MPI calls (the outermost call of each thread; "
                                          "calls that have returned)")},
    [LOOM_MPIT_PVAR_TIME_WAITING] = {"loom_time_waiting",
                                     TIMER("nanoseconds the calling rank's threads spent "
                                           "waiting for a request, a message or a peer "
                                           "(idle progress threads included; waits that have "
                                           "ended), tasks they ran meanwhile included")},
    [LOOM_MPIT_PVAR_POSTED_QUEUE] = {"loom_posted_recvq_length",
                                     LEVEL("receives the calling rank has posted that no "
                                           "message has matched yet, over all communicators")},
    [LOOM_MPIT_PVAR_UNEXPECTED_QUEUE] = {"loom_unexpected_recvq_length",
                                         LEVEL("messages sent to the calling rank that wait "
                                               "for their receive (eager copies and "
                                               "rendezvous senders; not those still in a ring "
                                               "of cells), over all communicators")},
    [LOOM_MPIT_PVAR_NET_WATCHED] = {"loom_net_watched",
                                    LEVEL("transfers with other node processes that the "
                                          "network thread of the calling rank's node process "
                                          "polls for while no rank waits: nonblocking "
                                          "receives with room for more than an eager "
                                          "message, nonblocking rendezvous sends and their "
                                          "reads, a backlog (0 in a job of one node "
                                          "process)")},
};
#undef COUNTER
#undef TASKS
#undef TIMER
#undef LEVEL

void loom__mpit_pvar_info(int i, struct loom_mpit_pvar_info *out)
{
    *out = pvars[i];
}

uint64_t loom__mpit_pvar_total(int i, int rank)
{
    if (i == LOOM_MPIT_PVAR_NET_WATCHED)
        return loom__net_watch_pending();
    if (i >= LOOM_MPIT_PVAR_POSTED_QUEUE) {
        unsigned long long posted = 0, unexpected = 0;
        if (loom__job.ranks != NULL) /* no job: no queues */
            loom__p2p_queue_lengths(rank, &posted, &unexpected);
        return i == LOOM_MPIT_PVAR_POSTED_QUEUE ? posted : unexpected;
    }
    if (i == LOOM_MPIT_PVAR_TIME_IN_MPI || i == LOOM_MPIT_PVAR_TIME_WAITING) {
        uint64_t mpi_ns, wait_ns;
        loom__trace_rank_times(rank, &mpi_ns, &wait_ns);
        return i == LOOM_MPIT_PVAR_TIME_IN_MPI ? mpi_ns : wait_ns;
    }
    uint64_t t[LOOM_STATS_NTOTALS];
    loom__stats_totals(rank, t); /* zeros when there are no counters */
    return t[i];
}

/* ---- categories -------------------------------------------------------------------------- */

/* 0 is the root; the others are the LAYER words of the table. */
static const struct {
    const char *name, *desc;
} cats[] = {
    {"loom", "everything loom shows through MPI_T, by layer"},
    {"core", "start-up, rank threads, observability (LOOM_STATS, LOOM_TRACE)"},
    {"topo", "the machine and where ranks are placed"},
    {"task", "the task engine: who runs work, spinning, progress threads"},
    {"p2p", "point-to-point messages: protocols, sizes, counters"},
    {"coll", "collective operations: algorithms, hierarchy, split-tree"},
};
#define NCATS ((int)(sizeof cats / sizeof cats[0]))

int loom__mpit_category_count(void)
{
    return NCATS;
}

const char *loom__mpit_category_name(int c)
{
    return cats[c].name;
}

const char *loom__mpit_category_desc(int c)
{
    return cats[c].desc;
}

int loom__mpit_category_cvars(int c, int len, int out[])
{
    int n = 0;
    for (int i = 0; i < LOOM_MPIT_NUM_CVARS; i++) {
        if (c == 0 || strcmp(loom__config_layer((enum loom_config_id)i), cats[c].name) != 0)
            continue;
        if (n < len)
            out[n] = i;
        n++;
    }
    return n;
}

int loom__mpit_category_pvars(int c, int len, int out[])
{
    int n = 0;
    for (int i = 0; i < LOOM_MPIT_NUM_PVARS; i++) {
        if (c == 0 || strcmp(pvars[i].category, cats[c].name) != 0)
            continue;
        if (n < len)
            out[n] = i;
        n++;
    }
    return n;
}

int loom__mpit_category_subcats(int c, int len, int out[])
{
    if (c != 0)
        return 0;
    for (int i = 1; i < NCATS && i - 1 < len; i++)
        out[i - 1] = i;
    return NCATS - 1;
}
