/* trace_check PREFIX NP MODE — checks the LOOM_TRACE files of a run of trace_pingpong with NP
 * ranks under LOOM_PROGRESS=MODE: PREFIX.trace is well-formed Pajé and PREFIX.json strict JSON
 * in the trace-event format (trace_check.h), and both tell the same story: one container per
 * rank and per rank thread (plus a progress thread per rank under MODE=thread), the states
 * the program must have gone through, as many JSON slices as Pajé SetState events, the same
 * state and thread names. Prints what it got and what it expected on failure. */
#include "trace_check.h"

static int bad;

static void expect_name(const struct tc_names *s, const char *what, const char *name,
                        int prefix)
{
    if (prefix ? tc_names_has_prefix(s, name) : tc_names_has(s, name))
        return;
    fprintf(stderr, "trace_check: no %s %s\"%s\"; got:", what, prefix ? "starting with " : "",
            name);
    for (int i = 0; i < s->n; i++)
        fprintf(stderr, " \"%s\"", s->v[i]);
    fprintf(stderr, "\n");
    bad = 1;
}

static void expect_int(const char *what, long got, long want)
{
    if (got != want) {
        fprintf(stderr, "trace_check: %s is %ld, expected %ld\n", what, got, want);
        bad = 1;
    }
}

/* every name of a is in b */
static void expect_subset(const struct tc_names *a, const char *an, const struct tc_names *b,
                          const char *bn)
{
    for (int i = 0; i < a->n; i++)
        if (!tc_names_has(b, a->v[i])) {
            fprintf(stderr, "trace_check: \"%s\" is in %s but not in %s\n", a->v[i], an, bn);
            bad = 1;
        }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: trace_check PREFIX NP inline|collaborative|thread\n");
        return 2;
    }
    int np = atoi(argv[2]);
    const char *mode = argv[3];
    char ppath[4096], jpath[4096];
    snprintf(ppath, sizeof ppath, "%s.trace", argv[1]);
    snprintf(jpath, sizeof jpath, "%s.json", argv[1]);
    struct paje_summary ps;
    struct json_summary js;
    if (paje_check(ppath, &ps) != 0)
        return 1;
    if (json_check(jpath, &js) != 0) {
        paje_summary_free(&ps);
        return 1;
    }
    char name[128];
    for (int r = 0; r < np; r++) {
        snprintf(name, sizeof name, "rank %d", r);
        expect_name(&ps.containers, "rank container", name, 0);
        snprintf(name, sizeof name, "rank %d (cpu ", r);
        expect_name(&ps.containers, "rank thread container", name, 1);
        expect_name(&js.threads, "JSON thread", name, 1);
        if (strcmp(mode, "thread") == 0) {
            snprintf(name, sizeof name, "rank %d progress thread ", r);
            expect_name(&ps.containers, "progress thread container", name, 1);
        }
    }
    expect_name(&ps.states, "Paje state", "compute", 0);
    expect_name(&ps.states, "Paje state", "MPI_Comm_rank", 0);
    expect_name(&ps.states, "Paje state", "MPI_Finalize", 0);
    if (np >= 2) {
        expect_name(&ps.states, "Paje state", "MPI_Send", 0);
        expect_name(&ps.states, "Paje state", "MPI_Irecv", 0);
        expect_name(&ps.states, "Paje state", "MPI_Wait", 0);
        if (strcmp(mode, "inline") != 0) {
            /* the large copies are chunk tasks: someone ran some */
            expect_name(&ps.states, "Paje state", "task for rank ", 1);
            if (js.for_rank_args == 0) {
                fprintf(stderr, "trace_check: no JSON task slice names the rank it served\n");
                bad = 1;
            }
        }
    }
    if (strcmp(mode, "thread") == 0)
        expect_name(&ps.states, "Paje state", "idle", 0);
    expect_int("JSON slices (X events) vs Paje SetState events", js.complete, ps.set_states);
    expect_int("otherData.truncated_threads", js.truncated_threads, 0);
    expect_subset(&js.names, "the JSON slice names", &ps.states, "the Paje states");
    expect_subset(&ps.states, "the Paje states", &js.names, "the JSON slice names");
    if (!bad)
        printf("trace_check: %s: %d events, %d states, %d containers; %s: %d slices, %d "
               "threads\n",
               ppath, ps.events, ps.set_states, ps.containers.n, jpath, js.complete,
               js.threads.n);
    paje_summary_free(&ps);
    json_summary_free(&js);
    return bad;
}
