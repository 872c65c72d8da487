/* tools/loom-model — prints the split-tree model of the 2019 paper (Section 6.2, Eqs. 3-9)
 * for a machine of C cores: for each number of ranks N (the other C - N cores are
 * communication cores) and each split point S, T_blocking, T_nonblocking(S,N) and
 * T_overlapped(S,N); the best S per N (what LOOM_SPLIT_TREE=auto picks); a full CSV table;
 * plots of Figs. 13-16 (through plot.py, the only part that needs Python); and a
 * deterministic simulation of the folded binomial trees to set beside the model.
 * The model itself is src/coll/model.c; this file only parses options and prints.
 * Exit status: 0, 1 if the plot could not be made, 2 for a bad option (message on stderr). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/model.h"

#ifndef LOOM_MODEL_PLOT_SCRIPT
#define LOOM_MODEL_PLOT_SCRIPT "plot.py"
#endif
#ifndef LOOM_MODEL_PLOT_SCRIPT_INSTALLED
#define LOOM_MODEL_PLOT_SCRIPT_INSTALLED LOOM_MODEL_PLOT_SCRIPT
#endif

static void usage(FILE *f)
{
    fprintf(f,
        "usage: loom-model --cores C [--ranks N] [--buffer const|doubling] [--equations E]\n"
        "                  [--best | --csv | --plot FILE.png]\n"
        "                  [--simulate [--coll NAME] [--sim-mode step|greedy]]\n"
        "  --cores C        cores of the machine in all (the paper's \"on 64 cores\", N_proc):\n"
        "                   N of them run ranks, the other P = C - N are communication cores\n"
        "  --ranks N        only this number of ranks, 1 <= N < C (default: every N)\n"
        "  --buffer KIND    const: same buffer on every level (bcast, reduce; Eqs. 6-7, the\n"
        "                   default); doubling: doubles at each level (gather, scatter; Eqs. 8-9)\n"
        "  --equations E    fixed (default: the model that gives the paper's stated results),\n"
        "                   printed (Eqs. 4 and 5 as printed), printed-eq4, printed-eq5\n"
        "  --best           one CSV line N,S,T_overlapped per N, with the S of least T_overlapped\n"
        "  --csv            the full table as CSV, one line per N and S\n"
        "  --plot FILE.png  draw Figs. 13-16 for C cores (needs python3 with matplotlib)\n"
        "  --simulate       simulate the binomial trees folded on P cores (unit-cost transfers)\n"
        "                   and print them beside the model; with --best/--csv, CSV from it\n"
        "  --tree T         what --simulate runs: library (default: the schedules loom's own\n"
        "                   builders make, each rank's as a real call builds it, split as the\n"
        "                   library splits them) or own (loom-model's generator of the same\n"
        "                   binomial tree; used when the library's builders are not there)\n"
        "  --sim-mode M     step (default): tree levels one after the other, each folded on P\n"
        "                   cores (Eq. 6's assumption); greedy: no barrier between levels\n"
        "  --coll NAME      what --simulate runs: reduce (default for const), bcast, gather\n"
        "                   (default for doubling), scatter\n"
        "  -h, --help       this text\n"
        "Times are in units of one point-to-point transfer of the buffer (for doubling: of one\n"
        "rank's block). C(N) is the computation per rank, sized so that on all C cores it\n"
        "equals the blocking collective, with the total work fixed. See docs/model.md.\n");
}

static int bad(const char *fmt, const char *arg)
{
    fprintf(stderr, "loom-model: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(loom-model --help for usage)\n");
    return 2;
}

/* A whole decimal int in [lo, hi], or -1 with errno set. */
static int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

struct opts {
    int cores, ranks, growing, best, csv, simulate;
    unsigned flags;
    enum loom_model_coll coll;
    enum loom_model_sim_mode mode;
    enum loom_model_tree tree;
    int tree_set;
    int coll_set, mode_set;
    const char *plot;
};

static int smax_of(const struct opts *o)
{
    return loom__model_height(o->cores - 1);
}

static void print_time(double t)
{
    if (isinf(t))
        printf(" %8s", "inf");
    else
        printf(" %8.3f", t);
}

