/* peer_exit.c — a peer that dies: process 1 answers one message and exits without closing its
 * endpoint; process 0 keeps sending to it and must hear of the failure (on_error, or a send
 * that fails) rather than wait forever. The give-up bounds the wait; it asserts no time. */
#include "net_test.h"

#include <rdma/fabric.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void body(struct nt *t)
{
    struct nt_hdr h = {.type = NT_DATA, .from = (uint32_t)t->rank, .seq = 0};
    if (t->rank == 1) {
        nt_wait(t, &t->data_got, 1, "the first message");
        nt_send(t, 0, &h, sizeof h);
        nt_drain(t);
        fflush(NULL);
        _exit(0); /* no close, as a crashed process */
    }
    nt_send(t, 1, &h, sizeof h);
    nt_wait(t, &t->data_got, 1, "the answer");
    double give_up = nt_now() + NT_GIVE_UP;
    int sent = 0;
    char err[256];
    while (atomic_load(&t->errors) == 0) {
        void *slot = loom__fabric_slot(t->f);
        if (slot) {
            h.seq = (uint32_t)++sent;
            memcpy(slot, &h, sizeof h);
            int rc = loom__fabric_send(t->f, 1, slot, sizeof h, err, sizeof err);
            if (rc < 0) {
                printf("process 0: send to the dead peer failed: %s\n", err);
                break;
            }
            if (rc == 1)
                continue; /* slot still ours: dropped here, close frees it */
        }
        nt_poll(t);
        if (nt_now() > give_up) {
            fprintf(stderr, "process 0: %d sends to a dead peer and no error\n", sent);
            _exit(99);
        }
        usleep(1000);
    }
    if (atomic_load(&t->errors))
        CHECK_INT(t->error_peer, 1);
    printf("process 0: the dead peer was reported after %d sends\n", sent);
}

int main(void)
{
    return nt_job(2, 256, 4, 4, FI_THREAD_SAFE, body);
}
