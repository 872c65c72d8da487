/* net/pmi_impl.h — inside the bootstrap: the two PMI clients behind net/pmi.h and what they
 * share.
 *
 * net/pmi.c chooses one client from the environment at loom__pmi_present / loom__pmi_init,
 * checks keys and values, and formats the abort line; a client only speaks to its server.
 * The same threading rule as net/pmi.h: one thread at a time, but `abort` from any thread
 * while another may be inside a fence. */
#ifndef LOOM_NET_PMI_IMPL_H
#define LOOM_NET_PMI_IMPL_H
#include <stddef.h>

#include "net/pmi.h"

struct loom_pmi_client {
    int (*init)(int *rank, int *size, char *err, size_t errlen); /* only when none is alive */
    int (*alive)(void); /* 1 while connected: after init, before finalize or a broken link */
    int (*local)(int *local_rank, int *local_size, char *err, size_t errlen);
    size_t (*key_max)(void);   /* without the NUL; after init */
    size_t (*value_max)(void); /* without the NUL; after init */
    int (*put)(const char *key, const char *value, char *err, size_t errlen);
    int (*fence)(char *err, size_t errlen);
    int (*get)(int node, const char *key, char *value, size_t len, char *err, size_t errlen);
    int (*finalize)(char *err, size_t errlen);
    /* Ask the server to end the job; may return (the caller then exits). No lock taken, no
     * allocation where the client can avoid it. */
    void (*abort)(int code, const char *msg);
};

extern const struct loom_pmi_client loom__pmi_wire; /* net/pmi_wire.c */
extern const struct loom_pmi_client loom__pmi_pmix; /* net/pmi_pmix.c */

/* 1 if the environment names a PMI-1 server (PMI_FD, or PMI_PORT with PMI_ID / PMI_RANK). */
int loom__pmi_wire_present(void);

/* Write a one-line reason into err[errlen] (nothing if err is NULL). */
void loom__pmi_seterr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Append s (or v in decimal) to buf[cap] at *at, NUL-terminated, without overflowing and
 * without allocating: abort's helpers. */
void loom__pmi_cat_str(char *buf, size_t cap, size_t *at, const char *s);
void loom__pmi_cat_int(char *buf, size_t cap, size_t *at, long v);
#endif
