/* walk.c — the bad-argument walk: a test program that calls every described call once per
 * argument it can give a bad value, with every other argument valid, and checks the error
 * class (tests/bindings/walk_main.c runs it; docs/bindings.md).
 *
 * Valid and bad values come from the parameter's type and name through the table below, so
 * that every call taking, say, a communicator is tried with MPI_COMM_NULL and expected to
 * answer MPI_ERR_COMM: one rule per kind of argument, the same in every call. A parameter that
 * no rule knows stops the build: each new call is classified when it is described. `@walk`
 * lines after a prototype adjust one call (parse.c). The expressions name the fields of
 * struct walk (tests/bindings/walk.h), set up once and reset before each call. */
#include <stdio.h>
#include <string.h>
#include "bindgen.h"

struct rule {
    const char *type;  /* the parameter's type exactly as parse.c writes it */
    const char *names; /* "|"-separated parameter names, or "*" for any */
    const char *valid; /* a valid value */
    const char *bad;   /* a bad value to try, NULL when none */
    const char *class; /* the error class the bad value must get */
};

static const struct rule rules[] = {
    /* handles by value: the null handle (a garbage pointer for info, where null is valid) */
    {"MPI_Comm", "*", "W->comm", "MPI_COMM_NULL", "MPI_ERR_COMM"},
    {"MPI_Datatype", "*", "MPI_INT", "MPI_DATATYPE_NULL", "MPI_ERR_TYPE"},
    {"MPI_Op", "*", "MPI_SUM", "MPI_OP_NULL", "MPI_ERR_OP"},
    {"MPI_Group", "*", "W->group", "MPI_GROUP_NULL", "MPI_ERR_GROUP"},
    {"MPI_Info", "*", "W->info", "W->bad_info", "MPI_ERR_INFO"},
    {"MPI_Errhandler", "*", "MPI_ERRORS_RETURN", "MPI_ERRHANDLER_NULL", "MPI_ERR_ARG"},
    {"MPI_Request", "*", "MPI_REQUEST_NULL", "W->bad_request", "MPI_ERR_REQUEST"},
    {"MPI_Session", "*", "W->session", "MPI_SESSION_NULL", "MPI_ERR_SESSION"},
    {"MPI_Win", "*", "W->win", "MPI_WIN_NULL", "MPI_ERR_WIN"},
    /* integers by what they mean */
    {"int", "count|sendcount|recvcount|incount|outcount|maxcount|origin_count|target_count|"
            "result_count", "1", "-1", "MPI_ERR_COUNT"},
    {"int", "n", "1", "-1", "MPI_ERR_ARG"},
    {"int", "dest|source", "0", "W->size", "MPI_ERR_RANK"},
    {"int", "root", "0", "W->size", "MPI_ERR_ROOT"},
    {"int", "tag|sendtag|recvtag", "0", "-5", "MPI_ERR_TAG"},
    {"int", "keyval", "W->keyval", "MPI_KEYVAL_INVALID", "MPI_ERR_KEYVAL"},
    {"int", "type_keyval", "W->type_keyval", "MPI_KEYVAL_INVALID", "MPI_ERR_KEYVAL"},
    {"int", "rank|target_rank", "0", "W->size", "MPI_ERR_RANK"},
    /* one-sided: windows' units, displacements, locks and assertions */
    {"int", "disp_unit", "1", "0", "MPI_ERR_DISP"},
    {"int", "lock_type", "MPI_LOCK_SHARED", "-1", "MPI_ERR_LOCKTYPE"},
    {"int", "assert", "0", "-1", "MPI_ERR_ASSERT"},
    {"int", "win_keyval", "W->win_keyval", "MPI_KEYVAL_INVALID", "MPI_ERR_KEYVAL"},
    {"MPI_Aint", "disp_unit", "1", "0", "MPI_ERR_DISP"},
    {"MPI_Aint", "target_disp", "0", "-1", "MPI_ERR_DISP"},
    {"int", "errorcode|errorclass", "MPI_ERR_OTHER", NULL, NULL},
    {"int", "outsize|insize", "64", NULL, NULL},
    {"int", "order", "MPI_ORDER_C", NULL, NULL},
    {"int", "split_type", "MPI_COMM_TYPE_SHARED", NULL, NULL},
    {"int", "*", "1", NULL, NULL},
    {"MPI_Aint", "extent", "4", NULL, NULL},
    {"MPI_Aint", "outsize|insize", "64", NULL, NULL},
    {"MPI_Aint", "*", "0", NULL, NULL},
    /* the big-count calls (MPI_Xxx_c): the same meanings, wider */
    {"MPI_Count", "count|sendcount|recvcount|incount|outcount|origin_count|target_count|"
                  "result_count", "1", "-1", "MPI_ERR_COUNT"},
    {"MPI_Count", "extent", "4", NULL, NULL},
    {"MPI_Count", "outsize|insize|size", "64", NULL, NULL},
    {"MPI_Count", "lb|stride", "0", NULL, NULL},
    {"MPI_Count", "*", "1", NULL, NULL},
    /* arrays */
    {"const int []",
     "ranks|ranks1|displs|sdispls|rdispls|displacements|starts|sources|destinations|edges",
     "W->zeros", NULL, NULL},
    {"int []", "*", "W->ints", NULL, NULL},
    {"const int []", "*", "W->ones", NULL, NULL},
    {"int [][3]", "*", "W->ranges", NULL, NULL},
    {"const MPI_Aint []", "*", "W->aints", NULL, NULL},
    {"const MPI_Count []", "array_of_displacements|displs|sdispls|rdispls", "W->czeros", NULL,
     NULL},
    {"const MPI_Count []", "*", "W->cones", NULL, NULL},
    {"MPI_Count []", "*", "W->counts", NULL, NULL},
    {"const MPI_Datatype []", "*", "W->types", NULL, NULL},
    {"MPI_Aint []", "*", "W->aints", NULL, NULL},
    {"MPI_Datatype []", "*", "W->types", NULL, NULL},
    {"char * []", "argv", "W->argv", NULL, NULL},
    {"const char []", "datarep", "\"external32\"", "NULL", "MPI_ERR_ARG"},
    {"MPI_Request []", "*", "W->reqs", "NULL", "MPI_ERR_ARG"},
    {"MPI_Status []", "*", "W->statuses", "NULL", "MPI_ERR_ARG"},
    {"MPI_Status *", "statuses", "W->statuses", "NULL", "MPI_ERR_ARG"},
    /* where a call writes its results: NULL is never a place */
    {"MPI_Status *", "*", "&W->status", "NULL", "MPI_ERR_ARG"},
    {"const MPI_Status *", "*", "&W->status", "NULL", "MPI_ERR_ARG"},
    {"MPI_Comm *", "*", "&W->newcomm", "NULL", "MPI_ERR_ARG"},
    {"MPI_Group *", "*", "&W->newgroup", "NULL", "MPI_ERR_ARG"},
    {"MPI_Datatype *", "*", "&W->newtype", "NULL", "MPI_ERR_ARG"},
    {"MPI_Op *", "*", "&W->newop", "NULL", "MPI_ERR_ARG"},
    {"MPI_Info *", "*", "&W->newinfo", "NULL", "MPI_ERR_ARG"},
    {"MPI_Errhandler *", "*", "&W->newerrhandler", "NULL", "MPI_ERR_ARG"},
    {"MPI_Request *", "*", "&W->req", "NULL", "MPI_ERR_ARG"},
    {"MPI_Message *", "*", "&W->message", "NULL", "MPI_ERR_ARG"},
    {"MPI_Session *", "*", "&W->newsession", "NULL", "MPI_ERR_ARG"},
    {"MPI_Win *", "*", "&W->newwin", "NULL", "MPI_ERR_ARG"},
    {"int *", "position", "&W->position", "NULL", "MPI_ERR_ARG"},
    {"int *", "*", "&W->i", "NULL", "MPI_ERR_ARG"},
    {"MPI_Aint *", "*", "&W->aint", "NULL", "MPI_ERR_ARG"},
    {"MPI_Count *", "position", "&W->cposition", "NULL", "MPI_ERR_ARG"},
    {"MPI_Count *", "*", "&W->count", "NULL", "MPI_ERR_ARG"},
    {"MPI_Fint *", "*", "W->fints", "NULL", "MPI_ERR_ARG"},
    {"const MPI_Fint *", "*", "W->fints", "NULL", "MPI_ERR_ARG"},
    {"MPI_F08_status *", "*", "&W->f08", "NULL", "MPI_ERR_ARG"},
    {"const MPI_F08_status *", "*", "&W->f08", "NULL", "MPI_ERR_ARG"},
    {"char *", "*", "W->chars", "NULL", "MPI_ERR_ARG"},
    {"const char *", "key", "\"walk\"", "NULL", "MPI_ERR_INFO_KEY"},
    {"const char *", "value", "\"walk\"", "NULL", "MPI_ERR_INFO_VALUE"},
    {"const char *", "*", "\"walk\"", "NULL", "MPI_ERR_ARG"},
    /* buffers: NULL (MPI_BOTTOM) with a count and a predefined type is no buffer */
    {"const void *", "buf|sendbuf|inbuf", "W->buf", "NULL", "MPI_ERR_BUFFER"},
    {"void *", "buf|buffer", "W->buf", "NULL", "MPI_ERR_BUFFER"},
    {"void *", "recvbuf|outbuf|inoutbuf", "W->rbuf", "NULL", "MPI_ERR_BUFFER"},
    /* one-sided: NULL is MPI_BOTTOM, a valid origin or result address */
    {"void *", "origin_addr|result_addr", "W->rbuf", NULL, NULL},
    {"const void *", "*", "W->buf", NULL, NULL},
    {"void *", "*", "&W->ptr", NULL, NULL},
    /* callbacks */
    {"MPI_User_function *", "*", "walk_user_fn", NULL, NULL},
    {"MPI_User_function_c *", "*", "walk_user_fn_c", NULL, NULL},
    {"MPI_Comm_copy_attr_function *", "*", "MPI_COMM_NULL_COPY_FN", NULL, NULL},
    {"MPI_Comm_delete_attr_function *", "*", "MPI_COMM_NULL_DELETE_FN", NULL, NULL},
    {"MPI_Comm_errhandler_function *", "*", "walk_errhandler_fn", NULL, NULL},
    {"MPI_Type_copy_attr_function *", "*", "MPI_TYPE_NULL_COPY_FN", NULL, NULL},
    {"MPI_Copy_function *", "*", "MPI_NULL_COPY_FN", NULL, NULL},
    {"MPI_Grequest_query_function *", "*", "walk_query_fn", NULL, NULL},
    {"MPI_Grequest_free_function *", "*", "walk_free_fn", NULL, NULL},
    {"MPI_Grequest_cancel_function *", "*", "walk_cancel_fn", NULL, NULL},
    {"MPI_Delete_function *", "*", "MPI_NULL_DELETE_FN", NULL, NULL},
    {"MPI_Handler_function *", "*", "walk_errhandler_fn", NULL, NULL},
    {"MPI_Type_delete_attr_function *", "*", "MPI_TYPE_NULL_DELETE_FN", NULL, NULL},
    {"MPI_Session_errhandler_function *", "*", "walk_session_errhandler_fn", NULL, NULL},
    {"MPI_Win_copy_attr_function *", "*", "MPI_WIN_NULL_COPY_FN", NULL, NULL},
    {"MPI_Win_delete_attr_function *", "*", "MPI_WIN_NULL_DELETE_FN", NULL, NULL},
    {"MPI_Win_errhandler_function *", "*", "walk_win_errhandler_fn", NULL, NULL},
};

