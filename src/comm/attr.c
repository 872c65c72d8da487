/* comm/attr.c — attributes cached on objects (communicators, datatypes, windows), and their
 * callbacks.
 *
 * The operations are generic over the kind of object: an object hands in its list head, the
 * lock that guards it and its user handle (struct loom_attr_host), and the callbacks are
 * called with the signature of the keyval's kind. Communicators keep their list in
 * c->attrs under c->attr_lock; the wrappers at the end of this file are theirs.
 *
 * The lock is a leaf lock. User callbacks never run with it held (they may call MPI on the
 * same object), so each operation looks up under the lock, runs the callback unlocked, then
 * locks again to change the list. Concurrent changes of the same attribute by two threads of
 * one rank are the program's race; the list itself stays consistent. */
#include <stdlib.h>
#include "comm/comm.h"
#include "core/error.h"
#include "core/rank.h"

MPI_Comm loom__comm_user_handle(struct loom_comm *c)
{
    if (c->is_predefined && loom__self != NULL) {
        if (c == loom__self->world)
            return MPI_COMM_WORLD;
        if (c == loom__self->self)
            return MPI_COMM_SELF;
    }
    return c;
}

/* The node of kv in h's list, or NULL; the caller holds h's lock. */
static struct loom_attr_list *find(const struct loom_attr_host *h, struct loom_keyval *kv)
{
    for (struct loom_attr_list *a = *h->list; a != NULL; a = a->next)
        if (a->kv == kv)
            return a;
    return NULL;
}

/* Run kv's delete callback on val; 0 or the callback's error code. */
static int run_delete(const struct loom_attr_host *h, struct loom_keyval *kv, void *val)
{
    int rc = MPI_SUCCESS;
    if (kv->kind == LOOM_ATTR_TYPE) {
        if (kv->type_delete_fn != NULL)
            rc = kv->type_delete_fn((MPI_Datatype)h->handle, kv->id, val, kv->extra_state);
    } else if (kv->kind == LOOM_ATTR_WIN) {
        if (kv->win_delete_fn != NULL)
            rc = kv->win_delete_fn((MPI_Win)h->handle, kv->id, val, kv->extra_state);
    } else if (kv->delete_fn != NULL) {
        rc = kv->delete_fn((MPI_Comm)h->handle, kv->id, val, kv->extra_state);
    }
    return rc == MPI_SUCCESS ? 0 : rc;
}

/* Run kv's copy callback on val of h; 0 or the callback's error code; *flag 0 when kv has
 * none (the NULL copy function). */
static int run_copy(const struct loom_attr_host *h, struct loom_keyval *kv, void *val,
                    void **out, int *flag)
{
    int rc = MPI_SUCCESS;
    *flag = 0;
    if (kv->kind == LOOM_ATTR_TYPE) {
        if (kv->type_copy_fn != NULL)
            rc = kv->type_copy_fn((MPI_Datatype)h->handle, kv->id, kv->extra_state, val, out,
                                  flag);
    } else if (kv->kind == LOOM_ATTR_WIN) {
        if (kv->win_copy_fn != NULL)
            rc = kv->win_copy_fn((MPI_Win)h->handle, kv->id, kv->extra_state, val, out, flag);
    } else if (kv->copy_fn != NULL) {
        rc = kv->copy_fn((MPI_Comm)h->handle, kv->id, kv->extra_state, val, out, flag);
    }
    return rc == MPI_SUCCESS ? 0 : rc;
}

int loom__attrs_get(const struct loom_attr_host *h, struct loom_keyval *kv, void **val,
                    int *flag)
{
    pthread_mutex_lock(h->lock);
    struct loom_attr_list *a = find(h, kv);
    *flag = a != NULL;
    if (a != NULL)
        *val = a->val;
    pthread_mutex_unlock(h->lock);
    return 0;
}

int loom__attrs_set(const struct loom_attr_host *h, struct loom_keyval *kv, void *val)
{
    /* Allocated up front so that nothing can fail after the old value is deleted. */
    struct loom_attr_list *node = malloc(sizeof *node); /* freed when the attr is deleted */
    if (node == NULL)
        return LOOM_ERR_NOMEM;
    pthread_mutex_lock(h->lock);
    struct loom_attr_list *a = find(h, kv);
    void *old = a ? a->val : NULL;
    pthread_mutex_unlock(h->lock);
    if (a != NULL) {
        int rc = run_delete(h, kv, old);
        if (rc != 0) {
            free(node);
            return rc;
        }
    }
    pthread_mutex_lock(h->lock);
    a = find(h, kv);
    if (a != NULL) {
        a->val = val;
        free(node);
    } else {
        node->kv = kv;
        node->val = val;
        node->next = *h->list;
        *h->list = node;
    }
    pthread_mutex_unlock(h->lock);
    return 0;
}

