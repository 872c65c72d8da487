/* core/config_table.h — the one declaration of every LOOM_* environment variable.
 *
 * Each row below is the whole truth about one setting: the start-up parser and validator
 * (core/config.c), `loom-info --config` and docs/config.md are all generated from it, and
 * the test config_docs_drift fails when the committed docs differ. Adding a setting is adding
 * one row; nothing else needs editing (read it with loom__config_int / loom__config_str and
 * the id LOOM_CFG_<NAME>, then regenerate the docs: loom-info --config-markdown >
 * docs/config.md).
 *
 * X(NAME, TYPE, WHEN, LAYER, DEFAULT, ACCEPTS, CHECK, DOC)
 *   NAME     the variable without its LOOM_ prefix; gives LOOM_<NAME> and LOOM_CFG_<NAME>.
 *   TYPE     INT    decimal integer; ACCEPTS is the inclusive range "lo-hi".
 *            SIZE   bytes, a plain integer or one with a K, M or G suffix (1024 multiples);
 *                   ACCEPTS is the inclusive range "lo-hi", written with the same suffixes.
 *            ENUM   one of the '|'-separated words of ACCEPTS; the value is its index.
 *            BOOL   0|1, also yes|no, true|false, on|off (any case); ACCEPTS is ignored ("").
 *            STRING any text, checked by CHECK when CHECK is not NULL; ACCEPTS describes it.
 *   WHEN     START  read once, when the job starts (or once per use of something built
 *                   then): fixed for the whole run, a constant MPI_T control variable.
 *            LIVE   read again each time it is used, so a new value takes effect at the next
 *                   use: the only rows MPI_T_cvar_write may change while the job runs
 *                   (docs/mpit.md). A row may be LIVE only if every reader calls
 *                   loom__config_int / loom__config_str at the point of use and keeps no copy.
 *   LAYER    the layer that reads it (core, topo, task, p2p, coll): its MPI_T category.
 *   DEFAULT  the value in effect when unset, as text that the row itself must accept (a unit
 *            test checks every default against its own row).
 *   CHECK    NULL or int check(const char *value, char *err, size_t errlen): 0 if value is
 *            good, else -1 and a one-line reason in err. Only for STRING rows.
 *   DOC      one line, shown by loom-info and in docs/config.md.
 */
#ifndef LOOM_CORE_CONFIG_TABLE_H
#define LOOM_CORE_CONFIG_TABLE_H

#include "topo/topo.h" /* loom__topo_policy_check, LOOM_BIND's validator */
#include "core/trace.h" /* loom__trace_prefix_check, LOOM_TRACE's validator */
#include "coll/split.h" /* loom__coll_split_check, LOOM_SPLIT_TREE's validator */
#include "net/net.h"    /* loom__net_inplace_check, LOOM_NET_INPLACE's validator */

