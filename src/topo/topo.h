/* topo/topo.h — loom's view of the machine: CPU sets, the topology (this machine, an hwloc
 * synthetic description or an hwloc XML file), rank placement, thread binding and printing.
 *
 * This is the only header of the topo layer that other layers include. hwloc stays behind
 * it: every type here is opaque, so nothing above src/topo/ ever sees an hwloc type. The
 * layer knows nothing of MPI or tasks; it speaks of cores, NUMA nodes and CPU sets.
 *
 * Conventions:
 *   - CPU set indexes are PU OS indexes (equal to the logical indexes for synthetic
 *     topologies). "Core i" and "NUMA node i" always mean hwloc logical indexes.
 *   - Functions that can fail return 0 on success and -1 on failure, writing a one-line
 *     message into the caller's `err` buffer (`err` may be NULL). Nothing is printed.
 *   - A loaded topology is read-only: every query below may be called from any thread at
 *     the same time. CPU sets are not locked; one writer, or many readers, at a time.
 *
 * Rank placement (loom__topo_place), exact rules. "Cores" are the Core objects in logical
 * order (the PUs themselves when the topology has no Core level). A NUMA domain is the list
 * of cores, in logical order, whose NUMA node (loom__topo_numa_of: the smallest holding the
 * core) is one node; NUMA nodes owning no core (memory-only, or nesting smaller ones) are
 * skipped. A rank placed on a core gets that core's full CPU set.
 *
 *   compact  rank i -> core i.
 *   scatter  rank i -> the next unused core of NUMA domain (i mod D), D = number of domains;
 *            when that domain is full, the next domain (in order, wrapping) with a free core.
 *   spread   (default; also for a NULL or empty policy) the placement of Section 4 / Fig. 1
 *            of the 2019 split-tree paper:
 *            1. Split: the n ranks are split over the D domains, domain k taking
 *               floor(n/D) + (k < n mod D) ranks; a domain given more ranks than it has cores
 *               keeps as many as it has cores, and the excess goes one by one to the next
 *               domains (in order, wrapping) that still have room.
 *            2. Ranks stay in rank order: domain 0 takes ranks 0..c0-1, domain 1 the next
 *               c1 ranks, and so on.
 *            3. Inside a domain of N cores holding m ranks (m < N), the f = N - m free cores
 *               are the positions F_j = ceil((j+1) * N / f) - 1 for j = 0..f-1 (in integer
 *               arithmetic ((j+1)*N + f - 1) / f - 1). The ranks take the remaining positions
 *               in increasing order. With delta = N / f this is Eq. 1 of the paper: block j
 *               is positions ceil(j*delta) .. ceil((j+1)*delta) - 1, its ranks first and its
 *               last position free, so each rank is followed by its share of free cores and
 *               the last core of a domain is always free. When m == N, rank j of the domain
 *               takes position j.
 *            Fig. 1 (package:2 numa:1 l3:1 l2:2 core:2 pu:1): 4 ranks -> cores 0,2,4,6;
 *            6 ranks -> cores 0,1,2,4,5,6. One 64-core NUMA node, 62 ranks: ranks 0-30 ->
 *            cores 0-30, ranks 31-61 -> cores 32-62 (31 and 63 free).
 *   none     every rank's set is the whole machine.
 *   user:S0,S1,...  rank i gets set Si (PU OS indexes, '+' joins, 'a-b' ranges); more sets
 *            than ranks are ignored; fewer sets, an empty set or a PU that the topology
 *            lacks is an error.
 *
 * More ranks than cores (oversubscription): under compact, scatter and spread, rank i gets
 * the set that rank (i mod C) gets when C ranks are placed, C = number of cores. It never
 * fails for that reason.
 */
#ifndef LOOM_TOPO_TOPO_H
#define LOOM_TOPO_TOPO_H

#include <stddef.h>
#include <stdio.h>

struct loom_topo;   /* the machine: real, synthetic, or XML */
struct loom_cpuset; /* opaque CPU set */

/* ---- CPU sets ---------------------------------------------------------------------------- */

