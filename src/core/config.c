/* core/config.c — the values of loom's settings: the rows of config_table.h turned into a
 * constant array, the parser and validator of each type, loading from the environment (with
 * a warning for LOOM_* names the table lacks) and the readers.
 *
 * Why values are parsed from the table's own text (ranges and defaults included) rather than
 * from numbers written twice: so a row is the only place a setting is declared, and a unit
 * test can check every default against its own row. Printing lives in config_print.c. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/atomic.h"
#include "core/config.h"

extern char **environ;

static const struct loom_config_row rows[LOOM_CFG_COUNT_] = {
#define LOOM_CONFIG_ROW(name, type, when, layer, def, accepts, check, doc)                     \
    {"LOOM_" #name, LOOM_CONFIG_##type, def, accepts, check, doc},
    LOOM_CONFIG_TABLE(LOOM_CONFIG_ROW)
#undef LOOM_CONFIG_ROW
};

/* The WHEN and LAYER columns, apart from the rows so that a row stays what tests build. */
#define LOOM_CONFIG_WHEN_START 0
#define LOOM_CONFIG_WHEN_LIVE 1
static const unsigned char live[LOOM_CFG_COUNT_] = {
#define LOOM_CONFIG_LIVE(name, type, when, layer, def, accepts, check, doc)                    \
    LOOM_CONFIG_WHEN_##when,
    LOOM_CONFIG_TABLE(LOOM_CONFIG_LIVE)
#undef LOOM_CONFIG_LIVE
};
static const char *const layers[LOOM_CFG_COUNT_] = {
#define LOOM_CONFIG_LAYER(name, type, when, layer, def, accepts, check, doc) #layer,
    LOOM_CONFIG_TABLE(LOOM_CONFIG_LAYER)
#undef LOOM_CONFIG_LAYER
};

/* A value in effect: immutable once published, so a reader needs no lock, only the acquire
 * load of its row's pointer (which pairs with the release store that published it). */
struct value {
    long long num;       /* the parsed value */
    char *text;          /* the text it was parsed from (malloc'd); NULL = the row's default */
    int origin;          /* LOOM_CONFIG_FROM_* */
    struct value *older; /* on the retired list: the next one */
};

/* The value in effect of each row; NULL until the first successful load, and then every
 * reader parses the row's default. Written by loom__config_load (main thread, no reader
 * running: see config.h) and, for LIVE rows only, by loom__config_write under write_lock. */
static struct value *_Atomic cur[LOOM_CFG_COUNT_];
/* Values replaced by loom__config_write. A reader may still hold one, so they live until
 * the next loom__config_load (which runs with no reader); under write_lock. */
static struct value *retired;
static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- parsing ------------------------------------------------------------------------------ */

/* A decimal integer, optional sign, nothing else (no spaces). 0, or -1 with a reason. */
static int parse_int(const char *s, long long *out, const char **why)
{
    const char *d = (*s == '-' || *s == '+') ? s + 1 : s;
    if (!isdigit((unsigned char)*d)) {
        *why = "not a decimal integer";
        return -1;
    }
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end) {
        *why = "not a decimal integer";
        return -1;
    }
    if (errno == ERANGE) {
        *why = "too large";
        return -1;
    }
    *out = v;
    return 0;
}

/* Bytes: digits with an optional K, M or G suffix (any case; 1024 multiples). */
static int parse_size(const char *s, long long *out, const char **why)
{
    if (!isdigit((unsigned char)*s)) {
        *why = "not a byte count (digits with an optional K, M or G suffix)";
        return -1;
    }
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    long long mult = 1;
    if (*end) {
        static const char units[] = "KMG";
        const char *u = strchr(units, toupper((unsigned char)*end));
        mult = u ? 1LL << (10 * (u - units + 1)) : 0; /* 0: not a suffix */
        end++;
    }
    if (!mult || *end) {
        *why = "not a byte count (digits with an optional K, M or G suffix)";
        return -1;
    }
    if (errno == ERANGE || v > LLONG_MAX / mult) {
        *why = "too large";
        return -1;
    }
    *out = v * mult;
    return 0;
}

