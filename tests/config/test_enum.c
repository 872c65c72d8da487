/* config_enum: keyword rows (one of a '|'-separated list; the value is the word's index). The
 * table has no keyword row yet, so the test checks rows of its own through loom__config_parse,
 * the validator loom__config_load uses. */
#include "config_test.h"

int main(void)
{
    char err[512] = "";
    long long v = -1;
    struct loom_config_row r = {"LOOM_PROGRESS", LOOM_CONFIG_ENUM, "inline",
                                "inline|collaborative|thread", NULL, "test"};
    CHECK_LL(loom__config_parse(&r, "inline", &v, err, sizeof(err)), 0);
    CHECK_LL(v, 0);
    CHECK_LL(loom__config_parse(&r, "collaborative", &v, err, sizeof(err)), 0);
    CHECK_LL(v, 1);
    CHECK_LL(loom__config_parse(&r, "thread", &v, err, sizeof(err)), 0);
    CHECK_LL(v, 2);
    const char *bad[] = {"inlin", "threads", "Thread", "", "inline|thread", "|", "collaborative "};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char expected[512];
        v = 42;
        if (loom__config_parse(&r, bad[i], &v, err, sizeof(err)) == 0) {
            fprintf(stderr, "\"%s\" accepted as %lld, expected an error\n", bad[i], v);
            failures++;
            continue;
        }
        CHECK_LL(v, 42); /* untouched on error */
        snprintf(expected, sizeof(expected),
                 "LOOM_PROGRESS=%s: accepts inline|collaborative|thread", bad[i]);
        CHECK_STR(err, expected);
    }
    /* One word; a word that is a prefix of another. */
    struct loom_config_row one = {"LOOM_ONE", LOOM_CONFIG_ENUM, "a", "a", NULL, "test"};
    CHECK_LL(loom__config_parse(&one, "a", &v, err, sizeof(err)), 0);
    CHECK_LL(v, 0);
    CHECK_LL(loom__config_parse(&one, "ab", &v, err, sizeof(err)), -1);
    struct loom_config_row pre = {"LOOM_PRE", LOOM_CONFIG_ENUM, "ab", "ab|a", NULL, "test"};
    CHECK_LL(loom__config_parse(&pre, "a", &v, err, sizeof(err)), 0);
    CHECK_LL(v, 1);
    /* NULL row or value. */
    CHECK_LL(loom__config_parse(NULL, "a", &v, err, sizeof(err)), -1);
    CHECK_LL(loom__config_parse(&one, NULL, &v, err, sizeof(err)), -1);
    return finish("config_enum");
}
