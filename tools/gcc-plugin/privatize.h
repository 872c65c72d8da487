/* tools/gcc-plugin/privatize.h — what the parts of loom's GCC plugin share (docs/privatize.md
 * has the design).
 *
 * The plugin works in two steps on each C, C++ or Fortran translation unit:
 *  1. at the end of parsing (choose.cc): decide which variables with static storage duration
 *     are per rank, mark them, and move the parts of their initializers that hold per-rank
 *     addresses into an init function that loom runs on each rank (init_split.cc); rename the
 *     program's main (main_rename.cc);
 *  2. before the first interprocedural pass, after OpenMP regions were outlined (access.cc):
 *     make the marked variables thread-local, the rank thread's copy being the rank's, and
 *     turn every access into an access to the rank's copy, through the thread's offset to
 *     its rank thread (loom_privatize_delta).
 * The plugin holds no tree across the two steps: the mark is an attribute on the variable. */
#ifndef LOOM_PLUGIN_PRIVATIZE_H
#define LOOM_PLUGIN_PRIVATIZE_H
#include "gcc-plugin.h"
#include "tree.h"
#include <string>
#include <vector>

/* Plugin arguments (plugin.cc). */
extern std::vector<std::string> loom_shared_dirs; /* extern declarations here stay shared */
extern bool loom_verbose;                        /* one note per variable */
extern bool loom_fortran;                        /* the unit is Fortran (f951) */
extern bool loom_cxx;                            /* the unit is C++ (cc1plus) */

/* The mark of a per-rank variable (an attribute whose name no user can write). */
bool loom_is_per_rank(const_tree t);
void loom_mark_per_rank(tree d);
/* Non-NULL (the variable) if expression t mentions a per-rank variable. */
tree loom_refs_per_rank(tree t);

/* Step 1 (choose.cc): decide, mark, split initializers. End of parsing, no error seen. */
void loom_choose_per_rank(void);

/* init_split.cc. `init` initializes the object `lhs`: return what the static image keeps
 * (`init` with each part that mentions a per-rank variable replaced by zero) and append to
 * `stmts` the assignments that store those parts on each rank. */
tree loom_split_init(tree lhs, tree init, tree *stmts);
/* Emit the unit's constructor: it registers with loom the init function made of `stmts` (if
 * not NULL: loom_privatize_register) and each per-rank variable of `large` (defined here and
 * large enough to span whole pages: loom_privatize_large), whose copy in a thread that a rank
 * creates is never used, so loom gives its pages back, and whose copy in a rank thread, when
 * its image is all zeros, loom leaves to be touched by the rank as it uses it. */
void loom_emit_registration(tree stmts, const vec<tree> &large, const vec<tree> &ctors);
/* ... and each function of `ctors` with loom_privatize_register_ctor, with its init priority:
 * loom runs them once per rank, on the rank thread, before the rank's main (and not at process
 * start). */

/* static_init.cc (C++): when the unit's static initialization (its `_GLOBAL__sub_I_*`
 * constructors, made by the front end at the end of parsing) constructs or stores into a
 * per-rank variable, take those functions off the process's constructors and append them to
 * `ctors`, for loom_emit_registration. Errors name a shared variable they would initialize
 * once per rank. After the variables are marked. */
void loom_take_static_constructors(vec<tree> &ctors);

/* main_rename.cc: give the unit's `main`, if it defines one and the unit did not define
 * LOOM_NO_MAIN_RENAME, the symbol loom_user_main. End of parsing. */
void loom_rename_main(void);
/* Also there (it needs the preprocessor): note whether the unit checks object sizes at run
 * time (-fsanitize=object-size, _FORTIFY_SOURCE), which access.cc must not mislead. */
void loom_note_object_size_checks(void);

/* Step 2 (access.cc): register the pass. With loom_opaque_addresses (set at the end of
 * parsing for units that check object sizes at run time) the rank's address is computed on
 * integers. */
extern bool loom_opaque_addresses;
void loom_register_access_pass(const char *plugin_name);
#endif
