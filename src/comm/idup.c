/* comm/idup.c — MPI_Comm_idup and MPI_Comm_idup_with_info.
 *
 * The blocking dup (comm/create.c) meets the other members in a rendezvous; a nonblocking
 * one must not wait for them. So each member makes its new handle at once, without a shared
 * half (sh NULL: it resolves to nothing until then), the root (rank 0; rank 0 of the union
 * for an intercommunicator) makes the shared half (or the pair of halves and their union)
 * without waiting either, and a nonblocking schedule over the parent's collective context
 * (coll/publish.c) writes the pointers into each member's handle. The handle is complete
 * when the request is: the owner reads sh only after the request's completion (acquire),
 * and nobody else touches the handle. Attributes and info are copied during the call. Over
 * several node processes the root hands out a context id instead (comm/idup_net.c). */
#include <stdlib.h>
#include "coll/coll.h"
#include "comm/comm.h"
#include "core/error.h"
#include "core/rank.h"
#include "p2p/request.h"

/* The root's table: what each member of `over` (the parent, or the union of an
 * intercommunicator's groups) receives. Entries stay NULL when the halves could not be
 * made (the members' handles then never become usable). NULL on ENOMEM. */
static void **root_table(struct loom_comm *parent, struct loom_comm *over, int k)
{
    void **t = calloc((size_t)over->sh->size * (size_t)k, sizeof *t);
    if (t == NULL)
        return NULL;
    if (!loom__comm_is_inter(parent)) {
        struct loom_comm_shared *sh;
        if (loom__comm_shared_new(parent->sh->group, &sh) == 0)
            for (int r = 0; r < over->sh->size; r++)
                t[r] = sh;
        return t;
    }
    struct loom_comm_shared *first = parent->sh->inter_first ? parent->sh : parent->sh->remote;
    struct loom_inter_pair p;
    if (loom__inter_pair_new(first->group, first->remote->group, &p) == 0)
        for (int u = 0; u < over->sh->size; u++) {
            t[2 * u] = p.side[u < first->size ? 0 : 1];
            t[2 * u + 1] = p.all;
        }
    return t;
}

int loom__comm_idup(struct loom_comm *parent, MPI_Comm handle, struct loom_info *info,
                    int use_info, struct loom_comm **out, MPI_Request *req)
{
    int inter = loom__comm_is_inter(parent), k = inter ? 2 : 1;
    struct loom_comm *over = inter ? parent->all : parent;
    struct loom_comm *nc, *all = NULL;
    /* ENOMEM here leaves the other members' requests unfinished: nothing better to do */
    int rc = loom__comm_handle_new(NULL, parent->rank, parent, &nc);
    if (rc != 0)
        return rc;
    if (inter && (rc = loom__comm_handle_new(NULL, over->rank, NULL, &all)) != 0) {
        loom__comm_handle_free(nc);
        return rc;
    }
    nc->all = all;
    if (inter ? loom__job.nnodes > 1 : parent->sh->spans_nodes) {
        rc = loom__comm_idup_net(parent, over, handle, nc, req);
    } else {
        void **table = NULL;
        if (over->rank == 0 && (table = root_table(parent, over, k)) == NULL) {
            loom__comm_handle_free(nc);
            return LOOM_ERR_NOMEM;
        }
        void **dst[2] = {(void **)&nc->sh, inter ? (void **)&all->sh : NULL};
        rc = loom__coll_ipublish(over, handle, 0, table, k, dst, req);
        free(table);
    }
    if (rc != 0) {
        loom__comm_handle_free(nc);
        return rc;
    }
    if (use_info) {
        nc->info = info ? loom__info_dup(info) : NULL;
    } else {
        pthread_mutex_lock(&parent->attr_lock);
        nc->info = parent->info ? loom__info_dup(parent->info) : NULL;
        pthread_mutex_unlock(&parent->attr_lock);
    }
    rc = loom__attr_copy_all(parent, handle, nc);
    if (rc != 0) {
        /* The schedule writes into nc: let it finish (the other members take part in it
         * whatever happens here) before the handle goes. */
        loom__req_wait(*req);
        loom__req_retire(*req);
        loom__comm_handle_free(nc);
        return rc;
    }
    *out = nc;
    return 0;
}
