/* tools/gcc-plugin/access.cc — step 2: every access to a per-rank variable reaches the copy of
 * the thread's rank.
 *
 * Storage: a per-rank variable becomes thread-local, and the copy held by a rank's own thread
 * is the rank's. glibc gives each thread a copy of the thread-local image, so every rank thread
 * starts with the initial values, and a variable of any module loaded at start (the program,
 * the shared libraries it links) lies at the same offset from every thread's thread pointer.
 * So the rank's copy of `x`, seen from any thread, is at
 *     &x + loom_privatize_delta
 * where &x is the calling thread's own copy and loom_privatize_delta (a thread-local that the
 * executable defines, core/delta.c) is the distance from the calling thread's thread pointer to its rank
 * thread's: 0 in a rank thread (and outside the ranks), set by loom when it starts a thread
 * for a rank (core/thread_inherit.c) and while loom runs a rank's callback on another thread.
 * The threads a rank creates (OpenMP workers, pthreads, C++ threads, and the threads those
 * create) thus share their rank's variables exactly as the threads of a process share its
 * globals; `_Thread_local` variables of the program stay per thread.
 *
 * The pass runs once per unit, before the first interprocedural pass: every function has been
 * gimplified and lowered, and OpenMP regions have been outlined into functions of their own,
 * so OpenMP has treated the variables as the ordinary globals they are in the source (shared
 * by default; private, firstprivate, lastprivate and reduction copies made from and merged
 * into them), and what is left is plain loads, stores and address computations, in non-SSA
 * GIMPLE. For each statement that names a per-rank variable it inserts
 *     a = &x;  d = loom_privatize_delta;  p = a + d;
 * and uses MEM[p] for `x` and p for `&x`. loom_privatize_delta is declared const to GCC (it
 * does not change while a function runs), and `&x` is invariant, so later passes share these
 * loads within a function and hoist them out of loops: in a loop the access costs what a plain
 * global's does. The memory reference is marked as not trapping and keeps the variable's alias
 * set and alignment, so the optimizers treat it as they treated the variable. C++ calls that
 * register the destructor of a per-rank object with __cxa_atexit go to loom instead (below).
 * Then the variables become thread-local. */
#include "privatize.h"
#include "plugin-version.h"
#include "stringpool.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-expr.h"
#include "cgraph.h"
#include "varasm.h"
#include "alias.h"
#include "fold-const.h"
#include "diagnostic-core.h"
#include "gimplify.h"
#include "gimple-ssa.h"
#include "hash-set.h"

/* The thread's offset to its rank's copies (see above); made once per unit. */
static tree delta;

static tree delta_decl(void)
{
    if (delta)
        return delta;
    tree type = build_qualified_type(sizetype, TYPE_QUAL_CONST);
    tree d = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier("loom_privatize_delta"),
                        type);
    DECL_EXTERNAL(d) = 1;
    TREE_PUBLIC(d) = 1;
    TREE_READONLY(d) = 1;
    TREE_USED(d) = 1;
    DECL_ARTIFICIAL(d) = 1;
    /* In code for an executable, the executable defines it (libloom-main, core/delta.c): one
     * load at a link-time offset. In code for a shared library, initial-exec finds it. */
    set_decl_tls_model(d, flag_shlib ? TLS_MODEL_INITIAL_EXEC : TLS_MODEL_LOCAL_EXEC);
    delta = d;
    return d;
}

bool loom_opaque_addresses;

/* Insert `p = addr + loom_privatize_delta` before the statement at gsi; return p. `addr` is
 * the address of the calling thread's copy (an invariant: &x).
 *
 * As pointer arithmetic, the object-size pass reads `&x + delta` as "x, delta bytes in", and
 * a check of the object's size at run time (-fsanitize=object-size, _FORTIFY_SOURCE=3: GCC's
 * __builtin_dynamic_object_size) then finds no room left in any thread whose delta is not 0.
 * In units built with those, the sum is made on integers, which that pass cannot follow (it
 * then knows no size, as for any pointer of unknown origin); points-to analysis, which can,
 * loses a little precision there. Elsewhere it stays pointer arithmetic. */
