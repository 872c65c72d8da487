/* net/net.h — ranks in other node processes: the job's layout, messages over the network,
 * and the network's progress (docs/multinode.md).
 *
 * A job started by a PMI launcher is several node processes; each runs some of the world's
 * ranks as threads (core/rank.h: first, nlocal, node_first) and opens one libfabric endpoint
 * (net/fabric.h). A message between two ranks of one node process never comes here. A message
 * to a rank of another node process leaves through loom__net_send: small ones as one network
 * message that the receiving node process matches like a local sender would (eager); larger
 * and synchronous ones as a request-to-send, after which the receiver, once it has matched
 * it, reads the data straight out of the sender's buffer (an RMA read) and says so (FIN),
 * which completes the send. Started alone, a process is a job of one node process and none
 * of this runs. */
#ifndef LOOM_NET_NET_H
#define LOOM_NET_NET_H
#include <stddef.h>
#include <stdint.h>

struct loom_request;
struct loom_p2p_ctx;

/* Main thread, before any rank exists: join the job. Started by a PMI launcher: open the
 * endpoint, exchange addresses and rank counts with the other node processes, and fill
 * loom__job's layout (nranks, first, nlocal, node, nnodes, node_first, node_share). Started
 * alone: a job of local_np ranks in one node process. job_np: LOOM_JOB_NP (0: local_np in
 * every node process). 0, or -1 with a one-line reason in err. */
int loom__net_bootstrap(int local_np, int job_np, char *err, size_t errlen);
/* After the layers are up (api/layers.c), before any rank runs: the network is polled in
 * every wait from now on. */
void loom__net_layers_init(void);
/* Main thread, every rank of this node process ended, before the layers go: the network
 * thread stops (the endpoint is still polled by loom__net_job_fini). */
void loom__net_layers_fini(void);
/* Main thread, after every rank of this node process has ended: let what this process sent
 * leave, wait for the other node processes, close. Nothing when alone. */
void loom__net_job_fini(void);

/* A context (a communicator's point-to-point or collective matching) that spans node
 * processes is known to the network by its id: registered when this node process's half of
 * the communicator is made (messages that came before are delivered then), removed before it
 * is freed. sh: the shared half that owns it, on which the poller holds a reference while it
 * hands a message to the context (comm.h: loom__comm_shared_try_retain), so that the last
 * member's MPI_Comm_free cannot free it under the poller. */
struct loom_comm_shared;
void loom__net_ctx_register(struct loom_p2p_ctx *ctx, struct loom_comm_shared *sh);
void loom__net_ctx_unregister(struct loom_p2p_ctx *ctx);

/* Start a send to a rank of another node process (p2p/match.c). The request completes when
 * its data has left the buffer (eager: now; rendezvous: when the receiver has read it).
 * 0 or a negative loom code. */
int loom__net_send(struct loom_request *s);
/* A receive matched a request-to-send from another node process (its stand-in, queued as an
 * unexpected message's sender request, kind LOOM_REQ_NETSEND): read the data into the
 * receive, then complete it and free the stand-in. */
void loom__net_pull(struct loom_request *standin, struct loom_request *r);
/* A stand-in nobody received dies with its context. */
void loom__net_standin_free(struct loom_request *standin);

/* One-sided communication between node processes (rma/net_msg.h): post the payload msg[len]
 * (at most loom__net_eager_max() bytes) to node process `node` as a request (reply 0) or a
 * reply (1); 0 or LOOM_ERR_NOMEM. Any thread. Their receipt, by the thread that polls
 * (rma/net_target.c), in the order each node process sent them: */
int loom__net_rma_send(int node, int reply, const void *msg, size_t len);
void loom__rma_net_recv(int node, int reply, const void *msg, size_t len);
/* Memory that other node processes may read (a large put's data): addr and key are what the
 * reader passes to loom__net_rma_read. 0, or -1 when the endpoint cannot. Any thread. */
struct loom_net_region {
    uint64_t addr, key;
    void *mr; /* the endpoint's registration */
};
int loom__net_expose(const void *buf, size_t len, struct loom_net_region *r);
void loom__net_unexpose(struct loom_net_region *r);
/* A read of len bytes at (addr, key) of node process `node` into local[len]; done(read) is
 * called by the polling thread once all of it has landed. The caller's record starts with
 * struct loom_net_read. 0 or LOOM_ERR_NOMEM. Any thread. */
struct loom_net_read {
    void (*done)(struct loom_net_read *read);
};
int loom__net_rma_read(int node, void *local, size_t len, uint64_t addr, uint64_t key,
                       struct loom_net_read *read);

/* Poll the network once, if no other thread is: 1 if something moved. Any thread. */
int loom__net_poll(void);

/* The network thread (net_watch.c): under LOOM_PROGRESS=collaborative with other node
 * processes (and LOOM_NET_THREAD), one thread per node process polls the network while
 * something its ranks do not wait for is pending, so that a node process whose ranks compute
 * still moves its transfers. begin: one more such thing (a nonblocking receive that a remote
 * rendezvous may match, a nonblocking rendezvous send, a backlog); end: one less. A request so
 * counted carries `netwatch`, and its completion (loom__req_complete) ends it. Any thread;
 * counted whether the thread runs or not. */
void loom__net_watch_begin(void);
void loom__net_watch_end(void);
/* How many things the network thread polls for now (the count above); any thread, a
 * snapshot (MPI_T's loom_net_watched). */
unsigned loom__net_watch_pending(void);
/* A window over several node processes armed (or disarmed) the network thread: while any is,
 * the thread looks at the network now and then when no rank of this node process does, so
 * that operations on this node process's memory move while its ranks compute (net_watch.c). */
void loom__net_watch_arm(void);
void loom__net_watch_disarm(void);

/* The largest payload a message to another node process carries eagerly (larger ones are read
 * by their receiver); 0 in a job of one node process. Fixed once the job has started. */
size_t loom__net_eager_max(void);
/* LOOM_NET_INPLACE's validator (net/net_inplace.c): 0, or -1 and why in err. */
int loom__net_inplace_check(const char *value, char *err, size_t errlen);

/* MPI_Finalize's wait, once every rank of this node process is in it: 1 when every other
 * node process's ranks are too. The first call says so to the other node processes. */
int loom__net_finalize_met(void);

/* What is not made over ranks of several node processes yet (an intercommunicator, a
 * distributed graph, a window...): end the job with a one-line message saying what was
 * asked. */
_Noreturn void loom__net_unsupported(const char *what);
/* End the whole job (every node process) with `code`. */
_Noreturn void loom__net_abort(int code, const char *why);
#endif
