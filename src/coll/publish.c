/* coll/publish.c — a nonblocking hand-out of pointers from one rank to every rank of a
 * communicator, as a schedule: how MPI_Comm_idup (comm/idup.c) gives each member the shared
 * half that its root made, without any member waiting for the others in the call.
 *
 * The root copies its table into the schedule's scratch (so the caller's table may go at
 * once) and sends rank r its k entries as k messages of one pointer each, in order: a rank's
 * k receives, posted in the same order with the collective's tag, match them in order
 * (messages from one sender with one tag do not overtake each other). The root's own entries
 * are copies of the same round. */
#include "coll/alg.h"
#include "comm/comm.h"
#include "core/error.h"

int loom__coll_ipublish(struct loom_comm *c, MPI_Comm h, int root, void *const *table, int k,
                        void **const *dst, MPI_Request *req)
{
    struct loom_sched *s = loom__sched_new(c, h);
    if (!s)
        return LOOM_ERR_NOMEM;
    size_t ptr = sizeof(void *);
    loom__sched_round(s, LOOM_ROUND_NONE, 0);
    if (s->me == root) {
        void **copy = loom__sched_bytes(s, (size_t)s->size * (size_t)k * ptr);
        if (!s->nomem) {
            for (int i = 0; i < s->size * k; i++)
                copy[i] = table[i];
            for (int r = 0; r < s->size; r++)
                for (int i = 0; i < k; i++) {
                    void **v = &copy[(size_t)r * (size_t)k + (size_t)i];
                    if (r == root)
                        loom__sched_copy(s, v, ptr, MPI_BYTE, dst[i], ptr, MPI_BYTE);
                    else
                        loom__sched_send(s, v, ptr, MPI_BYTE, r);
                }
        }
    } else {
        for (int i = 0; i < k; i++)
            loom__sched_recv(s, dst[i], ptr, MPI_BYTE, root);
    }
    return loom__sched_start(s, req);
}