static tree rank_address(tree addr, gimple_stmt_iterator *gsi, location_t loc)
{
    tree ptype = TREE_TYPE(addr);
    TREE_ADDRESSABLE(TREE_OPERAND(addr, 0)) = 1; /* its address is taken now */
    tree a = create_tmp_reg(ptype, "loom_mine");
    tree d = create_tmp_reg(sizetype, "loom_delta");
    tree p = create_tmp_reg(ptype, "loom_rank");
    auto_vec<gimple *, 5> s;
    s.safe_push(gimple_build_assign(a, unshare_expr(addr)));
    s.safe_push(gimple_build_assign(d, delta_decl()));
    if (loom_opaque_addresses) {
        tree ia = create_tmp_reg(sizetype, "loom_mine_int");
        tree ip = create_tmp_reg(sizetype, "loom_rank_int");
        s.safe_push(gimple_build_assign(ia, NOP_EXPR, a));
        s.safe_push(gimple_build_assign(ip, PLUS_EXPR, ia, d));
        s.safe_push(gimple_build_assign(p, NOP_EXPR, ip));
    } else {
        s.safe_push(gimple_build_assign(p, POINTER_PLUS_EXPR, a, d));
    }
    for (gimple *g : s) {
        gimple_set_location(g, loc);
        gsi_insert_before(gsi, g, GSI_SAME_STMT);
    }
    return p;
}

/* A reference to the rank's copy of x, for a statement at gsi. */
static tree rank_ref(tree x, gimple_stmt_iterator *gsi, location_t loc)
{
    tree p = rank_address(build_fold_addr_expr(x), gsi, loc);
    tree type = TREE_TYPE(x);
    if (DECL_ALIGN(x) > TYPE_ALIGN(type))
        type = build_aligned_type(type, DECL_ALIGN(x));
    tree mem = build2(MEM_REF, type, p, build_int_cst(reference_alias_ptr_type(x), 0));
    TREE_THIS_VOLATILE(mem) = TREE_THIS_VOLATILE(x) || TYPE_VOLATILE(TREE_TYPE(x));
    TREE_SIDE_EFFECTS(mem) = TREE_THIS_VOLATILE(mem);
    TREE_THIS_NOTRAP(mem) = 1; /* as the variable itself: it always exists */
    return mem;
}

/* *tp is a memory reference (handled components down to a base) that mentions a per-rank
 * variable: point its base to the rank's copy. */
static void fix_ref(tree *tp, gimple_stmt_iterator *gsi, location_t loc)
{
    tree *base = tp;
    while (handled_component_p(*base))
        base = &TREE_OPERAND(*base, 0);
    tree b = *base;
    if (loom_is_per_rank(b)) {
        *base = rank_ref(b, gsi, loc);
    } else if ((TREE_CODE(b) == MEM_REF || TREE_CODE(b) == TARGET_MEM_REF) &&
               TREE_CODE(TREE_OPERAND(b, 0)) == ADDR_EXPR &&
               loom_is_per_rank(TREE_OPERAND(TREE_OPERAND(b, 0), 0))) {
        /* MEM[&x + 8]: the same offset from the rank's copy */
        TREE_OPERAND(b, 0) = rank_address(TREE_OPERAND(b, 0), gsi, loc);
        TREE_THIS_NOTRAP(b) = 1;
    }
}

