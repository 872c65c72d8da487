/* tools/gcc-plugin/choose.cc — step 1: which variables with static storage duration are per
 * rank (privatize.h, docs/privatize.md). Runs between the end of parsing and cgraph's analysis:
 * every declaration is known, no function body has been gimplified yet.
 *
 * Candidates: every variable the unit defines (file-scope, `static`, function-local `static`,
 * tentative definitions, compound literals at file scope) and every `extern` variable it uses.
 * What stays shared:
 *  - variables already thread-local (`_Thread_local`, `__thread`, OpenMP `threadprivate`), and
 *    register variables;
 *  - variables marked LOOM_SHARED (__attribute__((loom_shared))) or given a section, aliases;
 *  - data the compiler itself makes while parsing (UBSan's descriptors, named `*.L...`);
 *  - const variables whose type holds no pointer (their value is the same in every rank), and
 *    internal const variables whose initializer names no per-rank variable. A const
 *    variable with external linkage and pointers in its type is per rank, because another
 *    translation unit, which sees only `extern`, must come to the same decision;
 *  - extern declarations of variables that live in libraries: those declared in system
 *    headers, in headers under a `shared-dir` given to the plugin (loomcc gives loom's include
 *    folder), and well-known libc variables a program may declare by hand (optind, environ);
 *  - variables defined in system headers (the library's: libstdc++'s std::__ioinit);
 *  - symbols starting loom_f_ (loom's Fortran bindings' sentinels, in libloom);
 *  - constant data of the compiler: C++ vtables and typeinfo, what it declares for its run-time
 *    library (__dso_handle), gfortran's type descriptors;
 *  - C++ guard variables follow the variable they guard.
 * All units must agree whether a variable is per rank (a thread-local definition and a plain
 * reference do not link), so these rules look only at what every declaration shows. */
#include "privatize.h"
#include "plugin-version.h"
#include "stringpool.h"
#include "attribs.h"
#include "cgraph.h"
#include "diagnostic-core.h"
#include "tree-iterator.h"
#include "hash-set.h"

/* The mark: an attribute whose name has a space, so no program can write it. */
static const char per_rank_attr[] = "loom per rank";

bool loom_is_per_rank(const_tree t)
{
    /* Static storage only: the private copies OpenMP makes of a variable (automatic ones)
     * inherit its attributes. */
    return VAR_P(t) && (TREE_STATIC(t) || DECL_EXTERNAL(t)) &&
           lookup_attribute(per_rank_attr, DECL_ATTRIBUTES(t)) != NULL_TREE;
}

void loom_mark_per_rank(tree d)
{
    if (!loom_is_per_rank(d))
        DECL_ATTRIBUTES(d) =
            tree_cons(get_identifier(per_rank_attr), NULL_TREE, DECL_ATTRIBUTES(d));
}

static tree refs_per_rank_r(tree *tp, int *walk_subtrees, void *)
{
    tree t = *tp;
    if (loom_is_per_rank(t))
        return t;
    if (TYPE_P(t))
        *walk_subtrees = 0;
    return NULL_TREE;
}

tree loom_refs_per_rank(tree t)
{
    if (!t || t == error_mark_node)
        return NULL_TREE;
    return walk_tree_without_duplicates(&t, refs_per_rank_r, NULL);
}

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
    for (const std::string &dir : loom_shared_dirs)
        if (strncmp(file, dir.c_str(), dir.size()) == 0 && file[dir.size()] == '/')
            return true;
    return false;
}

/* Whether `d` is const as every unit sees it. The C++ front end clears TREE_READONLY on a
 * const variable that it initializes at run time (`const double K::k = f();`), in the unit that
 * defines it only: the other units, which see `extern const double k;`, would keep it shared.
 * So in C++ a variable with external linkage is const by its type; one initialized at run
 * time is then shared, and static_init.cc says it cannot be. */
static bool declared_const(tree d)
{
    if (TREE_READONLY(d))
        return true;
    if (!loom_cxx || !TREE_PUBLIC(d))
        return false;
    tree t = TREE_TYPE(d);
    while (TREE_CODE(t) == ARRAY_TYPE)
        t = TREE_TYPE(t);
    return TYPE_READONLY(t);
}

