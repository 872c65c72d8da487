/* tools/loom-info — tells what loom would do on this machine, without running a program:
 * its version, the configuration in effect (the table of core/config_table.h), the topology
 * (this machine, or LOOM_TOPOLOGY / --topology), whether ranks would be bound, and where each
 * of N ranks would go. It reads the same LOOM_* variables, through the same validator, as a
 * loom program does at start, so what it prints is what a program would get.
 * Exit status: 0, or 2 for a bad option or value (message on stderr). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h> /* LOOM_NO_MAIN_RENAME is defined: only the version numbers are used */

#include "core/config.h"
#include "mpit_list.h"
#include "topo/topo.h"

#ifndef LOOM_VERSION_STRING
#define LOOM_VERSION_STRING "?"
#endif

static void usage(FILE *f)
{
    fprintf(f,
            "usage: loom-info [-n N] [--bind-to POLICY] [--topology SPEC]\n"
            "       loom-info --config | --config-markdown | --mpit | --help\n"
            "  (no option)        loom's version and the topology in effect (LOOM_TOPOLOGY or "
            "this machine)\n"
            "  -n, -np N          also where each of N ranks would go (default: LOOM_NP when "
            "set)\n"
            "  --bind-to POLICY   placement policy instead of LOOM_BIND: %s\n"
            "  --topology SPEC    an hwloc synthetic description or XML file instead of "
            "LOOM_TOPOLOGY\n"
            "  --config           every LOOM_* setting: value in effect, origin, accepted "
            "values\n"
            "  --config-markdown  the text of docs/config.md\n"
            "  --mpit             the MPI_T control variables (values in effect), performance "
            "variables\n"
            "                     and categories, as a tool sees them (docs/mpit.md)\n"
            "  -h, --help         this text\n",
            loom__topo_policy_help());
}

static void warn(const char *msg)
{
    fprintf(stderr, "loom-info: warning: %s\n", msg);
}

static int bad(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "loom-info: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n(loom-info --help lists the options)\n");
    return 2;
}

/* The value of option argv[*i] ("--opt VALUE" or "--opt=VALUE"), NULL if argv[*i] is not
 * that option; *missing is set when the value is absent. */
static const char *value_of(const char *opt, int argc, char **argv, int *i, int *missing)
{
    size_t n = strlen(opt);
    if (strncmp(argv[*i], opt, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

int main(int argc, char **argv)
{
    const char *np = NULL, *bind = NULL, *topology = NULL, *v;
    int config = 0, markdown = 0, mpit = 0;
    char err[1024];

    for (int i = 1; i < argc; i++) {
        int missing = 0;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--config") == 0) {
            config = 1;
        } else if (strcmp(argv[i], "--config-markdown") == 0) {
            markdown = 1;
        } else if (strcmp(argv[i], "--mpit") == 0) {
            mpit = 1;
        } else if ((v = value_of("-np", argc, argv, &i, &missing)) ||
                   (!missing && (v = value_of("-n", argc, argv, &i, &missing)))) {
            np = v;
        } else if (!missing && (v = value_of("--bind-to", argc, argv, &i, &missing))) {
            bind = v;
        } else if (!missing && (v = value_of("--topology", argc, argv, &i, &missing))) {
            topology = v;
        } else if (missing) {
            return bad("%s needs a value%s", argv[i], "");
        } else {
            return bad("unknown option '%s'%s", argv[i], "");
        }
    }

    /* The docs are the table's defaults: the same whatever the environment holds. */
    if (markdown) {
        loom__config_write_markdown(stdout);
        return 0;
    }
    if (loom__config_load(warn, err, sizeof(err)) != 0)
        return bad("%s%s", err, "");
    if (config) {
        loom__config_print(stdout);
        return 0;
    }
    if (mpit)
        return loom_info_mpit_list(stdout);

    /* Options are checked by the rows of the variables they replace. */
    if (np && loom__config_check(LOOM_CFG_NP, np, err, sizeof(err)) != 0)
        return bad("-n %s: %s", np, err);
    if (bind && loom__config_check(LOOM_CFG_BIND, bind, err, sizeof(err)) != 0)
        return bad("--bind-to %s: %s", bind, err);
    if (!np && loom__config_is_set(LOOM_CFG_NP))
        np = loom__config_str(LOOM_CFG_NP);
    if (!bind)
        bind = loom__config_str(LOOM_CFG_BIND);
    if (!topology)
        topology = loom__config_str(LOOM_CFG_TOPOLOGY);

    printf("loom %s (MPI %d.%d)\n", LOOM_VERSION_STRING, MPI_VERSION, MPI_SUBVERSION);
    struct loom_topo *t;
    if (loom__topo_load(topology, &t, err, sizeof(err)) != 0)
        return bad("--topology / LOOM_TOPOLOGY: %s%s", err, "");
    loom__topo_print_tree(t, stdout);
    if (loom__topo_is_this_system(t))
        printf("binding: %s\n", strcmp(bind, "none") == 0
                                    ? "none (policy none: every rank may run anywhere)"
                                    : "ranks are bound to their CPU sets");
    else
        printf("binding: no OS binding (%s): ranks only get logical CPU sets\n",
               loom__topo_source(t));

    int rc = 0;
    if (np) {
        /* The table goes to memory first, so a placement that fails prints no header. */
        int n = atoi(np); /* validated above: 1-1048576 */
        char *table = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&table, &len);
        if (!m) {
            fprintf(stderr, "loom-info: out of memory\n");
            rc = 1;
        } else {
            int placed = loom__topo_print_placement(t, bind, n, m, err, sizeof(err));
            fclose(m);
            if (placed != 0) {
                rc = bad("%s%s", err, "");
            } else {
                printf("\nplacement of %d rank%s, policy %s:\n%s", n, n == 1 ? "" : "s",
                       *bind ? bind : "spread", table);
            }
            free(table); /* allocated by open_memstream */
        }
    }
    loom__topo_destroy(t);
    return rc;
}
