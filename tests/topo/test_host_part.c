/* tests/topo/test_host_part.c — the parts of a host's cores that node processes sharing it
 * take (topo/host_share.c): consecutive runs of cores in logical order, as even as integer
 * division makes them, a part's set holding every PU of its cores; none when the host has
 * fewer cores than node processes. Machines: 8 cores of 1 PU in 2 packages, and 6 cores of 2
 * PUs (PU indexes 2c and 2c + 1 on core c). */
#include "topo_check.h"

/* The PUs of part k of share on t, as text ("" when there is no part). */
static void part_text(const struct loom_topo *t, int k, int share, char *buf, size_t len)
{
    struct loom_cpuset *s = loom__topo_host_part(t, k, share);
    buf[0] = '\0';
    if (s)
        loom__cpuset_format(s, buf, len);
    loom__cpuset_free(s);
}

#define EXPECT_PART(t, k, share, want)                                                       \
    do {                                                                                     \
        char got_[256];                                                                      \
        part_text(t, k, share, got_, sizeof got_);                                           \
        CHECK_STR(got_, want);                                                               \
    } while (0)

int main(void)
{
    struct loom_topo *t = topo_must_load("package:2 core:4 pu:1");
    EXPECT_PART(t, 0, 1, "0-7"); /* alone: the whole host */
    EXPECT_PART(t, 0, 2, "0-3"); /* a package each */
    EXPECT_PART(t, 1, 2, "4-7");
    EXPECT_PART(t, 0, 3, "0-1"); /* [k*8/3, (k+1)*8/3): 0-1, 2-4, 5-7 */
    EXPECT_PART(t, 1, 3, "2-4");
    EXPECT_PART(t, 2, 3, "5-7");
    EXPECT_PART(t, 7, 8, "7"); /* a core each */
    EXPECT_PART(t, 0, 9, "");  /* more node processes than cores: no part */
    EXPECT_PART(t, 3, 3, "");  /* k out of range */
    EXPECT_PART(t, -1, 2, "");
    EXPECT_PART(t, 0, 0, "");
    loom__topo_destroy(t);

    t = topo_must_load("core:6 pu:2");
    EXPECT_PART(t, 0, 2, "0-5"); /* cores 0-2 with both their PUs */
    EXPECT_PART(t, 1, 2, "6-11");
    EXPECT_PART(t, 3, 4, "8-11"); /* [3*6/4, 6) = cores 4-5 */
    EXPECT_PART(t, 0, 7, "");     /* 12 PUs but 6 cores: parts are cut by cores */
    loom__topo_destroy(t);
    return topo_check_result();
}
