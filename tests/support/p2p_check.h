/* p2p_check.h — helpers for the point-to-point tests (tests/p2p): checked calls, partners
 * that exist for any number of ranks, and byte patterns that tell every message apart.
 * Builds on check.h: a failed check prints what came and what was expected and ends the job
 * with status 99. */
#ifndef LOOM_TEST_P2P_CHECK_H
#define LOOM_TEST_P2P_CHECK_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "check.h"

/* A call that must succeed; prints the class and MPI's text otherwise. */
#define OK(call)                                                                               \
    do {                                                                                       \
        int rc_ = (call);                                                                      \
        if (rc_ != MPI_SUCCESS) {                                                              \
            char text_[MPI_MAX_ERROR_STRING];                                                  \
            int len_ = 0;                                                                      \
            text_[0] = 0;                                                                      \
            MPI_Error_string(rc_, text_, &len_);                                               \
            fprintf(stderr, "%s:%d: %s returned %d (%s), expected MPI_SUCCESS\n", __FILE__,    \
                    __LINE__, #call, rc_, text_);                                              \
            fflush(NULL);                                                                      \
            _exit(99);                                                                         \
        }                                                                                      \
    } while (0)

/* A call that must fail with error class `cls` (MPI_ERRORS_RETURN in effect). */
#define FAILS(call, cls)                                                                       \
    do {                                                                                       \
        int rc_ = (call), cls_ = -1;                                                           \
        MPI_Error_class(rc_, &cls_);                                                           \
        if (cls_ != (cls)) {                                                                   \
            fprintf(stderr, "%s:%d: %s returned class %d, expected %s (%d)\n", __FILE__,       \
                    __LINE__, #call, cls_, #cls, (int)(cls));                                  \
            fflush(NULL);                                                                      \
            _exit(99);                                                                         \
        }                                                                                      \
    } while (0)

static inline int p2p_rank(void)
{
    int r;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &r));
    return r;
}

static inline int p2p_size(void)
{
    int n;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    return n;
}

/* The rank paired with `rank`: rank^1, or rank itself when that does not exist (the last
 * rank of an odd-sized job, a job of one rank), so pairs exchange self-messages there. */
static inline int p2p_partner(int rank, int size)
{
    int p = rank ^ 1;
    return p < size ? p : rank;
}

/* The byte at offset i of message `id` (any int naming the message). */
static inline unsigned char p2p_byte(unsigned id, size_t i)
{
    uint32_t x = id * 2654435761u ^ (uint32_t)i * 40503u ^ (uint32_t)(i >> 13);
    return (unsigned char)(x ^ (x >> 11) ^ (x >> 19));
}

static inline void p2p_fill(void *buf, size_t n, unsigned id)
{
    unsigned char *b = buf;
    for (size_t i = 0; i < n; i++)
        b[i] = p2p_byte(id, i);
}

/* Check that buf holds message `id`'s n first bytes; prints the first wrong byte. */
#define CHECK_FILL(buf, n, id)                                                                 \
    do {                                                                                       \
        const unsigned char *b_ = (const unsigned char *)(buf);                                \
        size_t n_ = (n);                                                                       \
        for (size_t i_ = 0; i_ < n_; i_++) {                                                   \
            if (b_[i_] != p2p_byte((id), i_)) {                                                \
                fprintf(stderr, "%s:%d: %s[%zu] is %u, expected %u (message %u, %zu bytes)\n", \
                        __FILE__, __LINE__, #buf, i_, b_[i_], p2p_byte((id), i_),              \
                        (unsigned)(id), n_);                                                   \
                fflush(NULL);                                                                  \
                _exit(99);                                                                     \
            }                                                                                  \
        }                                                                                      \
    } while (0)

/* Check that n bytes of buf all equal c (what a receive must leave untouched). */
#define CHECK_BYTES(buf, n, c)                                                                 \
    do {                                                                                       \
        const unsigned char *b_ = (const unsigned char *)(buf);                                \
        for (size_t i_ = 0; i_ < (size_t)(n); i_++) {                                          \
            if (b_[i_] != (unsigned char)(c)) {                                                \
                fprintf(stderr, "%s:%d: %s[%zu] is %u, expected %u\n", __FILE__, __LINE__,     \
                        #buf, i_, b_[i_], (unsigned)(unsigned char)(c));                       \
                fflush(NULL);                                                                  \
                _exit(99);                                                                     \
            }                                                                                  \
        }                                                                                      \
    } while (0)

/* Check a status: source, tag and the count of bytes it reports. */
#define CHECK_STATUS(st, source, tag, bytes)                                                   \
    do {                                                                                       \
        int cnt_ = -1;                                                                         \
        CHECK_INT((st).MPI_SOURCE, (source));                                                  \
        CHECK_INT((st).MPI_TAG, (tag));                                                        \
        OK(MPI_Get_count(&(st), MPI_BYTE, &cnt_));                                             \
        CHECK_INT(cnt_, (bytes));                                                              \
    } while (0)

static inline void *p2p_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    CHECK(p != NULL);
    return p;
}
#endif
