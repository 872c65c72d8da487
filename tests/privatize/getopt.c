/* tests/privatize/getopt.c — every rank parses its options with getopt_long before MPI_Init,
 * as benchmark suites do. getopt keeps its state in libc's globals, shared by all ranks: loom
 * runs the ranks' code before MPI_Init one at a time and resets getopt for each.
 * Run with: -c 3 -v -n alpha --size=64 -vq rest1 rest2 */
#include <getopt.h>
#include <mpi.h>
#include <string.h>
#include "check.h"

static int count = -1, verbose, quiet;
static char name[32];
static long size_opt;
static int rest_index;

static void parse(int argc, char **argv)
{
    static const struct option longopts[] = {{"size", required_argument, NULL, 's'},
                                             {"verbose", no_argument, NULL, 'v'},
                                             {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "c:vqn:", longopts, NULL)) != -1) {
        switch (c) {
        case 'c':
            count = atoi(optarg);
            break;
        case 'v':
            verbose++;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'n':
            snprintf(name, sizeof name, "%s", optarg);
            break;
        case 's':
            size_opt = atol(optarg);
            break;
        default:
            fprintf(stderr, "unexpected option %c\n", c);
            _exit(98);
        }
    }
    rest_index = optind;
}

int main(int argc, char **argv)
{
    parse(argc, argv);
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_INT(count, 3);
    CHECK_INT(verbose, 2); /* -v and the v of -vq */
    CHECK_INT(quiet, 1);
    CHECK(strcmp(name, "alpha") == 0);
    CHECK_INT(size_opt, 64);
    CHECK_INT(rest_index, argc - 2);
    CHECK(strcmp(argv[rest_index], "rest1") == 0 && strcmp(argv[argc - 1], "rest2") == 0);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("getopt: every rank parsed its options\n");
    MPI_Finalize();
    return 0;
}
