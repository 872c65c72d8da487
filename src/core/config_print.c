/* core/config_print.c — the configuration table for people: the listing of
 * `loom-info --config` (values in effect) and the text of docs/config.md (defaults only, so
 * it is the same on every machine and in every environment; the test config_docs_drift
 * compares it with the committed file). Both are made from the rows of config_table.h. */
#include <string.h>

#include "core/config.h"

void loom__config_print(FILE *f)
{
    char accepts[512];
    for (int i = 0; i < LOOM_CFG_COUNT_; i++) {
        enum loom_config_id id = (enum loom_config_id)i;
        const struct loom_config_row *r = loom__config_row(id);
        const char *q = r->type == LOOM_CONFIG_STRING ? "\"" : "";
        loom__config_describe(r, accepts, sizeof(accepts));
        static const char *const origin[] = {"default", "environment", "MPI_T_cvar_write"};
        fprintf(f, "%s = %s%s%s  (%s)\n", r->name, q, loom__config_str(id), q,
                origin[loom__config_origin(id)]);
        fprintf(f, "    %s\n", r->doc);
        fprintf(f, "    accepts %s; default %s%s%s\n", accepts, q, r->def, q);
    }
}

/* Write s as Markdown text: '<', '>' and '&' become entities outside `code spans`, so
 * "user:<set>" is not taken for an HTML tag. */
static void md_text(FILE *f, const char *s)
{
    int code = 0;
    for (; *s; s++) {
        if (*s == '`')
            code = !code;
        if (!code && *s == '<')
            fputs("&lt;", f);
        else if (!code && *s == '>')
            fputs("&gt;", f);
        else if (!code && *s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

void loom__config_write_markdown(FILE *f)
{
    char accepts[512];
    fputs("<!-- Generated from src/core/config_table.h by `loom-info --config-markdown > "
          "docs/config.md`; do not edit by hand (the test config_docs_drift checks it). -->\n"
          "# loom configuration\n"
          "\n"
          "loom reads these environment variables once, when the program starts and before any "
          "rank runs.\n"
          "A bad value stops the program with a message naming the variable and what it "
          "accepts; a `LOOM_*`\n"
          "name that loom does not know draws a warning naming the closest known one.\n"
          "`loom-info --config` lists the values in effect.\n"
          "Settings marked *run time* are read again each time they are used: a program may "
          "change them\n"
          "while it runs by writing their MPI_T control variable (docs/mpit.md); the others "
          "are fixed once\n"
          "the program has started.\n"
          "\n",
          f);
    for (int i = 0; i < LOOM_CFG_COUNT_; i++) {
        const struct loom_config_row *r = loom__config_row((enum loom_config_id)i);
        fprintf(f, "- [`%s`](#", r->name);
        for (const char *c = r->name; *c; c++)
            fputc(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c, f);
        fputs("): ", f);
        md_text(f, r->doc);
        fputc('\n', f);
    }
    for (int i = 0; i < LOOM_CFG_COUNT_; i++) {
        enum loom_config_id id = (enum loom_config_id)i;
        const struct loom_config_row *r = loom__config_row(id);
        loom__config_describe(r, accepts, sizeof(accepts));
        fprintf(f, "\n## `%s`\n\n", r->name);
        md_text(f, r->doc);
        fprintf(f, ".\n\n- Type: %s\n- Default: ", loom__config_type_name(r->type));
        if (*r->def)
            fprintf(f, "`%s`\n", r->def);
        else
            fputs("empty\n", f);
        fputs("- Accepts: ", f);
        md_text(f, accepts);
        fprintf(f, "\n- Changes: %s\n",
                loom__config_is_live(id) ? "run time (MPI_T_cvar_write)" : "at start only");
    }
}
