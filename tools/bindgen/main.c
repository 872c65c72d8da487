/* loom-bindgen — makes loom's MPI bindings from one description of the calls
 * (src/api/calls/<chapter>.api; docs/bindings.md).
 *   loom-bindgen [--proto H] [--impl H] [--bindings C] [--list F] [--walk C] FILE.api...
 *   --proto     public declarations of MPI_Xxx and PMPI_Xxx (included by mpi.h)
 *   --impl      declarations of loom__mpi_xxx, loom's implementation of each call
 *   --bindings  definitions of PMPI_Xxx and the weak MPI_Xxx, each calling loom__mpi_xxx
 *   --list      the names of the calls, one per line
 *   --walk      a test program that calls every call with each bad argument it takes
 *   --fortran-c   the Fortran entry points mpi_xxx_ and pmpi_xxx_ (C, part of libloom)
 *   --fortran-mpi the source of module mpi; --fortran-f08 the source of module mpi_f08
 *   --fortran-list the Fortran entry points, one per line (mpi_send_)
 * A build tool: it runs on the build machine, reads loom's own input, and stops with a
 * message naming the file and line on anything it does not understand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bindgen.h"

int main(int argc, char **argv)
{
    static const struct {
        const char *option;
        void (*gen)(struct out *);
    } kinds[] = {{"--proto", bg_gen_proto},       {"--impl", bg_gen_impl},
                 {"--bindings", bg_gen_bindings}, {"--list", bg_gen_list},
                 {"--walk", bg_gen_walk},         {"--fortran-c", bg_gen_fortran_c},
                 {"--fortran-mpi", bg_gen_fortran_mpi},
                 {"--fortran-f08", bg_gen_fortran_f08},
                 {"--fortran-list", bg_gen_fortran_list}};
    enum { NKINDS = sizeof kinds / sizeof kinds[0] };
    const char *path[NKINDS] = {0};
    int i = 1;
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        size_t k = 0;
        while (k < NKINDS && strcmp(argv[i], kinds[k].option) != 0)
            k++;
        if (k == NKINDS)
            break;
        path[k] = argv[i + 1];
    }
    if (i >= argc || argv[i][0] == '-') {
        fprintf(stderr, "usage: loom-bindgen [--proto H] [--impl H] [--bindings C] [--list F] "
                        "[--walk C] [--fortran-c C] [--fortran-mpi F90] [--fortran-f08 F90] "
                        "[--fortran-list F] "
                        "FILE.api...\n");
        return 2;
    }
    for (; i < argc; i++)
        bg_read_api(argv[i]);
    bg_pair_bigcount();
    for (size_t k = 0; k < NKINDS; k++) {
        if (!path[k])
            continue;
        struct out o = {0};
        kinds[k].gen(&o);
        bg_write_if_changed(path[k], &o);
        free(o.buf);
    }
    bg_free();
    return 0;
}
