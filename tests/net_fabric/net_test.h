/* net_test.h — what the libfabric endpoint's tests share: a job of P processes forked from one
 * parent that passes their endpoint names around through pipes, messages with a small header
 * (who sent it, what it is), waits bounded by a give-up (a stuck test fails instead of hanging:
 * no time is asserted), and a barrier made of messages. */
#ifndef LOOM_TEST_NET_TEST_H
#define LOOM_TEST_NET_TEST_H
#include "check.h"
#include "net/fabric.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define NT_MAXP 8
/* Seconds a wait polls before the test gives up and fails. */
#define NT_GIVE_UP 60

enum nt_type { NT_ARRIVE = 1, NT_RELEASE, NT_DATA, NT_MRINFO, NT_THREAD };

/* Every message but the raw ones of the ping-pong starts with this. */
struct nt_hdr {
    uint32_t type, from, seq, aux;
};

struct nt_mrinfo {
    struct nt_hdr h;
    uint64_t key, addr;
};

/* One process's state. Written by the callbacks, which run on the polling thread; the fields
 * other threads read are atomics. */
struct nt {
    struct loom_fabric *f;
    int rank, P, nslots;
    /* Raw mode (the ping-pong): the next message is copied whole into raw_buf. */
    int raw;
    char *raw_buf;
    size_t raw_len;
    int raw_got;
    int arrived[16]; /* ARRIVE messages per phase (rank 0) */
    int released;    /* the last phase released (ranks > 0) */
    uint32_t next_seq[NT_MAXP];
    int data_got;
    uint32_t next_tseq[NT_MAXP][4]; /* NT_THREAD: per sender process and thread */
    atomic_int thread_got;
    struct nt_mrinfo mr;
    int have_mr;
    atomic_int errors;    /* on_error calls */
    int error_peer;
    int reads_done;
    int sends_done;       /* on_send_done calls (loom__fabric_sendv) */
    int slot_waits;       /* times a slot was not there: exhaustion was met */
    int up, down;         /* the pipes to and from the parent */
};

/* Run body(nt) in P forked processes with their endpoints open (msg_max, nrecv, nslots) and
 * inserted; threading is FI_THREAD_SAFE or FI_THREAD_DOMAIN. Returns the exit status for main:
 * 0 if every process exited 0. */
int nt_job(int P, size_t msg_max, int nrecv, int nslots, int threading,
           void (*body)(struct nt *));

/* FI_MR_* bits the endpoints handle as if the provider asked for them (0: none). */
extern uint64_t nt_mr_extra;
/* When set, on_error passes it the ctx it was given. */
extern void (*nt_on_error_hook)(void *ctx);

/* One poll; a broken queue fails the test. */
int nt_poll(struct nt *t);
/* Poll until *flag >= want, or fail the test saying what it waited for. */
void nt_wait(struct nt *t, const int *flag, int want, const char *what);
/* Send len bytes to peer: wait for a slot (polling), retry while busy. */
void nt_send(struct nt *t, int peer, const void *msg, size_t len);
/* Every process reaches phase before any leaves it. */
void nt_barrier(struct nt *t, int phase);
/* A barrier through the parent's pipes, for when the fabric between two processes is down;
 * polls the endpoint while it waits. */
void nt_oob_barrier(struct nt *t);
/* Poll until every send slot is back: every send of this process has completed. */
void nt_drain(struct nt *t);
/* Seconds since an arbitrary start (for give-ups only). */
double nt_now(void);
#endif
