/* tests/p2p/request_init.c — a new request has every field set, whatever its memory held
 * before (p2p/request.c sets the fields one by one instead of a memset: a field added to the
 * struct and forgotten there would keep the previous request's value).
 *
 * A request is filled with each of two byte patterns, initialized with loom__req_init_stack,
 * then the fields that start nonzero (magic, kind, heap) are checked and cleared, and the
 * struct's padding is cleared with the compiler's __builtin_clear_padding: what is left must be
 * zero bytes only. A field the initializer misses keeps the pattern and fails the check. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "p2p/request.h"

static void check_fill(unsigned char pattern)
{
    struct loom_request r;
    memset(&r, pattern, sizeof r);
    loom__req_init_stack(&r, LOOM_REQ_RECV);
    CHECK(r.obj.magic == LOOM_MAGIC_REQUEST);
    CHECK(r.kind == LOOM_REQ_RECV);
    CHECK(r.heap == 0);
    CHECK(r.owner == NULL); /* no rank thread here */
    r.obj.magic = 0;
    r.kind = 0;
    __builtin_clear_padding(&r);
    const unsigned char *b = (const unsigned char *)&r;
    for (size_t i = 0; i < sizeof r; i++) {
        if (b[i] != 0) {
            fprintf(stderr, "byte %zu of a new request holds 0x%02x (pattern 0x%02x): a field "
                    "is not set by request_init\n", i, b[i], pattern);
            CHECK(0);
        }
    }
}

int main(void)
{
    check_fill(0xa5);
    check_fill(0x5a);
    check_fill(0xff);
    printf("p2p_request_init: ok\n");
    return 0;
}
