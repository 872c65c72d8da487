/* topo/bind.c — binding the calling thread (or the whole process) to a CPU set, and asking
 * where it runs. Binding only happens on the topology of this machine: a synthetic or XML
 * topology describes some other node, and its PU indexes mean nothing here, so binding to it
 * is a deliberate no-op (that is what lets tests and loom-info place ranks on imaginary
 * machines). */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "topo/hw.h"

/* Bind (flags: the thread or the whole process) to s; who names it in the message. */
static int bind_to(const struct loom_topo *t, const struct loom_cpuset *s, int flags,
                   const char *who, char *err, size_t errlen)
{
    if (!t->this_system)
        return 0;
    if (hwloc_set_cpubind(t->hw, s->bits, flags) == 0)
        return 0;
    int e = errno;
    char text[256];
    loom__cpuset_format(s, text, sizeof(text));
    loom__topo_seterr(err, errlen, "cannot bind %s to PUs %s: %s", who, text, strerror(e));
    return -1;
}

int loom__topo_bind_thread(const struct loom_topo *t, const struct loom_cpuset *s, char *err,
                           size_t errlen)
{
    return bind_to(t, s, HWLOC_CPUBIND_THREAD, "thread", err, errlen);
}

int loom__topo_bind_process(const struct loom_topo *t, const struct loom_cpuset *s, char *err,
                            size_t errlen)
{
    return bind_to(t, s, HWLOC_CPUBIND_PROCESS, "the process", err, errlen);
}

int loom__topo_current_pu(void)
{
    int pu = sched_getcpu();
    return pu >= 0 ? pu : -1;
}