/* A new empty set; NULL on ENOMEM. Freed with loom__cpuset_free. */
struct loom_cpuset *loom__cpuset_new(void);
/* A new copy of s; NULL on ENOMEM. */
struct loom_cpuset *loom__cpuset_dup(const struct loom_cpuset *s);
/* Free s; NULL is ignored. */
void loom__cpuset_free(struct loom_cpuset *s);
/* Replace s by the set written in text: indexes and ranges "a-b" joined by '+' or ','
 * ("2+3", "4-7", "0+2-3", "0-3,6"). 0, or -1 with s unchanged on a syntax error, a
 * reversed range, an index above 1048575 or ENOMEM. */
int loom__cpuset_parse(struct loom_cpuset *s, const char *text);
/* Write s as a list "0-3,6" ("" when empty) into buf, truncating to len - 1 characters;
 * return the length of the full text (as snprintf does), -1 on error. */
int loom__cpuset_format(const struct loom_cpuset *s, char *buf, size_t len);
/* Number of indexes in s. */
int loom__cpuset_weight(const struct loom_cpuset *s);
/* Lowest index in s, -1 if empty. */
int loom__cpuset_first(const struct loom_cpuset *s);
/* 1 if every index of sub is in super, else 0. */
int loom__cpuset_is_subset(const struct loom_cpuset *sub, const struct loom_cpuset *super);
/* 1 if a and b hold the same indexes, else 0. */
int loom__cpuset_equal(const struct loom_cpuset *a, const struct loom_cpuset *b);
/* 1 if a and b share an index, else 0. */
int loom__cpuset_intersects(const struct loom_cpuset *a, const struct loom_cpuset *b);
/* dst |= src. */
void loom__cpuset_or(struct loom_cpuset *dst, const struct loom_cpuset *src);
/* Empty s and put index i in it. 0, -1 on ENOMEM or a negative i. */
int loom__cpuset_only(struct loom_cpuset *s, int i);

/* ---- Loading ----------------------------------------------------------------------------- */

/* Load a topology. spec NULL or "" = this machine; a spec naming an existing file = hwloc
 * XML; anything else = an hwloc synthetic description as hwloc_topology_set_synthetic takes
 * it ("package:2 numa:1 l3:1 l2:2 core:2 pu:1"). On error, -1 and a message naming the spec
 * and hwloc's complaint. The topology is freed with loom__topo_destroy. */
int loom__topo_load(const char *spec, struct loom_topo **out, char *err, size_t errlen);
/* Free t and every set it handed out; NULL is ignored. */
void loom__topo_destroy(struct loom_topo *t);
/* 1 for the real machine (binding allowed), 0 for synthetic or XML. */
int loom__topo_is_this_system(const struct loom_topo *t);
/* "this machine", "synthetic: <desc>" or "xml: <path>"; lives as long as t. */
const char *loom__topo_source(const struct loom_topo *t);

/* ---- Queries (sets returned belong to t and live as long as it) -------------------------- */

/* Number of cores (of PUs when the topology has no Core level). */
int loom__topo_ncores(const struct loom_topo *t);
int loom__topo_npus(const struct loom_topo *t);
/* Number of NUMA nodes, memory-only ones included; >= 1. */
int loom__topo_nnuma(const struct loom_topo *t);
/* All PUs of the machine. */
const struct loom_cpuset *loom__topo_machine_set(const struct loom_topo *t);
/* The PUs of core `core` (logical index); NULL when out of range. */
const struct loom_cpuset *loom__topo_core_set(const struct loom_topo *t, int core);
/* The PUs near NUMA node `numa` (logical index; empty for memory-only nodes); NULL when
 * out of range. */
const struct loom_cpuset *loom__topo_numa_set(const struct loom_topo *t, int numa);
/* The logical index of the core / NUMA node whose set contains all of s, or -1 when s is
 * empty or spans more than one. When NUMA nodes nest (memory local to the whole machine
 * besides one node per package), the smallest node holding s; ties go to the lowest index. */
int loom__topo_core_of(const struct loom_topo *t, const struct loom_cpuset *s);
int loom__topo_numa_of(const struct loom_topo *t, const struct loom_cpuset *s);
/* The type name ("Machine", "Package", "NUMANode", "Group", "L3Cache", "L2Cache", "L1Cache",
 * "Core", "PU", ...) of the deepest object whose set contains every sets[0..n-1]; NULL if
 * n == 0, the union is empty or not inside the machine. Objects with equal sets are ordered
 * as in hwloc's tree, and a NUMA node counts as lying just below the object it is attached
 * to (on Fig. 1, cores 0 and 2 give "L3Cache": the NUMA node hangs on the Package). */
