/* errors.c — bad input to the intercommunicator calls under MPI_ERRORS_RETURN: each returns
 * its class (MPI_ERR_COMM where an intercommunicator is required and an intracommunicator
 * given, and the other way round; MPI_ERR_RANK for bad leaders and ranks of the remote group;
 * MPI_ERR_TAG; MPI_ERR_ARG for NULL outputs; MPI_ERR_GROUP for a group outside the local
 * group). The leaders' own arguments are tried with MPI_COMM_SELF as the local group, so no
 * other rank waits for a leader that gave up. */
#include <string.h>
#include "inter_util.h"

static void create_errors(void)
{
    MPI_Comm c = MPI_COMM_WORLD;
    int me = world_rank(), n = world_size();
    MPI_Comm not_a_comm = (MPI_Comm)&n; /* memory that is no loom object */
    CHECK_INT(MPI_Intercomm_create(MPI_COMM_NULL, 0, MPI_COMM_WORLD, 0, 0, &c), MPI_ERR_COMM);
    CHECK(c == MPI_COMM_WORLD); /* untouched when the arguments are refused */
    CHECK_INT(MPI_Intercomm_create(not_a_comm, 0, MPI_COMM_WORLD, 0, 0, &c), MPI_ERR_COMM);
    CHECK_INT(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, 0, 0, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Intercomm_create(MPI_COMM_SELF, 1, MPI_COMM_WORLD, 0, 0, &c), MPI_ERR_RANK);
    CHECK_INT(MPI_Intercomm_create(MPI_COMM_SELF, -1, MPI_COMM_WORLD, 0, 0, &c), MPI_ERR_RANK);
    CHECK_INT(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, (me + 1) % n, -1, &c),
              MPI_ERR_TAG);
    CHECK_INT(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, (me + 1) % n, MPI_ANY_TAG,
                                   &c),
              MPI_ERR_TAG);
    /* the leader's checks: peer_comm and remote_leader */
    CHECK_INT(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_NULL, 0, 0, &c), MPI_ERR_COMM);
    CHECK(c == MPI_COMM_NULL);
    CHECK_INT(MPI_Intercomm_create(MPI_COMM_SELF, 0, not_a_comm, 0, 0, &c), MPI_ERR_COMM);
    CHECK_INT(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, n, 0, &c), MPI_ERR_RANK);
    CHECK_INT(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, -1, 0, &c), MPI_ERR_RANK);
    CHECK_INT(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, MPI_PROC_NULL, 0, &c),
              MPI_ERR_RANK);
    CHECK_INT(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, me, 0, &c), MPI_ERR_RANK);
    CHECK_INT(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_SELF, 0, 0, &c), MPI_ERR_RANK);
    /* a remote leader inside local_comm: every rank is its own local group's leader, the
     * others' errors come back through the rendezvous of local_comm = world */
    if (n >= 2) {
        int rc = MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, 1, 0, &c);
        CHECK_INT(rc, MPI_ERR_RANK);
        CHECK(c == MPI_COMM_NULL);
    }
}

