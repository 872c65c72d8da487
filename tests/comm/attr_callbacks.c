/* Attribute callbacks run the right number of times, with the right arguments: copy on dup
 * (MPI_COMM_DUP_FN copies, MPI_COMM_NULL_COPY_FN does not), delete on overwrite, on
 * MPI_Comm_delete_attr and on MPI_Comm_free (newest first), also after the keyval was freed.
 * A failing copy callback fails the dup; a failing delete callback fails the free. Counters
 * are thread-local: the ranks of a loom job share globals, and callbacks run on the rank's
 * own thread. */
#include "comm_check.h"

static _Thread_local int copies, deletes, order[8], norder;
static int extra_marker;

static int count_copy(MPI_Comm old, int kv, void *extra, void *in, void *out, int *flag)
{
    CHECK(extra == &extra_marker);
    (void)old, (void)kv;
    copies++;
    *(void **)out = (char *)in + 1; /* the copy's value is in + 1 */
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm c, int kv, void *val, void *extra)
{
    (void)c, (void)kv, (void)extra;
    deletes++;
    if (norder < 8)
        order[norder++] = (int)(intptr_t)val;
    return MPI_SUCCESS;
}

static int failing_copy(MPI_Comm old, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)kv, (void)extra, (void)in, (void)out, (void)flag;
    return MPI_ERR_OTHER;
}

static _Thread_local int refuse_delete = 1;
static int failing_delete(MPI_Comm c, int kv, void *val, void *extra)
{
    (void)c, (void)kv, (void)val, (void)extra;
    return refuse_delete ? MPI_ERR_ARG : MPI_SUCCESS;
}

static _Thread_local MPI_Comm deleted_on;
static int note_comm(MPI_Comm c, int kv, void *val, void *extra)
{
    (void)kv, (void)val, (void)extra;
    deleted_on = c;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    world_rank();
    int kv, kv_nocopy, kv_dupfn, flag;
    void *val;
    OK(MPI_Comm_create_keyval(count_copy, count_delete, &kv, &extra_marker));
    OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &kv_nocopy, NULL));
    OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kv_dupfn, NULL));
    CHECK(kv != kv_nocopy && kv != kv_dupfn);

    MPI_Comm c, d;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    OK(MPI_Comm_get_attr(c, kv, &val, &flag));
    CHECK_INT(flag, 0);
    OK(MPI_Comm_set_attr(c, kv, (void *)10));
    OK(MPI_Comm_set_attr(c, kv_nocopy, (void *)20));
    OK(MPI_Comm_set_attr(c, kv_dupfn, (void *)30));
    OK(MPI_Comm_get_attr(c, kv, &val, &flag));
    CHECK_INT(flag, 1);
    CHECK_INT((intptr_t)val, 10);

    /* dup: kv copied through count_copy (value + 1), kv_dupfn as is, kv_nocopy not */
    OK(MPI_Comm_dup(c, &d));
    CHECK_INT(copies, 1);
    OK(MPI_Comm_get_attr(d, kv, &val, &flag));
    CHECK_INT(flag, 1);
    CHECK_INT((intptr_t)val, 11);
    OK(MPI_Comm_get_attr(d, kv_dupfn, &val, &flag));
    CHECK_INT(flag, 1);
    CHECK_INT((intptr_t)val, 30);
    OK(MPI_Comm_get_attr(d, kv_nocopy, &val, &flag));
    CHECK_INT(flag, 0);
    /* split and create do not copy attributes */
    MPI_Comm s;
    OK(MPI_Comm_split(c, 0, 0, &s));
    OK(MPI_Comm_get_attr(s, kv, &val, &flag));
    CHECK_INT(flag, 0);
    OK(MPI_Comm_free(&s));
    CHECK_INT(copies, 1);

    /* overwrite deletes the old value; delete_attr deletes; deleting again is a no-op */
    OK(MPI_Comm_set_attr(c, kv, (void *)12));
    CHECK_INT(deletes, 1);
    CHECK_INT(order[0], 10);
    OK(MPI_Comm_delete_attr(c, kv));
    CHECK_INT(deletes, 2);
    CHECK_INT(order[1], 12);
    OK(MPI_Comm_delete_attr(c, kv));
    CHECK_INT(deletes, 2);
    OK(MPI_Comm_get_attr(c, kv, &val, &flag));
    CHECK_INT(flag, 0);

    /* free: both remaining counted attributes of c are deleted, newest first */
    OK(MPI_Comm_set_attr(c, kv, (void *)13));
    norder = 0;
    OK(MPI_Comm_free(&c));
    CHECK_INT(deletes, 4);
    CHECK_INT(order[0], 13);
    CHECK_INT(order[1], 20);

    /* freeing the keyval leaves d's attribute, which is still deleted with d */
    int kv_copy = kv;
    OK(MPI_Comm_free_keyval(&kv));
    CHECK_INT(kv, MPI_KEYVAL_INVALID);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN); /* d's own handler reports its errors */
    CHECK_INT(MPI_Comm_set_attr(d, kv_copy, (void *)1), MPI_ERR_KEYVAL);
    norder = 0;
    OK(MPI_Comm_free(&d));
    CHECK_INT(deletes, 5);
    CHECK_INT(order[0], 11);
    CHECK_INT(copies, 1);

    /* a failing copy callback fails the dup */
    int kv_bad;
    OK(MPI_Comm_create_keyval(failing_copy, MPI_COMM_NULL_DELETE_FN, &kv_bad, NULL));
    OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kv_bad, (void *)1));
    d = MPI_COMM_WORLD;
    CHECK_INT(MPI_Comm_dup(MPI_COMM_WORLD, &d), MPI_ERR_OTHER);
    CHECK(d == MPI_COMM_NULL);
    OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv_bad));
    OK(MPI_Comm_free_keyval(&kv_bad));

    /* a failing delete callback fails delete_attr, set_attr over it and the free */
    OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, failing_delete, &kv_bad, NULL));
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    OK(MPI_Comm_set_attr(c, kv_bad, (void *)1));
    CHECK_INT(MPI_Comm_delete_attr(c, kv_bad), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_set_attr(c, kv_bad, (void *)2), MPI_ERR_ARG);
    OK(MPI_Comm_get_attr(c, kv_bad, &val, &flag));
    CHECK_INT(flag, 1);
    CHECK_INT((intptr_t)val, 1);
    CHECK_INT(MPI_Comm_free(&c), MPI_ERR_ARG);
    CHECK(c != MPI_COMM_NULL);
    OK(MPI_Barrier(c)); /* still usable */
    OK(MPI_Comm_free_keyval(&kv_bad));
    refuse_delete = 0; /* the callback of the freed keyval still runs */
    OK(MPI_Comm_free(&c));

    /* callbacks see the handle the program knows: MPI_COMM_WORLD for the world */
    int kv_note;
    OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, note_comm, &kv_note, NULL));
    OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kv_note, NULL));
    OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv_note));
    CHECK(deleted_on == MPI_COMM_WORLD);
    MPI_Comm e;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &e));
    MPI_Comm e_handle = e;
    OK(MPI_Comm_set_attr(e, kv_note, NULL));
    OK(MPI_Comm_free(&e));
    CHECK(deleted_on == e_handle);
    OK(MPI_Comm_free_keyval(&kv_note));
    OK(MPI_Comm_free_keyval(&kv_nocopy));
    OK(MPI_Comm_free_keyval(&kv_dupfn));
    MPI_Finalize();
    return 0;
}
