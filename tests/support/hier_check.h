/* hier_check.h — helpers for the hierarchical communicator tests (tests/hier, issue 6).
 *
 * hier_walk() runs the loop of the paper's Section 5 twice side by side, once with
 * MPI_Comm_split_type(MPI_COMM_TYPE_HW_UNGUIDED, key = rank) and once with
 * MPIX_Comm_hsplit_with_roots, and checks every step of every rank against an expectation
 * given as text, one entry per (step, world rank):
 *     "<members> <type> <num> <index> | <roots members> <roots type>"
 * members are world ranks ("0-3", "0,4", "5"), or "null" for MPI_COMM_NULL (then nothing
 * else on that side). At each step it checks: membership and order of both results (they
 * must be congruent), strict inclusion in the parent (MPI_UNEQUAL), type/num/index from
 * MPIX_Comm_get_hlevel_info and mpi_hw_resource_type from MPI_Comm_get_info on the hsplit
 * result, the roots communicator and its info, and MPIX_Comm_get_min_hlevel on the new
 * communicator for the calling rank paired with every member. Collectives are not used
 * (they belong to another layer): only communicator calls. */
#ifndef LOOM_TEST_HIER_CHECK_H
#define LOOM_TEST_HIER_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "comm_check.h"

#define HIER_MAX 256
#define HIER_STEPS 16

struct hier_side {
    int n;                 /* 0: MPI_COMM_NULL */
    int members[HIER_MAX]; /* world ranks in comm rank order */
    char type[64];
};
struct hier_step {
    struct hier_side comm, roots;
    int num, index;
};

/* "0-3,6" -> members; "null" -> n = 0. */
static inline void hier_parse_members(const char *s, struct hier_side *out)
{
    out->n = 0;
    if (strncmp(s, "null", 4) == 0)
        return;
    while (*s && *s != ' ') {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        CHECK(end != s);
        s = end;
        if (*s == '-') {
            b = strtol(s + 1, &end, 10);
            s = end;
        }
        for (long i = a; i <= b; i++) {
            CHECK(out->n < HIER_MAX);
            out->members[out->n++] = (int)i;
        }
        if (*s == ',')
            s++;
    }
}

/* Parse one table entry. */
static inline void hier_parse(const char *text, struct hier_step *e)
{
    memset(e, 0, sizeof *e);
    char members[512], rmembers[512];
    const char *bar = strchr(text, '|');
    CHECK(bar != NULL);
    hier_parse_members(text, &e->comm);
    if (e->comm.n > 0)
        CHECK(sscanf(text, "%511s %63s %d %d", members, e->comm.type, &e->num, &e->index) == 4);
    hier_parse_members(bar + 2, &e->roots);
    if (e->roots.n > 0)
        CHECK(sscanf(bar + 2, "%511s %63s", rmembers, e->roots.type) == 2);
}

/* The world ranks of c's members, in c's rank order. */
static inline int hier_members(MPI_Comm c, int *out)
{
    int n;
    MPI_Group g, wg;
    OK(MPI_Comm_size(c, &n));
    OK(MPI_Comm_group(c, &g));
    OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    int *r = malloc((size_t)n * sizeof *r);
    CHECK(r != NULL);
    for (int i = 0; i < n; i++)
        r[i] = i;
    OK(MPI_Group_translate_ranks(g, n, r, wg, out));
    free(r);
    OK(MPI_Group_free(&g));
    OK(MPI_Group_free(&wg));
    return n;
}

static inline void hier_check_members(MPI_Comm c, const struct hier_side *want, const char *what,
                                      int step)
{
    int me = world_rank();
    if (want->n == 0) {
        if (c != MPI_COMM_NULL) {
            fprintf(stderr, "rank %d step %d: %s is a communicator, expected MPI_COMM_NULL\n",
                    me, step, what);
            _exit(99);
        }
        return;
    }
    if (c == MPI_COMM_NULL) {
        fprintf(stderr, "rank %d step %d: %s is MPI_COMM_NULL, expected %d members\n", me, step,
                what, want->n);
        _exit(99);
    }
    int got[HIER_MAX];
    int n = hier_members(c, got);
    int same = n == want->n;
    for (int i = 0; same && i < n; i++)
        same = got[i] == want->members[i];
    if (!same) {
        fprintf(stderr, "rank %d step %d: %s has members", me, step, what);
        for (int i = 0; i < n; i++)
            fprintf(stderr, " %d", got[i]);
        fprintf(stderr, ", expected");
        for (int i = 0; i < want->n; i++)
            fprintf(stderr, " %d", want->members[i]);
        fprintf(stderr, "\n");
        _exit(99);
    }
}

