/* tools/gcc-plugin/loom_privatize.cc — the GCC plugin behind `loomcc -fprivatize`: every
 * variable with static storage duration that the translation unit defines or uses becomes
 * per-rank storage (docs/privatize.md has the design and its limits).
 *
 * loom's ranks are threads, so thread-local storage *is* per-rank storage: the plugin turns
 * each such variable into a TLS variable, exactly as if it had been declared _Thread_local.
 * glibc copies a TLS block's initial image into every new thread, so constant initializers
 * are per rank for free. What TLS cannot express is an initializer that takes the address of
 * another privatized variable (`int x; int *p = &x;`): that address differs in every thread.
 * For those, the plugin zeroes the part of the initial image that holds such addresses and
 * emits one function per translation unit that stores them (`p = &x;`); a constructor
 * registers that function with loom (loom_privatize_register), and loom runs it first thing
 * on every rank thread (src/core/privatize.c).
 *
 * When: the C front end checks that a static initializer is constant while it parses it, and
 * the address of a TLS variable is not constant, so variables cannot become TLS while the file
 * is being parsed. Functions are gimplified only after the whole file is parsed (cgraph's
 * analysis in finalize_compilation_unit), so the plugin wraps the language's parse_file hook
 * and does all its work between the end of parsing and the start of analysis: every
 * declaration is known, no body has been lowered yet.
 *
 * What stays shared:
 *  - variables already thread-local, and register variables;
 *  - variables marked LOOM_SHARED (__attribute__((loom_shared))) or given a section;
 *  - const variables whose type holds no pointer (their value is the same in every rank), and
 *    internal const variables whose initializer names no privatized variable. A const
 *    variable with external linkage and pointers in its type is privatized, because another
 *    translation unit, which sees only `extern`, must come to the same decision;
 *  - extern declarations of variables that live in libraries: those declared in system
 *    headers, in headers under a `shared-dir` given to the plugin (loomcc gives loom's include
 *    folder), and well-known libc variables a program may declare by hand (optind, environ).
 *
 * Plugin arguments (-fplugin-arg-loom_privatize-KEY[=VALUE]):
 *   shared-dir=DIR  extern declarations in headers under DIR stay shared (repeatable)
 *   verbose         print one note per variable: privatized or shared, and why
 */
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree.h"
#include "stringpool.h"
#include "attribs.h"
#include "cgraph.h"
#include "varasm.h"
#include "langhooks.h"
#include "diagnostic-core.h"
#include "tree-iterator.h"
#include "gimplify.h"
#include "function.h"
#include "hash-set.h"
#include <string>
#include <vector>

int plugin_is_GPL_compatible;

static std::vector<std::string> shared_dirs;
static bool verbose;
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

/* ---- which variables become per-rank --------------------------------------------------- */

/* libc's own variables that old programs declare by hand instead of including the header. */
static const char *const libc_names[] = {
    "optarg", "optind", "opterr", "optopt", "environ", "__environ", "stdin", "stdout",
    "stderr", "signgam", "timezone", "daylight", "tzname", "program_invocation_name",
    "program_invocation_short_name", "sys_errlist", "sys_nerr", "h_errno", NULL};

static bool type_has_pointer(tree t)
{
    switch (TREE_CODE(t)) {
    case POINTER_TYPE:
    case REFERENCE_TYPE:
        return true;
    case ARRAY_TYPE:
        return type_has_pointer(TREE_TYPE(t));
    case RECORD_TYPE:
    case UNION_TYPE:
    case QUAL_UNION_TYPE:
        for (tree f = TYPE_FIELDS(t); f; f = DECL_CHAIN(f))
            if (TREE_CODE(f) == FIELD_DECL && type_has_pointer(TREE_TYPE(f)))
                return true;
        return false;
    default:
        return false;
    }
}

static bool in_shared_dir(tree d)
{
    const char *file = DECL_SOURCE_FILE(d);
    if (!file)
        return false;
    for (const std::string &dir : shared_dirs)
        if (strncmp(file, dir.c_str(), dir.size()) == 0 && file[dir.size()] == '/')
            return true;
    return false;
}