/* The human-readable table of the model. */
static void print_model(const struct opts *o, int nlo, int nhi)
{
    int smax = smax_of(o);
    printf("# split-tree model, %d cores, %s buffer, %s equations; N ranks, P = %d - N "
           "communication cores\n",
           o->cores, o->growing ? "doubling" : "constant",
           o->flags == 0 ? "fixed" : "printed", o->cores);
    printf("%4s %4s %8s %8s %8s |", "N", "P", "C(N)", "T_block", "T_blk+C");
    for (int s = 0; s <= smax; s++)
        printf(" %7s%d", "T_nb S=", s);
    printf(" |");
    for (int s = 0; s <= smax; s++)
        printf(" %7s%d", "T_ov S=", s);
    printf(" | best S\n");
    for (int n = nlo; n <= nhi; n++) {
        int p = o->cores - n;
        printf("%4d %4d", n, p);
        print_time(loom__model_comp_v(n, p, o->growing, o->flags));
        print_time(loom__model_t_blocking(n, p, o->growing));
        print_time(loom__model_t_blocking(n, p, o->growing) +
                   loom__model_comp_v(n, p, o->growing, o->flags));
        printf(" |");
        for (int s = 0; s <= smax; s++)
            print_time(loom__model_t_nonblocking_v(s, n, p, o->growing, o->flags));
        printf(" |");
        for (int s = 0; s <= smax; s++)
            print_time(loom__model_t_overlapped_v(s, n, p, o->growing, o->flags));
        printf(" | %d\n", loom__model_best_split_v(n, p, o->growing, o->flags));
    }
}

static void print_best(const struct opts *o, int nlo, int nhi)
{
    for (int n = nlo; n <= nhi; n++) {
        int p = o->cores - n;
        int s = loom__model_best_split_v(n, p, o->growing, o->flags);
        printf("%d,%d,%.6g\n", n, s, loom__model_t_overlapped_v(s, n, p, o->growing, o->flags));
    }
}

static void print_csv_header(void)
{
    printf("buffer,N,P,S,C,T_blocking,T_blocking_total,T_nonblocking,T_overlapped,best_S\n");
}

static void print_csv(FILE *f, const struct opts *o, int growing, int nlo, int nhi)
{
    int smax = smax_of(o);
    for (int n = nlo; n <= nhi; n++) {
        int p = o->cores - n;
        double c = loom__model_comp_v(n, p, growing, o->flags);
        double tb = loom__model_t_blocking(n, p, growing);
        int best = loom__model_best_split_v(n, p, growing, o->flags);
        for (int s = 0; s <= smax; s++)
            fprintf(f, "%s,%d,%d,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%d\n",
                    growing ? "doubling" : "const", n, p, s, c, tb, tb + c,
                    loom__model_t_nonblocking_v(s, n, p, growing, o->flags),
                    loom__model_t_overlapped_v(s, n, p, growing, o->flags), best);
    }
}

/* One simulated point: T_nonblocking and T_overlapped from the simulator. */
static int sim_point(const struct opts *o, int s, int n, double *t_nb, double *t_ov)
{
    struct loom_model_sim r;
    int p = o->cores - n;
    if (loom__model_simulate(o->coll, o->tree, o->mode, s, n, p, &r) != 0)
        return -1;
    double c = loom__model_comp_v(n, p, o->growing, o->flags);
    *t_nb = r.app_time + r.comm_time;
    *t_ov = r.app_time + (r.comm_time > c ? r.comm_time : c);
    return 0;
}

/* The S of least simulated T_overlapped (smallest on a tie, as the model's choice). */
static int sim_best(const struct opts *o, int n, double *t_best)
{
    int h = loom__model_height(n), best = 0;
    double nb, ov;
    *t_best = INFINITY;
    for (int s = 0; s <= h; s++)
        if (sim_point(o, s, n, &nb, &ov) == 0 && ov < *t_best) {
            *t_best = ov;
            best = s;
        }
    return best;
}

static const char *coll_name(enum loom_model_coll c)
{
    static const char *names[] = {"bcast", "reduce", "gather", "scatter"};
    return names[c];
}