/* *tp is an operand of the statement at gsi that mentions a per-rank variable. */
static void fix_operand(tree *tp, gimple_stmt_iterator *gsi, location_t loc)
{
    tree t = *tp;
    if (loom_is_per_rank(t)) {
        *tp = rank_ref(t, gsi, loc);
        return;
    }
    switch (TREE_CODE(t)) {
    case ADDR_EXPR:
        if (loom_is_per_rank(TREE_OPERAND(t, 0))) {
            *tp = rank_address(t, gsi, loc);
        } else {
            /* &x.f, &x[3], &MEM[&x + 8]: no longer an invariant, so computed into a register
             * first (invariant addresses may be shared between statements: copy it). */
            tree copy = unshare_expr(t);
            fix_ref(&TREE_OPERAND(copy, 0), gsi, loc);
            recompute_tree_invariant_for_addr_expr(copy);
            tree r = create_tmp_reg(TREE_TYPE(copy), "loom_addr");
            gimple *g = gimple_build_assign(r, copy);
            gimple_set_location(g, loc);
            gsi_insert_before(gsi, g, GSI_SAME_STMT);
            *tp = r;
        }
        return;
    case TREE_LIST: /* an asm operand */
        fix_operand(&TREE_VALUE(t), gsi, loc);
        return;
    case CONSTRUCTOR: {
        unsigned i;
        constructor_elt *ce;
        FOR_EACH_VEC_SAFE_ELT(CONSTRUCTOR_ELTS(t), i, ce)
        if (loom_refs_per_rank(ce->value))
            fix_operand(&ce->value, gsi, loc);
        return;
    }
    default:
        break;
    }
    if (handled_component_p(t) || TREE_CODE(t) == MEM_REF || TREE_CODE(t) == TARGET_MEM_REF) {
        *tp = unshare_expr(t);
        fix_ref(tp, gsi, loc);
    } else if (EXPR_P(t)) {
        *tp = t = unshare_expr(t); /* a comparison inside a COND_EXPR, a WITH_SIZE_EXPR... */
        for (int i = 0; i < TREE_OPERAND_LENGTH(t); i++)
            if (TREE_OPERAND(t, i) && loom_refs_per_rank(TREE_OPERAND(t, i)))
                fix_operand(&TREE_OPERAND(t, i), gsi, loc);
    }
}

/* C++ destructors of per-rank objects. The front end registers each one with
 * `__cxa_atexit(dtor, &obj, &__dso_handle)` when it has constructed the object (global objects
 * in the unit's static initialization, function-local statics at first use), or, for an array
 * of objects, `__cxa_atexit(__tcf_N, 0, ...)` with a function that destroys it. At process exit,
 * on the main thread, the rank's copy would be out of reach (its thread, and its TLS, gone):
 * such calls go to loom_privatize_atexit instead (src/core/privatize_objects.c), which records
 * the destructor in the calling rank's list, run when the rank ends, on the rank thread, in
 * reverse order; outside ranks it forwards to __cxa_atexit. */
static tree atexit_decl;

/* Artificial functions (`__tcf_*`) whose body mentions a per-rank variable; found before any
 * body is rewritten. */
static hash_set<tree> *destroys_per_rank;

static bool body_refs_per_rank(function *fn)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fn)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *stmt = gsi_stmt(gsi);
        if (is_gimple_debug(stmt))
            continue;
        for (unsigned i = 0; i < gimple_num_ops(stmt); i++)
            if (gimple_op(stmt, i) && loom_refs_per_rank(gimple_op(stmt, i)))
                return true;
    }
    return false;
}

/* A call `__cxa_atexit(fn, obj, dso)` that registers the destructor of a per-rank object. */
static bool destroys_rank_object(gimple *stmt)
{
    tree callee = gimple_call_fndecl(stmt);
    if (!callee || gimple_call_num_args(stmt) != 3 || !DECL_NAME(callee) ||
        strcmp(IDENTIFIER_POINTER(DECL_NAME(callee)), "__cxa_atexit") != 0)
        return false;
    if (loom_refs_per_rank(gimple_call_arg(stmt, 1)))
        return true;
    tree fn = gimple_call_arg(stmt, 0);
    return TREE_CODE(fn) == ADDR_EXPR && destroys_per_rank &&
           destroys_per_rank->contains(TREE_OPERAND(fn, 0));
}

static void redirect_atexit(gimple *stmt)
{
    if (!atexit_decl) {
        tree callee = gimple_call_fndecl(stmt);
        atexit_decl = build_fn_decl("loom_privatize_atexit", TREE_TYPE(callee));
    }
    gimple_call_set_fndecl(stmt, atexit_decl);
}

