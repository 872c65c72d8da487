/* tests/topo/test_load.c — loading synthetic descriptions, XML files (written here from a
 * synthetic topology through hwloc itself) and this machine; bad specs fail with a message
 * that names them. */
#include <hwloc.h>
#include <unistd.h>

#include "topo_check.h"

static void fig1(void)
{
    const char *spec = "package:2 numa:1 l3:1 l2:2 core:2 pu:1";
    struct loom_topo *t = topo_must_load(spec);
    CHECK_STR(loom__topo_source(t), "synthetic: package:2 numa:1 l3:1 l2:2 core:2 pu:1");
    CHECK_INT(loom__topo_is_this_system(t), 0);
    CHECK_INT(loom__topo_ncores(t), 8);
    CHECK_INT(loom__topo_npus(t), 8);
    CHECK_INT(loom__topo_nnuma(t), 2);
    CHECK_STR(topo_text(loom__topo_machine_set(t)), "0-7");
    CHECK_STR(topo_text(loom__topo_core_set(t, 3)), "3");
    CHECK_STR(topo_text(loom__topo_numa_set(t, 0)), "0-3");
    CHECK_STR(topo_text(loom__topo_numa_set(t, 1)), "4-7");
    CHECK(loom__topo_core_set(t, 8) == NULL);
    CHECK(loom__topo_core_set(t, -1) == NULL);
    CHECK(loom__topo_numa_set(t, 2) == NULL);
    loom__topo_destroy(t);
}

static void shapes(void)
{
    /* no numa level: still one NUMA node holding every PU */
    struct loom_topo *t = topo_must_load("core:4 pu:2");
    CHECK_INT(loom__topo_nnuma(t), 1);
    CHECK_INT(loom__topo_ncores(t), 4);
    CHECK_INT(loom__topo_npus(t), 8);
    CHECK_STR(topo_text(loom__topo_numa_set(t, 0)), "0-7");
    CHECK_STR(topo_text(loom__topo_core_set(t, 2)), "4-5");
    loom__topo_destroy(t);

    /* KNL SNC-4: 4 NUMA nodes of 16 cores of 4 PUs */
    t = topo_must_load("package:1 numa:4 l2:8 core:2 pu:4");
    CHECK_INT(loom__topo_nnuma(t), 4);
    CHECK_INT(loom__topo_ncores(t), 64);
    CHECK_INT(loom__topo_npus(t), 256);
    CHECK_STR(topo_text(loom__topo_core_set(t, 17)), "68-71");
    CHECK_STR(topo_text(loom__topo_numa_set(t, 2)), "128-191");
    loom__topo_destroy(t);
}

static void xml(void)
{
    const char *spec = "package:2 numa:1 l3:1 core:3 pu:2";
    hwloc_topology_t h;
    CHECK_INT(hwloc_topology_init(&h), 0);
    CHECK_INT(hwloc_topology_set_synthetic(h, spec), 0);
    CHECK_INT(hwloc_topology_load(h), 0);
    char path[] = "/tmp/loom-topo-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    CHECK_INT(hwloc_topology_export_xml(h, path, 0), 0);
    hwloc_topology_destroy(h);

    struct loom_topo *t;
    char err[512] = "";
    CHECK_INT(loom__topo_load(path, &t, err, sizeof(err)), 0);
    if (t) {
        char want[64];
        snprintf(want, sizeof(want), "xml: %s", path);
        CHECK_STR(loom__topo_source(t), want);
        CHECK_INT(loom__topo_is_this_system(t), 0);
        CHECK_INT(loom__topo_ncores(t), 6);
        CHECK_INT(loom__topo_npus(t), 12);
        CHECK_INT(loom__topo_nnuma(t), 2);
        CHECK_STR(topo_text(loom__topo_numa_set(t, 1)), "6-11");
        CHECK_STR(topo_text(loom__topo_core_set(t, 4)), "8-9");
        loom__topo_destroy(t);
    } else {
        fprintf(stderr, "xml load: %s\n", err);
    }

    /* an existing file that is not XML: XML is tried, and the message names the file */
    FILE *f = fopen(path, "w");
    fputs("this is not xml\n", f);
    fclose(f);
    err[0] = '\0';
    t = (struct loom_topo *)1;
    CHECK_INT(loom__topo_load(path, &t, err, sizeof(err)), -1);
    CHECK(t == NULL);
    CHECK(strstr(err, path) != NULL);
    CHECK(strstr(err, "XML") != NULL);
    unlink(path);
}

static void bad(const char *spec)
{
    struct loom_topo *t = (struct loom_topo *)1;
    char err[512] = "";
    int rc = loom__topo_load(spec, &t, err, sizeof(err));
    if (rc != -1 || t != NULL || !strstr(err, spec)) {
        fprintf(stderr, "load(\"%s\"): got rc %d, message \"%s\"; expected -1 and a message "
                        "naming the spec\n", spec, rc, err);
        topo_failures++;
    }
    if (t && t != (struct loom_topo *)1)
        loom__topo_destroy(t);
    /* a NULL err buffer is allowed */
    CHECK_INT(loom__topo_load(spec, &t, NULL, 0), -1);
}

static void this_machine(void)
{
    struct loom_topo *t;
    char err[256];
    CHECK_INT(loom__topo_load(NULL, &t, err, sizeof(err)), 0);
    CHECK_INT(loom__topo_is_this_system(t), 1);
    CHECK_STR(loom__topo_source(t), "this machine");
    CHECK(loom__topo_ncores(t) >= 1);
    CHECK(loom__topo_npus(t) >= loom__topo_ncores(t));
    CHECK(loom__topo_nnuma(t) >= 1);
    CHECK_INT(loom__cpuset_weight(loom__topo_machine_set(t)), loom__topo_npus(t));
    loom__topo_destroy(t);
    CHECK_INT(loom__topo_load("", &t, err, sizeof(err)), 0);
    CHECK_INT(loom__topo_is_this_system(t), 1);
    loom__topo_destroy(t);
}

int main(void)
{
    fig1();
    shapes();
    xml();
    bad("pakage:2 pu:3");
    bad("package:2 numa:1 core:x pu:1");
    bad("/no/such/file.xml");
    this_machine();
    loom__topo_destroy(NULL);
    return topo_check_result();
}