static int parse_number(enum loom_config_type type, const char *s, long long *out,
                        const char **why)
{
    return type == LOOM_CONFIG_SIZE ? parse_size(s, out, why) : parse_int(s, out, why);
}

/* The range "lo-hi" of an INT or SIZE row ("-5-5" works: the separator is the first '-'
 * after the first character). 0, or -1 if the row is malformed. */
static int parse_range(const struct loom_config_row *r, long long *lo, long long *hi)
{
    const char *a = r->accepts, *dash = a[0] ? strchr(a + 1, '-') : NULL, *why;
    char low[32];
    if (!dash || (size_t)(dash - a) >= sizeof(low))
        return -1;
    memcpy(low, a, (size_t)(dash - a));
    low[dash - a] = '\0';
    return parse_number(r->type, low, lo, &why) < 0 || parse_number(r->type, dash + 1, hi, &why) < 0
               ? -1
               : 0;
}

/* The index of word in the '|'-separated list, -1 if absent. */
static int enum_index(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (int i = 0; *list; i++) {
        size_t len = strcspn(list, "|");
        if (len == n && strncmp(list, word, n) == 0)
            return i;
        list += len;
        if (*list == '|')
            list++;
    }
    return -1;
}

static int parse_bool(const char *s, long long *out)
{
    static const char *const yes[] = {"1", "yes", "true", "on"};
    static const char *const no[] = {"0", "no", "false", "off"};
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        if (strcasecmp(s, yes[i]) == 0) {
            *out = 1;
            return 0;
        }
        if (strcasecmp(s, no[i]) == 0) {
            *out = 0;
            return 0;
        }
    }
    return -1;
}

/* Check value against row r: 0 and the value in *out, or -1 and the reason (if any beyond
 * what the row accepts) in why[]. */
static int check_row(const struct loom_config_row *r, const char *value, long long *out,
                     char *why, size_t whylen)
{
    const char *reason = NULL;
    long long v = 0, lo, hi;
    why[0] = '\0';
    switch (r->type) {
    case LOOM_CONFIG_INT:
    case LOOM_CONFIG_SIZE:
        if (parse_range(r, &lo, &hi) < 0) {
            snprintf(why, whylen, "the table's range \"%s\" is malformed", r->accepts);
            return -1;
        }
        if (!*value)
            reason = "the value is empty";
        else if (parse_number(r->type, value, &v, &reason) == 0 && (v < lo || v > hi))
            reason = v < lo ? "below the range" : "above the range";
        if (reason) {
            snprintf(why, whylen, "%s", reason);
            return -1;
        }
        break;
    case LOOM_CONFIG_ENUM:
        if ((v = enum_index(r->accepts, value)) < 0)
            return -1;
        break;
    case LOOM_CONFIG_BOOL:
        if (parse_bool(value, &v) < 0)
            return -1;
        break;
    case LOOM_CONFIG_STRING:
        if (r->check && r->check(value, why, whylen) != 0) {
            if (!why[0])
                snprintf(why, whylen, "rejected");
            return -1;
        }
        break;
    }
    *out = v;
    return 0;
}

/* The one-line message for a bad value: "LOOM_X=value: accepts ...[; reason]". */
static void bad_value(const struct loom_config_row *r, const char *value, const char *why,
                      char *err, size_t errlen)
{
    char accepts[256];
    if (!err || !errlen)
        return;
    loom__config_describe(r, accepts, sizeof(accepts));
    snprintf(err, errlen, "%s=%s: accepts %s%s%s", r->name, value, accepts, why[0] ? "; " : "",
             why);
}

int loom__config_parse(const struct loom_config_row *r, const char *value, long long *out,
                       char *err, size_t errlen)
{
    char why[256];
    long long v;
    if (!r || !value) {
        if (err && errlen)
            snprintf(err, errlen, "configuration: no such setting or no value");
        return -1;
    }
    if (check_row(r, value, &v, why, sizeof(why)) < 0) {
        bad_value(r, value, why, err, errlen);
        return -1;
    }
    if (out)
        *out = v;
    return 0;
}

int loom__config_check(enum loom_config_id id, const char *value, char *err, size_t errlen)
{
    return loom__config_parse(loom__config_row(id), value, NULL, err, errlen);
}

