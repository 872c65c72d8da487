/* tests/topo/test_cpuset.c — CPU set text: parse and format round trips, strict rejects, and
 * the set operations the rest of loom relies on. */
#include "topo_check.h"

/* parse text, then format it: must give want */
static void round_trip(const char *text, const char *want)
{
    struct loom_cpuset *s = loom__cpuset_new();
    CHECK(s != NULL);
    CHECK_INT(loom__cpuset_parse(s, text), 0);
    CHECK_STR(topo_text(s), want);
    /* and the formatted text parses back to the same set */
    struct loom_cpuset *again = loom__cpuset_new();
    char buf[256];
    loom__cpuset_format(s, buf, sizeof(buf));
    CHECK_INT(loom__cpuset_parse(again, buf), 0);
    CHECK_INT(loom__cpuset_equal(s, again), 1);
    loom__cpuset_free(again);
    loom__cpuset_free(s);
}

static void rejected(const char *text)
{
    struct loom_cpuset *s = loom__cpuset_new();
    CHECK_INT(loom__cpuset_parse(s, "9"), 0);
    int rc = loom__cpuset_parse(s, text);
    if (rc != -1) {
        fprintf(stderr, "parse(\"%s\") got %d, expected -1\n", text, rc);
        topo_failures++;
    }
    CHECK_STR(topo_text(s), "9"); /* unchanged after a reject */
    loom__cpuset_free(s);
}

int main(void)
{
    round_trip("2+3", "2-3");
    round_trip("4-7", "4-7");
    round_trip("0+2-3", "0,2-3");
    round_trip("0-3,6", "0-3,6");
    round_trip("7", "7");
    round_trip("3+1+2", "1-3");
    round_trip("1+1", "1");
    round_trip("0-1+5-5+9+10+11", "0-1,5,9-11");
    round_trip("255", "255");

    rejected("1-");
    rejected("a");
    rejected("3-1");
    rejected("");
    rejected("+1");
    rejected("1+");
    rejected("1,,2");
    rejected(" 1");
    rejected("-1");
    rejected("1-2-3");
    rejected("2 ");
    rejected("99999999999");
    CHECK_INT(loom__cpuset_parse(NULL, "1"), -1);

    struct loom_cpuset *a = loom__cpuset_new(), *b = loom__cpuset_new();
    /* empty set */
    char buf[16] = "x";
    CHECK_INT(loom__cpuset_format(a, buf, sizeof(buf)), 0);
    CHECK_STR(buf, "");
    CHECK_INT(loom__cpuset_weight(a), 0);
    CHECK_INT(loom__cpuset_first(a), -1);

    /* truncation: snprintf-like length */
    CHECK_INT(loom__cpuset_parse(a, "0-3,6"), 0);
    CHECK_INT(loom__cpuset_format(a, buf, 4), 5);
    CHECK_STR(buf, "0-3");
    CHECK_INT(loom__cpuset_format(a, NULL, 0), 5);
    CHECK_INT(loom__cpuset_weight(a), 5);
    CHECK_INT(loom__cpuset_first(a), 0);

    /* relations */
    CHECK_INT(loom__cpuset_parse(b, "2+3"), 0);
    CHECK_INT(loom__cpuset_is_subset(b, a), 1);
    CHECK_INT(loom__cpuset_is_subset(a, b), 0);
    CHECK_INT(loom__cpuset_intersects(a, b), 1);
    CHECK_INT(loom__cpuset_equal(a, b), 0);
    struct loom_cpuset *c = loom__cpuset_dup(b);
    CHECK_INT(loom__cpuset_equal(c, b), 1);
    CHECK_INT(loom__cpuset_parse(c, "7-8"), 0);
    CHECK_INT(loom__cpuset_intersects(a, c), 0);
    CHECK_STR(topo_text(b), "2-3"); /* dup is a copy, not an alias */
    loom__cpuset_or(c, b);
    CHECK_STR(topo_text(c), "2-3,7-8");
    CHECK_INT(loom__cpuset_only(c, 5), 0);
    CHECK_STR(topo_text(c), "5");
    CHECK_INT(loom__cpuset_only(c, -1), -1);

    loom__cpuset_free(a);
    loom__cpuset_free(b);
    loom__cpuset_free(c);
    loom__cpuset_free(NULL);
    return topo_check_result();
}
