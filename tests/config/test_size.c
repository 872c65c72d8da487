/* config_size: byte sizes (LOOM_EAGER_MAX 0-1G): plain bytes or K, M, G suffixes (1024
 * multiples, any case), within the range; anything else is refused with the row's range. */
#include "config_test.h"

static void good(const char *value, long long expected)
{
    char err[512] = "";
    setenv("LOOM_EAGER_MAX", value, 1);
    if (loom__config_load(NULL, err, sizeof(err)) != 0) {
        fprintf(stderr, "LOOM_EAGER_MAX=\"%s\" rejected: %s\n", value, err);
        failures++;
        return;
    }
    CHECK_LL(loom__config_int(LOOM_CFG_EAGER_MAX), expected);
    CHECK_STR(loom__config_str(LOOM_CFG_EAGER_MAX), value);
}

static void bad(const char *value, const char *reason)
{
    char err[512] = "", expected[512];
    setenv("LOOM_EAGER_MAX", value, 1);
    if (loom__config_load(NULL, err, sizeof(err)) == 0) {
        fprintf(stderr, "LOOM_EAGER_MAX=\"%s\" accepted as %lld, expected an error\n", value,
                loom__config_int(LOOM_CFG_EAGER_MAX));
        failures++;
        return;
    }
    snprintf(expected, sizeof(expected),
             "LOOM_EAGER_MAX=%s: accepts a byte size in 0-1G (K, M, G suffixes: 1024 "
             "multiples); %s",
             value, reason);
    CHECK_STR(err, expected);
}

int main(void)
{
    clear_loom_env();
    good("0", 0);
    good("4096", 4096);
    good("64K", 64 * 1024);
    good("64k", 64 * 1024);
    good("3M", 3 * 1024 * 1024);
    good("1G", 1LL << 30);
    good("1g", 1LL << 30);
    good("1073741824", 1LL << 30);
    const char *syntax = "not a byte count (digits with an optional K, M or G suffix)";
    bad("1073741825", "above the range");
    bad("1025M", "above the range");
    bad("2G", "above the range");
    bad("99999999999G", "too large");
    bad("-1", syntax);
    bad("64KB", syntax);
    bad("64T", syntax);
    bad("K", syntax);
    bad("1.5K", syntax);
    bad(" 64K", syntax);
    bad("", "the value is empty");
    /* The last good value stays in effect after the failed loads. */
    CHECK_LL(loom__config_int(LOOM_CFG_EAGER_MAX), 1LL << 30);
    return finish("config_size");
}
