/* comm/error_class.c — the table of error classes and codes added by the program (see
 * error_class.h).
 *
 * Concurrency: `lock` protects entries, count and cap, and every string; readers take it too
 * (lookups are on error paths only, never on a message path). It is a leaf lock except that
 * the MPI_LASTUSEDCODE attribute is written under it (loom__attr_set_lastusedcode, an atomic
 * store), so that two threads adding values leave the attribute at the larger one. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "comm/comm.h"
#include "comm/error_class.h"
#include "core/error.h"

struct entry {
    int cls;     /* the class of this value (itself for a class) */
    int removed; /* 1 after MPI_Remove_error_class/_code: unknown again, never reused */
    char *text;  /* NULL until MPI_Add_error_string; malloc'd, freed at fini, replace or
                    removal */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* protects entries, count, cap */
static struct entry *entries;                            /* [count]: value MPI_ERR_LASTCODE+1+i */
static int count, cap;

#define FIRST (MPI_ERR_LASTCODE + 1)
#define MAX_VALUES (1 << 20)

/* Add a value of class cls (-1: a new class, its own); under lock. */
static int add_locked(int cls, int *out)
{
    if (count == cap) {
        int ncap = cap ? cap * 2 : 16;
        if (ncap > MAX_VALUES)
            return LOOM_ERR_NOMEM;
        struct entry *n = realloc(entries, (size_t)ncap * sizeof *n); /* freed at fini */
        if (n == NULL)
            return LOOM_ERR_NOMEM;
        entries = n;
        cap = ncap;
    }
    int v = FIRST + count;
    entries[count++] = (struct entry){cls < 0 ? v : cls, 0, NULL};
    loom__attr_set_lastusedcode(v);
    *out = v;
    return 0;
}

int loom__error_add_class(int *cls)
{
    pthread_mutex_lock(&lock);
    int rc = add_locked(-1, cls);
    pthread_mutex_unlock(&lock);
    return rc;
}

int loom__error_add_code(int cls, int *code)
{
    pthread_mutex_lock(&lock);
    int rc = add_locked(cls, code);
    pthread_mutex_unlock(&lock);
    return rc;
}

/* The entry of v or NULL (also when removed); under lock. */
static struct entry *find_locked(int v)
{
    return v >= FIRST && v - FIRST < count && !entries[v - FIRST].removed ? &entries[v - FIRST]
                                                                         : NULL;
}

enum loom_error_remove loom__error_remove_class(int v)
{
    pthread_mutex_lock(&lock);
    struct entry *e = find_locked(v);
    enum loom_error_remove rc = e && e->cls == v ? LOOM_ERROR_REMOVED : LOOM_ERROR_UNKNOWN;
    for (int i = 0; rc == LOOM_ERROR_REMOVED && i < count; i++)
        if (!entries[i].removed && entries[i].cls == v && FIRST + i != v)
            rc = LOOM_ERROR_HAS_CODES;
    char *text = NULL;
    if (rc == LOOM_ERROR_REMOVED) {
        e->removed = 1;
        text = e->text; /* a class's string goes with it */
        e->text = NULL;
    }
    pthread_mutex_unlock(&lock);
    free(text);
    return rc;
}

enum loom_error_remove loom__error_remove_code(int v)
{
    pthread_mutex_lock(&lock);
    struct entry *e = find_locked(v);
    enum loom_error_remove rc = !e || e->cls == v ? LOOM_ERROR_UNKNOWN
                                : e->text         ? LOOM_ERROR_HAS_STRING
                                                  : LOOM_ERROR_REMOVED;
    if (rc == LOOM_ERROR_REMOVED)
        e->removed = 1;
    pthread_mutex_unlock(&lock);
    return rc;
}

enum loom_error_remove loom__error_remove_string(int v)
{
    pthread_mutex_lock(&lock);
    struct entry *e = find_locked(v);
    enum loom_error_remove rc = !e ? LOOM_ERROR_UNKNOWN
                                : !e->text ? LOOM_ERROR_NO_STRING
                                           : LOOM_ERROR_REMOVED;
    char *text = NULL;
    if (rc == LOOM_ERROR_REMOVED) {
        text = e->text;
        e->text = NULL;
    }
    pthread_mutex_unlock(&lock);
    free(text);
    return rc;
}

int loom__error_user_class(int v)
{
    pthread_mutex_lock(&lock);
    struct entry *e = find_locked(v);
    int cls = e ? e->cls : -1;
    pthread_mutex_unlock(&lock);
    return cls;
}

int loom__error_is_user(int v)
{
    return loom__error_user_class(v) >= 0;
}

int loom__error_is_user_class(int v)
{
    return v >= FIRST && loom__error_user_class(v) == v;
}

int loom__error_set_string(int v, const char *text)
{
    char *copy = strdup(text);
    if (copy == NULL)
        return LOOM_ERR_NOMEM;
    pthread_mutex_lock(&lock);
    struct entry *e = find_locked(v);
    char *old = NULL;
    if (e) {
        old = e->text;
        e->text = copy;
        copy = NULL;
    }
    pthread_mutex_unlock(&lock);
    free(old);
    free(copy); /* v was not found: the caller checked, so only if it lied */
    return 0;
}

int loom__error_get_string(int v, char *buf, size_t len)
{
    pthread_mutex_lock(&lock);
    struct entry *e = find_locked(v);
    int n = -1;
    if (e) {
        const char *t = e->text ? e->text : "";
        size_t tl = strlen(t);
        if (len > 0) {
            size_t k = tl < len - 1 ? tl : len - 1;
            memcpy(buf, t, k);
            buf[k] = '\0';
            n = (int)k;
        } else {
            n = 0;
        }
    }
    pthread_mutex_unlock(&lock);
    return n;
}

void loom__error_user_fini(void)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < count; i++)
        free(entries[i].text);
    free(entries);
    entries = NULL;
    count = cap = 0;
    pthread_mutex_unlock(&lock);
}