/* ---- unknown names ------------------------------------------------------------------------ */

/* Levenshtein distance between a[0..la) and b[0..lb), ignoring case; names longer than 63
 * characters count as far from everything. */
static int distance(const char *a, size_t la, const char *b, size_t lb)
{
    int row[64];
    if (la > 63 || lb > 63)
        return INT_MAX;
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int sub = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            int best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            diag = up;
        }
    }
    return row[lb];
}

/* Warn once about the environment entry "LOOM_XXX=..." whose name (len characters) is not in
 * the table, suggesting the closest known name when it is close: within 1 edit for short
 * names (3 letters or fewer after LOOM_), 2 up to 6 letters, 3 beyond. */
static void warn_unknown(void (*warn)(const char *msg), const char *name, size_t len)
{
    int best = INT_MAX, which = -1;
    for (int i = 0; i < LOOM_CFG_COUNT_; i++) {
        int d = distance(name, len, rows[i].name, strlen(rows[i].name));
        if (d < best) {
            best = d;
            which = i;
        }
    }
    size_t tail = len - 5;
    int limit = tail <= 3 ? 1 : tail <= 6 ? 2 : 3;
    char msg[256];
    if (which >= 0 && best <= limit)
        snprintf(msg, sizeof(msg), "unknown variable %.*s (did you mean %s?)", (int)len, name,
                 rows[which].name);
    else
        snprintf(msg, sizeof(msg), "unknown variable %.*s", (int)len, name);
    warn(msg);
}

static void scan_unknown(void (*warn)(const char *msg))
{
    if (!warn || !environ)
        return;
    for (char **e = environ; *e; e++) {
        if (strncmp(*e, "LOOM_", 5) != 0)
            continue;
        size_t len = strcspn(*e, "=");
        int known = 0;
        for (int i = 0; i < LOOM_CFG_COUNT_ && !known; i++)
            known = strlen(rows[i].name) == len && strncmp(rows[i].name, *e, len) == 0;
        if (!known)
            warn_unknown(warn, *e, len);
    }
}

/* ---- loading and reading ------------------------------------------------------------------ */

static void free_values(struct value *v)
{
    while (v) {
        struct value *next = v->older;
        free(v->text); /* strdup'd by loom__config_load or loom__config_write */
        free(v);       /* allocated there too */
        v = next;
    }
}

int loom__config_load(void (*warn)(const char *msg), char *err, size_t errlen)
{
    struct value *next[LOOM_CFG_COUNT_] = {0};
    char why[256];
    int rc = 0;

    scan_unknown(warn);
    for (int i = 0; i < LOOM_CFG_COUNT_ && rc == 0; i++) {
        const char *v = getenv(rows[i].name);
        long long num;
        if (check_row(&rows[i], v ? v : rows[i].def, &num, why, sizeof(why)) < 0) {
            bad_value(&rows[i], v ? v : rows[i].def, why, err, errlen);
            rc = -1; /* a bad default is a table bug; the unit tests rule it out */
        } else if (!(next[i] = calloc(1, sizeof *next[i])) || (v && !(next[i]->text = strdup(v)))) {
            if (err && errlen)
                snprintf(err, errlen, "configuration: out of memory");
            rc = -1;
        } else {
            next[i]->num = num;
            next[i]->origin = v ? LOOM_CONFIG_FROM_ENV : LOOM_CONFIG_FROM_DEFAULT;
        }
    }
    if (rc < 0) {
        for (int i = 0; i < LOOM_CFG_COUNT_; i++)
            free_values(next[i]);
        return -1;
    }
    /* No reader runs (config.h), so the old values and the retired ones can go. */
    pthread_mutex_lock(&write_lock);
    for (int i = 0; i < LOOM_CFG_COUNT_; i++) {
        free_values(loom__load_relaxed(&cur[i]));
        /* release: pairs with the acquire load in value_of() */
        loom__store_release(&cur[i], next[i]);
    }
    free_values(retired);
    retired = NULL;
    pthread_mutex_unlock(&write_lock);
    return 0;
}

