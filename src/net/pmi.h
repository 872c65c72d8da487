/* net/pmi.h — the job's bootstrap: a client of the launcher's PMI server.
 *
 * A multi-node job is P node processes, each running some rank threads. The launcher starts
 * them and serves a key-value space through which they find each other: each node process
 * puts what the others need (its rank count, its network address), fences, and gets theirs.
 * Two kinds of launcher, two clients behind these calls (net/pmi_impl.h), chosen from the
 * environment the launcher set:
 *   - the PMI-1 wire protocol, "simple PMI" (PMI_FD or PMI_PORT): Hydra's mpiexec, Slurm's
 *     `srun --mpi=pmi2` (net/pmi_wire.c);
 *   - PMIx (PMIX_NAMESPACE and PMIX_RANK), through libpmix: Slurm's `srun --mpi=pmix`, Open
 *     MPI's mpirun, PRRTE (net/pmi_pmix.c).
 * The nearest launcher wins: a process that has both was started by a PMI-1 launcher that
 * itself runs under a PMIx one, and its PMI-1 server is the one that knows its job.
 *
 * One client per process, used by one thread at a time: the main thread at start-up and
 * teardown, and whichever thread aborts the job. Every function but loom__pmi_present() and
 * loom__pmi_abort() returns 0 or -1 with a one-line reason in err. */
#ifndef LOOM_NET_PMI_H
#define LOOM_NET_PMI_H
#include <stddef.h>

/* 1 if the environment names a PMI server (PMI_FD, or PMI_PORT with PMI_ID / PMI_RANK; or
 * PMIX_NAMESPACE with PMIX_RANK): the process was started by a PMI launcher. 0 if it was
 * started alone. */
int loom__pmi_present(void);

/* Connect (or adopt PMI_FD), say init, learn this node process's rank and the job's size in
 * node processes, the key-value space's name and the limits on keys and values. */
int loom__pmi_init(int *rank, int *size, char *err, size_t errlen);

/* Where this node process sits on its host: local_rank of local_size node processes started
 * on the same host (PMI-1: from the job's PMI_process_mapping, else Hydra's MPI_LOCALRANKID /
 * MPI_LOCALNRANKS, else 0 of 1; PMIx: the job's local rank and size). After loom__pmi_init. */
int loom__pmi_local(int *local_rank, int *local_size, char *err, size_t errlen);

/* The parser behind loom__pmi_local, apart for tests: mapping is a PMI_process_mapping value,
 * "(vector,(node,count,size),...)": `count` nodes from `node` on, `size` consecutive ranks
 * each; the blocks are dealt again from the first, in order, until the job's `size` ranks
 * have a node (Hydra writes "(vector,(0,1,1))" for 3 processes on one host). Says how many
 * ranks share rank's node and rank's index among them. 0, or -1 with err if mapping is not
 * of that form or places no rank. */
int loom__pmi_parse_mapping(const char *mapping, int rank, int size, int *local_rank,
                            int *local_size, char *err, size_t errlen);

/* The longest value the server accepts (from get_maxes), without the final NUL. */
size_t loom__pmi_value_max(void);

/* Put key=value into the job's space (visible to the others after the next fence). Keys and
 * values are printable text without spaces or '='. A key is this node process's own (PMIx
 * files it under the process that put it), but PMI-1's space is flat: a key must also be
 * unique in the job, so callers write the node process's number into it. */
int loom__pmi_put(const char *key, const char *value, char *err, size_t errlen);

/* Commit what this process put and wait until every node process of the job has (barrier). */
int loom__pmi_fence(char *err, size_t errlen);

/* Get the value of key, put by node process `node` before a fence both passed, into
 * value[len]. */
int loom__pmi_get(int node, const char *key, char *value, size_t len, char *err, size_t errlen);

/* Tell the server the job is over for this process (after the last fence). */
int loom__pmi_finalize(char *err, size_t errlen);

/* Ask the launcher to end the whole job with `code`, `msg` its reason; then leave the
 * process. Any thread; safe to call when the client was never initialized (it just exits). */
_Noreturn void loom__pmi_abort(int code, const char *msg);

/* Encode len bytes as lowercase hex into out (2*len+1 bytes), and back: decode returns the
 * number of bytes, or -1 if text is not hex or does not fit in max. Network addresses travel
 * through the key-value space this way. */
void loom__pmi_hex_encode(const void *data, size_t len, char *out);
long loom__pmi_hex_decode(const char *text, void *out, size_t max);
#endif
