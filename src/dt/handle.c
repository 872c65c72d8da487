/* dt/handle.c — checks of datatype handles, and datatype names (MPI_Type_set_name /
 * get_name).
 *
 * Predefined types are shared by every rank of the job, so two ranks may name or read the
 * same type at once: one mutex guards every type's `name` (names are rare and short). */
#include <pthread.h>
#include <string.h>
#include "core/error.h"
#include "dt/dt.h"

static pthread_mutex_t name_lock = PTHREAD_MUTEX_INITIALIZER; /* guards every t->name */

void loom__dt_set_name(struct loom_datatype *t, const char *name)
{
    pthread_mutex_lock(&name_lock);
    strncpy(t->name, name, MPI_MAX_OBJECT_NAME - 1);
    t->name[MPI_MAX_OBJECT_NAME - 1] = '\0';
    pthread_mutex_unlock(&name_lock);
}

int loom__dt_get_name(const struct loom_datatype *t, char *out)
{
    pthread_mutex_lock(&name_lock);
    size_t n = strlen(t->name);
    memcpy(out, t->name, n + 1);
    pthread_mutex_unlock(&name_lock);
    return (int)n;
}

int loom__dt_check_usable(MPI_Datatype t, const char **reason)
{
    const char *why = NULL;
    if (t == MPI_DATATYPE_NULL)
        why = "datatype is MPI_DATATYPE_NULL";
    else if (!loom__dt_valid(t))
        why = "datatype is not a valid datatype (freed?)";
    else if (!t->committed)
        why = "datatype is not committed";
    if (reason)
        *reason = why;
    return why ? LOOM_ERR_TYPE : 0;
}

const char *loom__dt_bad_handle(MPI_Datatype t)
{
    if (t == MPI_DATATYPE_NULL)
        return "is MPI_DATATYPE_NULL";
    if (!loom__dt_valid(t))
        return "is not a valid datatype (freed?)";
    return NULL;
}
