/* tools/gcc-plugin/main_rename.cc — the program's main becomes the rank's main, whatever file
 * defines it.
 *
 * loom's own main (libloom-main) starts the ranks and runs the program's main once in each,
 * under the name loom_user_main. mpi.h renames main with a macro, which reaches only the files
 * that include mpi.h; a program whose main lives in a file that does not (its MPI calls
 * wrapped in another module) would link its main as the process's, and every rank would die
 * in MPI_Init. So the plugin gives the symbol loom_user_main to a `main` defined in any unit it
 * compiles: it changes the assembler name only, so the function keeps everything GCC does for
 * `main` (the implicit `return 0` of C99, its diagnostics). A unit that defines
 * LOOM_NO_MAIN_RENAME keeps its main (it starts the ranks itself with loom_run). */
#include "privatize.h"
#include "plugin-version.h"
#include "stringpool.h"
#include "cgraph.h"
#include "c-family/c-common.h"
#include "c-family/c-pragma.h"

/* The C front end's preprocessor. Weak: the plugin is also loaded into compilers that have
 * none (lto1 at link-time optimization, cc1plus), where it does not rename main. */
extern cpp_reader *parse_in __attribute__((weak));
extern int cpp_defined(cpp_reader *, const unsigned char *, int) __attribute__((weak));

void loom_rename_main(void)
{
    static const char opt_out[] = "LOOM_NO_MAIN_RENAME";
    if (!&parse_in || !cpp_defined ||
        cpp_defined(parse_in, (const unsigned char *)opt_out, sizeof opt_out - 1))
        return;
    cgraph_node *f;
    FOR_EACH_FUNCTION(f)
    {
        tree d = f->decl;
        if (DECL_NAME(d) && MAIN_NAME_P(DECL_NAME(d)) && TREE_PUBLIC(d) &&
            DECL_FILE_SCOPE_P(d) && f->definition) {
            symtab->change_decl_assembler_name(d, get_identifier("loom_user_main"));
            return;
        }
    }
}
