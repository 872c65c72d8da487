/* constructors.c — communicators made from an intercommunicator are intercommunicators
 * (MPI_Comm_dup, MPI_Comm_split, MPI_Comm_create); MPI_Comm_compare, MPI_Comm_group (the
 * local group), attributes and names on one; MPI_Barrier across the two groups. */
#include <stdatomic.h>
#include <stdlib.h>
#include "inter_util.h"

/* The world ranks of a group, in its order (translated through world's group). */
static int *world_ranks(MPI_Group g, int *n)
{
    MPI_Group wg;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    OK(MPI_Group_size(g, n));
    int *in = malloc(sizeof *in * (size_t)*n), *out = malloc(sizeof *out * (size_t)*n);
    CHECK(in && out);
    for (int i = 0; i < *n; i++)
        in[i] = i;
    OK(MPI_Group_translate_ranks(g, *n, in, wg, out));
    OK(MPI_Group_free(&wg));
    free(in);
    return out;
}

/* c's local and remote groups are the world ranks want_local[0..nl) and want_remote[0..nr). */
static void check_groups(MPI_Comm c, const int *want_local, int nl, const int *want_remote,
                         int nr)
{
    MPI_Group g;
    int n;
    OK(MPI_Comm_group(c, &g));
    int *w = world_ranks(g, &n);
    CHECK_INT(n, nl);
    for (int i = 0; i < n; i++)
        CHECK_INT(w[i], want_local[i]);
    free(w);
    OK(MPI_Group_free(&g));
    OK(MPI_Comm_remote_group(c, &g));
    w = world_ranks(g, &n);
    CHECK_INT(n, nr);
    for (int i = 0; i < n; i++)
        CHECK_INT(w[i], want_remote[i]);
    free(w);
    OK(MPI_Group_free(&g));
    int size;
    OK(MPI_Comm_size(c, &size));
    CHECK_INT(size, nl);
    OK(MPI_Comm_remote_size(c, &size));
    CHECK_INT(size, nr);
}

/* One message each way between local rank 0 and remote rank 0 (a communicator works). */
static void exchange0(MPI_Comm c, int high, int lrank, int tag)
{
    if (lrank != 0)
        return;
    int v = high, got = -1;
    OK(MPI_Sendrecv(&v, 1, MPI_INT, 0, tag, &got, 1, MPI_INT, 0, tag, c, MPI_STATUS_IGNORE));
    CHECK_INT(got, !high);
}

static int copies;
static int copy_fn(MPI_Comm c, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)kv, (void)extra;
    *(void **)out = in;
    *flag = 1;
    __atomic_add_fetch(&copies, 1, __ATOMIC_RELAXED);
    return MPI_SUCCESS;
}

