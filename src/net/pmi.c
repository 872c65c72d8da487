/* net/pmi.c — the bootstrap's front: which PMI client this process uses (net/pmi.h says how
 * it is chosen), the checks of keys and values both clients share, and the abort line.
 *
 * `chosen` is the client once init succeeded, NULL before and after finalize. The main thread
 * stores it (release, after the client's own state); loom__pmi_abort, on any thread, loads it
 * (acquire) to know whether there is a server to tell. `rank` is stored (relaxed) before
 * `chosen`'s release and read after its acquire. Everything else follows net/pmi.h's rule of
 * one thread at a time. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/atomic.h"
#include "net/pmi_impl.h"

static struct {
    const struct loom_pmi_client *_Atomic chosen;
    _Atomic int rank; /* this node process's number, for abort's line */
} front;

static int pmix_present(void)
{
    return getenv("PMIX_NAMESPACE") && getenv("PMIX_RANK");
}

int loom__pmi_present(void)
{
    return loom__pmi_wire_present() || pmix_present();
}

/* The client the environment names (net/pmi.h: the nearest launcher first), or NULL. */
static const struct loom_pmi_client *pick(void)
{
    if (loom__pmi_wire_present())
        return &loom__pmi_wire;
    if (pmix_present())
        return &loom__pmi_pmix;
    return NULL;
}

int loom__pmi_init(int *rank, int *size, char *err, size_t errlen)
{
    const struct loom_pmi_client *was = loom__load_acquire(&front.chosen);
    if (was && was->alive()) {
        loom__pmi_seterr(err, errlen, "PMI init: already initialized");
        return -1;
    }
    const struct loom_pmi_client *c = pick();
    if (!c) {
        loom__pmi_seterr(err, errlen, "PMI init: no PMI server: PMI_FD, PMI_PORT and "
                                      "PMIX_NAMESPACE are unset (the process was not started "
                                      "by a PMI launcher)");
        return -1;
    }
    if (c->init(rank, size, err, errlen) != 0)
        return -1;
    loom__store_relaxed(&front.rank, *rank);
    loom__store_release(&front.chosen, c); /* pairs with abort's acquire load */
    return 0;
}

/* The client, or NULL with err saying there is none yet (or any more: finalized, or the
 * link to the server broke; init may then be called again). */
static const struct loom_pmi_client *connected(const char *what, char *err, size_t errlen)
{
    const struct loom_pmi_client *c = loom__load_acquire(&front.chosen);
    if (c && !c->alive())
        c = NULL;
    if (!c)
        loom__pmi_seterr(err, errlen, "PMI %s: not connected to a PMI server (loom__pmi_init "
                                      "first)", what);
    return c;
}

size_t loom__pmi_value_max(void)
{
    const struct loom_pmi_client *c = loom__load_acquire(&front.chosen);
    return c ? c->value_max() : 0;
}

int loom__pmi_local(int *local_rank, int *local_size, char *err, size_t errlen)
{
    const struct loom_pmi_client *c = connected("local", err, errlen);
    return c ? c->local(local_rank, local_size, err, errlen) : -1;
}

/* Keys and values are printable, without spaces or '=' (PMI-1's separators; the same rule
 * under PMIx keeps a program's keys valid under either launcher). */
static int check_word(const char *what, const char *kind, const char *s, size_t max, char *err,
                      size_t errlen)
{
    size_t n = strlen(s);
    if (n == 0) {
        loom__pmi_seterr(err, errlen, "PMI %s: the %s is empty", what, kind);
        return -1;
    }
    if (n > max) {
        loom__pmi_seterr(err, errlen, "PMI %s: the %s is %zu bytes, longer than the PMI "
                                      "server's %zu", what, kind, n, max);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c <= ' ' || c >= 127 || c == '=') {
            loom__pmi_seterr(err, errlen, "PMI %s: the %s has a space, '=' or unprintable byte "
                                          "at %zu", what, kind, i);
            return -1;
        }
    }
    return 0;
}

int loom__pmi_put(const char *key, const char *value, char *err, size_t errlen)
{
    const struct loom_pmi_client *c = connected("put", err, errlen);
    if (!c || check_word("put", "key", key, c->key_max(), err, errlen) ||
        check_word("put", "value", value, c->value_max(), err, errlen))
        return -1;
    return c->put(key, value, err, errlen);
}

int loom__pmi_fence(char *err, size_t errlen)
{
    const struct loom_pmi_client *c = connected("fence", err, errlen);
    return c ? c->fence(err, errlen) : -1;
}

int loom__pmi_get(int node, const char *key, char *value, size_t len, char *err, size_t errlen)
{
    const struct loom_pmi_client *c = connected("get", err, errlen);
    if (!c || check_word("get", "key", key, c->key_max(), err, errlen))
        return -1;
    return c->get(node, key, value, len, err, errlen);
}

int loom__pmi_finalize(char *err, size_t errlen)
{
    const struct loom_pmi_client *c = connected("finalize", err, errlen);
    if (!c)
        return -1;
    /* the job is over for this process either way: abort no longer speaks to the server */
    loom__store_release(&front.chosen, NULL);
    return c->finalize(err, errlen);
}

void loom__pmi_cat_str(char *buf, size_t cap, size_t *at, const char *s)
{
    while (*s && *at + 1 < cap)
        buf[(*at)++] = *s++;
    buf[*at] = '\0';
}

void loom__pmi_cat_int(char *buf, size_t cap, size_t *at, long v)
{
    char digits[24];
    int n = 0;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do
        digits[n++] = (char)('0' + u % 10);
    while ((u /= 10) && n < 22);
    if (v < 0)
        digits[n++] = '-';
    char out[24];
    for (int i = 0; i < n; i++)
        out[i] = digits[n - 1 - i];
    out[n] = '\0';
    loom__pmi_cat_str(buf, cap, at, out);
}

/* Any thread, even while another is inside a fence: writes the line with write() alone,
 * then lets the client tell its server, then leaves. */
_Noreturn void loom__pmi_abort(int code, const char *msg)
{
    char line[512];
    size_t at = 0;
    loom__pmi_cat_str(line, sizeof(line), &at, "loom: the job is aborted");
    const struct loom_pmi_client *c = loom__load_acquire(&front.chosen); /* pairs with init */
    if (c) {
        loom__pmi_cat_str(line, sizeof(line), &at, " by node process ");
        loom__pmi_cat_int(line, sizeof(line), &at, loom__load_relaxed(&front.rank));
    }
    loom__pmi_cat_str(line, sizeof(line), &at, " (exit code ");
    loom__pmi_cat_int(line, sizeof(line), &at, code);
    loom__pmi_cat_str(line, sizeof(line), &at, "): ");
    loom__pmi_cat_str(line, sizeof(line), &at, msg ? msg : "no reason given");
    if (at + 1 < sizeof(line))
        line[at++] = '\n';
    for (size_t done = 0; done < at;) {
        ssize_t n = write(2, line + done, at - done);
        if (n <= 0 && errno != EINTR)
            break;
        done += n > 0 ? (size_t)n : 0;
    }
    if (c)
        c->abort(code, msg);
    _exit(code);
}
