/* tools/gcc-plugin/plugin.cc — the GCC plugin behind `loomcc -fprivatize` (the default): every
 * variable with static storage duration that a translation unit defines or uses gets one
 * copy per rank, shared by all the threads of that rank, and the program's main becomes the
 * rank's main whatever file defines it. C, C++ (cc1plus) and Fortran (f951) units alike.
 * privatize.h says how the parts fit; docs/privatize.md has the design and its limits.
 *
 * Plugin arguments (-fplugin-arg-loom_privatize-KEY[=VALUE]):
 *   shared-dir=DIR  extern declarations in headers under DIR stay shared (repeatable)
 *   verbose         print one note per variable: per rank or shared, and why */
#include "privatize.h"
#include "plugin-version.h"
#include "stringpool.h"
#include "attribs.h"
#include "langhooks.h"
#include "diagnostic-core.h"

int plugin_is_GPL_compatible;

std::vector<std::string> loom_shared_dirs;
bool loom_verbose;
bool loom_fortran;
bool loom_cxx;
static void (*original_parse_file)(void);

/* ---- the loom_shared attribute ----------------------------------------------------- */

static tree handle_loom_shared(tree *node, tree name, tree, int, bool *no_add)
{
    tree d = *node;
    if (!VAR_P(d) || !(TREE_STATIC(d) || DECL_EXTERNAL(d))) {
        warning(OPT_Wattributes,
                "%qE applies only to variables with static storage duration; ignored", name);
        *no_add = true;
    }
    return NULL_TREE;
}

static struct attribute_spec loom_shared_attr = {
    "loom_shared", 0, 0, true, false, false, false, handle_loom_shared, NULL};

static void register_attributes(void *, void *)
{
    register_attribute(&loom_shared_attr);
}

/* ---- step 1 at the end of parsing ------------------------------------------------------ */

/* The C and C++ front ends check, while they parse, that static initializers are constant (C++
 * moves the others into its static initialization functions), so nothing may change while the
 * file is parsed; functions are gimplified only after the whole file is parsed (cgraph's
 * analysis), in all three front ends, so the wrapped parse_file hook is the moment when every
 * declaration is known and no body has been lowered yet. */
static void parse_file_then_choose(void)
{
    original_parse_file();
    if (seen_error() || flag_syntax_only)
        return;
    loom_choose_per_rank();
    loom_rename_main();
    loom_note_object_size_checks();
}

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
    if (!plugin_default_version_check(version, &gcc_version)) {
        error("%<loom_privatize%>: this plugin was built for GCC %s; rebuild loom with "
              "this compiler, or use %<loomcc -fno-privatize%>",
              gcc_version.basever);
        return 1;
    }
    for (int i = 0; i < info->argc; i++) {
        const char *key = info->argv[i].key, *value = info->argv[i].value;
        if (strcmp(key, "shared-dir") == 0 && value && *value) {
            std::string dir = value;
            while (dir.size() > 1 && dir.back() == '/')
                dir.pop_back();
            loom_shared_dirs.push_back(dir);
        } else if (strcmp(key, "verbose") == 0) {
            loom_verbose = true;
        } else {
            error("%<loom_privatize%>: unknown argument %qs (known: %<shared-dir=DIR%>, "
                  "%<verbose%>)",
                  key);
            return 1;
        }
    }
    register_callback(info->base_name, PLUGIN_ATTRIBUTES, register_attributes, NULL);
    /* C, C++ and Fortran: each front end hands the whole unit to cgraph when parse_file
     * returns, before any body is gimplified (C++ has then also made its static
     * initialization functions, static_init.cc). */
    const char *lang = lang_hooks.name; /* "GNU C17", "GNU C++17", "GNU Fortran", ... */
    if (strcmp(lang, "GNU GIMPLE") == 0)
        return 0; /* link-time optimization: the units were privatized when compiled */
    if (strncmp(lang, "GNU C", 5) != 0 && strcmp(lang, "GNU Fortran") != 0) {
        warning(0, "loom: global variables are privatized in C, C++ and Fortran; in this %s "
                   "unit they stay shared by all ranks",
                lang);
        return 0;
    }
    loom_fortran = strcmp(lang, "GNU Fortran") == 0;
    loom_cxx = strncmp(lang, "GNU C++", 7) == 0;
    original_parse_file = lang_hooks.parse_file;
    lang_hooks.parse_file = parse_file_then_choose;
    loom_register_access_pass(info->base_name);
    return 0;
}
