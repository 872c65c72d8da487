/* core/config.h — loom's settings: the LOOM_* environment variables declared in
 * core/config_table.h, read and validated once at start-up; afterwards only the LIVE rows
 * change, through loom__config_write (MPI_T_cvar_write, docs/mpit.md).
 *
 * Concurrency: loom__config_load is called by the main thread before any rank thread starts
 * (thread creation orders its writes before every rank's reads); afterwards START rows are
 * read-only, a LIVE row's value is replaced as a whole (a pointer published with release,
 * read with acquire, the replaced value kept until the next load), and every reader below
 * may be called from any thread. Calling loom__config_load
 * again (tests do) is only allowed while no other thread reads the configuration. When it is
 * never called, every setting reads as its default.
 */
#ifndef LOOM_CORE_CONFIG_H
#define LOOM_CORE_CONFIG_H

#include <stddef.h>
#include <stdio.h>

#include "core/config_table.h"

/* The value types of the table (their rules are written at the top of config_table.h). */
enum loom_config_type {
    LOOM_CONFIG_INT,
    LOOM_CONFIG_SIZE,
    LOOM_CONFIG_ENUM,
    LOOM_CONFIG_BOOL,
    LOOM_CONFIG_STRING,
};

/* One row of the table, as config_table.h declares it. */
struct loom_config_row {
    const char *name;    /* "LOOM_NP" */
    enum loom_config_type type;
    const char *def;     /* default, as text */
    const char *accepts; /* range, '|'-separated words, or a description */
    int (*check)(const char *value, char *err, size_t errlen); /* STRING only; may be NULL */
    const char *doc;     /* one line */
};

/* One id per row of the table: LOOM_CFG_NP, LOOM_CFG_BIND, ... */
enum loom_config_id {
#define LOOM_CONFIG_ID(name, type, when, layer, def, accepts, check, doc) LOOM_CFG_##name,
    LOOM_CONFIG_TABLE(LOOM_CONFIG_ID)
#undef LOOM_CONFIG_ID
    LOOM_CFG_COUNT_
};

/* Read every LOOM_* variable of the table from the environment and validate those that are
 * set. Returns 0, or -1 on the first bad value with a one-line message in err (err may be
 * NULL), e.g. "LOOM_BIND=foo: accepts compact|scatter|...: <the validator's reason>"; the
 * settings are then left as before the call. For every LOOM_* name in the environment that
 * the table lacks, calls warn(msg) once, msg being "unknown variable LOOM_SPN (did you mean
 * LOOM_SPIN?)" (a suggestion only when a known name is close); warn may be NULL. Also -1 with
 * "out of memory" on ENOMEM. Main thread, before ranks start. */
int loom__config_load(void (*warn)(const char *msg), char *err, size_t errlen);

/* The value in effect: the number for INT and SIZE (bytes), 0/1 for BOOL, the index of the
 * word in ACCEPTS for ENUM; 0 for STRING. Any thread. */
long long loom__config_int(enum loom_config_id id);
/* The text in effect (the default when unset); lives until the next loom__config_load.
 * Any thread. */
const char *loom__config_str(enum loom_config_id id);
/* 1 if the value was taken from the environment or written, 0 if it is the default. Any
 * thread. */
int loom__config_is_set(enum loom_config_id id);
/* Where the value in effect came from. Any thread. */
enum { LOOM_CONFIG_FROM_DEFAULT, LOOM_CONFIG_FROM_ENV, LOOM_CONFIG_FROM_WRITE };
int loom__config_origin(enum loom_config_id id);
/* 1 if the row is LIVE (read at each use, so writable while the job runs), 0 if START or
 * out of range. Any thread. */
int loom__config_is_live(enum loom_config_id id);
/* The row's LAYER ("core", "topo", "task", "p2p", "coll"); NULL out of range. Any thread. */
const char *loom__config_layer(enum loom_config_id id);
/* Make text the value in effect of LIVE row id, checked as loom__config_load checks the
 * environment; readers see the new value at their next read (each reads either the old or
 * the new value whole). 0; -1 and the same message as loom__config_load for a bad value or
 * out of memory; -2 (and a message) if the row is not LIVE. Any thread; writers are
 * serialized. */
int loom__config_write(enum loom_config_id id, const char *text, char *err, size_t errlen);
/* The variable's name ("LOOM_NP"); NULL for an id out of range. Any thread. */
const char *loom__config_name(enum loom_config_id id);
/* The row of id, NULL for an id out of range. The table is constant. Any thread. */
const struct loom_config_row *loom__config_row(enum loom_config_id id);
/* Write what row r accepts, in words ("an integer in 1-1048576"), into buf as snprintf
 * does; returns the length of the full text. Any thread. */
int loom__config_describe(const struct loom_config_row *r, char *buf, size_t len);
/* The name of a type for people: "integer", "byte size", "keyword", "boolean", "string". */
const char *loom__config_type_name(enum loom_config_type type);

/* Check value as the row id would at start-up, without changing anything: 0, or -1 and the
 * same one-line message as loom__config_load. For tools (loom-info checks its options with
 * it) and tests. Any thread. */
int loom__config_check(enum loom_config_id id, const char *value, char *err, size_t errlen);
/* The same for any row r, the table's or not (tests build rows of their own): 0 and the value
 * in *out (out may be NULL), or -1 and the message. Any thread. */
int loom__config_parse(const struct loom_config_row *r, const char *value, long long *out,
                       char *err, size_t errlen);

/* Write the table to f: each variable's name, value in effect, where it came from
 * (default|environment), what it accepts and its doc line. For loom-info --config. */
void loom__config_print(FILE *f);
/* Write the text of docs/config.md to f. For loom-info --config-markdown. */
void loom__config_write_markdown(FILE *f);

#endif /* LOOM_CORE_CONFIG_H */
