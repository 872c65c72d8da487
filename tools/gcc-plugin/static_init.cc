/* tools/gcc-plugin/static_init.cc — C++: global objects are constructed once per rank, in the
 * rank's copy, on the rank thread, before the rank's main.
 *
 * Why the plugin's two steps hold for C++ too: the C++ front end decides while it parses
 * whether a variable's initializer is constant, and `int *p = &x;` is (an address constant),
 * so it lands in the variable's DECL_INITIAL as in C and init_split.cc splits it. What is not
 * constant (a constructor call, `int y = f();`) the front end gathers, at the end of parsing,
 * into one function per priority, `_GLOBAL__sub_I_<file>` (`_GLOBAL__sub_I.00101_<file>`
 * for an init_priority; each calls `__static_initialization_and_destruction_0`), which the
 * process runs as a constructor on the main thread. Those statements are ordinary code: access.cc routes them to the rank's copies
 * like any other. What must change is who runs them and when: per rank, before the rank's
 * main. So these functions are taken off the process's constructors and registered with loom
 * (loom_privatize_register_ctor, with their priority), which runs them on each rank thread
 * after the unit's address initializers (C++ runs constant initialization before dynamic). The main thread runs none:
 * its copies of per-rank objects stay unconstructed, and objects are constructed and destroyed
 * exactly once per rank. The destructors they register (`__cxa_atexit(dtor, &obj, ...)`) are
 * redirected to the rank's list by access.cc.
 *
 * A shared variable that such a function would initialize (a LOOM_SHARED object with a
 * constructor, a const variable with external linkage initialized at run time, which other
 * units see as a plain shared const) would then be initialized once per rank: an error names
 * it. Variables defined in system headers (libstdc++'s std::__ioinit, whose constructor
 * counts its users) and the compiler's guards are exempt. */
#include "privatize.h"
#include "plugin-version.h"
#include "stringpool.h"
#include "cgraph.h"
#include "diagnostic-core.h"
#include "hash-set.h"

static bool name_starts(tree fn, const char *prefix)
{
    return DECL_NAME(fn) &&
           strncmp(IDENTIFIER_POINTER(DECL_NAME(fn)), prefix, strlen(prefix)) == 0;
}

/* Report each shared variable of static storage that `t` (a statement of static
 * initialization) stores into or constructs: the target of an assignment or the object (first
 * argument, `this`) of a constructor call. `data` is the set already reported. */
static tree shared_target_r(tree *tp, int *walk_subtrees, void *data)
{
    tree t = *tp;
    if (TYPE_P(t)) {
        *walk_subtrees = 0;
        return NULL_TREE;
    }
    tree target = NULL_TREE;
    if (TREE_CODE(t) == MODIFY_EXPR || TREE_CODE(t) == INIT_EXPR)
        target = TREE_OPERAND(t, 0);
    else if (TREE_CODE(t) == CALL_EXPR && call_expr_nargs(t) > 0 && get_callee_fndecl(t) &&
             DECL_CXX_CONSTRUCTOR_P(get_callee_fndecl(t)) &&
             TREE_CODE(CALL_EXPR_ARG(t, 0)) == ADDR_EXPR)
        target = TREE_OPERAND(CALL_EXPR_ARG(t, 0), 0); /* the object a constructor builds */
    while (target && handled_component_p(target))
        target = TREE_OPERAND(target, 0);
    if (target && VAR_P(target) && (TREE_STATIC(target) || DECL_EXTERNAL(target)) &&
        !loom_is_per_rank(target) && !DECL_ARTIFICIAL(target) &&
        !DECL_THREAD_LOCAL_P(target) && !DECL_IN_SYSTEM_HEADER(target) &&
        !((hash_set<tree> *)data)->add(target))
        error_at(DECL_SOURCE_LOCATION(target),
                 "loom: shared variable %qD is initialized at run time, by the unit%'s static "
                 "initialization, which loom runs once per rank; give it a constant "
                 "initializer, or let it be per rank (neither %<LOOM_SHARED%> nor %<const%>)",
                 target);
    return NULL_TREE;
}

void loom_take_static_constructors(vec<tree> &ctors)
{
    auto_vec<tree> subs;
    bool per_rank = false;
    cgraph_node *f;
    FOR_EACH_FUNCTION(f)
    {
        tree fn = f->decl;
        if (!DECL_ARTIFICIAL(fn) || !DECL_SAVED_TREE(fn))
            continue;
        bool sub = DECL_STATIC_CONSTRUCTOR(fn) && name_starts(fn, "_GLOBAL__sub_I");
        bool body = name_starts(fn, "__static_initialization_and_destruction_");
        if (!sub && !body)
            continue;
        if (sub)
            subs.safe_push(fn);
        if (loom_refs_per_rank(DECL_SAVED_TREE(fn)))
            per_rank = true;
    }
    if (!per_rank)
        return; /* nothing of the ranks: it stays the process's, run once at start */
    hash_set<tree> reported;
    FOR_EACH_FUNCTION(f)
    {
        tree fn = f->decl;
        if (DECL_ARTIFICIAL(fn) && DECL_SAVED_TREE(fn) &&
            (name_starts(fn, "__static_initialization_and_destruction_") ||
             name_starts(fn, "_GLOBAL__sub_I")))
            walk_tree_without_duplicates(&DECL_SAVED_TREE(fn), shared_target_r, &reported);
    }
    for (tree fn : subs) {
        /* its priority stays on it: loom_emit_registration passes it to loom */
        DECL_STATIC_CONSTRUCTOR(fn) = 0;
        TREE_USED(fn) = 1;
        ctors.safe_push(fn);
        if (loom_verbose)
            inform(DECL_SOURCE_LOCATION(fn), "loom: %qD runs once per rank", fn);
    }
}
