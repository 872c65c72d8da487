/* core/mpit.h — what the MPI tools information interface (MPI_T, api/mpit*.c) shows of loom:
 * control variables (the rows of the configuration table, core/config_table.h), performance
 * variables (the message counters of core/stats.h), the categories they fall in (loom's
 * layers) and the enumerations of the table's keyword rows. docs/mpit.md describes them.
 *
 * Everything here is constant tables and readers of the configuration and the counters; the
 * objects a tool allocates (sessions, handles) and the reference-counted MPI_T state live in
 * the API layer (api/mpit.h). Any thread may call every function below at any time. */
#ifndef LOOM_CORE_MPIT_H
#define LOOM_CORE_MPIT_H
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"
#include "core/config.h"

/* ---- control variables: index = the row's enum loom_config_id ---- */
#define LOOM_MPIT_NUM_CVARS ((int)LOOM_CFG_COUNT_)
/* A string cvar that may change at run time is read into this many bytes (its handle's
 * count); a written value must be shorter. */
#define LOOM_MPIT_LIVE_STRING_MAX 64

struct loom_mpit_cvar_info {
    const char *name, *desc;
    int verbosity;
    MPI_Datatype datatype; /* MPI_INT, MPI_UNSIGNED_LONG_LONG or MPI_CHAR */
    MPI_T_enum enumtype;   /* the row's enumeration (keyword rows), else MPI_T_ENUM_NULL */
    int scope;             /* MPI_T_SCOPE_CONSTANT (START rows) or MPI_T_SCOPE_ALL_EQ (LIVE) */
};
/* Describe cvar i (0 <= i < LOOM_MPIT_NUM_CVARS). */
void loom__mpit_cvar_info(int i, struct loom_mpit_cvar_info *out);
/* The count of a handle to cvar i: 1, or the bytes a read writes for a string. */
int loom__mpit_cvar_count(int i);
/* Write the value in effect of cvar i into buf (its datatype, count elements). */
void loom__mpit_cvar_read(int i, void *buf);
/* Make the value in buf (its datatype) the value in effect of cvar i: 0; -1 when the value
 * is not one the row accepts (why in err); -2 when the row is fixed at start. */
int loom__mpit_cvar_write(int i, const void *buf, char *err, size_t errlen);

/* ---- enumerations: one per keyword (ENUM) row ---- */
/* The enumeration of row i, MPI_T_ENUM_NULL for other rows. */
MPI_T_enum loom__mpit_enum_of(int i);
/* The row of an enumeration handle, -1 if e is not one of loom's enumerations. */
int loom__mpit_enum_row(MPI_T_enum e);
/* The number of items of row i's words; the name of item k (NULL past the end) written into
 * buf (len bytes) as "word"; returns its length. */
int loom__mpit_enum_count(int row);
int loom__mpit_enum_item(int row, int k, char *buf, size_t len);

/* ---- performance variables of the calling rank ---- */
enum loom_mpit_pvar {
    /* counters: running totals of core/stats.h, counted only while some handle is started
     * (or LOOM_STATS is on); the first four are "p2p", the task ones "task" */
    LOOM_MPIT_PVAR_MESSAGES_SENT,
    LOOM_MPIT_PVAR_BYTES_SENT,
    LOOM_MPIT_PVAR_MESSAGES_RECEIVED,
    LOOM_MPIT_PVAR_BYTES_RECEIVED,
    LOOM_MPIT_PVAR_TASKS_OWN,
    LOOM_MPIT_PVAR_TASKS_SAME_NUMA,
    LOOM_MPIT_PVAR_TASKS_OTHER_NUMA,
    /* timers: ns the rank's threads spent inside MPI calls / waiting (core/trace.h), added up
     * only while some timer handle is started (or LOOM_STATS is on); category "core" */
    LOOM_MPIT_PVAR_TIME_IN_MPI,
    LOOM_MPIT_PVAR_TIME_WAITING,
    /* levels: the current lengths of the rank's matching queues (p2p/queues.c), and what its
     * node process's network thread polls for (net/net_watch.c) */
    LOOM_MPIT_PVAR_POSTED_QUEUE,
    LOOM_MPIT_PVAR_UNEXPECTED_QUEUE,
    LOOM_MPIT_PVAR_NET_WATCHED,
    LOOM_MPIT_NUM_PVARS
};
struct loom_mpit_pvar_info {
    const char *name, *desc;
    int verbosity, var_class;
    MPI_Datatype datatype; /* MPI_UNSIGNED_LONG_LONG */
    int readonly;          /* 1: no write, no reset (levels) */
    int continuous;        /* 1: always active, no start or stop (levels) */
    const char *category;
};
void loom__mpit_pvar_info(int i, struct loom_mpit_pvar_info *out);
/* Counters: the running total of pvar i for world rank `rank` since the job started (the
 * counter moves only while counting is on, core/stats.h); 0 when no job's counters exist.
 * Levels: the current value. */
uint64_t loom__mpit_pvar_total(int i, int rank);

/* ---- categories: index 0 is "loom", whose subcategories are the layers ---- */
int loom__mpit_category_count(void);
const char *loom__mpit_category_name(int c);
const char *loom__mpit_category_desc(int c);
/* Write up to len indices of the cvars / pvars / subcategories of category c into out (out
 * may be NULL when len is 0); return how many it has in all. */
int loom__mpit_category_cvars(int c, int len, int out[]);
int loom__mpit_category_pvars(int c, int len, int out[]);
int loom__mpit_category_subcats(int c, int len, int out[]);
#endif
