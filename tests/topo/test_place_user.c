/* tests/topo/test_place_user.c — user:<set>,... binding lists and policy validation: the
 * good form, too few sets, PUs the topology lacks, bad syntax, unknown policies. */
#include "topo_check.h"

static void expect_fail(const struct loom_topo *t, const char *policy, int n, const char *part)
{
    struct loom_cpuset *sets[16];
    for (int i = 0; i < 16; i++)
        sets[i] = (struct loom_cpuset *)1;
    char err[512] = "";
    int rc = loom__topo_place(t, policy, n, sets, err, sizeof(err));
    if (rc != -1 || !strstr(err, part)) {
        fprintf(stderr, "place(\"%s\", %d): got rc %d, message \"%s\"; expected -1 and a "
                        "message containing \"%s\"\n", policy, n, rc, err, part);
        topo_failures++;
    }
    for (int i = 0; i < n; i++)
        CHECK(sets[i] == NULL); /* nothing left for the caller to free */
}

int main(void)
{
    struct loom_topo *t = topo_must_load("package:2 numa:1 l3:1 l2:2 core:2 pu:1");
    struct loom_cpuset *sets[16];
    char err[512];

    /* more sets than ranks: the extra ones are ignored */
    CHECK_INT(loom__topo_place(t, "user:0,1,2+3,2+3,4-7,4-7,4-7,4-7", 3, sets, err,
                               sizeof(err)), 0);
    CHECK_STR(topo_text(sets[0]), "0");
    CHECK_STR(topo_text(sets[1]), "1");
    CHECK_STR(topo_text(sets[2]), "2-3");
    for (int i = 0; i < 3; i++)
        loom__cpuset_free(sets[i]);
    CHECK_INT(loom__topo_place(t, "user:7,0+2-3", 2, sets, err, sizeof(err)), 0);
    CHECK_STR(topo_text(sets[0]), "7");
    CHECK_STR(topo_text(sets[1]), "0,2-3");
    loom__cpuset_free(sets[0]);
    loom__cpuset_free(sets[1]);

    expect_fail(t, "user:0,1,2+3", 4, "3 set(s) given for 4 ranks");
    expect_fail(t, "user:0,1,8", 3, "set 2 (8) names a PU that this topology lacks");
    expect_fail(t, "user:0,6-9", 2, "lacks");
    expect_fail(t, "user:0,,2", 3, "set 1");
    expect_fail(t, "user:0,3-1", 2, "set 1 \"3-1\"");
    expect_fail(t, "user:", 1, "set 0");
    expect_fail(t, "user:a", 1, "\"a\"");
    expect_fail(t, "Spread", 2, "accepted: spread");
    expect_fail(t, "numa", 2, "unknown binding policy \"numa\"");
    expect_fail(t, "compactx", 2, "compact, scatter, none, or user:");
    expect_fail(t, "spread", -1, "-1");

    /* policy_check: no topology, syntax only */
    const char *good[] = {"spread", "compact", "scatter", "none", "", NULL, "user:0",
                          "user:0,1,2+3,2+3,4-7,4-7,4-7,4-7", "user:999"};
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        err[0] = '\0';
        int rc = loom__topo_policy_check(good[i], err, sizeof(err));
        if (rc != 0) {
            fprintf(stderr, "policy_check(\"%s\"): got %d (%s), expected 0\n",
                    good[i] ? good[i] : "(null)", rc, err);
            topo_failures++;
        }
    }
    const char *bad[] = {"bind", "user", "user:", "user:1-", "user:0,,1", "user:0,", "core"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        err[0] = '\0';
        int rc = loom__topo_policy_check(bad[i], err, sizeof(err));
        if (rc != -1 || !err[0]) {
            fprintf(stderr, "policy_check(\"%s\"): got %d (%s), expected -1 and a message\n",
                    bad[i], rc, err);
            topo_failures++;
        }
    }
    CHECK_INT(loom__topo_policy_check("bind", err, sizeof(err)), -1);
    CHECK(strstr(err, loom__topo_policy_help()) != NULL);
    CHECK_INT(loom__topo_policy_check("bind", NULL, 0), -1);

    loom__topo_destroy(t);
    return topo_check_result();
}
