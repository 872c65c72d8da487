/* net/pmi_mapping.c — where a node process sits on its host, from the launcher's
 * PMI_process_mapping ("(vector,(node,count,size),...)", MPICH's format, also written by
 * Slurm's PMI). A block (n,c,s) gives s consecutive ranks to each of nodes n..n+c-1; the
 * blocks are dealt again from the first until every rank of the job has a node, which is how
 * Hydra describes more processes than the slots it knows (3 processes, one host of 1 slot:
 * "(vector,(0,1,1))"). The blocks are walked in place, twice, without storing them: the value
 * is short (one PMI value) and this runs once per process. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/pmi_impl.h"


static const char *skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Read a number >= 0 at *p, then the character `then` (spaces around allowed). */
static int number(const char **p, long *v, char then)
{
    const char *s = skip_space(*p);
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    *v = strtol(s, &end, 10);
    if (*v > 1L << 30)
        return -1;
    s = skip_space(end);
    if (*s != then)
        return -1;
    *p = s + 1;
    return 0;
}

/* The blocks: after "(vector", each ",(n,c,s)"; the list ends with ")". */
struct blocks {
    const char *first; /* just after "(vector" */
    const char *at;
};

/* The next block into n, c, s: 1 if read, 0 at the end of the list, -1 if malformed. */
static int next_block(struct blocks *b, long *n, long *c, long *s)
{
    const char *p = skip_space(b->at);
    if (*p == ')') {
        if (*skip_space(p + 1) != '\0')
            return -1;
        return 0;
    }
    if (*p != ',')
        return -1;
    p = skip_space(p + 1);
    if (*p != '(')
        return -1;
    p++;
    if (number(&p, n, ',') || number(&p, c, ',') || number(&p, s, ')'))
        return -1;
    b->at = p;
    return 1;
}

/* Deal the ranks 0..size-1 to nodes. Returns the node of rank `want`, or -1 with *bad set
 * when the mapping is malformed or a whole pass of the blocks places no rank. When on >= 0,
 * also counts in *same the ranks on node `on`, and in *before those of them below `want`. */
static long walk(const char *first, int size, int want, long on, int *before, int *same,
                 int *bad)
{
    struct blocks b = {first, first};
    long node_of_want = -1;
    int rank = 0, pass_start = 0;
    *before = *same = 0;
    *bad = 0;
    while (rank < size) {
        long n, c, s;
        int got = next_block(&b, &n, &c, &s);
        if (got < 0 || (got == 0 && rank == pass_start)) {
            *bad = 1;
            return -1;
        }
        if (got == 0) {
            b.at = b.first; /* deal the blocks again */
            pass_start = rank;
            continue;
        }
        for (long i = 0; i < c && rank < size; i++)
            for (long j = 0; j < s && rank < size; j++, rank++) {
                if (rank == want)
                    node_of_want = n + i;
                if (on >= 0 && n + i == on) {
                    (*same)++;
                    if (rank < want)
                        (*before)++;
                }
            }
    }
    return node_of_want;
}

int loom__pmi_parse_mapping(const char *mapping, int rank, int size, int *local_rank,
                            int *local_size, char *err, size_t errlen)
{
    if (size < 1 || rank < 0 || rank >= size) {
        loom__pmi_seterr(err, errlen, "PMI process mapping: rank %d of %d is out of range", rank, size);
        return -1;
    }
    const char *p = skip_space(mapping);
    if (strncmp(p, "(vector", 7) != 0) {
        loom__pmi_seterr(err, errlen, "PMI process mapping '%.200s' does not start with (vector",
               mapping);
        return -1;
    }
    /* The whole list is read once for its form: the walk below may stop before its end. */
    struct blocks b = {p + 7, p + 7};
    long n, c, s;
    int got;
    while ((got = next_block(&b, &n, &c, &s)) > 0)
        ;
    int before, same, bad = got < 0;
    long node = -1;
    if (!bad)
        node = walk(p + 7, size, rank, -1, &before, &same, &bad);
    if (!bad && node >= 0)
        (void)walk(p + 7, size, rank, node, &before, &same, &bad);
    if (bad || node < 0) {
        loom__pmi_seterr(err, errlen, "PMI process mapping '%.200s' is not (vector,(node,count,size),...) "
                            "placing %d ranks", mapping, size);
        return -1;
    }
    *local_rank = before;
    *local_size = same;
    return 0;
}