/* Calls that need an intercommunicator, given an intracommunicator or none. */
static void need_inter(void)
{
    MPI_Comm c;
    MPI_Group g;
    int n;
    CHECK_INT(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &c), MPI_ERR_COMM);
    CHECK_INT(MPI_Intercomm_merge(MPI_COMM_NULL, 0, &c), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_remote_size(MPI_COMM_WORLD, &n), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_remote_size(MPI_COMM_SELF, &n), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_remote_size(MPI_COMM_NULL, &n), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_remote_group(MPI_COMM_WORLD, &g), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_remote_group(MPI_COMM_NULL, &g), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_test_inter(MPI_COMM_NULL, &n), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_test_inter(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
}

static void from_group_errors(void)
{
    MPI_Comm c;
    MPI_Group wg, self;
    int n = world_size(), me = world_rank();
    MPI_Info bad_info = (MPI_Info)&n;
    MPI_Group bad_group = (MPI_Group)&n;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    OK(MPI_Comm_group(MPI_COMM_SELF, &self));
    char long_tag[MPI_MAX_STRINGTAG_LEN + 2];
    memset(long_tag, 'x', sizeof long_tag - 1);
    long_tag[sizeof long_tag - 1] = '\0';
    const char *fn_tag = "loom.test.errors";
    CHECK_INT(MPI_Comm_create_from_group(MPI_GROUP_NULL, fn_tag, MPI_INFO_NULL,
                                         MPI_ERRORS_RETURN, &c), MPI_ERR_GROUP);
    CHECK_INT(MPI_Comm_create_from_group(bad_group, fn_tag, MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                         &c), MPI_ERR_GROUP);
    CHECK_INT(MPI_Comm_create_from_group(self, NULL, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c),
              MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_create_from_group(self, long_tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c),
              MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_create_from_group(self, fn_tag, bad_info, MPI_ERRORS_RETURN, &c),
              MPI_ERR_INFO);
    CHECK_INT(MPI_Comm_create_from_group(self, fn_tag, MPI_INFO_NULL, MPI_ERRHANDLER_NULL, &c),
              MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_create_from_group(self, fn_tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, NULL),
              MPI_ERR_ARG);
    /* intercommunicator: the local group must hold the caller, the remote one must not */
    CHECK_INT(MPI_Intercomm_create_from_groups(MPI_GROUP_NULL, 0, wg, 0, fn_tag, MPI_INFO_NULL,
                                               MPI_ERRORS_RETURN, &c), MPI_ERR_GROUP);
    CHECK_INT(MPI_Intercomm_create_from_groups(MPI_GROUP_EMPTY, 0, wg, 0, fn_tag,
                                               MPI_INFO_NULL, MPI_ERRORS_RETURN, &c),
              MPI_ERR_GROUP);
    CHECK_INT(MPI_Intercomm_create_from_groups(self, 0, MPI_GROUP_NULL, 0, fn_tag,
                                               MPI_INFO_NULL, MPI_ERRORS_RETURN, &c),
              MPI_ERR_GROUP);
    CHECK_INT(MPI_Intercomm_create_from_groups(self, 0, MPI_GROUP_EMPTY, 0, fn_tag,
                                               MPI_INFO_NULL, MPI_ERRORS_RETURN, &c),
              MPI_ERR_GROUP);
    CHECK_INT(MPI_Intercomm_create_from_groups(self, 0, wg, 0, fn_tag, MPI_INFO_NULL,
                                               MPI_ERRORS_RETURN, &c), MPI_ERR_GROUP);
    if (n >= 2) {
        MPI_Group other; /* world without me */
        OK(MPI_Group_excl(wg, 1, &me, &other));
        CHECK_INT(MPI_Comm_create_from_group(other, fn_tag, MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                             &c), MPI_ERR_GROUP);
        CHECK_INT(MPI_Intercomm_create_from_groups(self, 1, other, 0, fn_tag, MPI_INFO_NULL,
                                                   MPI_ERRORS_RETURN, &c), MPI_ERR_RANK);
        CHECK_INT(MPI_Intercomm_create_from_groups(self, -1, other, 0, fn_tag, MPI_INFO_NULL,
                                                   MPI_ERRORS_RETURN, &c), MPI_ERR_RANK);
        CHECK_INT(MPI_Intercomm_create_from_groups(self, 0, other, n - 1, fn_tag,
                                                   MPI_INFO_NULL, MPI_ERRORS_RETURN, &c),
                  MPI_ERR_RANK);
        CHECK_INT(MPI_Intercomm_create_from_groups(self, 0, other, 0, NULL, MPI_INFO_NULL,
                                                   MPI_ERRORS_RETURN, &c), MPI_ERR_ARG);
        CHECK_INT(MPI_Intercomm_create_from_groups(self, 0, other, 0, fn_tag, bad_info,
                                                   MPI_ERRORS_RETURN, &c), MPI_ERR_INFO);
        CHECK_INT(MPI_Intercomm_create_from_groups(self, 0, other, 0, fn_tag, MPI_INFO_NULL,
                                                   MPI_ERRHANDLER_NULL, &c), MPI_ERR_ARG);
        CHECK_INT(MPI_Intercomm_create_from_groups(self, 0, other, 0, fn_tag, MPI_INFO_NULL,
                                                   MPI_ERRORS_RETURN, NULL), MPI_ERR_ARG);
        if (n >= 3) { /* local {me, next} and remote {next, after}: they overlap */
            int next = (me + 1) % n, after = (me + 2) % n, l[2] = {me, next}, r[2] = {next, after};
            MPI_Group lg, rg;
            OK(MPI_Group_incl(wg, 2, l, &lg));
            OK(MPI_Group_incl(wg, 2, r, &rg));
            c = MPI_COMM_WORLD;
            CHECK_INT(MPI_Intercomm_create_from_groups(lg, 0, rg, 0, fn_tag, MPI_INFO_NULL,
                                                       MPI_ERRORS_RETURN, &c), MPI_ERR_GROUP);
            OK(MPI_Group_free(&lg));
            OK(MPI_Group_free(&rg));
        }
        OK(MPI_Group_free(&other));
    }
    OK(MPI_Group_free(&self));
    OK(MPI_Group_free(&wg));
}

static void idup_errors(void)
{
    MPI_Comm c;
    MPI_Request r;
    int n;
    MPI_Info bad_info = (MPI_Info)&n;
    CHECK_INT(MPI_Comm_idup(MPI_COMM_NULL, &c, &r), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_idup(MPI_COMM_WORLD, NULL, &r), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_idup(MPI_COMM_WORLD, &c, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_idup_with_info(MPI_COMM_NULL, MPI_INFO_NULL, &c, &r), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_idup_with_info(MPI_COMM_WORLD, bad_info, &c, &r), MPI_ERR_INFO);
    CHECK_INT(MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, NULL, &r), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &c, NULL), MPI_ERR_ARG);
}

