/* sendv.c — loom__fabric_sendv: messages whose data is sent from the caller's buffer rather
 * than copied into the slot. Two processes each send the other 400 messages of 1 byte to
 * msg_max, every other one in place, the rest copied: on_recv checks every byte and that the
 * two kinds stay in the order they were sent (ofi_rxm's buffers sized to msg_max, as loom does). Every send in place reports on_send_done exactly
 * once, and its buffer is overwritten as soon as it has: a provider still reading it then would
 * deliver the wrong bytes. argv[1] "local" handles FI_MR_LOCAL as if the provider asked for it:
 * then the endpoint cannot send in place, and sendv refuses with a reason and gives the slot
 * back. */
#include "net_test.h"

#include <rdma/fabric.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSG_MAX (32 * 1024 + 64)
#define NSLOTS 4 /* few: sends in place wait for their slots like copied ones */
#define COUNT 400

static void fill(char *p, const struct nt_hdr *h)
{
    for (uint32_t i = 0; i < h->aux; i++)
        p[i] = (char)(h->from * 31 + h->seq + i);
}

/* Message seq's data length: msg_max's worth every 7th, spread over 1..max otherwise. */
static uint32_t length(uint32_t seq, size_t max)
{
    return (uint32_t)(seq % 7 == 0 ? max : seq * 977u % max + 1);
}

static void refused(struct nt *t)
{
    CHECK(!loom__fabric_can_sendv(t->f));
    nt_barrier(t, 1);
    void *slot;
    while (!(slot = loom__fabric_slot(t->f)))
        nt_poll(t);
    char err[256] = "", data = 1;
    int flag = 0;
    CHECK_INT(loom__fabric_sendv(t->f, 1 - t->rank, slot, sizeof(struct nt_hdr), &data, 1,
                                 &flag, err, sizeof err),
              -1);
    CHECK(strstr(err, "in place") != NULL);
    nt_drain(t); /* every slot comes back, the refused one too */
    CHECK(!flag);
    printf("process %d: sendv refused: %s\n", t->rank, err);
}

static void body(struct nt *t)
{
    if (nt_mr_extra & FI_MR_LOCAL) {
        refused(t);
        return;
    }
    CHECK(loom__fabric_can_sendv(t->f));
    size_t max = loom__fabric_msg_max(t->f) - sizeof(struct nt_hdr);
    int peer = 1 - t->rank;
    char *bufs[COUNT], *msg = malloc(sizeof(struct nt_hdr) + max);
    int done[COUNT] = {0}, scrubbed[COUNT] = {0};
    CHECK(msg != NULL);
    for (uint32_t seq = 0; seq < COUNT; seq++) {
        struct nt_hdr h = {.type = NT_DATA, .from = (uint32_t)t->rank, .seq = seq,
                           .aux = length(seq, max)};
        bufs[seq] = NULL;
        if (seq % 2) {
            memcpy(msg, &h, sizeof h);
            fill(msg + sizeof h, &h);
            nt_send(t, peer, msg, sizeof h + h.aux);
        } else {
            CHECK((bufs[seq] = malloc(h.aux)) != NULL);
            fill(bufs[seq], &h);
            void *slot;
            while (!(slot = loom__fabric_slot(t->f)))
                nt_poll(t);
            memcpy(slot, &h, sizeof h);
            char err[256];
            int rc;
            while ((rc = loom__fabric_sendv(t->f, peer, slot, sizeof h, bufs[seq], h.aux,
                                            &done[seq], err, sizeof err)) == 1)
                nt_poll(t);
            if (rc) {
                fprintf(stderr, "process %d: %s\n", t->rank, err);
                _exit(99);
            }
        }
        for (uint32_t k = 0; k <= seq; k++)
            if (bufs[k] && done[k] && !scrubbed[k]) {
                memset(bufs[k], 0xee, length(k, max));
                scrubbed[k] = 1;
            }
    }
    nt_wait(t, &t->data_got, COUNT, "the other process's messages");
    nt_wait(t, &t->sends_done, COUNT / 2, "every send in place reported done");
    for (int k = 0; k < COUNT; k += 2)
        CHECK_INT(done[k], 1);
    printf("process %d: %d messages in order, %d of them sent in place\n", t->rank, COUNT,
           t->sends_done);
    nt_barrier(t, 1);
    for (int k = 0; k < COUNT; k++)
        free(bufs[k]);
    free(msg);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "local"))
        nt_mr_extra = FI_MR_LOCAL;
    /* ofi_rxm's buffers as large as a message, as loom sizes them: past them rxm cuts a
     * message up and lets smaller ones overtake it (net/ numbers its messages for that) */
    loom__fabric_preset(MSG_MAX);
    return nt_job(2, MSG_MAX, 8, NSLOTS, FI_THREAD_SAFE, body);
}