const char *loom__topo_common_ancestor_type(const struct loom_topo *t,
                                            struct loom_cpuset *const *sets, int n);

/* ---- Placement (rules at the top of this file) ------------------------------------------- */

/* Fill sets[0..nranks-1] with new sets (the caller frees each) placing nranks ranks under
 * policy. -1 + message, with sets[] all NULL, on a bad policy (the message lists the accepted
 * values), a bad user set, nranks < 0 or ENOMEM. */
int loom__topo_place(const struct loom_topo *t, const char *policy, int nranks,
                     struct loom_cpuset **sets, char *err, size_t errlen);
/* Check a policy string without a topology (config validation): 0, or -1 + message. User
 * sets are checked for syntax only. */
int loom__topo_policy_check(const char *policy, char *err, size_t errlen);
/* The accepted policy values, for messages and help text. */
const char *loom__topo_policy_help(void);
/* The cores of NUMA node `numa` (those whose loom__topo_numa_of is numa) that no
 * sets[0..nranks-1] touches, as one new set (all their
 * PUs); empty when numa is out of range; NULL on ENOMEM. */
struct loom_cpuset *loom__topo_free_cores(const struct loom_topo *t, int numa,
                                          struct loom_cpuset *const *sets, int nranks);

/* Node processes sharing a host (host_share.c): the PUs of part k of `share` runs of
 * consecutive cores, as a new set; NULL when t has fewer cores than share, k is out of range,
 * or on ENOMEM. */
struct loom_cpuset *loom__topo_host_part(const struct loom_topo *t, int k, int share);

/* ---- Binding ----------------------------------------------------------------------------- */

/* Bind the calling thread to s when t is this machine; a no-op returning 0 otherwise.
 * -1 + message on failure. */
int loom__topo_bind_thread(const struct loom_topo *t, const struct loom_cpuset *s, char *err,
                           size_t errlen);
/* Bind the whole process (every thread, and those it starts later) to s when t is this
 * machine; a no-op returning 0 otherwise. -1 + message on failure. */
int loom__topo_bind_process(const struct loom_topo *t, const struct loom_cpuset *s, char *err,
                            size_t errlen);
/* The PU (OS index) the calling thread runs on now, -1 if unknown. */
int loom__topo_current_pu(void);

/* ---- Printing (for loom-info) ------------------------------------------------------------ */

/* The object tree, one object per line, indented two spaces per level:
 * "<Type> L#<logical index>  cpus <set>", NUMA nodes ("NUMANode L#i  cpus <set>") listed
 * first under the object they hang on. I/O and Misc objects are left out. */
void loom__topo_print_tree(const struct loom_topo *t, FILE *f);
/* A table "rank  cpuset  core  numa" of nranks ranks under policy ("-" where a set spans
 * more than one core or NUMA node). 0, or -1 + message as loom__topo_place. */
int loom__topo_print_placement(const struct loom_topo *t, const char *policy, int nranks,
                               FILE *f, char *err, size_t errlen);

/* ---- the scheduling tree (tree.c) -------------------------------------------------------
 * The machine as nested CPU sets, for the task engine's queues (PIOMan's hierarchy): the
 * Machine, Packages, NUMA nodes, Groups, L3/L2/L1 caches and Cores, keeping only objects that
 * split something: an object whose CPU set equals its parent's is dropped (the higher one is
 * kept). Cores are the leaves. Built at load, read-only afterwards. */
struct loom_topo_node {
    const char *type;               /* "Machine", "Package", "NUMANode", "Group", "L3Cache",
                                       "L2Cache", "L1Cache", "Core" */
    const struct loom_cpuset *set;
    int parent;                     /* index of the parent node, -1 for the root */
    int depth;                      /* 0 for the root */
    int numa;                       /* logical index of the NUMA node containing it, or -1
                                       when it spans several */
};
/* The nodes, parents before children (index 0 is the root); returns their number. */
int loom__topo_tree(const struct loom_topo *t, const struct loom_topo_node **nodes);
/* The deepest node whose CPU set contains all of s (0, the root, when none deeper does). */
int loom__topo_tree_find(const struct loom_topo *t, const struct loom_cpuset *s);

