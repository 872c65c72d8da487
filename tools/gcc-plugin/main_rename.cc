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
#include "rtl.h"
#include "c-family/c-common.h"
#include "c-family/c-pragma.h"

/* The C and C++ front ends' preprocessor. Weak: the plugin is also loaded into compilers that
 * have none (lto1 at link-time optimization, f951). */
extern cpp_reader *parse_in __attribute__((weak));
extern int cpp_defined(cpp_reader *, const unsigned char *, int) __attribute__((weak));
extern cpp_hashnode *cpp_lookup(cpp_reader *, const unsigned char *, unsigned int)
    __attribute__((weak));
extern const unsigned char *cpp_macro_definition(cpp_reader *, cpp_hashnode *)
    __attribute__((weak));

/* Whether the unit defines `name` (0 where there is no preprocessor). */
static bool defined_macro(const char *name)
{
    return &parse_in && cpp_defined &&
           cpp_defined(parse_in, (const unsigned char *)name, (int)strlen(name));
}

/* The level of _FORTIFY_SOURCE the unit defines: 0 if none, 3 (the safe side) if its value
 * is not a plain number. */
static int fortify_level(void)
{
    static const char name[] = "_FORTIFY_SOURCE";
    if (!defined_macro(name))
        return 0;
    const unsigned char *(*definition)(cpp_reader *, cpp_hashnode *) = cpp_macro_definition;
    if (!cpp_lookup || !definition)
        return 3;
    cpp_hashnode *node = cpp_lookup(parse_in, (const unsigned char *)name, sizeof name - 1);
    const char *def = node ? (const char *)definition(parse_in, node) : NULL;
    if (!def || strncmp(def, name, sizeof name - 1) != 0)
        return 3;
    char *end;
    long level = strtol(def + sizeof name - 1, &end, 10);
    return *end == '\0' ? (int)level : 3; /* "_FORTIFY_SOURCE 2"; "_FORTIFY_SOURCE" alone is 1 */
}

void loom_note_object_size_checks(void)
{
    /* Run-time object sizes: UBSan's object-size check and _FORTIFY_SOURCE=3 (levels 1 and 2
     * use sizes known at compile time, which access.cc's pointers do not mislead). */
    loom_opaque_addresses = (flag_sanitize & SANITIZE_OBJECT_SIZE) || fortify_level() >= 3;
}

void loom_rename_main(void)
{
    /* Fortran: gfortran makes `main` (it calls _gfortran_set_args, _gfortran_set_options,
     * then the main program, MAIN__) in the unit of the main program; f951 has no
     * preprocessor state to ask, and no macro can keep it. */
    if (!loom_fortran && (!&parse_in || !cpp_defined || defined_macro("LOOM_NO_MAIN_RENAME")))
        return;
    cgraph_node *f;
    FOR_EACH_FUNCTION(f)
    {
        tree d = f->decl;
        if (DECL_NAME(d) && strcmp(IDENTIFIER_POINTER(DECL_NAME(d)), "main") == 0 &&
            TREE_PUBLIC(d) && (!DECL_CONTEXT(d) || DECL_FILE_SCOPE_P(d)) && f->definition) {
            symtab->change_decl_assembler_name(d, get_identifier("loom_user_main"));
            /* gfortran has made main's RTL (its symbol) already; nothing refers to it yet */
            if (DECL_RTL_SET_P(d))
                SET_DECL_RTL(d, NULL_RTX);
            return;
        }
    }
}
