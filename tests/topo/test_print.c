/* tests/topo/test_print.c — loom-info's tree and placement table, read back from a file. */
#include "topo_check.h"

static char *printed(FILE *f)
{
    static char buf[16384];
    fflush(f);
    rewind(f);
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void contains(const char *text, const char *line)
{
    if (!strstr(text, line)) {
        fprintf(stderr, "output lacks \"%s\"; got:\n%s\n", line, text);
        topo_failures++;
    }
}

int main(void)
{
    struct loom_topo *t = topo_must_load("package:2 numa:1 l3:1 l2:2 core:2 pu:1");
    FILE *f = tmpfile();
    loom__topo_print_tree(t, f);
    const char *out = printed(f);
    contains(out, "topology: synthetic: package:2 numa:1 l3:1 l2:2 core:2 pu:1 "
                  "(2 NUMA nodes, 8 cores, 8 PUs)\n");
    contains(out, "\nMachine L#0  cpus 0-7\n  Package L#0  cpus 0-3\n"
                  "    NUMANode L#0  cpus 0-3\n    L3Cache L#0  cpus 0-3\n"
                  "      L2Cache L#0  cpus 0-1\n        Core L#0  cpus 0\n"
                  "          PU L#0  cpus 0\n");
    contains(out, "\n  Package L#1  cpus 4-7\n    NUMANode L#1  cpus 4-7\n");
    contains(out, "\n          PU L#7  cpus 7\n");

    char err[512];
    f = tmpfile();
    CHECK_INT(loom__topo_print_placement(t, "spread", 6, f, err, sizeof(err)), 0);
    out = printed(f);
    contains(out, "rank   cpuset               core   numa\n");
    contains(out, "\n0      0                    0      0\n");
    contains(out, "\n3      4                    4      1\n");
    contains(out, "\n5      6                    6      1\n");

    f = tmpfile();
    CHECK_INT(loom__topo_print_placement(t, "user:0-1,3-4", 2, f, err, sizeof(err)), 0);
    out = printed(f);
    contains(out, "\n0      0-1                  -      0\n");
    contains(out, "\n1      3-4                  -      -\n");

    f = tmpfile();
    CHECK_INT(loom__topo_print_placement(t, "bogus", 2, f, err, sizeof(err)), -1);
    CHECK(strstr(err, "bogus") != NULL);
    fclose(f);
    loom__topo_destroy(t);
    return topo_check_result();
}
