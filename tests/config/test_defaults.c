/* config_defaults: with no LOOM_* variable set, every setting reads as its default, both
 * before loom__config_load has ever run and after; and every default is a value its own row
 * accepts (a table bug otherwise). */
#include "config_test.h"

static void check_defaults(const char *when)
{
    fprintf(stderr, "-- %s\n", when);
    CHECK_LL(loom__config_int(LOOM_CFG_NP), 1);
    CHECK_STR(loom__config_str(LOOM_CFG_NP), "1");
    CHECK_STR(loom__config_str(LOOM_CFG_BIND), "spread");
    CHECK_STR(loom__config_str(LOOM_CFG_TOPOLOGY), "");
    CHECK_LL(loom__config_int(LOOM_CFG_SPIN), 200);
    CHECK_LL(loom__config_int(LOOM_CFG_YIELD), 20);
    CHECK_LL(loom__config_int(LOOM_CFG_EAGER_MAX), 16 * 1024);
    CHECK_STR(loom__config_str(LOOM_CFG_EAGER_MAX), "16K");
    CHECK_LL(loom__config_int(LOOM_CFG_WARN_UNFINALIZED), 1);
    for (int i = 0; i < LOOM_CFG_COUNT_; i++)
        CHECK_LL(loom__config_is_set((enum loom_config_id)i), 0);
}

static int warnings;
static void count_warning(const char *msg)
{
    fprintf(stderr, "unexpected warning: %s\n", msg);
    warnings++;
}

int main(void)
{
    char err[512];
    clear_loom_env();

    /* Every row: a name LOOM_*, a doc line, a default its own row accepts. */
    for (int i = 0; i < LOOM_CFG_COUNT_; i++) {
        enum loom_config_id id = (enum loom_config_id)i;
        const struct loom_config_row *r = loom__config_row(id);
        CHECK(r != NULL);
        CHECK(strncmp(loom__config_name(id), "LOOM_", 5) == 0);
        CHECK(r->doc[0] != '\0' && !strchr(r->doc, '\n'));
        if (loom__config_check(id, r->def, err, sizeof(err)) != 0) {
            fprintf(stderr, "default of %s rejected: %s\n", r->name, err);
            failures++;
        }
        CHECK(r->type == LOOM_CONFIG_STRING || r->check == NULL);
    }
    CHECK(loom__config_row(LOOM_CFG_COUNT_) == NULL);
    CHECK(loom__config_name(LOOM_CFG_COUNT_) == NULL);
    CHECK_STR(loom__config_name(LOOM_CFG_EAGER_MAX), "LOOM_EAGER_MAX");

    check_defaults("never loaded");
    CHECK_LL(loom__config_load(count_warning, err, sizeof(err)), 0);
    CHECK_LL(warnings, 0);
    check_defaults("loaded from an empty environment");
    return finish("config_defaults");
}