/* Unlink and free kv's node if present; returns 1 if it was there. */
static int unlink_kv(const struct loom_attr_host *h, struct loom_keyval *kv)
{
    pthread_mutex_lock(h->lock);
    struct loom_attr_list **pp = h->list;
    while (*pp != NULL && (*pp)->kv != kv)
        pp = &(*pp)->next;
    struct loom_attr_list *a = *pp;
    if (a != NULL)
        *pp = a->next;
    pthread_mutex_unlock(h->lock);
    free(a);
    return a != NULL;
}

int loom__attrs_delete(const struct loom_attr_host *h, struct loom_keyval *kv)
{
    pthread_mutex_lock(h->lock);
    struct loom_attr_list *a = find(h, kv);
    void *val = a ? a->val : NULL;
    pthread_mutex_unlock(h->lock);
    if (a == NULL)
        return 0; /* nothing cached: deleting is a no-op, as in MPICH */
    int rc = run_delete(h, kv, val);
    if (rc != 0)
        return rc; /* the attribute stays, as the callback refused */
    unlink_kv(h, kv);
    return 0;
}

int loom__attrs_delete_all(const struct loom_attr_host *h)
{
    for (;;) {
        pthread_mutex_lock(h->lock);
        struct loom_attr_list *a = *h->list;
        struct loom_keyval *kv = a ? a->kv : NULL;
        void *val = a ? a->val : NULL;
        pthread_mutex_unlock(h->lock);
        if (a == NULL)
            return 0;
        int rc = run_delete(h, kv, val);
        if (rc != 0)
            return rc;
        unlink_kv(h, kv);
    }
}

void loom__attrs_drop_all(const struct loom_attr_host *h)
{
    pthread_mutex_lock(h->lock);
    struct loom_attr_list *a = *h->list;
    *h->list = NULL;
    pthread_mutex_unlock(h->lock);
    while (a != NULL) {
        struct loom_attr_list *next = a->next;
        free(a);
        a = next;
    }
}

int loom__attrs_copy_all(const struct loom_attr_host *src, const struct loom_attr_host *dst)
{
    /* Snapshot src's list (oldest first, so dst keeps the same order), then call the copy
     * callbacks unlocked. On an object shared by all ranks, only the calling rank's keyvals
     * count: the others' attributes are theirs. */
    pthread_mutex_lock(src->lock);
    size_t n = 0;
    for (struct loom_attr_list *a = *src->list; a != NULL; a = a->next)
        n++;
    struct loom_attr_list *snap = n ? malloc(n * sizeof *snap) : NULL; /* freed below */
    if (n > 0 && snap == NULL) {
        pthread_mutex_unlock(src->lock);
        return LOOM_ERR_NOMEM;
    }
    size_t i = n;
    for (struct loom_attr_list *a = *src->list; a != NULL; a = a->next)
        snap[--i] = *a;
    pthread_mutex_unlock(src->lock);

    int rc = 0;
    for (i = 0; i < n && rc == 0; i++) {
        struct loom_keyval *kv = snap[i].kv;
        if (src->shared && kv->rank != loom__self)
            continue;
        void *out = NULL;
        int flag = 0;
        int r = run_copy(src, kv, snap[i].val, &out, &flag);
        if (r != 0)
            rc = r;
        else if (flag)
            rc = loom__attrs_set(dst, kv, out);
    }
    free(snap);
    if (rc != 0)
        loom__attrs_delete_all(dst); /* best effort: dst is about to be freed */
    return rc;
}

/* ---- communicators ---------------------------------------------------------------------- */

static struct loom_attr_host comm_host(struct loom_comm *c, MPI_Comm handle)
{
    return (struct loom_attr_host){LOOM_ATTR_COMM, handle, &c->attrs, &c->attr_lock, 0};
}

int loom__attr_get(struct loom_comm *c, struct loom_keyval *kv, void **val, int *flag)
{
    struct loom_attr_host h = comm_host(c, loom__comm_user_handle(c));
    return loom__attrs_get(&h, kv, val, flag);
}

int loom__attr_set(struct loom_comm *c, struct loom_keyval *kv, void *val)
{
    struct loom_attr_host h = comm_host(c, loom__comm_user_handle(c));
    return loom__attrs_set(&h, kv, val);
}

int loom__attr_delete(struct loom_comm *c, struct loom_keyval *kv)
{
    struct loom_attr_host h = comm_host(c, loom__comm_user_handle(c));
    return loom__attrs_delete(&h, kv);
}

int loom__attr_delete_all(struct loom_comm *c)
{
    struct loom_attr_host h = comm_host(c, loom__comm_user_handle(c));
    return loom__attrs_delete_all(&h);
}

int loom__attr_copy_all(struct loom_comm *src, MPI_Comm src_handle, struct loom_comm *dst)
{
    struct loom_attr_host s = comm_host(src, src_handle), d = comm_host(dst, dst);
    return loom__attrs_copy_all(&s, &d);
}
