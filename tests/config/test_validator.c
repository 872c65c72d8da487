/* config_validator: string rows. LOOM_BIND goes through its validator (topo's policy check)
 * and a refusal carries the validator's reason after what the row accepts; LOOM_TOPOLOGY has
 * no validator and takes any text; a row of our own checks that the validator sees the value
 * and that its reason reaches the message. */
#include "config_test.h"

static int calls;
static char seen[64];

static int even_length(const char *value, char *err, size_t errlen)
{
    calls++;
    snprintf(seen, sizeof(seen), "%s", value);
    if (strlen(value) % 2 == 0)
        return 0;
    snprintf(err, errlen, "length %zu is odd", strlen(value));
    return -1;
}

static int silent_no(const char *value, char *err, size_t errlen)
{
    return -1; /* refuses without a reason */
}

int main(void)
{
    char err[512] = "";
    clear_loom_env();

    const char *good[] = {"compact", "scatter", "spread", "none", "user:0,1,2+3,4-7"};
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        setenv("LOOM_BIND", good[i], 1);
        if (loom__config_load(NULL, err, sizeof(err)) != 0) {
            fprintf(stderr, "LOOM_BIND=%s rejected: %s\n", good[i], err);
            failures++;
            continue;
        }
        CHECK_STR(loom__config_str(LOOM_CFG_BIND), good[i]);
        CHECK_LL(loom__config_is_set(LOOM_CFG_BIND), 1);
        CHECK_LL(loom__config_int(LOOM_CFG_BIND), 0);
    }
    const char *bad[] = {"foo", "Compact", "user:x", "user:3-1"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char prefix[256];
        setenv("LOOM_BIND", bad[i], 1);
        if (loom__config_load(NULL, err, sizeof(err)) == 0) {
            fprintf(stderr, "LOOM_BIND=%s accepted, expected an error\n", bad[i]);
            failures++;
            continue;
        }
        snprintf(prefix, sizeof(prefix),
                 "LOOM_BIND=%s: accepts compact|scatter|spread|none|user:<set>,<set>,...; ",
                 bad[i]);
        CHECK(strncmp(err, prefix, strlen(prefix)) == 0);
        CHECK(strlen(err) > strlen(prefix)); /* the validator's reason follows */
        if (strncmp(err, prefix, strlen(prefix)) != 0)
            fprintf(stderr, "  got \"%s\"\n  expected it to start with \"%s\"\n", err, prefix);
    }
    CHECK_STR(loom__config_str(LOOM_CFG_BIND), "user:0,1,2+3,4-7"); /* last good one */
    unsetenv("LOOM_BIND");

    setenv("LOOM_TOPOLOGY", "package:2 numa:1 l3:1 l2:2 core:2 pu:1", 1);
    CHECK_LL(loom__config_load(NULL, err, sizeof(err)), 0);
    CHECK_STR(loom__config_str(LOOM_CFG_TOPOLOGY), "package:2 numa:1 l3:1 l2:2 core:2 pu:1");
    CHECK_STR(loom__config_str(LOOM_CFG_BIND), "spread");
    setenv("LOOM_TOPOLOGY", "", 1); /* empty, set: this machine */
    CHECK_LL(loom__config_load(NULL, err, sizeof(err)), 0);
    CHECK_STR(loom__config_str(LOOM_CFG_TOPOLOGY), "");
    CHECK_LL(loom__config_is_set(LOOM_CFG_TOPOLOGY), 1);

    struct loom_config_row r = {"LOOM_EVEN", LOOM_CONFIG_STRING, "", "text of even length",
                                even_length, "test"};
    CHECK_LL(loom__config_parse(&r, "abcd", NULL, err, sizeof(err)), 0);
    CHECK_LL(calls, 1);
    CHECK_STR(seen, "abcd");
    CHECK_LL(loom__config_parse(&r, "abc", NULL, err, sizeof(err)), -1);
    CHECK_LL(calls, 2);
    CHECK_STR(err, "LOOM_EVEN=abc: accepts text of even length; length 3 is odd");
    struct loom_config_row s = {"LOOM_NO", LOOM_CONFIG_STRING, "", "nothing", silent_no, "t"};
    CHECK_LL(loom__config_parse(&s, "x", NULL, err, sizeof(err)), -1);
    CHECK_STR(err, "LOOM_NO=x: accepts nothing; rejected");
    /* err may be NULL. */
    CHECK_LL(loom__config_parse(&s, "x", NULL, NULL, 0), -1);
    return finish("config_validator");
}
