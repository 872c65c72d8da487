/* config_print: the listing names every variable with its value in effect and where it came
 * from; the Markdown says it is generated and how, and documents every variable. */
#include "config_test.h"

static char *capture(void (*fn)(FILE *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fn(f);
    fclose(f);
    return buf; /* freed by the caller */
}

int main(void)
{
    char err[512] = "";
    clear_loom_env();
    setenv("LOOM_BIND", "compact", 1);
    setenv("LOOM_EAGER_MAX", "48K", 1);
    CHECK_LL(loom__config_load(NULL, err, sizeof(err)), 0);

    char *text = capture(loom__config_print);
    CHECK(text != NULL);
    CHECK_HAS(text, "LOOM_BIND = \"compact\"  (environment)");
    CHECK_HAS(text, "LOOM_EAGER_MAX = 48K  (environment)");
    CHECK_HAS(text, "LOOM_NP = 1  (default)");
    CHECK_HAS(text, "LOOM_TOPOLOGY = \"\"  (default)");
    CHECK_HAS(text, "accepts an integer in 1-1048576");
    for (int i = 0; i < LOOM_CFG_COUNT_; i++) {
        const struct loom_config_row *r = loom__config_row((enum loom_config_id)i);
        CHECK_HAS(text, r->name);
        CHECK_HAS(text, r->doc);
    }
    free(text);

    char *md = capture(loom__config_write_markdown);
    CHECK(md != NULL);
    CHECK(md && strncmp(md, "<!-- Generated", 14) == 0);
    CHECK_HAS(md, "loom-info --config-markdown > docs/config.md");
    CHECK_HAS(md, "## `LOOM_NP`");
    CHECK_HAS(md, "- Default: `spread`");
    CHECK_HAS(md, "user:&lt;set&gt;"); /* not taken for an HTML tag */
    for (int i = 0; i < LOOM_CFG_COUNT_; i++) {
        const struct loom_config_row *r = loom__config_row((enum loom_config_id)i);
        char heading[128];
        snprintf(heading, sizeof(heading), "## `%s`", r->name);
        CHECK_HAS(md, heading);
    }
    /* The docs show defaults, never the environment. */
    CHECK(md && !strstr(md, "compact\n") && !strstr(md, "48K`"));
    free(md);
    return finish("config_print");
}