/* Why `d` must stay shared whatever its initializer says, or NULL if it may be privatized. */
static const char *must_stay_shared(tree d)
{
    if (DECL_THREAD_LOCAL_P(d))
        return "already thread-local";
    if (DECL_HARD_REGISTER(d))
        return "a register variable";
    if (lookup_attribute("loom_shared", DECL_ATTRIBUTES(d)))
        return "LOOM_SHARED";
    if (DECL_SECTION_NAME(d) || lookup_attribute("section", DECL_ATTRIBUTES(d)))
        return "has a section";
    if (lookup_attribute("alias", DECL_ATTRIBUTES(d)) ||
        lookup_attribute("weakref", DECL_ATTRIBUTES(d)))
        return "an alias";
    if (DECL_EXTERNAL(d)) {
        if (DECL_IN_SYSTEM_HEADER(d))
            return "declared in a system header (a library's variable)";
        if (in_shared_dir(d))
            return "declared in a shared header folder (a library's variable)";
        if (DECL_NAME(d)) {
            const char *n = IDENTIFIER_POINTER(DECL_NAME(d));
            for (int i = 0; libc_names[i]; i++)
                if (strcmp(n, libc_names[i]) == 0)
                    return "a libc variable";
        }
    }
    if (TREE_READONLY(d) && !TREE_THIS_VOLATILE(d) && !type_has_pointer(TREE_TYPE(d)))
        return "const without pointers";
    return NULL;
}

/* Every candidate variable: defined in this unit (the varpool) or used by it (externs found in
 * function bodies and initializers). */
static hash_set<tree> *candidates;
static auto_vec<tree> *order; /* candidates in a stable order, for deterministic output */
static hash_set<tree> *privatized;

static void add_candidate(tree d)
{
    if (!VAR_P(d) || !(TREE_STATIC(d) || DECL_EXTERNAL(d)))
        return;
    if (!candidates->add(d))
        order->safe_push(d);
}

static tree collect_r(tree *tp, int *walk_subtrees, void *)
{
    tree t = *tp;
    if (VAR_P(t))
        add_candidate(t);
    else if (TYPE_P(t))
        *walk_subtrees = 0;
    return NULL_TREE;
}

/* Non-NULL (the variable) if `t` mentions a privatized variable. */
static tree refs_private_r(tree *tp, int *walk_subtrees, void *)
{
    tree t = *tp;
    if (VAR_P(t) && privatized->contains(t))
        return t;
    if (TYPE_P(t))
        *walk_subtrees = 0;
    return NULL_TREE;
}

static tree refs_private(tree t)
{
    if (!t || t == error_mark_node)
        return NULL_TREE;
    return walk_tree_without_duplicates(&t, refs_private_r, NULL);
}

/* ---- splitting initializers -------------------------------------------------------- */

/* `init` initializes the object `lhs`. Return what the TLS initial image keeps: `init` with
 * every part that mentions a privatized variable replaced by zero; append to `stmts` the
 * assignments that store those parts on each rank. */
static tree split_init(tree lhs, tree init, tree *stmts)
{
    if (!refs_private(init))
        return init;
    if (TREE_CODE(init) != CONSTRUCTOR) {
        tree rhs = fold_convert(TREE_TYPE(lhs), unshare_expr(init));
        append_to_statement_list(build2(MODIFY_EXPR, TREE_TYPE(lhs), lhs, rhs), stmts);
        return build_zero_cst(TREE_TYPE(init));
    }
    tree type = TREE_TYPE(lhs);
    unsigned ix;
    constructor_elt *ce;
    tree next_field = RECORD_OR_UNION_TYPE_P(type) ? TYPE_FIELDS(type) : NULL_TREE;
    tree next_index = size_zero_node;
    if (TREE_CODE(type) == ARRAY_TYPE && TYPE_DOMAIN(type) && TYPE_MIN_VALUE(TYPE_DOMAIN(type)))
        next_index = TYPE_MIN_VALUE(TYPE_DOMAIN(type));
    FOR_EACH_VEC_SAFE_ELT(CONSTRUCTOR_ELTS(init), ix, ce)
    {
        if (TREE_CODE(type) == ARRAY_TYPE) {
            tree elt_type = TREE_TYPE(type);
            tree lo = ce->index ? ce->index : next_index, hi = lo;
            if (TREE_CODE(lo) == RANGE_EXPR) {
                hi = TREE_OPERAND(lo, 1);
                lo = TREE_OPERAND(lo, 0);
            }
            next_index = int_const_binop(PLUS_EXPR, hi, build_int_cst(TREE_TYPE(hi), 1));
            if (!refs_private(ce->value))
                continue;
            tree kept = ce->value;
            /* A range ([0 ... 9] = &x) gets one store per element. */
            for (offset_int i = wi::to_offset(lo); i <= wi::to_offset(hi); i += 1) {
                tree idx = wide_int_to_tree(TREE_TYPE(lo), i);
                tree ref = build4(ARRAY_REF, elt_type, lhs, idx, NULL_TREE, NULL_TREE);
                kept = split_init(ref, unshare_expr(ce->value), stmts);
            }
            ce->value = kept;
        } else if (RECORD_OR_UNION_TYPE_P(type)) {
            tree field = ce->index ? ce->index : next_field;
            while (field && TREE_CODE(field) != FIELD_DECL)
                field = DECL_CHAIN(field);
            if (!field)
                break;
            next_field = DECL_CHAIN(field);
            if (!refs_private(ce->value))
                continue;
            tree ref = build3(COMPONENT_REF, TREE_TYPE(field), lhs, field, NULL_TREE);
            ce->value = split_init(ref, ce->value, stmts);
        } else {
            /* A vector or complex initializer: store the whole value at run time. */
            tree rhs = fold_convert(type, unshare_expr(init));
            append_to_statement_list(build2(MODIFY_EXPR, type, lhs, rhs), stmts);
            return build_zero_cst(type);
        }
    }
    return init;
}