/* type/num/index from MPIX_Comm_get_hlevel_info and the info key. */
static inline void hier_check_hlevel(MPI_Comm c, const char *type, int num, int index)
{
    int n = -1, i = -1, len = -1, flag = 0;
    char t[MPI_MAX_INFO_VAL + 1];
    OK(MPIX_Comm_get_hlevel_info(c, &n, &i, t, &len));
    CHECK_STR(t, type);
    CHECK_INT(len, (int)strlen(type));
    CHECK_INT(n, num);
    CHECK_INT(i, index);
    MPI_Info info;
    OK(MPI_Comm_get_info(c, &info));
    OK(MPI_Info_get(info, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, t, &flag));
    CHECK_INT(flag, 1);
    CHECK_STR(t, type);
    OK(MPI_Info_free(&info));
}

/* The expected min level of world ranks a and b: the type of the last step whose
 * communicator holds both, else the type of the first roots communicator (the level split
 * first). */
typedef const char *(*hier_table_fn)(int step, int w);

static inline const char *hier_min_level(hier_table_fn table, int nsteps, int a, int b,
                                         char *buf)
{
    struct hier_step e;
    hier_parse(table(0, 0), &e);
    snprintf(buf, 64, "%s", e.roots.type[0] ? e.roots.type : "Machine");
    for (int s = 0; s < nsteps; s++) {
        hier_parse(table(s, a), &e);
        int ina = 0, inb = 0;
        for (int i = 0; i < e.comm.n; i++) {
            ina |= e.comm.members[i] == a;
            inb |= e.comm.members[i] == b;
        }
        if (ina && inb)
            snprintf(buf, 64, "%s", e.comm.type);
    }
    return buf;
}

/* Run the Section 5 loop; nsteps steps are checked (the last one must give MPI_COMM_NULL to
 * everybody still splitting). Returns the number of steps this rank took. */
static inline int hier_walk(hier_table_fn table, int nsteps)
{
    int me = world_rank(), wsize;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &wsize));
    MPI_Comm a = MPI_COMM_WORLD, b = MPI_COMM_WORLD;
    MPI_Comm made[2 * HIER_STEPS + 2];
    int nmade = 0, step = 0;
    char want[64], got[MPI_MAX_INFO_VAL + 1];
    int len;
    /* Pairs on MPI_COMM_WORLD, and a list without the caller: "Unknown". */
    for (int j = 0; j < wsize; j++) {
        int pair[2] = {me, j};
        OK(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, me == j ? 1 : 2, pair, got, &len));
        CHECK_STR(got, hier_min_level(table, nsteps, me, j, want));
        CHECK_INT(len, (int)strlen(got));
        if (j != me) {
            OK(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, 1, &j, got, &len));
            CHECK_STR(got, "Unknown");
        }
    }
    while (a != MPI_COMM_NULL) {
        CHECK(step < nsteps);
        struct hier_step e;
        hier_parse(table(step, me), &e);
        int rank;
        MPI_Comm na, nb, roots;
        OK(MPI_Comm_rank(a, &rank));
        OK(MPI_Comm_split_type(a, MPI_COMM_TYPE_HW_UNGUIDED, rank, MPI_INFO_NULL, &na));
        OK(MPIX_Comm_hsplit_with_roots(b, MPI_INFO_NULL, &nb, &roots));
        hier_check_members(na, &e.comm, "MPI_Comm_split_type's newcomm", step);
        hier_check_members(nb, &e.comm, "MPIX_Comm_hsplit_with_roots's newcomm", step);
        hier_check_members(roots, &e.roots, "rootscomm", step);
        if (na != MPI_COMM_NULL) {
            int r;
            OK(MPI_Comm_compare(a, na, &r));
            CHECK_INT(r, MPI_UNEQUAL); /* a strict subset of its parent */
            OK(MPI_Comm_compare(na, nb, &r));
            CHECK_INT(r, MPI_CONGRUENT);
            hier_check_hlevel(nb, e.comm.type, e.num, e.index);
            /* min level on the new communicator: me with every member */
            int n, wr[HIER_MAX], myr;
            n = hier_members(nb, wr);
            OK(MPI_Comm_rank(nb, &myr));
            for (int k = 0; k < n; k++) {
                int pair[2] = {myr, k};
                OK(MPIX_Comm_get_min_hlevel(nb, k == myr ? 1 : 2, pair, got, &len));
                CHECK_STR(got, hier_min_level(table, nsteps, me, wr[k], want));
            }
            made[nmade++] = na;
        }
        if (roots != MPI_COMM_NULL) {
            int rr, nbrank;
            OK(MPI_Comm_rank(nb, &nbrank));
            CHECK_INT(nbrank, 0); /* only roots of their newcomm are in a roots communicator */
            OK(MPI_Comm_rank(roots, &rr));
            hier_check_hlevel(roots, e.roots.type, 1, 0);
            made[nmade++] = roots;
        }
        if (nb != MPI_COMM_NULL)
            made[nmade++] = nb;
        a = na;
        b = nb;
        step++;
    }
    CHECK(b == MPI_COMM_NULL);
    for (int i = 0; i < nmade; i++)
        OK(MPI_Comm_free(&made[i]));
    return step;
}
#endif
