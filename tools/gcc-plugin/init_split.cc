/* tools/gcc-plugin/init_split.cc — initializers that hold per-rank addresses.
 *
 * A per-rank variable's constant initializer lives in the thread-local image, which glibc
 * copies into every thread, so it is per rank for free. What the image cannot hold is the
 * address of another per-rank variable (`int x; int *p = &x;`): that address differs from rank
 * to rank. Those parts of the image are zeroed (walking arrays, structs, unions and GNU ranges
 * `[0 ... 3] = &x`, so the other parts keep their constant values), and the unit gets one
 * function, __loom_privatize_init, that stores them (`p = &x; arr[2] = &y; s.q = &z;`), plus a
 * constructor that hands it to loom_privatize_register() (src/core/privatize.c), which runs it
 * on each rank thread before the rank's main. */
#include "privatize.h"
#include "plugin-version.h"
#include "stringpool.h"
#include "cgraph.h"
#include "tree-iterator.h"
#include "function.h"
#include "fold-const.h"
#include "gimplify.h"

tree loom_split_init(tree lhs, tree init, tree *stmts)
{
    if (!loom_refs_per_rank(init))
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
            if (!loom_refs_per_rank(ce->value))
                continue;
            tree kept = ce->value;
            /* A range ([0 ... 9] = &x) gets one store per element. */
            for (offset_int i = wi::to_offset(lo); i <= wi::to_offset(hi); i += 1) {
                tree idx = wide_int_to_tree(TREE_TYPE(lo), i);
                tree ref = build4(ARRAY_REF, elt_type, lhs, idx, NULL_TREE, NULL_TREE);
                kept = loom_split_init(ref, unshare_expr(ce->value), stmts);
            }
            ce->value = kept;
        } else if (RECORD_OR_UNION_TYPE_P(type)) {
            tree field = ce->index ? ce->index : next_field;
            while (field && TREE_CODE(field) != FIELD_DECL)
                field = DECL_CHAIN(field);
            if (!field)
                break;
            next_field = DECL_CHAIN(field);
            if (!loom_refs_per_rank(ce->value))
                continue;
            tree ref = build3(COMPONENT_REF, TREE_TYPE(field), lhs, field, NULL_TREE);
            ce->value = loom_split_init(ref, ce->value, stmts);
        } else {
            /* A vector or complex initializer: store the whole value at run time. */
            tree rhs = fold_convert(type, unshare_expr(init));
            append_to_statement_list(build2(MODIFY_EXPR, type, lhs, rhs), stmts);
            return build_zero_cst(type);
        }
    }
    return init;
}

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

/* `init` runs on every rank; a constructor hands it to loom_privatize_register(), the large
 * variables to loom_privatize_large() and C++'s static initialization functions, taken off the
 * process's constructors, to loom_privatize_register_ctor(). */
void loom_emit_registration(tree stmts, const vec<tree> &large, const vec<tree> &ctors)
{
    tree body = alloc_stmt_list();
    if (stmts) {
        tree init = build_function("__loom_privatize_init", stmts, false);
        tree init_ptr = build_pointer_type(TREE_TYPE(init));
        tree reg_type = build_function_type_list(void_type_node, init_ptr, NULL_TREE);
        tree reg = build_fn_decl("loom_privatize_register", reg_type);
        append_to_statement_list(build_call_expr(reg, 1, build1(ADDR_EXPR, init_ptr, init)),
                                 &body);
    }
    if (!large.is_empty()) {
        tree type = build_function_type_list(void_type_node, ptr_type_node, size_type_node,
                                             integer_type_node, NULL_TREE);
        tree fn = build_fn_decl("loom_privatize_large", type);
        for (tree d : large) {
            tree addr = fold_convert(ptr_type_node, build_fold_addr_expr(d));
            tree size = fold_convert(size_type_node, DECL_SIZE_UNIT(d));
            /* zero: its image is all zeros (what is left of it once split) */
            tree init = DECL_INITIAL(d);
            int zero = !init || init == error_mark_node || initializer_zerop(init);
            append_to_statement_list(
                build_call_expr(fn, 3, addr, size, build_int_cst(integer_type_node, zero)),
                &body);
        }
    }
    if (!ctors.is_empty()) {
        tree fn_ptr = build_pointer_type(build_function_type_list(void_type_node, NULL_TREE));
        tree type =
            build_function_type_list(void_type_node, fn_ptr, integer_type_node, NULL_TREE);
        tree reg = build_fn_decl("loom_privatize_register_ctor", type);
        for (tree c : ctors) {
            /* its init_priority (65535 by default): loom keeps the order across units */
            tree prio = build_int_cst(integer_type_node, DECL_INIT_PRIORITY(c));
            append_to_statement_list(
                build_call_expr(reg, 2, fold_convert(fn_ptr, build_fold_addr_expr(c)), prio),
                &body);
        }
    }
    build_function("__loom_privatize_register_unit", body, true);
}

