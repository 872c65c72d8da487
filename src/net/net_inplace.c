/* net/net_inplace.c — from which size an eager message's data is sent from the user's buffer
 * (loom__fabric_sendv) rather than copied into a send slot (LOOM_NET_INPLACE).
 *
 * Sent in place, a message saves the copy into the slot, but its send completes only when the
 * endpoint reports it, one poll later, where a copied message's send completes at once. So in
 * place pays from the size whose copy takes longer than a poll; `auto` measures both when the
 * endpoint opens (an empty poll of it, a warm copy of the largest eager message) and divides:
 * over TCP on loopback a poll costs a few hundred nanoseconds, which a copy of some KiB takes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/config.h"
#include "net/net.h"
#include "net/net_impl.h"

#define INPLACE_OFF SIZE_MAX
#define INPLACE_AUTO (SIZE_MAX - 1)

/* SIZE_MAX for off, SIZE_MAX - 1 for auto, the size, or 0 with *bad set. */
static size_t parse(const char *value, int *bad)
{
    *bad = 0;
    if (!strcmp(value, "off"))
        return INPLACE_OFF;
    if (!strcmp(value, "auto"))
        return INPLACE_AUTO;
    static const struct loom_config_row size = {"LOOM_NET_INPLACE", LOOM_CONFIG_SIZE, "0",
                                                "0-1G", NULL, ""};
    long long v;
    char err[128];
    if (loom__config_parse(&size, value, &v, err, sizeof err) != 0) {
        *bad = 1;
        return 0;
    }
    return (size_t)v;
}

int loom__net_inplace_check(const char *value, char *err, size_t errlen)
{
    int bad;
    parse(value, &bad);
    if (!bad)
        return 0;
    snprintf(err, errlen, "not auto, off or a byte size in 0-1G");
    return -1;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The cheapest of a few tries: what the operation costs without the noise of the moment. */
#define TRIES 16

static double poll_ns(struct loom_fabric *f)
{
    char err[256];
    double best = 0;
    for (int i = 0; i < TRIES; i++) {
        double t = now_ns();
        if (loom__fabric_poll(f, err, sizeof err) < 0)
            return 0;
        t = now_ns() - t;
        if (i == 0 || t < best)
            best = t;
    }
    return best;
}

/* Bytes copied per nanosecond, from a warm copy of n bytes; 0 if it cannot tell. */
static double copy_rate(size_t n)
{
    char *buf = malloc(2 * n);
    if (!buf || !n) {
        free(buf);
        return 0;
    }
    memset(buf, 1, 2 * n);
    double best = 0;
    for (int i = 0; i < TRIES; i++) {
        double t = now_ns();
        memcpy(buf + n, buf, n);
        __asm__ __volatile__("" ::"r"(buf) : "memory"); /* the copy is not optimized away */
        t = now_ns() - t;
        if (i == 0 || t < best)
            best = t;
    }
    free(buf);
    return best > 0 ? (double)n / best : 0;
}

size_t loom__net_inplace_min(struct loom_fabric *f, size_t eager_max)
{
    if (!loom__fabric_can_sendv(f))
        return SIZE_MAX;
    int bad;
    size_t v = parse(loom__config_str(LOOM_CFG_NET_INPLACE), &bad);
    if (v != INPLACE_AUTO)
        return v; /* off (SIZE_MAX: never) or the user's size; checked at start */
    double rate = copy_rate(eager_max), poll = poll_ns(f);
    if (rate <= 0 || poll <= 0)
        return SIZE_MAX; /* nothing measured: keep copying, as before */
    double min = poll * rate;
    return min >= (double)eager_max ? SIZE_MAX : (size_t)min;
}