/* The symbol of `d` (its C++ mangled name, a Fortran COMMON block's `blk_`...). */
static const char *symbol_of(tree d)
{
    if (!DECL_NAME(d) && !DECL_ASSEMBLER_NAME_SET_P(d))
        return "";
    return IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(d));
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
    if (DECL_ARTIFICIAL(d) && DECL_NAME(d) &&
        (IDENTIFIER_POINTER(DECL_NAME(d))[0] == '*' || IDENTIFIER_POINTER(DECL_NAME(d))[0] == '.'))
        return "the compiler's own data (a sanitizer's descriptors)";
    /* loom's Fortran bindings keep their sentinels (MPI_BOTTOM, MPI_IN_PLACE...) in libloom
     * under this prefix, in COMMON blocks and bind(C) variables, and compare addresses. */
    if (strncmp(symbol_of(d), "loom_f_", 7) == 0)
        return "a variable of loom's Fortran bindings (loom_f_*)";
    /* C++: vtables, VTTs, typeinfo objects and names (_ZTV, _ZTT, _ZTI, _ZTS, _ZTC): the same
     * constant data in every rank, in every unit. */
    if (DECL_VIRTUAL_P(d) ||
        (DECL_ARTIFICIAL(d) && TREE_READONLY(d) && strncmp(symbol_of(d), "_ZT", 3) == 0))
        return "C++ run-time type data (vtable, typeinfo)";
    /* gfortran's type descriptors (`__vtab_<module>_<type>`, the default initialization
     * `__def_init_...`): constant data made in the module's unit and declared, artificial,
     * in every unit that uses the type. */
    if (DECL_ARTIFICIAL(d) && DECL_NAME(d) &&
        (strncmp(IDENTIFIER_POINTER(DECL_NAME(d)), "__vtab_", 7) == 0 ||
         strncmp(IDENTIFIER_POINTER(DECL_NAME(d)), "__def_init_", 11) == 0))
        return "a Fortran type descriptor (constant data of the compiler)";
    /* What the compiler declares for its run-time library: C++'s __dso_handle, the vtables of
     * libstdc++'s typeinfo classes. */
    if (DECL_EXTERNAL(d) && DECL_ARTIFICIAL(d))
        return "declared by the compiler for its run-time library";
    /* A variable defined in a system header is the library's (libstdc++'s std::__ioinit, a
     * static of a library template or inline function): one for the process, as the library
     * itself, built without loomcc, keeps its other state. */
    if (!DECL_EXTERNAL(d) && DECL_IN_SYSTEM_HEADER(d))
        return "defined in a system header (the library's)";
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
    if (declared_const(d) && !TREE_THIS_VOLATILE(d) && !type_has_pointer(TREE_TYPE(d)))
        return "const without pointers";
    return NULL;
}

/* If `d` is a C++ guard variable (`_ZGV` + the rest of its variable's mangled name: a
 * function-local static, an inline or template variable with dynamic initialization), the
 * variable it guards, among the candidates; else NULL. */
static tree guarded_variable(tree d, const vec<tree> &cands)
{
    if (!DECL_ARTIFICIAL(d) || DECL_THREAD_LOCAL_P(d))
        return NULL_TREE;
    const char *g = symbol_of(d);
    if (strncmp(g, "_ZGV", 4) != 0)
        return NULL_TREE;
    for (tree v : cands)
        if (v != d) {
            const char *n = symbol_of(v);
            if (n[0] == '_' && n[1] == 'Z' && strcmp(n + 2, g + 4) == 0)
                return v;
        }
    return NULL_TREE;
}

/* A per-rank variable this large (bytes) is registered with loom (loom_privatize_large): 16
 * pages of 4 KiB, so that the pages it fully covers are worth a system call per thread. */
static const unsigned HOST_WIDE_INT large_bytes = 64 * 1024;

/* Every candidate variable: defined in this unit (the varpool) or used by it (externs found in
 * function bodies and initializers), in a stable order for deterministic output. */
static hash_set<tree> *candidates;
static auto_vec<tree> *order;

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

static void walk_initializer(tree d)
{
    if (TREE_STATIC(d) && DECL_INITIAL(d) && DECL_INITIAL(d) != error_mark_node)
        walk_tree_without_duplicates(&DECL_INITIAL(d), collect_r, NULL);
}

static void collect(void)
{
    varpool_node *v;
    FOR_EACH_VARIABLE(v)
    {
        add_candidate(v->decl);
        walk_initializer(v->decl);
    }
    cgraph_node *f;
    FOR_EACH_FUNCTION(f)
    {
        if (DECL_SAVED_TREE(f->decl))
            walk_tree_without_duplicates(&DECL_SAVED_TREE(f->decl), collect_r, NULL);
    }
    /* Variables met only through initializers of function-local ones, etc.: the walks above
     * may have added candidates whose own initializers mention more. */
    for (unsigned i = 0; i < order->length(); i++)
        walk_initializer((*order)[i]);
}

