/* tests/topo/test_bind_smoke.c — the one test that uses this machine: bind the calling thread
 * to core 0 and check that it then runs there. Binding to a synthetic topology is a no-op. */
#include "topo_check.h"

int main(void)
{
    struct loom_topo *t;
    char err[512];
    CHECK_INT(loom__topo_load(NULL, &t, err, sizeof(err)), 0);
    const struct loom_cpuset *core0 = loom__topo_core_set(t, 0);
    CHECK(core0 != NULL);
    if (loom__topo_bind_thread(t, core0, err, sizeof(err)) < 0) {
        fprintf(stderr, "bind to core 0 (PUs %s): %s\n", topo_text(core0), err);
        topo_failures++;
    } else {
        int pu = loom__topo_current_pu();
        struct loom_cpuset *here = loom__cpuset_new();
        CHECK_INT(loom__cpuset_only(here, pu), 0);
        if (!loom__cpuset_is_subset(here, core0)) {
            fprintf(stderr, "after binding to core 0: running on PU %d, expected one of %s\n",
                    pu, topo_text(core0));
            topo_failures++;
        }
        loom__cpuset_free(here);
    }
    /* binding to a set outside the machine fails with a message */
    struct loom_cpuset *bad = loom__cpuset_new();
    CHECK_INT(loom__cpuset_parse(bad, "100000"), 0);
    err[0] = '\0';
    CHECK_INT(loom__topo_bind_thread(t, bad, err, sizeof(err)), -1);
    CHECK(strstr(err, "100000") != NULL);
    loom__topo_destroy(t);

    /* a synthetic machine: binding does nothing and succeeds */
    t = topo_must_load("package:4 core:64 pu:8");
    CHECK_INT(loom__topo_bind_thread(t, loom__topo_core_set(t, 200), err, sizeof(err)), 0);
    loom__topo_destroy(t);
    loom__cpuset_free(bad);
    return topo_check_result();
}
