/* preset.c — loom sizes ofi_rxm's bounce buffers before libfabric starts (net/fabric_preset.c):
 * unset, the buffer becomes loom's message size and the count posted per connection keeps a
 * connection at rxm's default memory (128 × 16 KiB); what the user set stays, and the count
 * follows the user's buffer; under a shared receive pool the count is left alone; and
 * loom__fabric_rxm_buffer reads what rxm will read (its default when unset or unreadable). */
#include "check.h"
#include "net/fabric.h"

#include <stdlib.h>
#include <string.h>

static void clear(void)
{
    unsetenv("FI_OFI_RXM_BUFFER_SIZE");
    unsetenv("FI_OFI_RXM_MSG_RX_SIZE");
    unsetenv("FI_OFI_RXM_USE_SRX");
}

static void expect(const char *name, const char *want)
{
    const char *got = getenv(name);
    if (!want) {
        CHECK(got == NULL);
        return;
    }
    CHECK(got != NULL);
    CHECK(strcmp(got, want) == 0);
}

int main(void)
{
    clear();
    CHECK_INT((int)loom__fabric_rxm_buffer(), 16384); /* rxm's default */
    loom__fabric_preset(65608);
    expect("FI_OFI_RXM_BUFFER_SIZE", "65608");
    expect("FI_OFI_RXM_MSG_RX_SIZE", "31"); /* 128 * 16384 / 65608 */
    CHECK_INT((int)loom__fabric_rxm_buffer(), 65608);

    /* the user's buffer stays; the count follows it */
    clear();
    setenv("FI_OFI_RXM_BUFFER_SIZE", "4096", 1);
    loom__fabric_preset(65608);
    expect("FI_OFI_RXM_BUFFER_SIZE", "4096");
    expect("FI_OFI_RXM_MSG_RX_SIZE", "512");
    CHECK_INT((int)loom__fabric_rxm_buffer(), 4096);

    /* the user's count stays */
    clear();
    setenv("FI_OFI_RXM_MSG_RX_SIZE", "77", 1);
    loom__fabric_preset(32768);
    expect("FI_OFI_RXM_BUFFER_SIZE", "32768");
    expect("FI_OFI_RXM_MSG_RX_SIZE", "77");

    /* a shared receive pool: no count per connection */
    clear();
    setenv("FI_OFI_RXM_USE_SRX", "1", 1);
    loom__fabric_preset(65608);
    expect("FI_OFI_RXM_BUFFER_SIZE", "65608");
    expect("FI_OFI_RXM_MSG_RX_SIZE", NULL);

    /* a huge message: the count does not fall below a few buffers */
    clear();
    loom__fabric_preset((size_t)16 << 20);
    expect("FI_OFI_RXM_MSG_RX_SIZE", "8");

    /* what rxm cannot read leaves its default */
    clear();
    setenv("FI_OFI_RXM_BUFFER_SIZE", "12abc", 1);
    CHECK_INT((int)loom__fabric_rxm_buffer(), 16384);
    setenv("FI_OFI_RXM_BUFFER_SIZE", "0", 1);
    CHECK_INT((int)loom__fabric_rxm_buffer(), 16384);
    setenv("FI_OFI_RXM_BUFFER_SIZE", "", 1);
    CHECK_INT((int)loom__fabric_rxm_buffer(), 16384);
    return 0;
}