/* Route every access of the current function through the rank's copies; true if any. */
static bool fix_function(function *fn)
{
    bool changed = false;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fn)
    {
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *stmt = gsi_stmt(gsi);
            if (is_gimple_debug(stmt))
                continue; /* describes the variable for the debugger; nothing runs */
            location_t loc = gimple_location(stmt);
            bool here = false;
            if (is_gimple_call(stmt) && destroys_rank_object(stmt)) {
                redirect_atexit(stmt);
                here = true;
            }
            for (unsigned i = 0; i < gimple_num_ops(stmt); i++) {
                tree *op = gimple_op_ptr(stmt, i);
                if (*op && loom_refs_per_rank(*op)) {
                    fix_operand(op, &gsi, loc);
                    here = true;
                }
            }
            if (here)
                update_stmt(stmt);
            changed |= here;
        }
    }
    return changed;
}

static const pass_data access_pass_data = {
    SIMPLE_IPA_PASS,
    "loom_privatize", /* name: -fdump-ipa-loom_privatize */
    OPTGROUP_NONE,
    TV_NONE,
    PROP_gimple_any | PROP_cfg, /* lowered GIMPLE with a CFG, not yet SSA */
    0,
    0,
    0,
    0,
};

class access_pass : public simple_ipa_opt_pass
{
  public:
    access_pass(gcc::context *ctx) : simple_ipa_opt_pass(access_pass_data, ctx) {}
    unsigned int execute(function *) override;
};

unsigned int access_pass::execute(function *)
{
    if (seen_error())
        return 0;
    delta = NULL_TREE;
    atexit_decl = NULL_TREE;
    hash_set<tree> destroyers;
    destroys_per_rank = &destroyers;
    cgraph_node *node;
    FOR_EACH_FUNCTION_WITH_GIMPLE_BODY(node)
    {
        function *fn = DECL_STRUCT_FUNCTION(node->decl);
        if (fn && fn->cfg && DECL_ARTIFICIAL(node->decl) && DECL_NAME(node->decl) &&
            strncmp(IDENTIFIER_POINTER(DECL_NAME(node->decl)), "__tcf_", 6) == 0 &&
            body_refs_per_rank(fn))
            destroyers.add(node->decl);
    }
    FOR_EACH_FUNCTION_WITH_GIMPLE_BODY(node)
    {
        function *fn = DECL_STRUCT_FUNCTION(node->decl);
        if (!fn || !fn->cfg)
            continue;
        push_cfun(fn);
        if (fix_function(fn))
            cgraph_edge::rebuild_references(); /* they name &x and the delta now */
        pop_cfun();
    }
    /* Now the variables the unit defines or uses become thread-local, in the static TLS
     * block whatever the unit (initial-exec at least, also in a shared library): the delta
     * holds only there, and a library loaded later with dlopen whose per-rank variables do
     * not fit in the static block then fails to load, with glibc's message, instead of
     * reaching memory that is not its rank's. It also spares -fPIC code a call to
     * __tls_get_addr per function. */
    varpool_node *v;
    FOR_EACH_VARIABLE(v)
    {
        tree d = v->decl;
        if (loom_is_per_rank(d) && !DECL_THREAD_LOCAL_P(d)) {
            tls_model model = decl_default_tls_model(d);
            set_decl_tls_model(d, model < TLS_MODEL_INITIAL_EXEC ? TLS_MODEL_INITIAL_EXEC : model);
        }
    }
    delta = NULL_TREE;
    destroys_per_rank = NULL;
    return 0;
}

void loom_register_access_pass(const char *plugin_name)
{
    static struct register_pass_info info;
    info.pass = new access_pass(g);
    /* After free_lang_data, before the visibility pass (which settles the TLS models) and
     * before SSA is built. */
    info.reference_pass_name = "visibility";
    info.ref_pass_instance_number = 1;
    info.pos_op = PASS_POS_INSERT_BEFORE;
    register_callback(plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}
