/* read_error.c — a read the peer refuses (argv[1]: "past_end" of what it exposed, or with a
 * "bad_key" it never gave) is reported through on_error with the read's ctx and the peer's
 * number, once, and never as done. One refused read per job: tcp;ofi_rxm drops the connection
 * that carried it, and what was in flight on it fails too. */
#include "net_test.h"

#include <rdma/fabric.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *error_ctx;
static int bad_key;

static void check_refused(struct nt *t, size_t len, uint64_t key, const char *what)
{
    char err[256];
    static unsigned char local[8192];
    int done = 0, rc;
    int errors = atomic_load(&t->errors);
    while ((rc = loom__fabric_read(t->f, 1, local, len, t->mr.addr, key, &done, err,
                                   sizeof err)) == 1)
        nt_poll(t);
    if (rc == -1) {
        /* Refused at once: also a right answer, with a reason. */
        printf("process 0: %s: refused at once: %s\n", what, err);
        CHECK(*err);
        return;
    }
    double give_up = nt_now() + NT_GIVE_UP;
    while (atomic_load(&t->errors) == errors) {
        nt_poll(t);
        CHECK(nt_now() < give_up);
    }
    CHECK_INT(atomic_load(&t->errors), errors + 1);
    CHECK_INT(t->error_peer, 1);
    CHECK(error_ctx == &done);
    CHECK_INT(done, 0);
    printf("process 0: %s: on_error\n", what);
}

static void body(struct nt *t)
{
    if (t->rank == 1) {
        static unsigned char mine[4096];
        struct loom_fabric_mr mr;
        char err[256];
        CHECK_INT(loom__fabric_expose(t->f, mine, sizeof mine, &mr, err, sizeof err), 0);
        struct nt_mrinfo info = {.h = {.type = NT_MRINFO, .from = 1}, .key = mr.key,
                                 .addr = mr.addr};
        nt_send(t, 0, &info, sizeof info);
        nt_drain(t);
        /* tcp;ofi_rxm drops the connection that carried a refused read: the end is agreed
         * through the parent. */
        nt_oob_barrier(t);
        loom__fabric_unexpose(t->f, &mr);
        return;
    }
    nt_wait(t, &t->have_mr, 1, "the peer's memory");
    if (bad_key)
        check_refused(t, 16, t->mr.key + 1000, "a read with a key never given");
    else
        check_refused(t, 8192, t->mr.key, "a read past the end");
    nt_oob_barrier(t);
}

static void on_error_ctx(void *ctx)
{
    error_ctx = ctx;
}

int main(int argc, char **argv)
{
    CHECK(argc == 2 && (!strcmp(argv[1], "past_end") || !strcmp(argv[1], "bad_key")));
    bad_key = !strcmp(argv[1], "bad_key");
    nt_on_error_hook = on_error_ctx;
    return nt_job(2, 256, 4, 4, FI_THREAD_SAFE, body);
}