/* clang-format off */
#define LOOM_CONFIG_TABLE(X)                                                                   \
    X(NP, INT, START, core, "1", "1-1048576", NULL,                                                \
      "number of ranks when the program is not started by `loomrun -n N`; in a multi-node job, "   \
      "the ranks of each node process (`loomrun -ppn T`)")                                         \
    X(JOB_NP, INT, START, core, "0", "0-1048576", NULL,                                            \
      "multi-node job: the ranks of the whole job (`loomrun -n N -ppn T`): node process p runs "   \
      "min(LOOM_NP, N - p * LOOM_NP) of them; 0 = LOOM_NP in every node process")                  \
    X(BIND, STRING, START, topo, "spread", "compact|scatter|spread|none|user:<set>,<set>,...",     \
      loom__topo_policy_check,                                                                     \
      "rank placement; a user set lists PU indexes, '+' joins them and a-b is a range, one "       \
      "set per rank (`user:0,1,2+3,4-7`); unset, node processes sharing a host place their "       \
      "ranks in parts of its cores, one part each (none where ranks outnumber the cores or a "     \
      "launcher confined them)")                                                                   \
    X(TOPOLOGY, STRING, START, topo, "",                                                           \
      "an hwloc synthetic description or the path of an hwloc XML file", NULL,                     \
      "the machine to place ranks on (empty = this machine); on a synthetic or XML "               \
      "topology (e.g. `package:2 numa:1 l3:1 l2:2 core:2 pu:1`) ranks are placed "                 \
      "logically but not bound")                                                                   \
    X(SPIN, INT, START, task, "200", "0-1000000000", NULL,                                         \
      "polls a waiting thread makes before it yields (unset and more ranks than cores: 16)")       \
    X(YIELD, INT, START, task, "20", "0-1000000000", NULL,                                         \
      "yields a waiting thread makes before it sleeps on a futex (unset and more ranks than "      \
      "cores: 1000); with no more ranks than cores, a yield that lets another thread keep the "    \
      "core for over 0.1 ms ends them, and the thread's next 64 waits sleep without yielding")     \
    X(EAGER_MAX, SIZE, START, p2p, "16K", "0-1G", NULL,                                            \
      "largest unmatched message copied into an eager cell; larger ones wait for their "           \
      "receive and move in one copy")                                                              \
    X(CELLS, BOOL, START, p2p, "1", "", NULL,                                                      \
      "standard and ready sends of up to 940 bytes (a quarter of a ring: 460 with 32-cell "        \
      "rings, 220 with 16) to a rank of the same node process go through a ring of 64-byte "       \
      "cells per pair of ranks, posted receive or not, and are matched by their receiver (0: "     \
      "every message is matched by its sender)")                                                   \
    X(BATCH, BOOL, START, p2p, "1", "", NULL,                                                      \
      "a nonblocking standard or ready send that goes into cells (LOOM_CELLS), at most 460 "      \
      "bytes (half a batch: 220 with 32-cell rings, 100 with 16), joins a batch "                  \
      "published at the thread's next MPI call of another kind, a send into another ring, a "      \
      "quarter of a ring, or when its receiver waits for it; the receiver then fetches the "       \
      "batch's cells together (0: each such send publishes its message)")                         \
    X(WARN_UNFINALIZED, BOOL, START, core, "1", "", NULL,                                          \
      "warn when a rank's main returns without MPI_Finalize")                                      \
    X(PROGRESS, ENUM, START, task, "collaborative", "inline|collaborative|thread", NULL,           \
      "who moves messages: inline = each rank its own, in its own calls (the baseline of "         \
      "ordinary MPI libraries); collaborative = any rank inside a wait or test runs any "          \
      "task it may, nearest first; thread = collaborative plus progress threads")                  \
    X(PROGRESS_THREADS, INT, START, task, "1", "0-64", NULL,                                       \
      "progress threads per rank when LOOM_PROGRESS=thread")                                       \
    X(PROGRESS_PLACEMENT, STRING, START, task, "numa", "bind|numa|odd-even|cores:<list>",          \
      loom__progress_policy_check,                                                                 \
      "where progress threads run: bind = on their rank's core; numa = the free core of the "      \
      "rank's NUMA node (Eq. 1 of the 2019 paper); odd-even = Eq. 2; cores:<list> = "              \
      "dedicated communication cores (logical core indexes, `cores:3+7`)")                         \
    X(COPY_CHUNK, SIZE, START, p2p, "64K", "4K-1G", NULL,                                          \
      "large messages move as tasks of this many bytes, so several threads can share one "         \
      "(not under LOOM_PROGRESS=inline)")                                                          \
    X(STATS, BOOL, START, core, "0", "", NULL,                                                     \
      "print one line per rank at job end: messages and bytes sent and received, tasks run "       \
      "for itself / for ranks on the same or another NUMA node, time in MPI and waiting "          \
      "(docs/observability.md)")                                                                   \
    X(TRACE, STRING, START, core, "", "empty (off) or a file prefix whose directory exists",       \
      loom__trace_prefix_check,                                                                    \
      "write a timeline of every loom thread at job end: <prefix>.trace (Paje, for ViTE) "         \
      "and <prefix>.json (Chrome trace events, for Perfetto) (docs/observability.md)")             \
    X(SPLIT_TREE, STRING, LIVE, coll, "auto", "auto|off|<S>", loom__coll_split_check,              \
      "split-tree for nonblocking bcast, reduce, allreduce, gather, scatter in thread mode: "      \
      "S tree levels (from the leaves) run on the rank, the rest on progress threads; "            \
      "off = 0; auto = the model's best S (docs/collectives.md)")                                  \
    X(COLL_HIER, ENUM, LIVE, coll, "auto", "auto|on|off", NULL,                                    \
      "run bcast, reduce, allreduce and barrier level by level down the hardware hierarchy "       \
      "(docs/hierarchy.md): on = wherever it has more than one level; auto = where the "           \
      "communicator spans more than one NUMA node or package of the real machine, or node "        \
      "processes (the network level, where allgather goes through it too; docs/multinode.md); "    \
      "off = never")                                                                               \
    X(COLL_BARRIER_ALGO, ENUM, LIVE, coll, "auto", "auto|dissemination|linear|shm", NULL,          \
      "MPI_Barrier / MPI_Ibarrier algorithm (auto: docs/collectives.md)")                          \
    X(COLL_BCAST_ALGO, ENUM, LIVE, coll, "auto", "auto|binomial|linear|chain|shm", NULL,           \
      "MPI_Bcast / MPI_Ibcast algorithm")                                                          \
    X(COLL_REDUCE_ALGO, ENUM, LIVE, coll, "auto", "auto|binomial|linear|chain|shm", NULL,          \
      "MPI_Reduce / MPI_Ireduce algorithm")                                                        \
    X(COLL_ALLREDUCE_ALGO, ENUM, LIVE, coll, "auto",                                               \
      "auto|recursive-doubling|reduce-bcast|shm", NULL,                                            \
      "MPI_Allreduce / MPI_Iallreduce algorithm")                                                  \
    X(COLL_GATHER_ALGO, ENUM, LIVE, coll, "auto", "auto|binomial|linear|shm", NULL,                \
      "MPI_Gather / MPI_Igather algorithm")                                                        \
    X(COLL_GATHERV_ALGO, ENUM, LIVE, coll, "auto", "auto|linear|shm", NULL,                        \
      "MPI_Gatherv / MPI_Igatherv algorithm")                                                      \
    X(COLL_SCATTER_ALGO, ENUM, LIVE, coll, "auto", "auto|binomial|linear|shm", NULL,               \
      "MPI_Scatter / MPI_Iscatter algorithm")                                                      \
    X(COLL_SCATTERV_ALGO, ENUM, LIVE, coll, "auto", "auto|linear|shm", NULL,                       \
      "MPI_Scatterv / MPI_Iscatterv algorithm")                                                    \
    X(COLL_ALLGATHER_ALGO, ENUM, LIVE, coll, "auto", "auto|ring|linear|shm", NULL,                 \
      "MPI_Allgather / MPI_Iallgather algorithm")                                                  \
    X(COLL_ALLGATHERV_ALGO, ENUM, LIVE, coll, "auto", "auto|ring|linear|shm", NULL,                \
      "MPI_Allgatherv / MPI_Iallgatherv algorithm")                                                \
    X(COLL_ALLTOALL_ALGO, ENUM, LIVE, coll, "auto", "auto|pairwise|linear|shm", NULL,              \
      "MPI_Alltoall / MPI_Ialltoall algorithm")                                                    \
    X(COLL_ALLTOALLV_ALGO, ENUM, LIVE, coll, "auto", "auto|pairwise|linear|shm", NULL,             \
      "MPI_Alltoallv / MPI_Ialltoallv algorithm")                                                  \
    X(COLL_ALLTOALLW_ALGO, ENUM, LIVE, coll, "auto", "auto|pairwise|linear|shm", NULL,             \
      "MPI_Alltoallw / MPI_Ialltoallw algorithm")                                                  \
    X(COLL_REDUCE_SCATTER_ALGO, ENUM, LIVE, coll, "auto", "auto|reduce-scatterv|linear|shm", NULL, \
      "MPI_Reduce_scatter / MPI_Ireduce_scatter algorithm")                                        \
    X(COLL_REDUCE_SCATTER_BLOCK_ALGO, ENUM, LIVE, coll, "auto",                                    \
      "auto|reduce-scatterv|linear|shm", NULL,                                                     \
      "MPI_Reduce_scatter_block / MPI_Ireduce_scatter_block algorithm")                            \
    X(COLL_SCAN_ALGO, ENUM, LIVE, coll, "auto", "auto|chain|shm", NULL,                            \
      "MPI_Scan / MPI_Iscan algorithm")                                                            \
    X(COLL_EXSCAN_ALGO, ENUM, LIVE, coll, "auto", "auto|chain|shm", NULL,                          \
      "MPI_Exscan / MPI_Iexscan algorithm")                                                       \
    X(PPN, INT, START, core, "0", "0-1048576", NULL,                                               \
      "read by loomrun: the ranks per node process when the command line has no -ppn; 0 = "       \
      "one process for the whole job")                                                            \
    X(LAUNCHER, STRING, START, core, "", "a command and its first arguments", NULL,                \
      "read by loomrun -ppn: the PMI launcher that starts the node processes (words split at "    \
      "spaces; one named srun takes srun's options, any other Hydra's); empty = srun in a Slurm " \
      "allocation, else mpiexec.hydra from PATH")                                                 \
    X(NET_WAIT, ENUM, START, core, "auto", "auto|block|poll", NULL,                               \
      "multi-node: how the last waiting thread of a node process waits for the network: block = "  \
      "on the endpoint's descriptor (no core burnt; the provider signals every completion, "       \
      "~0.7 us a message over tcp); poll = short sleeps between polls; auto = block when the "     \
      "host's node processes have more ranks than it has cores, else poll")                        \
    X(NET_THREAD, BOOL, START, core, "1", "", NULL,                                              \
      "multi-node, LOOM_PROGRESS=collaborative: a thread per node process polls the network "     \
      "while a nonblocking transfer with another node process is pending and no rank waits for " \
      "it, and looks at it every millisecond while a window over several node processes "       \
      "lives, so that transfers and one-sided operations move while the ranks compute; 0: "    \
      "only waiting ranks poll")                                                                 \
    X(NET_INPLACE, STRING, START, core, "auto", "auto|off|<bytes>", loom__net_inplace_check,      \
      "multi-node: smallest eager message of a blocking send whose data the network sends "     \
      "from the user's buffer instead of copying it into a send slot (the send then returns "    \
      "when the endpoint is done with it): auto = where the copy costs more than a poll of the " \
      "endpoint, measured at start; off = always copy")                                         \
    X(COPY_SHARE, BOOL, START, p2p, "1", "", NULL,                                                 \
      "a waiting sender (or any idle thread) copies chunks of a large message beside its "        \
      "waiting receiver, so two cores move it; 0: the receiver copies alone while it waits "     \
      "(docs/progress.md)")
/* clang-format on */

#endif /* LOOM_CORE_CONFIG_TABLE_H */