/* Calls on an intercommunicator: bad outputs, ranks of the remote group, tags, and the
 * calls that need an intracommunicator. */
static void on_inter(struct halves *h)
{
    MPI_Comm c;
    MPI_Group g;
    MPI_Request r;
    MPI_Status st;
    int n, v = 0, buf[8] = {0};
    CHECK_INT(MPI_Intercomm_merge(h->inter, 0, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_remote_size(h->inter, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_remote_group(h->inter, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Intercomm_create(h->inter, 0, MPI_COMM_WORLD, 0, 0, &c), MPI_ERR_COMM);
    /* point-to-point: ranks name the remote group */
    CHECK_INT(MPI_Send(&v, 1, MPI_INT, h->rsize, 0, h->inter), MPI_ERR_RANK);
    CHECK_INT(MPI_Send(&v, 1, MPI_INT, -7, 0, h->inter), MPI_ERR_RANK);
    CHECK_INT(MPI_Isend(&v, 1, MPI_INT, h->rsize, 0, h->inter, &r), MPI_ERR_RANK);
    CHECK_INT(MPI_Ssend(&v, 1, MPI_INT, 0, -3, h->inter), MPI_ERR_TAG);
    CHECK_INT(MPI_Send(&v, 1, MPI_INT, 0, MPI_ANY_TAG, h->inter), MPI_ERR_TAG);
    CHECK_INT(MPI_Recv(&v, 1, MPI_INT, h->rsize, 0, h->inter, &st), MPI_ERR_RANK);
    CHECK_INT(MPI_Irecv(&v, 1, MPI_INT, h->rsize + 5, 0, h->inter, &r), MPI_ERR_RANK);
    CHECK_INT(MPI_Recv(&v, 1, MPI_INT, 0, -2, h->inter, &st), MPI_ERR_TAG);
    CHECK_INT(MPI_Probe(h->rsize, 0, h->inter, &st), MPI_ERR_RANK);
    CHECK_INT(MPI_Iprobe(0, -7, h->inter, &n, &st), MPI_ERR_TAG);
    /* a rank of the local group beyond the remote group's size is no destination */
    if (h->lsize > h->rsize)
        CHECK_INT(MPI_Send(&v, 1, MPI_INT, h->lsize - 1, 0, h->inter), MPI_ERR_RANK);
    /* constructors */
    CHECK_INT(MPI_Comm_split(h->inter, -5, 0, &c), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_split(h->inter, 0, 0, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_dup(h->inter, NULL), MPI_ERR_ARG);
    OK(MPI_Comm_remote_group(h->inter, &g)); /* not a subset of the local group */
    CHECK_INT(MPI_Comm_create(h->inter, g, &c), MPI_ERR_GROUP);
    CHECK_INT(MPI_Comm_create(h->inter, MPI_GROUP_NULL, &c), MPI_ERR_GROUP);
    CHECK_INT(MPI_Comm_create_group(h->inter, g, 0, &c), MPI_ERR_COMM);
    OK(MPI_Group_free(&g));
    CHECK_INT(MPI_Comm_split_type(h->inter, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c),
              MPI_ERR_COMM);
    /* collectives not defined (scan, exscan) or not available on an intercommunicator */
    CHECK_INT(MPI_Scan(&v, buf, 1, MPI_INT, MPI_SUM, h->inter), MPI_ERR_COMM);
    CHECK_INT(MPI_Exscan(&v, buf, 1, MPI_INT, MPI_SUM, h->inter), MPI_ERR_COMM);
    CHECK_INT(MPI_Iscan(&v, buf, 1, MPI_INT, MPI_SUM, h->inter, &r), MPI_ERR_COMM);
    CHECK_INT(MPI_Iexscan(&v, buf, 1, MPI_INT, MPI_SUM, h->inter, &r), MPI_ERR_COMM);
    MPI_Comm roots;
    CHECK_INT(MPIX_Comm_hsplit_with_roots(h->inter, MPI_INFO_NULL, &c, &roots), MPI_ERR_COMM);
    CHECK_INT(MPI_Ibarrier(h->inter, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_idup(h->inter, NULL, &r), MPI_ERR_ARG);
    CHECK_INT(MPI_Comm_idup(h->inter, &c, NULL), MPI_ERR_ARG);
    /* roots: MPI_ROOT, MPI_PROC_NULL or a rank of the remote group */
    CHECK_INT(MPI_Bcast(buf, 1, MPI_INT, h->rsize, h->inter), MPI_ERR_ROOT);
    CHECK_INT(MPI_Bcast(buf, 1, MPI_INT, -7, h->inter), MPI_ERR_ROOT);
    CHECK_INT(MPI_Ibcast(buf, 1, MPI_INT, 0, h->inter, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Reduce(&v, buf, 1, MPI_INT, MPI_SUM, MPI_ANY_SOURCE, h->inter), MPI_ERR_ROOT);
    CHECK_INT(MPI_Gather(&v, 1, MPI_INT, buf, 1, MPI_INT, h->rsize + 1, h->inter),
              MPI_ERR_ROOT);
    CHECK_INT(MPI_Scatter(buf, 1, MPI_INT, &v, 1, MPI_INT, -4, h->inter), MPI_ERR_ROOT);
    /* arguments significant at the root (MPI_ROOT) or at the other group's ranks */
    CHECK_INT(MPI_Gather(&v, 1, MPI_INT, buf, -1, MPI_INT, MPI_ROOT, h->inter), MPI_ERR_COUNT);
    CHECK_INT(MPI_Gatherv(&v, 1, MPI_INT, buf, NULL, buf, MPI_INT, MPI_ROOT, h->inter),
              MPI_ERR_ARG);
    CHECK_INT(MPI_Scatterv(buf, buf, NULL, MPI_INT, &v, 1, MPI_INT, MPI_ROOT, h->inter),
              MPI_ERR_ARG);
    CHECK_INT(MPI_Scatter(buf, 1, MPI_INT, &v, -1, MPI_INT, 0, h->inter), MPI_ERR_COUNT);
    CHECK_INT(MPI_Reduce(&v, buf, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_ROOT, h->inter),
              MPI_ERR_TYPE);
    CHECK_INT(MPI_Reduce(&v, buf, 1, MPI_INT, MPI_OP_NULL, 0, h->inter), MPI_ERR_OP);
    CHECK_INT(MPI_Allreduce(&v, buf, 1, MPI_INT, MPI_OP_NULL, h->inter), MPI_ERR_OP);
    /* no in-place forms on an intercommunicator */
    CHECK_INT(MPI_Allreduce(MPI_IN_PLACE, buf, 1, MPI_INT, MPI_SUM, h->inter), MPI_ERR_BUFFER);
    CHECK_INT(MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, buf, 1, MPI_INT, h->inter),
              MPI_ERR_BUFFER);
    CHECK_INT(MPI_Alltoall(MPI_IN_PLACE, 1, MPI_INT, buf, 1, MPI_INT, h->inter),
              MPI_ERR_BUFFER);
    CHECK_INT(MPI_Reduce_scatter_block(MPI_IN_PLACE, buf, 1, MPI_INT, MPI_SUM, h->inter),
              MPI_ERR_BUFFER);
    CHECK_INT(MPI_Iallreduce(MPI_IN_PLACE, buf, 1, MPI_INT, MPI_SUM, h->inter, &r),
              MPI_ERR_BUFFER);
    /* vector arguments are sized by the remote group: a negative count is found there */
    int counts[8] = {1, 1, 1, 1, 1, 1, 1, 1}, displs[8] = {0};
    counts[h->rsize - 1] = -1;
    CHECK_INT(MPI_Allgatherv(&v, 1, MPI_INT, buf, counts, displs, MPI_INT, h->inter),
              MPI_ERR_COUNT);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    create_errors();
    need_inter();
    idup_errors();
    from_group_errors();
    if (world_size() >= 2) {
        struct halves h;
        halves_make(&h, 1);
        on_inter(&h);
        /* after all these, the intercommunicator still works */
        OK(MPI_Barrier(h.inter));
        halves_free(&h);
    }
    OK(MPI_Finalize());
    return 0;
}