/* ---- the per-unit init function and its registration ------------------------------ */

/* A new internal `void name(void)` with `body` (GENERIC), handed to cgraph as the front end
 * hands its own functions: cgraph gimplifies it with the rest of the unit. */
static tree build_function(const char *name, tree body, bool constructor)
{
    location_t loc = BUILTINS_LOCATION;
    tree fntype = build_function_type_list(void_type_node, NULL_TREE);
    tree fn = build_decl(loc, FUNCTION_DECL, get_identifier(name), fntype);
    tree result = build_decl(loc, RESULT_DECL, NULL_TREE, void_type_node);
    DECL_ARTIFICIAL(result) = 1;
    DECL_IGNORED_P(result) = 1;
    DECL_CONTEXT(result) = fn;
    DECL_RESULT(fn) = result;
    TREE_STATIC(fn) = 1;
    TREE_USED(fn) = 1;
    TREE_PUBLIC(fn) = 0;
    DECL_EXTERNAL(fn) = 0;
    DECL_ARTIFICIAL(fn) = 1;
    DECL_IGNORED_P(fn) = 1;
    DECL_UNINLINABLE(fn) = 1;
    DECL_NO_INSTRUMENT_FUNCTION_ENTRY_EXIT(fn) = 1;
    DECL_INITIAL(fn) = make_node(BLOCK);
    BLOCK_SUPERCONTEXT(DECL_INITIAL(fn)) = fn;
    TREE_USED(DECL_INITIAL(fn)) = 1;
    DECL_SAVED_TREE(fn) = body;
    DECL_SOURCE_LOCATION(fn) = loc;
    if (constructor) {
        DECL_STATIC_CONSTRUCTOR(fn) = 1;
        DECL_PRESERVE_P(fn) = 1;
    }
    tree saved_fn = current_function_decl;
    current_function_decl = fn;
    allocate_struct_function(fn, false);
    cfun->function_end_locus = loc;
    cgraph_node::finalize_function(fn, true);
    set_cfun(NULL);
    current_function_decl = saved_fn;
    return fn;
}

/* `init` runs on every rank; a constructor hands it to loom_privatize_register(). */
static void emit_registration(tree stmts)
{
    tree init = build_function("__loom_privatize_init", stmts, false);
    tree init_ptr = build_pointer_type(TREE_TYPE(init));
    tree reg_type = build_function_type_list(void_type_node, init_ptr, NULL_TREE);
    tree reg = build_fn_decl("loom_privatize_register", reg_type);
    tree call = build_call_expr(reg, 1, build1(ADDR_EXPR, init_ptr, init));
    tree body = alloc_stmt_list();
    append_to_statement_list(call, &body);
    build_function("__loom_privatize_register_unit", body, true);
}

/* ---- the pass over the unit ---------------------------------------------------------- */