static int print_simulation(const struct opts *o, int nlo, int nhi)
{
    int smax = smax_of(o);
    double nb, ov, tbest;
    if (o->best) {
        for (int n = nlo; n <= nhi; n++) {
            int s = sim_best(o, n, &tbest);
            printf("%d,%d,%.6g\n", n, s, tbest);
        }
        return 0;
    }
    if (o->csv) {
        printf("coll,N,P,S,C,sim_T_nonblocking,model_T_nonblocking,sim_T_overlapped,"
               "model_T_overlapped\n");
        for (int n = nlo; n <= nhi; n++) {
            int p = o->cores - n;
            for (int s = 0; s <= smax; s++) {
                if (sim_point(o, s, n, &nb, &ov) != 0)
                    return 1;
                printf("%s,%d,%d,%d,%.6g,%.6g,%.6g,%.6g,%.6g\n", coll_name(o->coll), n, p, s,
                       loom__model_comp_v(n, p, o->growing, o->flags), nb,
                       loom__model_t_nonblocking_v(s, n, p, o->growing, o->flags), ov,
                       loom__model_t_overlapped_v(s, n, p, o->growing, o->flags));
            }
        }
        return 0;
    }
    printf("# simulated %s (binomial, root 0, %s schedules, %s mode) on %d cores beside the "
           "model (%s buffer); cells: simulated/model\n",
           coll_name(o->coll), o->tree == LOOM_MODEL_TREE_LIBRARY ? "library" : "own",
           o->mode == LOOM_MODEL_SIM_STEP ? "step" : "greedy", o->cores,
           o->growing ? "doubling" : "constant");
    printf("%4s %4s |", "N", "P");
    for (int s = 0; s <= smax; s++)
        printf(" %13s%d", "T_nb S=", s);
    printf(" |");
    for (int s = 0; s <= smax; s++)
        printf(" %13s%d", "T_ov S=", s);
    printf(" | best S sim/model\n");
    for (int n = nlo; n <= nhi; n++) {
        int p = o->cores - n;
        printf("%4d %4d |", n, p);
        for (int s = 0; s <= smax; s++) {
            if (sim_point(o, s, n, &nb, &ov) != 0)
                return 1;
            printf(" %6.4g/%-7.4g", nb, loom__model_t_nonblocking_v(s, n, p, o->growing, o->flags));
        }
        printf(" |");
        for (int s = 0; s <= smax; s++) {
            if (sim_point(o, s, n, &nb, &ov) != 0)
                return 1;
            printf(" %6.4g/%-7.4g", ov, loom__model_t_overlapped_v(s, n, p, o->growing, o->flags));
        }
        printf(" | %d/%d\n", sim_best(o, n, &tbest),
               loom__model_best_split_v(n, p, o->growing, o->flags));
    }
    return 0;
}

