/* api/comm_info.c — MPI_Comm_set_info / MPI_Comm_get_info: hints kept on the handle.
 * loom understands no communicator hint yet; it keeps what it is given and returns it. */
#include "api/api.h"
#include "comm/comm.h"

int loom__mpi_comm_set_info(MPI_Comm comm, MPI_Info info)
{
    LOOM_API_ENTER("MPI_Comm_set_info");
    const char *fn = "MPI_Comm_set_info";
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL)
        return loom__api_error(comm, fn, MPI_ERR_COMM, "%s", loom__comm_invalid_reason(comm));
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS; /* no new hint */
    const char *why = loom__info_invalid_reason(info);
    if (why != NULL)
        return loom__api_error(comm, fn, MPI_ERR_INFO, "%s", why);
    /* New hints are merged into the old ones: build the merge aside, then swap it in. */
    pthread_mutex_lock(&c->attr_lock);
    struct loom_info *merged = c->info ? loom__info_dup(c->info) : loom__info_new();
    pthread_mutex_unlock(&c->attr_lock);
    if (merged == NULL)
        return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
    char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
    int n = loom__info_nkeys(info);
    for (int i = 0; i < n; i++) {
        if (loom__info_nthkey(info, i, key) != 0 ||
            loom__info_get(info, key, val, sizeof val) < 0)
            continue; /* changed under us by another thread: skip it */
        if (loom__info_set(merged, key, val) != 0) {
            loom__info_free(merged);
            return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
        }
    }
    pthread_mutex_lock(&c->attr_lock);
    struct loom_info *old = c->info;
    c->info = merged;
    pthread_mutex_unlock(&c->attr_lock);
    if (old)
        loom__info_free(old);
    return MPI_SUCCESS;
}

int loom__mpi_comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    LOOM_API_ENTER("MPI_Comm_get_info");
    const char *fn = "MPI_Comm_get_info";
    struct loom_comm *c = loom__comm_resolve(comm);
    if (c == NULL)
        return loom__api_error(comm, fn, MPI_ERR_COMM, "%s", loom__comm_invalid_reason(comm));
    if (info_used == NULL)
        return loom__api_error(comm, fn, MPI_ERR_ARG, "info_used is NULL");
    pthread_mutex_lock(&c->attr_lock);
    struct loom_info *i = c->info ? loom__info_dup(c->info) : loom__info_new();
    pthread_mutex_unlock(&c->attr_lock);
    if (i == NULL)
        return loom__api_error_code(comm, fn, LOOM_ERR_NOMEM);
    *info_used = i; /* a new object the caller frees with MPI_Info_free */
    return MPI_SUCCESS;
}