int loom__config_write(enum loom_config_id id, const char *text, char *err, size_t errlen)
{
    const struct loom_config_row *r = loom__config_row(id);
    struct value *v;
    long long num;
    if (!r || !live[id]) {
        if (err && errlen)
            snprintf(err, errlen, "%s is read only when the job starts",
                     r ? r->name : "this setting");
        return -2;
    }
    if (loom__config_parse(r, text, &num, err, errlen) < 0)
        return -1;
    if (!(v = calloc(1, sizeof *v)) || !(v->text = strdup(text))) {
        free(v);
        if (err && errlen)
            snprintf(err, errlen, "configuration: out of memory");
        return -1;
    }
    v->num = num;
    v->origin = LOOM_CONFIG_FROM_WRITE;
    pthread_mutex_lock(&write_lock);
    struct value *old = loom__load_relaxed(&cur[id]); /* writers are serialized by the lock */
    /* release: pairs with the acquire load in value_of(); a reader sees the whole value */
    loom__store_release(&cur[id], v);
    if (old) {
        old->older = retired;
        retired = old;
    }
    pthread_mutex_unlock(&write_lock);
    return 0;
}

/* The value in effect of row id (valid), NULL before the first load. */
static const struct value *value_of(enum loom_config_id id)
{
    return loom__load_acquire(&cur[id]); /* pairs with the release stores of load and write */
}

long long loom__config_int(enum loom_config_id id)
{
    char why[256];
    long long v = 0;
    if ((unsigned)id >= LOOM_CFG_COUNT_)
        return 0;
    const struct value *cv = value_of(id);
    if (cv)
        return cv->num;
    /* Never loaded: parse the default (pure, so any thread may do it at any time). */
    return check_row(&rows[id], rows[id].def, &v, why, sizeof(why)) == 0 ? v : 0;
}

const char *loom__config_str(enum loom_config_id id)
{
    if ((unsigned)id >= LOOM_CFG_COUNT_)
        return NULL;
    const struct value *cv = value_of(id);
    return cv && cv->text ? cv->text : rows[id].def;
}

int loom__config_origin(enum loom_config_id id)
{
    const struct value *cv = (unsigned)id < LOOM_CFG_COUNT_ ? value_of(id) : NULL;
    return cv ? cv->origin : LOOM_CONFIG_FROM_DEFAULT;
}

int loom__config_is_set(enum loom_config_id id)
{
    return loom__config_origin(id) != LOOM_CONFIG_FROM_DEFAULT;
}

int loom__config_is_live(enum loom_config_id id)
{
    return (unsigned)id < LOOM_CFG_COUNT_ && live[id];
}

const char *loom__config_layer(enum loom_config_id id)
{
    return (unsigned)id < LOOM_CFG_COUNT_ ? layers[id] : NULL;
}

const char *loom__config_name(enum loom_config_id id)
{
    return (unsigned)id < LOOM_CFG_COUNT_ ? rows[id].name : NULL;
}

const struct loom_config_row *loom__config_row(enum loom_config_id id)
{
    return (unsigned)id < LOOM_CFG_COUNT_ ? &rows[id] : NULL;
}

const char *loom__config_type_name(enum loom_config_type type)
{
    switch (type) {
    case LOOM_CONFIG_INT: return "integer";
    case LOOM_CONFIG_SIZE: return "byte size";
    case LOOM_CONFIG_ENUM: return "keyword";
    case LOOM_CONFIG_BOOL: return "boolean";
    case LOOM_CONFIG_STRING: return "string";
    }
    return "?";
}

int loom__config_describe(const struct loom_config_row *r, char *buf, size_t len)
{
    switch (r->type) {
    case LOOM_CONFIG_INT: return snprintf(buf, len, "an integer in %s", r->accepts);
    case LOOM_CONFIG_SIZE:
        return snprintf(buf, len, "a byte size in %s (K, M, G suffixes: 1024 multiples)",
                        r->accepts);
    case LOOM_CONFIG_ENUM: return snprintf(buf, len, "%s", r->accepts);
    case LOOM_CONFIG_BOOL: return snprintf(buf, len, "0|1 (also yes|no, true|false, on|off)");
    case LOOM_CONFIG_STRING: return snprintf(buf, len, "%s", r->accepts);
    }
    return snprintf(buf, len, "?");
}