/* Write both buffer kinds as CSV and let plot.py draw Figs. 13-16. */
static int plot(const struct opts *o, int nlo, int nhi)
{
    const char *script = access(LOOM_MODEL_PLOT_SCRIPT, R_OK) == 0
                             ? LOOM_MODEL_PLOT_SCRIPT
                             : LOOM_MODEL_PLOT_SCRIPT_INSTALLED;
    if (strchr(o->plot, '\'') || strchr(script, '\'')) {
        fprintf(stderr, "loom-model: --plot: a file name with a quote in it is not supported\n");
        return 2;
    }
    char csv[] = "/tmp/loom-model-XXXXXX";
    int fd = mkstemp(csv);
    if (fd < 0) {
        perror("loom-model: temporary file");
        return 1;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(csv);
        return 1;
    }
    fprintf(f, "buffer,N,P,S,C,T_blocking,T_blocking_total,T_nonblocking,T_overlapped,best_S\n");
    print_csv(f, o, 0, nlo, nhi);
    print_csv(f, o, 1, nlo, nhi);
    fclose(f);
    char cores[16];
    snprintf(cores, sizeof cores, "%d", o->cores);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "python3 '%s' '%s' '%s' '%s'", script, csv,
             o->plot, cores);
    int rc = system(cmd);
    unlink(csv);
    if (rc != 0) {
        fprintf(stderr, "loom-model: plotting failed (python3 with matplotlib needed; "
                        "--csv gives the numbers without Python)\n");
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct opts o = {.cores = 0, .ranks = 0, .coll = LOOM_MODEL_REDUCE};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--cores") || !strcmp(a, "--ranks") || !strcmp(a, "--buffer") ||
                   !strcmp(a, "--plot") || !strcmp(a, "--equations") || !strcmp(a, "--coll") ||
                   !strcmp(a, "--sim-mode") || !strcmp(a, "--tree")) {
            if (!v)
                return bad("%s needs a value", a);
            i++;
            if (!strcmp(a, "--cores")) {
                if (parse_int(v, 2, 1 << 20, &o.cores))
                    return bad("--cores: '%s' is not a core count from 2 to 1048576", v);
            } else if (!strcmp(a, "--ranks")) {
                if (parse_int(v, 1, 1 << 20, &o.ranks))
                    return bad("--ranks: '%s' is not a rank count >= 1", v);
            } else if (!strcmp(a, "--buffer")) {
                if (!strcmp(v, "const"))
                    o.growing = 0;
                else if (!strcmp(v, "doubling"))
                    o.growing = 1;
                else
                    return bad("--buffer: '%s' is not const or doubling", v);
            } else if (!strcmp(a, "--equations")) {
                if (!strcmp(v, "fixed"))
                    o.flags = 0;
                else if (!strcmp(v, "printed"))
                    o.flags = LOOM_MODEL_PRINTED_EQ4 | LOOM_MODEL_PRINTED_EQ5;
                else if (!strcmp(v, "printed-eq4"))
                    o.flags = LOOM_MODEL_PRINTED_EQ4;
                else if (!strcmp(v, "printed-eq5"))
                    o.flags = LOOM_MODEL_PRINTED_EQ5;
                else
                    return bad("--equations: '%s' is not fixed, printed, printed-eq4 or "
                               "printed-eq5", v);
            } else if (!strcmp(a, "--tree")) {
                o.tree_set = 1;
                if (!strcmp(v, "library"))
                    o.tree = LOOM_MODEL_TREE_LIBRARY;
                else if (!strcmp(v, "own"))
                    o.tree = LOOM_MODEL_TREE_OWN;
                else
                    return bad("--tree: '%s' is not library or own", v);
            } else if (!strcmp(a, "--sim-mode")) {
                o.mode_set = 1;
                if (!strcmp(v, "step"))
                    o.mode = LOOM_MODEL_SIM_STEP;
                else if (!strcmp(v, "greedy"))
                    o.mode = LOOM_MODEL_SIM_GREEDY;
                else
                    return bad("--sim-mode: '%s' is not step or greedy", v);
            } else if (!strcmp(a, "--coll")) {
                o.coll_set = 1;
                if (!strcmp(v, "bcast"))
                    o.coll = LOOM_MODEL_BCAST;
                else if (!strcmp(v, "reduce"))
                    o.coll = LOOM_MODEL_REDUCE;
                else if (!strcmp(v, "gather"))
                    o.coll = LOOM_MODEL_GATHER;
                else if (!strcmp(v, "scatter"))
                    o.coll = LOOM_MODEL_SCATTER;
                else
                    return bad("--coll: '%s' is not bcast, reduce, gather or scatter", v);
            } else {
                o.plot = v;
            }
        } else if (!strcmp(a, "--best")) {
            o.best = 1;
        } else if (!strcmp(a, "--csv")) {
            o.csv = 1;
        } else if (!strcmp(a, "--simulate")) {
            o.simulate = 1;
        } else {
            return bad("unknown option '%s'", a);
        }
    }
    if (o.cores == 0)
        return bad("%s", "--cores C is required (the machine's core count, e.g. 64)");
    if (o.ranks && o.ranks >= o.cores)
        return bad("%s", "--ranks N must be below --cores (at least one communication core)");
    if (o.best + o.csv + (o.plot != NULL) > 1)
        return bad("%s", "--best, --csv and --plot exclude each other");
    if (o.plot && o.simulate)
        return bad("%s", "--plot draws the model only; use --simulate --csv for the numbers");
    if ((o.coll_set || o.mode_set || o.tree_set) && !o.simulate)
        return bad("%s", "--coll, --sim-mode and --tree go with --simulate");
    if (o.simulate) {
        int coll_growing = o.coll == LOOM_MODEL_GATHER || o.coll == LOOM_MODEL_SCATTER;
        if (!o.coll_set)
            o.coll = o.growing ? LOOM_MODEL_GATHER : LOOM_MODEL_REDUCE;
        else if (coll_growing != o.growing)
            o.growing = coll_growing; /* the buffer kind follows the collective */
        struct loom_model_plan probe;
        int rc = loom__model_plan(o.coll, LOOM_MODEL_TREE_LIBRARY, 0, 2, &probe);
        if (rc == 0) {
            loom__model_plan_free(&probe);
        } else if (o.tree_set && o.tree == LOOM_MODEL_TREE_LIBRARY) {
            fprintf(stderr, "loom-model: --tree library: the library's %s builder is not "
                            "available (error %d); --tree own uses loom-model's generator\n",
                    coll_name(o.coll), rc);
            return 1;
        } else {
            o.tree = LOOM_MODEL_TREE_OWN;
        }
    }
    int nlo = o.ranks ? o.ranks : 1, nhi = o.ranks ? o.ranks : o.cores - 1;
    if (o.simulate)
        return print_simulation(&o, nlo, nhi);
    if (o.plot)
        return plot(&o, nlo, nhi);
    if (o.best)
        print_best(&o, nlo, nhi);
    else if (o.csv) {
        print_csv_header();
        print_csv(stdout, &o, o.growing, nlo, nhi);
    } else
        print_model(&o, nlo, nhi);
    return 0;
}
