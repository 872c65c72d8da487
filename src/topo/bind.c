/* topo/bind.c — binding the calling thread to a CPU set, and asking where it runs. Binding
 * only happens on the topology of this machine: a synthetic or XML topology describes some
 * other node, and its PU indexes mean nothing here, so binding to it is a deliberate no-op
 * (that is what lets tests and loom-info place ranks on imaginary machines). */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "topo/hw.h"

int loom__topo_bind_thread(const struct loom_topo *t, const struct loom_cpuset *s, char *err,
                           size_t errlen)
{
    if (!t->this_system)
        return 0;
    if (hwloc_set_cpubind(t->hw, s->bits, HWLOC_CPUBIND_THREAD) == 0)
        return 0;
    int e = errno;
    char text[256];
    loom__cpuset_format(s, text, sizeof(text));
    loom__topo_seterr(err, errlen, "cannot bind thread to PUs %s: %s", text, strerror(e));
    return -1;
}

int loom__topo_current_pu(void)
{
    int pu = sched_getcpu();
    return pu >= 0 ? pu : -1;
}
