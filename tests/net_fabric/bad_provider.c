/* bad_provider.c — FI_PROVIDER names a provider libfabric does not have: opening fails with
 * one line that names it. (ctest sets FI_PROVIDER=nosuchprovider.) */
#include "check.h"
#include "net/fabric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void on_recv(void *arg, const void *msg, size_t len) {}
static void on_read_done(void *arg, void *ctx) {}
static void on_error(void *arg, void *ctx, int peer, const char *why) {}

int main(void)
{
    const char *want = getenv("FI_PROVIDER");
    CHECK(want && *want);
    struct loom_fabric_handlers h = {NULL, on_recv, on_read_done, on_error, NULL};
    struct loom_fabric *f = (struct loom_fabric *)&h; /* must come back NULL */
    char err[256] = "";
    CHECK_INT(loom__fabric_open(4096, 4, 4, 0, &h, &f, err, sizeof err), -1);
    CHECK(f == NULL);
    printf("%s\n", err);
    CHECK(strstr(err, want) != NULL);
    CHECK(strchr(err, '\n') == NULL);
    /* Bad arguments are refused before libfabric is asked. */
    CHECK_INT(loom__fabric_open(0, 4, 4, 0, &h, &f, err, sizeof err), -1);
    CHECK(strstr(err, "loom__fabric_open") != NULL);
    return 0;
}