void loom_choose_per_rank(void)
{
    hash_set<tree> cands;
    auto_vec<tree> ord;
    candidates = &cands;
    order = &ord;
    collect();

    /* Decide. Internal const variables stay shared unless their initializer names a per-rank
     * variable: iterate until nothing changes. */
    auto_vec<tree> maybe; /* internal const variables with pointers, still shared */
    auto_vec<tree> guards; /* C++ guard variables: decided with what they guard, below */
    for (tree d : ord) {
        if (guarded_variable(d, ord)) {
            guards.safe_push(d);
            continue;
        }
        const char *why = must_stay_shared(d);
        if (why) {
            if (loom_verbose)
                inform(DECL_SOURCE_LOCATION(d), "loom: %qD stays shared: %s", d, why);
            continue;
        }
        if (TREE_READONLY(d) && !TREE_PUBLIC(d) && !DECL_EXTERNAL(d))
            maybe.safe_push(d);
        else
            loom_mark_per_rank(d);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (tree &d : maybe)
            if (d && loom_refs_per_rank(DECL_INITIAL(d))) {
                loom_mark_per_rank(d);
                d = NULL_TREE;
                changed = true;
            }
    }
    for (tree d : maybe)
        if (d && loom_verbose)
            inform(DECL_SOURCE_LOCATION(d), "loom: %qD stays shared: const", d);
    /* A guard is per rank with its variable, so each rank initializes its own copy once (and
     * a shared variable once for all). Every unit that has the variable has its guard. */
    for (tree g : guards) {
        tree v = guarded_variable(g, ord);
        if (loom_is_per_rank(v))
            loom_mark_per_rank(g);
        else if (loom_verbose)
            inform(DECL_SOURCE_LOCATION(g), "loom: %qD stays shared: guards %qD, shared", g, v);
    }

    /* A shared variable cannot hold the address of a per-rank one. */
    for (tree d : ord) {
        if (loom_is_per_rank(d) || !TREE_STATIC(d))
            continue;
        if (tree x = loom_refs_per_rank(DECL_INITIAL(d)))
            error_at(DECL_SOURCE_LOCATION(d),
                     "loom: shared variable %qD is initialized with the address of the "
                     "per-rank variable %qD; privatize it too, or mark %qD %<LOOM_SHARED%>",
                     d, x, x);
    }

    /* Split the initializers that mention per-rank addresses. The variables become
     * thread-local later (access.cc), once OpenMP has seen them as the ordinary globals they
     * are in the source. */
    tree stmts = alloc_stmt_list();
    bool any = false;
    for (tree d : ord) {
        if (!loom_is_per_rank(d))
            continue;
        if (loom_verbose)
            inform(DECL_SOURCE_LOCATION(d), "loom: %qD is per rank", d);
        if (TREE_STATIC(d) && DECL_INITIAL(d) && DECL_INITIAL(d) != error_mark_node &&
            loom_refs_per_rank(DECL_INITIAL(d))) {
            DECL_INITIAL(d) = loom_split_init(d, DECL_INITIAL(d), &stmts);
            /* It is written at run time now: no pass may fold its reads to the image. */
            TREE_READONLY(d) = 0;
            any = true;
        }
    }
    /* Variables of this unit that span whole pages: their copies in the threads a rank
     * creates are never used (every access goes to the rank's), and loom gives them back. */
    /* C++: the unit's static initialization, which constructs its objects, runs per rank. */
    auto_vec<tree> ctors;
    loom_take_static_constructors(ctors);
    auto_vec<tree> large;
    for (tree d : ord)
        if (loom_is_per_rank(d) && TREE_STATIC(d) && DECL_SIZE_UNIT(d) &&
            tree_fits_uhwi_p(DECL_SIZE_UNIT(d)) &&
            tree_to_uhwi(DECL_SIZE_UNIT(d)) >= large_bytes)
            large.safe_push(d);
    if ((any || !large.is_empty() || !ctors.is_empty()) && !seen_error())
        loom_emit_registration(any ? stmts : NULL_TREE, large, ctors);
    candidates = NULL;
    order = NULL;
}
