/* p2p/transfer.c — the one place where a matched message's data moves.
 * Both buffers are in this process, so the data goes in one pass from the sender's layout to
 * the receiver's (loom__dt_copy handles any pair of datatypes). Called by whichever thread
 * found the match, with no lock held. */
#include "dt/dt.h"
#include "p2p/p2p.h"

void loom__p2p_transfer(struct loom_request *s, struct loom_request *r)
{
    size_t bytes = loom__dt_stream_size(s->type, s->count);
    size_t cap = loom__dt_stream_size(r->type, r->count);
    size_t n = bytes < cap ? bytes : cap;
    if (n)
        loom__dt_copy(r->buf, r->type, r->count, s->buf, s->type, s->count, 0, n);
    r->error = bytes > cap ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    r->status.MPI_SOURCE = s->me;
    r->status.MPI_TAG = s->tag;
    r->status.MPI_ERROR = r->error;
    r->status.loom_bytes = (MPI_Count)n;
    r->status.loom_cancelled = 0;
    s->status.MPI_SOURCE = s->peer;
    s->status.MPI_TAG = s->tag;
    s->status.MPI_ERROR = MPI_SUCCESS;
    s->status.loom_bytes = (MPI_Count)n;
    s->status.loom_cancelled = 0;
    /* Receive first: a blocking sender returning could not otherwise have its peer see
     * data that is already in place any later. Neither request is touched after its
     * completion. */
    loom__req_complete(r);
    loom__req_complete(s);
}