static int name_in(const char *name, const char *names)
{
    if (strcmp(names, "*") == 0)
        return 1;
    size_t n = strlen(name);
    for (const char *p = names; *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len + (bar ? 1 : 0);
    }
    return 0;
}

static const struct rule *rule_for(const struct param *p)
{
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (strcmp(rules[i].type, p->type) == 0 && name_in(p->name, rules[i].names))
            return &rules[i];
    return NULL;
}

/* The value of one argument: valid or, for the one being tried, bad. */
struct arg {
    char valid[256], bad[256], class[64];
};

/* Arguments of call c from the rules and its @walk notes; 0 (with a message) when a
 * parameter has no rule. */
static int args_of(const struct call *c, struct arg *a)
{
    int ok = 1;
    for (int i = 0; i < c->nparams; i++) {
        const struct rule *r = rule_for(&c->param[i]);
        memset(&a[i], 0, sizeof a[i]);
        if (r) {
            snprintf(a[i].valid, sizeof a[i].valid, "%s", r->valid);
            if (r->bad) {
                snprintf(a[i].bad, sizeof a[i].bad, "%s", r->bad);
                snprintf(a[i].class, sizeof a[i].class, "%s", r->class);
            }
        }
        for (int k = 0; k < c->nnotes; k++) {
            const struct walk_note *n = &c->notes[k];
            if (strcmp(n->name, c->param[i].name) != 0)
                continue;
            if (strcmp(n->kind, "set") == 0) {
                snprintf(a[i].valid, sizeof a[i].valid, "%s", n->expr);
            } else if (strcmp(n->kind, "nobad") == 0) {
                a[i].bad[0] = '\0';
            } else { /* bad EXPR:CLASS */
                const char *colon = strrchr(n->expr, ':');
                if (!colon)
                    bg_die(c->file, c->line, "%s: @walk bad %s: no ':CLASS'", c->name,
                           n->name);
                snprintf(a[i].bad, sizeof a[i].bad, "%.*s", (int)(colon - n->expr), n->expr);
                snprintf(a[i].class, sizeof a[i].class, "%s", colon + 1);
            }
        }
        if (!a[i].valid[0]) {
            fprintf(stderr, "loom-bindgen: %s:%d: %s: no walk rule for parameter '%s' of type "
                            "'%s' (add one in walk.c, or @walk set/skip)\n",
                    c->file, c->line, c->name, c->param[i].name, c->param[i].type);
            ok = 0;
        }
    }
    return ok;
}