static void privatize_unit(void)
{
    hash_set<tree> cands, priv;
    auto_vec<tree> ord;
    candidates = &cands;
    privatized = &priv;
    order = &ord;

    /* 1. Every variable the unit defines or mentions. */
    varpool_node *v;
    FOR_EACH_VARIABLE(v)
    {
        add_candidate(v->decl);
        if (DECL_INITIAL(v->decl) && DECL_INITIAL(v->decl) != error_mark_node)
            walk_tree_without_duplicates(&DECL_INITIAL(v->decl), collect_r, NULL);
    }
    cgraph_node *f;
    FOR_EACH_FUNCTION(f)
    {
        if (DECL_SAVED_TREE(f->decl))
            walk_tree_without_duplicates(&DECL_SAVED_TREE(f->decl), collect_r, NULL);
    }
    /* Variables met only through initializers of function-local ones, etc.: the walks above
     * may have added candidates whose own initializers mention more. */
    for (unsigned i = 0; i < ord.length(); i++) {
        tree d = ord[i];
        if (TREE_STATIC(d) && DECL_INITIAL(d) && DECL_INITIAL(d) != error_mark_node)
            walk_tree_without_duplicates(&DECL_INITIAL(d), collect_r, NULL);
    }

    /* 2. Decide. Internal const variables stay shared unless their initializer names a
     * privatized variable: iterate until nothing changes. */
    auto_vec<tree> maybe; /* internal const variables with pointers, still shared */
    for (tree d : ord) {
        const char *why = must_stay_shared(d);
        if (why) {
            if (verbose)
                inform(DECL_SOURCE_LOCATION(d), "loom: %qD stays shared: %s", d, why);
            continue;
        }
        if (TREE_READONLY(d) && !TREE_PUBLIC(d) && !DECL_EXTERNAL(d))
            maybe.safe_push(d);
        else
            priv.add(d);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (tree &d : maybe)
            if (d && refs_private(DECL_INITIAL(d))) {
                priv.add(d);
                d = NULL_TREE;
                changed = true;
            }
    }
    for (tree d : maybe)
        if (d && verbose)
            inform(DECL_SOURCE_LOCATION(d), "loom: %qD stays shared: const", d);

    /* 3. A shared variable cannot hold the address of a per-rank one. */
    for (tree d : ord) {
        if (priv.contains(d) || !TREE_STATIC(d))
            continue;
        if (tree x = refs_private(DECL_INITIAL(d)))
            error_at(DECL_SOURCE_LOCATION(d),
                     "loom: shared variable %qD is initialized with the address of the "
                     "per-rank variable %qD; privatize it too, or mark %qD %<LOOM_SHARED%>",
                     d, x, x);
    }

    /* 4. Split the initializers that mention per-rank addresses, then make the variables
     * thread-local. */
    tree stmts = alloc_stmt_list();
    bool any = false;
    for (tree d : ord) {
        if (!priv.contains(d))
            continue;
        if (TREE_STATIC(d) && DECL_INITIAL(d) && DECL_INITIAL(d) != error_mark_node &&
            refs_private(DECL_INITIAL(d))) {
            DECL_INITIAL(d) = split_init(d, DECL_INITIAL(d), &stmts);
            /* It is written at run time now: no pass may fold its reads to the image. */
            TREE_READONLY(d) = 0;
            any = true;
        }
    }
    for (tree d : ord) {
        if (!priv.contains(d))
            continue;
        set_decl_tls_model(d, decl_default_tls_model(d));
        if (verbose)
            inform(DECL_SOURCE_LOCATION(d), "loom: %qD is per rank", d);
    }
    if (any && !seen_error())
        emit_registration(stmts);
    candidates = NULL;
    privatized = NULL;
    order = NULL;
}

static void parse_file_then_privatize(void)
{
    original_parse_file();
    if (!seen_error() && !flag_syntax_only)
        privatize_unit();
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
            shared_dirs.push_back(dir);
        } else if (strcmp(key, "verbose") == 0) {
            verbose = true;
        } else {
            error("%<loom_privatize%>: unknown argument %qs (known: %<shared-dir=DIR%>, "
                  "%<verbose%>)",
                  key);
            return 1;
        }
    }
    register_callback(info->base_name, PLUGIN_ATTRIBUTES, register_attributes, NULL);
    /* C only: C++ emits its own initialization code while it parses, so the unit cannot be
     * rewritten between parsing and lowering the way this plugin does it. */
    const char *lang = lang_hooks.name; /* "GNU C17", "GNU C++17", ... */
    if (strcmp(lang, "GNU GIMPLE") == 0)
        return 0; /* link-time optimization: the units were privatized when compiled */
    if (strncmp(lang, "GNU C", 5) != 0 || lang[5] == '+') {
        warning(0, "loom: global variables are privatized in C only; in this %s unit they "
                   "stay shared by all ranks",
                lang_hooks.name);
        return 0;
    }
    original_parse_file = lang_hooks.parse_file;
    lang_hooks.parse_file = parse_file_then_privatize;
    return 0;
}
