/* comm/attr.c — attributes cached on communicator handles, and their callbacks.
 *
 * Each handle keeps its attributes in a list (c->attrs, newest first) under c->attr_lock, a
 * leaf lock. User callbacks never run with the lock held (they may call MPI on the same
 * communicator), so each operation looks up under the lock, runs the callback unlocked, then
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

/* The node of kv in c's list, or NULL; the caller holds c->attr_lock. */
static struct loom_attr_list *find(struct loom_comm *c, struct loom_keyval *kv)
{
    for (struct loom_attr_list *a = c->attrs; a != NULL; a = a->next)
        if (a->kv == kv)
            return a;
    return NULL;
}

/* Run kv's delete callback on val; 0 or the callback's error code. */
static int run_delete(struct loom_comm *c, struct loom_keyval *kv, void *val)
{
    if (kv->delete_fn == NULL)
        return 0;
    int rc = kv->delete_fn(loom__comm_user_handle(c), kv->id, val, kv->extra_state);
    return rc == MPI_SUCCESS ? 0 : rc;
}

int loom__attr_get(struct loom_comm *c, struct loom_keyval *kv, void **val, int *flag)
{
    pthread_mutex_lock(&c->attr_lock);
    struct loom_attr_list *a = find(c, kv);
    *flag = a != NULL;
    if (a != NULL)
        *val = a->val;
    pthread_mutex_unlock(&c->attr_lock);
    return 0;
}

int loom__attr_set(struct loom_comm *c, struct loom_keyval *kv, void *val)
{
    /* Allocated up front so that nothing can fail after the old value is deleted. */
    struct loom_attr_list *node = malloc(sizeof *node); /* freed when the attr is deleted */
    if (node == NULL)
        return LOOM_ERR_NOMEM;
    pthread_mutex_lock(&c->attr_lock);
    struct loom_attr_list *a = find(c, kv);
    void *old = a ? a->val : NULL;
    pthread_mutex_unlock(&c->attr_lock);
    if (a != NULL) {
        int rc = run_delete(c, kv, old);
        if (rc != 0) {
            free(node);
            return rc;
        }
    }
    pthread_mutex_lock(&c->attr_lock);
    a = find(c, kv);
    if (a != NULL) {
        a->val = val;
        free(node);
    } else {
        node->kv = kv;
        node->val = val;
        node->next = c->attrs;
        c->attrs = node;
    }
    pthread_mutex_unlock(&c->attr_lock);
    return 0;
}

/* Unlink and free kv's node if present; returns 1 if it was there. */
static int unlink_kv(struct loom_comm *c, struct loom_keyval *kv)
{
    pthread_mutex_lock(&c->attr_lock);
    struct loom_attr_list **pp = &c->attrs;
    while (*pp != NULL && (*pp)->kv != kv)
        pp = &(*pp)->next;
    struct loom_attr_list *a = *pp;
    if (a != NULL)
        *pp = a->next;
    pthread_mutex_unlock(&c->attr_lock);
    free(a);
    return a != NULL;
}

int loom__attr_delete(struct loom_comm *c, struct loom_keyval *kv)
{
    pthread_mutex_lock(&c->attr_lock);
    struct loom_attr_list *a = find(c, kv);
    void *val = a ? a->val : NULL;
    pthread_mutex_unlock(&c->attr_lock);
    if (a == NULL)
        return 0; /* nothing cached: deleting is a no-op, as in MPICH */
    int rc = run_delete(c, kv, val);
    if (rc != 0)
        return rc; /* the attribute stays, as the callback refused */
    unlink_kv(c, kv);
    return 0;
}

int loom__attr_delete_all(struct loom_comm *c)
{
    for (;;) {
        pthread_mutex_lock(&c->attr_lock);
        struct loom_attr_list *a = c->attrs;
        struct loom_keyval *kv = a ? a->kv : NULL;
        void *val = a ? a->val : NULL;
        pthread_mutex_unlock(&c->attr_lock);
        if (a == NULL)
            return 0;
        int rc = run_delete(c, kv, val);
        if (rc != 0)
            return rc;
        unlink_kv(c, kv);
    }
}

int loom__attr_copy_all(struct loom_comm *src, MPI_Comm src_handle, struct loom_comm *dst)
{
    /* Snapshot src's list (oldest first, so dst keeps the same order), then call the copy
     * callbacks unlocked. */
    pthread_mutex_lock(&src->attr_lock);
    size_t n = 0;
    for (struct loom_attr_list *a = src->attrs; a != NULL; a = a->next)
        n++;
    struct loom_attr_list *snap = n ? malloc(n * sizeof *snap) : NULL; /* freed below */
    if (n > 0 && snap == NULL) {
        pthread_mutex_unlock(&src->attr_lock);
        return LOOM_ERR_NOMEM;
    }
    size_t i = n;
    for (struct loom_attr_list *a = src->attrs; a != NULL; a = a->next)
        snap[--i] = *a;
    pthread_mutex_unlock(&src->attr_lock);

    int rc = 0;
    for (i = 0; i < n && rc == 0; i++) {
        struct loom_keyval *kv = snap[i].kv;
        if (kv->copy_fn == NULL)
            continue;
        void *out = NULL;
        int flag = 0;
        int r = kv->copy_fn(src_handle, kv->id, kv->extra_state, snap[i].val, &out, &flag);
        if (r != MPI_SUCCESS)
            rc = r;
        else if (flag)
            rc = loom__attr_set(dst, kv, out);
    }
    free(snap);
    if (rc != 0)
        loom__attr_delete_all(dst); /* best effort: dst is about to be freed */
    return rc;
}