void bg_gen_walk(struct out *o)
{
    bg_emit(o, "/* mpi_walk.c — every call with each bad argument it takes. %s */\n",
            bg_generated);
    bg_emit(o, "#include \"walk.h\"\n\nvoid walk_calls(struct walk *W)\n{\n");
    int ok = 1, ntried = 0;
    struct arg a[MAX_PARAMS];
    for (int i = 0; i < bg_ncalls; i++) {
        const struct call *c = &bg_calls[i];
        if (c->walk_skip[0]) {
            bg_emit(o, "    /* %s: not walked: %s */\n", c->name, c->walk_skip);
            continue;
        }
        if (strcmp(c->ret, "int") != 0) {
            bg_emit(o, "    /* %s: returns no error code */\n", c->name);
            continue;
        }
        if (!args_of(c, a)) {
            ok = 0;
            continue;
        }
        for (int bad = 0; bad < c->nparams; bad++) {
            if (!a[bad].bad[0])
                continue;
            ntried++;
            bg_emit(o, "    walk_reset(W, \"%s\", \"%s\");\n    walk_check(W, %s, %s(",
                    c->name, c->param[bad].name, a[bad].class, c->name);
            for (int k = 0; k < c->nparams; k++)
                bg_emit(o, "%s%s", k ? ", " : "", k == bad ? a[k].bad : a[k].valid);
            bg_emit(o, "));\n");
        }
    }
    if (!ok)
        bg_die("(walk)", 0, "parameters without a walk rule (above)");
    bg_emit(o, "}\n\nconst int walk_ntried = %d;\n", ntried);
}
