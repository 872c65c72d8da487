/* tests/p2p/request_init.c — a new heap request has every field set, whatever its memory held
 * before (p2p/request.c sets the fields one by one instead of a memset: a field added to the
 * struct and forgotten there would keep the previous request's value).
 *
 * A request is made and given back (it goes to the pool of freed requests, which hands it out
 * again next), its memory is then filled with a byte pattern (its pool link kept), and the
 * next request made must be that one. The fields that start nonzero (magic, kind, heap) are
 * checked and cleared, the struct's padding is cleared with the compiler's
 * __builtin_clear_padding, and what is left must be zero bytes only: a field the initializer
 * misses keeps the pattern and fails the check. A stack request (memset) is checked the same
 * way. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "p2p/request.h"

/* r, just initialized as a request of kind `kind` (heap or not) over a byte pattern: every
 * byte but padding and the nonzero fields must be zero. */
static void check_zeroed(struct loom_request *r, int kind, int heap, unsigned char pattern)
{
    CHECK(r->obj.magic == LOOM_MAGIC_REQUEST);
    CHECK_INT(r->kind, kind);
    CHECK_INT(r->heap, heap);
    CHECK(r->owner == NULL); /* no rank thread here */
    struct loom_request copy = *r;
    copy.obj.magic = 0;
    copy.kind = 0;
    copy.heap = 0;
    __builtin_clear_padding(&copy);
    const unsigned char *b = (const unsigned char *)&copy;
    for (size_t i = 0; i < sizeof copy; i++) {
        if (b[i] != 0) {
            fprintf(stderr, "byte %zu of a new request holds 0x%02x (pattern 0x%02x): a field "
                    "is not set when a request is made\n", i, b[i], pattern);
            CHECK(0);
        }
    }
}

static void check_fill(unsigned char pattern)
{
    struct loom_request *r = loom__req_new(LOOM_REQ_SEND);
    CHECK(r != NULL);
    loom__req_discard(r); /* pooled (no rank thread here: the shared pool) */
    struct loom_request *link = r->next;
    memset(r, pattern, sizeof *r);
    r->next = link;
    struct loom_request *again = loom__req_new(LOOM_REQ_RECV);
    CHECK(again == r);
    check_zeroed(r, LOOM_REQ_RECV, 1, pattern);
    loom__req_discard(r);

    struct loom_request s;
    memset(&s, pattern, sizeof s);
    loom__req_init_stack(&s, LOOM_REQ_SEND);
    check_zeroed(&s, LOOM_REQ_SEND, 0, pattern);
}

int main(void)
{
    check_fill(0xa5);
    check_fill(0x5a);
    check_fill(0xff);
    loom__req_pool_drain();
    printf("p2p_request_init: ok\n");
    return 0;
}
