/* config_bool: booleans (LOOM_WARN_UNFINALIZED): 0/1, yes/no, true/false, on/off in any case;
 * anything else is refused with the list of accepted words. */
#include "config_test.h"

static void good(const char *value, long long expected)
{
    char err[512] = "";
    setenv("LOOM_WARN_UNFINALIZED", value, 1);
    if (loom__config_load(NULL, err, sizeof(err)) != 0) {
        fprintf(stderr, "LOOM_WARN_UNFINALIZED=\"%s\" rejected: %s\n", value, err);
        failures++;
        return;
    }
    CHECK_LL(loom__config_int(LOOM_CFG_WARN_UNFINALIZED), expected);
}

static void bad(const char *value)
{
    char err[512] = "", expected[512];
    setenv("LOOM_WARN_UNFINALIZED", value, 1);
    if (loom__config_load(NULL, err, sizeof(err)) == 0) {
        fprintf(stderr, "LOOM_WARN_UNFINALIZED=\"%s\" accepted, expected an error\n", value);
        failures++;
        return;
    }
    snprintf(expected, sizeof(expected),
             "LOOM_WARN_UNFINALIZED=%s: accepts 0|1 (also yes|no, true|false, on|off)", value);
    CHECK_STR(err, expected);
}

int main(void)
{
    clear_loom_env();
    good("0", 0);
    good("1", 1);
    good("no", 0);
    good("yes", 1);
    good("false", 0);
    good("true", 1);
    good("off", 0);
    good("on", 1);
    good("OFF", 0);
    good("True", 1);
    bad("2");
    bad("y");
    bad("n");
    bad("yes ");
    bad("");
    bad("10");
    return finish("config_bool");
}
