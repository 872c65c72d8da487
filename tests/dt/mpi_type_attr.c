/* Attributes on datatypes: MPI_Type_create_keyval / free_keyval, set / get / delete_attr,
 * the copy callbacks on MPI_Type_dup (MPI_TYPE_DUP_FN, MPI_TYPE_NULL_COPY_FN, a user's) and
 * the delete callbacks on MPI_Type_free, replacement and delete_attr, with the handle, keyval,
 * value and extra_state each callback gets; a callback's error fails the call and leaves the
 * attribute; keyvals of communicators and types do not mix (MPI_ERR_KEYVAL). Attributes on a
 * predefined type are the rank's own: every rank sets its value on MPI_INT at once and reads
 * its own back, and a dup of MPI_INT copies only the caller's. */
#include <mpi.h>
#include "comm_check.h"

/* callback log, per rank: the ranks are threads, so it lives in main's frame */
struct log {
    int copies, deletes;
    MPI_Datatype last_type;
    void *last_val;
    int last_keyval;
    int fail_delete; /* the delete callback returns MPI_ERR_OTHER while set */
};

static int copy_plus_one(MPI_Datatype old, int keyval, void *extra, void *in, void *out,
                         int *flag)
{
    struct log *l = extra;
    l->copies++;
    l->last_type = old;
    l->last_keyval = keyval;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Datatype t, int keyval, void *val, void *extra)
{
    struct log *l = extra;
    if (l->fail_delete)
        return MPI_ERR_OTHER;
    l->deletes++;
    l->last_type = t;
    l->last_val = val;
    l->last_keyval = keyval;
    return MPI_SUCCESS;
}

static void *get(MPI_Datatype t, int kv, int *flag)
{
    void *v = NULL;
    OK(MPI_Type_get_attr(t, kv, &v, flag));
    return v;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    struct log lg = {0};
    int kplus, kdup, knull, flag;
    OK(MPI_Type_create_keyval(copy_plus_one, count_delete, &kplus, &lg));
    OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kdup, NULL));
    OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, count_delete, &knull, &lg));

    MPI_Datatype t, d;
    OK(MPI_Type_contiguous(2, MPI_INT, &t));
    get(t, kplus, &flag);
    CHECK_INT(flag, 0);
    char base[8];
    OK(MPI_Type_set_attr(t, kplus, base));
    OK(MPI_Type_set_attr(t, kdup, base + 4));
    OK(MPI_Type_set_attr(t, knull, base + 2));
    CHECK(get(t, kplus, &flag) == base && flag);

    /* replacing a value deletes the old one */
    OK(MPI_Type_set_attr(t, kplus, base + 1));
    CHECK_INT(lg.deletes, 1);
    CHECK(lg.last_val == base && lg.last_type == t && lg.last_keyval == kplus);

    /* dup: the user's copy adds one, DUP_FN copies, NULL_COPY_FN drops */
    OK(MPI_Type_dup(t, &d));
    CHECK_INT(lg.copies, 1);
    CHECK(lg.last_type == t && lg.last_keyval == kplus);
    CHECK(get(d, kplus, &flag) == base + 2 && flag);
    CHECK(get(d, kdup, &flag) == base + 4 && flag);
    get(d, knull, &flag);
    CHECK_INT(flag, 0);
    CHECK(get(t, kplus, &flag) == base + 1); /* the original keeps its own */

    /* delete_attr runs the callback; deleting what is not there does nothing */
    OK(MPI_Type_delete_attr(d, kplus));
    CHECK_INT(lg.deletes, 2);
    CHECK(lg.last_val == base + 2 && lg.last_type == d);
    OK(MPI_Type_delete_attr(d, kplus));
    CHECK_INT(lg.deletes, 2);

    /* a failing delete callback: the call fails, the attribute stays */
    lg.fail_delete = 1;
    CHECK_INT(MPI_Type_delete_attr(t, kplus), MPI_ERR_OTHER);
    CHECK(get(t, kplus, &flag) == base + 1 && flag);
    CHECK_INT(MPI_Type_free(&t), MPI_ERR_OTHER);
    CHECK(t != MPI_DATATYPE_NULL);
    lg.fail_delete = 0;

    /* free runs the delete callbacks of what is left, with the type's handle */
    MPI_Datatype was = t;
    OK(MPI_Type_free(&t));
    CHECK_INT(lg.deletes, 4); /* kplus and knull */
    CHECK(lg.last_type == was);
    OK(MPI_Type_free(&d));
    CHECK_INT(lg.deletes, 4); /* d had only kdup's */

    /* a freed keyval: its attributes still delete; it cannot set any more */
    OK(MPI_Type_contiguous(1, MPI_INT, &t));
    OK(MPI_Type_set_attr(t, knull, base));
    int kfreed = knull;
    OK(MPI_Type_free_keyval(&knull));
    CHECK_INT(knull, MPI_KEYVAL_INVALID);
    CHECK_INT(MPI_Type_set_attr(t, kfreed, base), MPI_ERR_KEYVAL);
    OK(MPI_Type_free(&t));
    CHECK_INT(lg.deletes, 5);
    CHECK(lg.last_keyval == kfreed);

    /* communicator and type keyvals do not mix */
    int kcomm;
    OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kcomm, NULL));
    CHECK_INT(MPI_Type_set_attr(MPI_INT, kcomm, base), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Type_get_attr(MPI_INT, kcomm, base, &flag), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Comm_set_attr(MPI_COMM_WORLD, kdup, base), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Comm_free_keyval(&kdup), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Type_free_keyval(&kcomm), MPI_ERR_KEYVAL);
    CHECK_INT(MPI_Type_get_attr(MPI_INT, MPI_TAG_UB, base, &flag), MPI_ERR_KEYVAL);
    OK(MPI_Comm_free_keyval(&kcomm));

    /* predefined types: each rank's value is its own, set by all ranks at once */
    int mine[1];
    OK(MPI_Type_set_attr(MPI_INT, kplus, &mine[0]));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(get(MPI_INT, kplus, &flag) == &mine[0] && flag);
    int before = lg.copies;
    OK(MPI_Type_dup(MPI_INT, &d));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_INT(lg.copies, before + 1); /* only this rank's attribute was copied */
    CHECK(get(d, kplus, &flag) == (char *)&mine[0] + 1 && flag);
    OK(MPI_Type_free(&d));
    OK(MPI_Type_delete_attr(MPI_INT, kplus));
    get(MPI_INT, kplus, &flag);
    CHECK_INT(flag, 0);
    /* one attribute left on a predefined type at the end: dropped with the job */
    OK(MPI_Type_set_attr(MPI_DOUBLE, kdup, &mine[0]));
    OK(MPI_Type_free_keyval(&kplus));
    OK(MPI_Type_free_keyval(&kdup));
    MPI_Finalize();
    return 0;
}
