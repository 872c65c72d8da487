/* rma/hints.c — the info hints of a window (MPI 4.1 section 12.2.1): what MPI_Win_get_info
 * answers. A window keeps one info with every key the standard defines for windows, each
 * with the value the program gave when that value is valid, else the default. Keys loom does
 * not know and invalid values are ignored, as the standard lets an implementation do with
 * hints.
 *
 * loom obeys every hint by construction, whatever its value: accumulates are element-wise
 * atomic and done in program order by the origin (so every accumulate_ordering holds),
 * locks cost nothing when unused (no_locks), and a shared window is one block in any case. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "comm/comm.h"
#include "core/error.h"
#include "rma/rma.h"

/* A value check: 1 if value is acceptable for the key. */
typedef int (*valid_fn)(const char *value);

static int is_bool(const char *v)
{
    return strcasecmp(v, "true") == 0 || strcasecmp(v, "false") == 0;
}

/* A comma-separated list of rar, raw, war, waw, or "none". */
static int is_ordering(const char *v)
{
    if (strcasecmp(v, "none") == 0)
        return 1;
    if (*v == '\0')
        return 0;
    while (*v) {
        size_t n = strcspn(v, ",");
        if (n != 3 || (strncasecmp(v, "rar", 3) != 0 && strncasecmp(v, "raw", 3) != 0 &&
                       strncasecmp(v, "war", 3) != 0 && strncasecmp(v, "waw", 3) != 0))
            return 0;
        v += n;
        if (*v == ',')
            v++;
    }
    return 1;
}

static int is_ops(const char *v)
{
    return strcasecmp(v, "same_op") == 0 || strcasecmp(v, "same_op_no_op") == 0;
}

static int is_count(const char *v)
{
    if (*v == '\0')
        return 0;
    for (; *v; v++)
        if (*v < '0' || *v > '9')
            return 0;
    return 1;
}

static const struct {
    const char *key, *dflt;
    valid_fn valid;
} keys[] = {
    {"no_locks", "false", is_bool},
    {"accumulate_ordering", "rar,raw,war,waw", is_ordering},
    {"accumulate_ops", "same_op_no_op", is_ops},
    {"same_size", "false", is_bool},
    {"same_disp_unit", "false", is_bool},
    {"alloc_shared_noncontig", "false", is_bool},
    {"mpi_accumulate_granularity", "0", is_count},
};
enum { NKEYS = sizeof keys / sizeof keys[0] };

int loom__rma_hints_update(struct loom_info *hints, struct loom_info *info)
{
    if (info == NULL)
        return 0;
    char value[MPI_MAX_INFO_VAL + 1];
    for (int k = 0; k < NKEYS; k++) {
        if (loom__info_get(info, keys[k].key, value, sizeof value) < 0 ||
            !keys[k].valid(value))
            continue;
        if (loom__info_set(hints, keys[k].key, value) != 0)
            return LOOM_ERR_NOMEM;
    }
    return 0;
}

struct loom_info *loom__rma_hints_new(struct loom_info *info)
{
    /* every flavor answers every key: a program may ask any window */
    struct loom_info *h = loom__info_new(); /* freed by loom__win_free */
    if (h == NULL)
        return NULL;
    for (int k = 0; k < NKEYS; k++)
        if (loom__info_set(h, keys[k].key, keys[k].dflt) != 0) {
            loom__info_free(h);
            return NULL;
        }
    if (loom__rma_hints_update(h, info) != 0) {
        loom__info_free(h);
        return NULL;
    }
    return h;
}

int loom__rma_hint_noncontig(struct loom_info *info)
{
    char value[8];
    return info != NULL &&
           loom__info_get(info, "alloc_shared_noncontig", value, sizeof value) >= 0 &&
           strcasecmp(value, "true") == 0;
}
