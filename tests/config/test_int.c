/* config_int: integers with a range (LOOM_NP 1-1048576, LOOM_SPIN 0-1000000000): good values
 * are taken, bad ones stop the load with "NAME=value: accepts an integer in lo-hi; reason"
 * and leave the settings in effect unchanged. */
#include "config_test.h"

static void good(const char *value, long long expected)
{
    char err[512] = "";
    setenv("LOOM_NP", value, 1);
    if (loom__config_load(NULL, err, sizeof(err)) != 0) {
        fprintf(stderr, "LOOM_NP=\"%s\" rejected: %s\n", value, err);
        failures++;
        return;
    }
    CHECK_LL(loom__config_int(LOOM_CFG_NP), expected);
    CHECK_STR(loom__config_str(LOOM_CFG_NP), value);
    CHECK_LL(loom__config_is_set(LOOM_CFG_NP), 1);
}

static void bad(const char *value, const char *reason)
{
    char err[512] = "", expected[512];
    long long before = loom__config_int(LOOM_CFG_NP);
    setenv("LOOM_NP", value, 1);
    if (loom__config_load(NULL, err, sizeof(err)) == 0) {
        fprintf(stderr, "LOOM_NP=\"%s\" accepted as %lld, expected an error\n", value,
                loom__config_int(LOOM_CFG_NP));
        failures++;
        return;
    }
    snprintf(expected, sizeof(expected), "LOOM_NP=%s: accepts an integer in 1-1048576; %s", value,
             reason);
    CHECK_STR(err, expected);
    CHECK_LL(loom__config_int(LOOM_CFG_NP), before); /* a failed load changes nothing */
}

int main(void)
{
    char err[512] = "";
    clear_loom_env();
    good("4", 4);
    good("1", 1);
    good("1048576", 1048576);
    good("+8", 8);
    good("007", 7);
    bad("0", "below the range");
    bad("-1", "below the range");
    bad("1048577", "above the range");
    bad("99999999999999999999", "too large");
    bad("x", "not a decimal integer");
    bad("4x", "not a decimal integer");
    bad(" 4", "not a decimal integer");
    bad("4 ", "not a decimal integer");
    bad("0x10", "not a decimal integer");
    bad("4K", "not a decimal integer"); /* suffixes are for byte sizes only */
    bad("", "the value is empty");
    unsetenv("LOOM_NP");

    /* Another row, with 0 in range, through loom__config_check. */
    CHECK_LL(loom__config_check(LOOM_CFG_SPIN, "0", err, sizeof(err)), 0);
    CHECK_LL(loom__config_check(LOOM_CFG_SPIN, "1000000000", err, sizeof(err)), 0);
    CHECK_LL(loom__config_check(LOOM_CFG_SPIN, "1000000001", err, sizeof(err)), -1);
    CHECK_STR(err, "LOOM_SPIN=1000000001: accepts an integer in 0-1000000000; above the range");
    setenv("LOOM_YIELD", "0", 1);
    CHECK_LL(loom__config_load(NULL, err, sizeof(err)), 0);
    CHECK_LL(loom__config_int(LOOM_CFG_YIELD), 0);
    CHECK_LL(loom__config_is_set(LOOM_CFG_YIELD), 1);
    CHECK_LL(loom__config_is_set(LOOM_CFG_NP), 0);
    CHECK_LL(loom__config_int(LOOM_CFG_NP), 1);

    /* A row of our own with a negative range. */
    struct loom_config_row r = {"LOOM_TEST", LOOM_CONFIG_INT, "0", "-5-5", NULL, "test"};
    long long v = 99;
    CHECK_LL(loom__config_parse(&r, "-5", &v, err, sizeof(err)), 0);
    CHECK_LL(v, -5);
    CHECK_LL(loom__config_parse(&r, "-6", &v, err, sizeof(err)), -1);
    CHECK_STR(err, "LOOM_TEST=-6: accepts an integer in -5-5; below the range");
    return finish("config_int");
}
