/* net/fabric_preset.c — what loom asks of libfabric's ofi_rxm layer before libfabric starts.
 *
 * ofi_rxm (the reliable-datagram layer over tcp and verbs) copies a message through bounce
 * buffers of FI_OFI_RXM_BUFFER_SIZE bytes (16 KiB by default). A message that does not fit one
 * is cut into segments by rxm's own protocol, which on TCP costs about as much as loom's read
 * of a large message (measured on loopback: a 16 KiB message 26 µs where one that fits takes
 * 10 µs). loom already sends large messages by a read of its own, so the two protocols should
 * switch at the same size: loom sizes rxm's buffers to its largest eager message, and if the
 * user sized them, loom's eager messages fit what the user chose.
 *
 * Larger buffers cost memory per connection: rxm posts FI_OFI_RXM_MSG_RX_SIZE of them (128)
 * on each peer it talks to. loom lowers that count so that a connection holds what rxm's
 * defaults give it (128 × 16 KiB = 2 MiB), whatever the buffer size. Either variable set by
 * the user is left as it is, as is the count under FI_OFI_RXM_USE_SRX (one shared pool).
 *
 * libfabric reads its providers' variables once, when it first starts; the preset runs before
 * the first libfabric call and before the bootstrap starts any thread (setenv is not safe
 * beside another thread's getenv). */
#include "net/fabric.h"

#include <stdio.h>
#include <stdlib.h>

/* rxm's defaults (libfabric's ofi_rxm documentation): a bounce buffer, and how many it posts
 * per connection. */
#define RXM_DEFAULT_BUFFER ((size_t)16384)
#define RXM_DEFAULT_RX_COUNT ((size_t)128)
/* However large the buffers, a connection keeps a few posted, so that a short burst of
 * messages does not wait for the receiver to repost one. */
#define RXM_MIN_RX_COUNT ((size_t)8)

static int set_default(const char *name, size_t value)
{
    char text[32];
    snprintf(text, sizeof text, "%zu", value);
    return setenv(name, text, 0); /* 0: a value the user set stays */
}

void loom__fabric_preset(size_t msg_max)
{
    set_default("FI_OFI_RXM_BUFFER_SIZE", msg_max);
    if (getenv("FI_OFI_RXM_USE_SRX"))
        return;
    size_t count = RXM_DEFAULT_RX_COUNT * RXM_DEFAULT_BUFFER / loom__fabric_rxm_buffer();
    set_default("FI_OFI_RXM_MSG_RX_SIZE", count < RXM_MIN_RX_COUNT ? RXM_MIN_RX_COUNT : count);
}

size_t loom__fabric_rxm_buffer(void)
{
    const char *v = getenv("FI_OFI_RXM_BUFFER_SIZE");
    if (!v || !*v)
        return RXM_DEFAULT_BUFFER;
    char *end;
    unsigned long long n = strtoull(v, &end, 0);
    /* libfabric reads it as a plain integer; what it cannot read leaves rxm's default */
    return *end || n == 0 ? RXM_DEFAULT_BUFFER : (size_t)n;
}