static void check_dup(struct halves *h)
{
    int kv;
    OK(MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
    OK(MPI_Comm_set_attr(h->inter, kv, (void *)(size_t)(100 + h->lrank)));
    OK(MPI_Comm_set_name(h->inter, "halves"));
    int before = __atomic_load_n(&copies, __ATOMIC_RELAXED);
    MPI_Comm d;
    OK(MPI_Comm_dup(h->inter, &d));
    CHECK(__atomic_load_n(&copies, __ATOMIC_RELAXED) > before);
    int flag = 0, rank;
    OK(MPI_Comm_test_inter(d, &flag));
    CHECK_INT(flag, 1);
    OK(MPI_Comm_rank(d, &rank));
    CHECK_INT(rank, h->lrank);
    void *val;
    OK(MPI_Comm_get_attr(d, kv, &val, &flag));
    CHECK_INT(flag, 1);
    CHECK_INT((size_t)val, 100 + h->lrank);
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    OK(MPI_Comm_get_name(d, name, &len));
    CHECK_INT(len, 0); /* names are not copied */
    OK(MPI_Comm_get_name(h->inter, name, &len));
    CHECK_STR(name, "halves");
    int cmp;
    OK(MPI_Comm_compare(h->inter, d, &cmp));
    CHECK_INT(cmp, MPI_CONGRUENT);
    OK(MPI_Comm_compare(d, d, &cmp));
    CHECK_INT(cmp, MPI_IDENT);
    OK(MPI_Comm_compare(h->inter, h->local, &cmp));
    CHECK_INT(cmp, MPI_UNEQUAL);
    OK(MPI_Comm_compare(h->inter, MPI_COMM_WORLD, &cmp));
    CHECK_INT(cmp, MPI_UNEQUAL);

    /* a message on the dup does not match a receive on the original: the receive on the
     * original, posted first, takes the second message */
    if (h->lrank == 0) {
        int a = 1, b = 2, got1 = 0, got2 = 0;
        if (!h->high) {
            OK(MPI_Send(&a, 1, MPI_INT, 0, 4, d));
            OK(MPI_Send(&b, 1, MPI_INT, 0, 4, h->inter));
        } else {
            MPI_Request r;
            OK(MPI_Irecv(&got2, 1, MPI_INT, 0, 4, h->inter, &r));
            OK(MPI_Recv(&got1, 1, MPI_INT, 0, 4, d, MPI_STATUS_IGNORE));
            OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
            CHECK_INT(got1, 1);
            CHECK_INT(got2, 2);
        }
    }
    MPI_Comm d2;
    OK(MPI_Comm_dup_with_info(d, MPI_INFO_NULL, &d2));
    OK(MPI_Comm_compare(d2, h->inter, &cmp));
    CHECK_INT(cmp, MPI_CONGRUENT);
    exchange0(d2, h->high, h->lrank, 8);
    OK(MPI_Comm_free(&d2));
    OK(MPI_Comm_free(&d));
    OK(MPI_Comm_delete_attr(h->inter, kv));
    OK(MPI_Comm_free_keyval(&kv));
}

/* Split by parity of the local rank, keys reversing the order: each side's colour-c group
 * is its ranks of that parity, highest first. A colour present on one side only gives
 * MPI_COMM_NULL. */
static void check_split(struct halves *h)
{
    int color = h->lrank % 2;
    MPI_Comm s;
    OK(MPI_Comm_split(h->inter, color, -h->lrank, &s));
    int nl = 0, nr = 0;
    int *wl = malloc(sizeof *wl * (size_t)h->n), *wr = malloc(sizeof *wr * (size_t)h->n);
    CHECK(wl && wr);
    for (int r = h->lsize - 1; r >= 0; r--)
        if (r % 2 == color)
            wl[nl++] = half_world(h, h->high, r);
    for (int r = h->rsize - 1; r >= 0; r--)
        if (r % 2 == color)
            wr[nr++] = half_world(h, !h->high, r);
    if (nr == 0) {
        CHECK(s == MPI_COMM_NULL);
    } else {
        CHECK(s != MPI_COMM_NULL);
        int flag = 0, rank;
        OK(MPI_Comm_test_inter(s, &flag));
        CHECK_INT(flag, 1);
        check_groups(s, wl, nl, wr, nr);
        OK(MPI_Comm_rank(s, &rank));
        CHECK_INT(wl[rank], world_rank());
        exchange0(s, h->high, rank, 11);
        OK(MPI_Comm_free(&s));
    }
    free(wl);
    free(wr);
    /* MPI_UNDEFINED everywhere on one side: nobody gets a communicator */
    OK(MPI_Comm_split(h->inter, h->high ? MPI_UNDEFINED : 0, 0, &s));
    CHECK(s == MPI_COMM_NULL);
}

/* Create with the local group minus its rank 0 (when more than one): the remote group is
 * what the other side passed. */
static void check_create(struct halves *h)
{
    MPI_Group lg, sub;
    OK(MPI_Comm_group(h->inter, &lg));
    int zero = 0;
    int drop = h->lsize > 1;
    OK(MPI_Group_excl(lg, drop, &zero, &sub));
    MPI_Comm c;
    OK(MPI_Comm_create(h->inter, sub, &c));
    int rdrop = h->rsize > 1;
    if (drop && h->lrank == 0) {
        CHECK(c == MPI_COMM_NULL);
    } else {
        CHECK(c != MPI_COMM_NULL);
        int nl = h->lsize - drop, nr = h->rsize - rdrop;
        int *wl = malloc(sizeof *wl * (size_t)nl), *wr = malloc(sizeof *wr * (size_t)nr);
        CHECK(wl && wr);
        for (int i = 0; i < nl; i++)
            wl[i] = half_world(h, h->high, i + drop);
        for (int i = 0; i < nr; i++)
            wr[i] = half_world(h, !h->high, i + rdrop);
        check_groups(c, wl, nl, wr, nr);
        int rank;
        OK(MPI_Comm_rank(c, &rank));
        exchange0(c, h->high, rank, 12);
        free(wl);
        free(wr);
        OK(MPI_Comm_free(&c));
    }
    OK(MPI_Group_free(&sub));
    /* an empty group on one side: MPI_COMM_NULL on both */
    OK(MPI_Comm_create(h->inter, h->high ? MPI_GROUP_EMPTY : lg, &c));
    CHECK(c == MPI_COMM_NULL);
    OK(MPI_Group_free(&lg));
}

/* MPI_Intercomm_create with an intercommunicator as peer_comm (remote_leader names its
 * remote group), and leaders other than rank 0: the same groups again. */
static void check_peer_inter(struct halves *h)
{
    MPI_Comm ic;
    OK(MPI_Intercomm_create(h->local, h->lsize - 1, h->inter, h->rsize - 1, 77, &ic));
    int cmp;
    OK(MPI_Comm_compare(ic, h->inter, &cmp));
    CHECK_INT(cmp, MPI_CONGRUENT);
    exchange0(ic, h->high, h->lrank, 13);
    OK(MPI_Comm_free(&ic));
}

/* Every rank adds one before each barrier: after the k-th barrier on the intercommunicator,
 * every rank of both groups has added k. */
static atomic_int arrived;
static void check_barrier(struct halves *h)
{
    for (int k = 1; k <= 3; k++) {
        atomic_fetch_add(&arrived, 1);
        if (k == 2) {
            MPI_Request r;
            OK(MPI_Ibarrier(h->inter, &r));
            OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        } else {
            OK(MPI_Barrier(h->inter));
        }
        CHECK(atomic_load(&arrived) >= k * h->n);
        OK(MPI_Barrier(h->inter)); /* nobody starts the next round before all have checked */
    }
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    if (world_size() >= 2) {
        struct halves h;
        halves_make(&h, 3);
        int *wl = malloc(sizeof *wl * (size_t)h.n), *wr = malloc(sizeof *wr * (size_t)h.n);
        CHECK(wl && wr);
        for (int i = 0; i < h.lsize; i++)
            wl[i] = half_world(&h, h.high, i);
        for (int i = 0; i < h.rsize; i++)
            wr[i] = half_world(&h, !h.high, i);
        check_groups(h.inter, wl, h.lsize, wr, h.rsize);
        free(wl);
        free(wr);
        check_dup(&h);
        check_split(&h);
        check_create(&h);
        check_barrier(&h);
        check_peer_inter(&h);
        halves_free(&h);
    }
    OK(MPI_Finalize());
    return 0;
}