/* ---- progress threads (progress_place.c; the 2019 paper, Sections 4-5) ------------------ */
/* Eq. 1: the core (position in the NUMA node) of the progress thread of the rank at position
 * M, with N cores and n ranks on the node. */
int loom__place_numa(int N, int n, int M);
/* Eq. 2: the core of rank r's progress thread with p cores and n ranks; -1 if n >= p. */
int loom__place_odd_even(int p, int n, int r);
/* Check a LOOM_PROGRESS_PLACEMENT value: bind | numa | odd-even | cores:<list>. */
int loom__progress_policy_check(const char *policy, char *err, size_t errlen);
/* One CPU set per rank for its progress thread under `policy`, given the ranks' sets (new
 * sets in out[0..nranks-1]; caller frees). -1 + message on a bad policy. */
int loom__topo_place_progress(const struct loom_topo *t, const char *policy, int nranks,
                              struct loom_cpuset *const *rank_sets, struct loom_cpuset **out,
                              char *err, size_t errlen);

/* ---- the hardware hierarchy of communicators (hier.c; issue 6, docs/hierarchy.md) -------
 * Levels are the distinct CPU sets of hwloc's objects, nested by inclusion, down to PUs:
 * objects with equal sets fold into one level, NUMA nodes sit where their CPU set does (folded
 * into the level with the same set, or a level of their own over the children they cover),
 * and a level is named after the object of its fold that ranks first among Machine, NUMANode,
 * then the others from the top down. Fig. 1 gives Machine > NUMANode (x2) > L2Cache (x4) >
 * Core (x8). A loom_hier is a snapshot (O(objects) to build) that borrows t's sets: free it
 * before t. Read-only once built. Levels are numbered 0 (the Machine) to size - 1. */
struct loom_hier;
/* Build the levels of t. 0, or -1 on ENOMEM. Freed with loom__topo_hier_free. */
int loom__topo_hier_new(const struct loom_topo *t, struct loom_hier **out);
void loom__topo_hier_free(struct loom_hier *h);
int loom__topo_hier_size(const struct loom_hier *h);
/* The deepest level whose set holds all of s; -1 if s is empty or not inside the machine. */
int loom__topo_hier_find(const struct loom_hier *h, const struct loom_cpuset *s);
/* The child of `level` whose set holds all of s, -1 when none does (s spans several
 * children, or level has none). */
int loom__topo_hier_child(const struct loom_hier *h, int level, const struct loom_cpuset *s);
/* The parent (-1 for the root), the number of children, the position among its parent's
 * children (0-based, hwloc's order), and the name ("Machine", "NUMANode", "L2Cache", ...) of a
 * level; the name lives as long as the program. */
int loom__topo_hier_parent(const struct loom_hier *h, int level);
int loom__topo_hier_nchildren(const struct loom_hier *h, int level);
int loom__topo_hier_pos(const struct loom_hier *h, int level);
const char *loom__topo_hier_type(const struct loom_hier *h, int level);
/* Write a level's CPU set as a list into buf (snprintf's return); -1 for a bad level. */
int loom__topo_hier_format_set(const struct loom_hier *h, int level, char *buf, size_t len);
/* The levels as an indented tree ("<Type> #<pos>  cpus <set>"), for tests and loom-info. */
void loom__topo_hier_print(const struct loom_hier *h, FILE *f);
/* Guided splits. The canonical name of a resource type given in any letter case (Machine,
 * Package, Die, NUMANode, Group, L5Cache..L1Cache, Core, PU), alone or after the prefix
 * "hwloc://" (the form of MPI_Get_hw_resource_info's keys), NULL if unknown. */
#define LOOM_HW_URI_PREFIX "hwloc://"
const char *loom__topo_resource_name(const char *value);
/* The resource types of which the machine has at least one object, in the order above (the
 * largest first), into names[0..max-1] (loom's spelling, static strings); returns how many. */
int loom__topo_resource_types(const struct loom_topo *t, const char **names, int max);
/* A number identifying the object of that type holding all of s (the smallest one when
 * several do: nested NUMA nodes or Groups), equal for equal objects, >= 0; -1 when the type
 * is unknown, s is empty, or no object of that type holds all of s. */
int loom__topo_resource_of(const struct loom_topo *t, const char *type,
                           const struct loom_cpuset *s);

#endif /* LOOM_TOPO_TOPO_H */
