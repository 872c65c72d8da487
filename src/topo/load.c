/* topo/load.c — building a struct loom_topo from this machine, an hwloc XML file or an hwloc
 * synthetic description, and freeing it. Every set that queries hand out (machine, cores,
 * NUMA nodes) is computed here once, so that a loaded topology is read-only and needs no
 * lock. Also the layer's message helper. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "topo/hw.h"

void loom__topo_seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static char *joined(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *s = malloc(la + lb + 1);
    if (s) {
        memcpy(s, a, la);
        memcpy(s + la, b, lb + 1);
    }
    return s;
}

/* 1 if spec reads like a file name rather than a synthetic description, for messages. */
static int looks_like_path(const char *spec)
{
    size_t n = spec ? strlen(spec) : 0;
    return n && (strchr(spec, '/') || (n > 4 && strcmp(spec + n - 4, ".xml") == 0));
}

/* Copy an hwloc cpuset (NULL meaning empty) into the embedded set d; -1 on ENOMEM. */
static int take(struct loom_cpuset *d, hwloc_const_cpuset_t src)
{
    d->bits = src ? hwloc_bitmap_dup(src) : hwloc_bitmap_alloc();
    return d->bits ? 0 : -1;
}

/* Fill the cached sets of t from t->hw; -1 on ENOMEM. */
static int cache_sets(struct loom_topo *t)
{
    hwloc_topology_t hw = t->hw;
    if (take(&t->machine, hwloc_topology_get_topology_cpuset(hw)) < 0)
        return -1;
    t->npus = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_PU);
    hwloc_obj_type_t ctype = HWLOC_OBJ_CORE;
    t->ncores = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_CORE);
    if (t->ncores <= 0) {
        ctype = HWLOC_OBJ_PU;
        t->ncores = t->npus;
    }
    t->cores = calloc((size_t)t->ncores, sizeof(*t->cores));
    t->core_numa = calloc((size_t)t->ncores, sizeof(*t->core_numa));
    if (!t->cores || !t->core_numa)
        return -1;
    for (int i = 0; i < t->ncores; i++)
        if (take(&t->cores[i], hwloc_get_obj_by_type(hw, ctype, (unsigned)i)->cpuset) < 0)
            return -1;

    int nnuma = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_NUMANODE);
    t->nnuma = nnuma > 0 ? nnuma : 1;
    t->numas = calloc((size_t)t->nnuma, sizeof(*t->numas));
    if (!t->numas)
        return -1;
    for (int k = 0; k < t->nnuma; k++) {
        hwloc_obj_t o = nnuma > 0 ? hwloc_get_obj_by_type(hw, HWLOC_OBJ_NUMANODE, (unsigned)k)
                                  : NULL;
        if (take(&t->numas[k], o ? o->cpuset : t->machine.bits) < 0)
            return -1;
    }
    for (int i = 0; i < t->ncores; i++)
        t->core_numa[i] = loom__topo_numa_of(t, &t->cores[i]);
    return 0;
}

int loom__topo_load(const char *spec, struct loom_topo **out, char *err, size_t errlen)
{
    *out = NULL;
    struct loom_topo *t = calloc(1, sizeof(*t));
    if (!t)
        goto out_nomem;
    if (hwloc_topology_init(&t->hw) < 0) {
        free(t);
        goto out_nomem;
    }
    const char *kind;
    int synthetic = 0;
    struct stat st;
    if (!spec || !*spec) {
        kind = "this machine";
        t->this_system = 1;
        t->source = joined("this machine", "");
        /* The CPUs this process was given (taskset, numactl, a launcher's binding) are the
         * machine: ranks are placed and bound inside them, as MPICH and Open MPI do, never
         * on a CPU the user kept them off. */
        hwloc_topology_set_flags(t->hw, HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM |
                                            HWLOC_TOPOLOGY_FLAG_RESTRICT_TO_CPUBINDING);
    } else if (stat(spec, &st) == 0 && !S_ISDIR(st.st_mode)) {
        kind = "an XML file";
        t->source = joined("xml: ", spec);
        if (hwloc_topology_set_xml(t->hw, spec) < 0)
            goto out_with_topo;
    } else {
        kind = "a synthetic description";
        synthetic = 1;
        t->source = joined("synthetic: ", spec);
        if (hwloc_topology_set_synthetic(t->hw, spec) < 0)
            goto out_with_topo;
    }
    if (!t->source) {
        errno = ENOMEM;
        goto out_with_topo;
    }
    if (hwloc_topology_load(t->hw) < 0)
        goto out_with_topo;
    if (cache_sets(t) < 0 || loom__topo_build_tree(t) < 0) {
        errno = ENOMEM;
        goto out_with_topo;
    }
    *out = t;
    return 0;

out_with_topo: {
    int e = errno;
    if (synthetic && looks_like_path(spec))
        loom__topo_seterr(err, errlen,
                          "cannot load topology \"%s\": no such file, and hwloc rejects it as "
                          "a synthetic description (%s)",
                          spec, strerror(e));
    else
        loom__topo_seterr(err, errlen,
                          "cannot load topology \"%s\" (read as %s): hwloc says %s",
                          spec ? spec : "", kind, strerror(e));
    loom__topo_destroy(t);
    return -1;
}
out_nomem:
    loom__topo_seterr(err, errlen, "cannot load topology \"%s\": out of memory",
                      spec ? spec : "");
    return -1;
}

void loom__topo_destroy(struct loom_topo *t)
{
    if (!t)
        return;
    if (t->cores)
        for (int i = 0; i < t->ncores; i++)
            hwloc_bitmap_free(t->cores[i].bits);
    if (t->numas)
        for (int k = 0; k < t->nnuma; k++)
            hwloc_bitmap_free(t->numas[k].bits);
    hwloc_bitmap_free(t->machine.bits);
    loom__topo_free_tree(t);
    free(t->cores);
    free(t->numas);
    free(t->core_numa);
    free(t->source);
    hwloc_topology_destroy(t->hw);
    free(t);
}
