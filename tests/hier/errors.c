/* errors.c — bad input to the hierarchical calls gives the right error class (under
 * MPI_ERRORS_RETURN) and leaves the outputs alone or null:
 *   MPI_Comm_split_type: a split type that is none (MPI_ERR_ARG);
 *   MPIX_Comm_get_min_hlevel: duplicate or out-of-range ranks (MPI_ERR_RANK), a negative
 *     count or NULL pointers (MPI_ERR_ARG), a bad communicator (MPI_ERR_COMM);
 *   MPIX_Comm_get_hlevel_info: a communicator no hardware split made, NULL outputs
 *     (MPI_ERR_ARG), MPI_COMM_NULL (MPI_ERR_COMM);
 *   MPIX_Comm_hsplit_with_roots: MPI_COMM_NULL (MPI_ERR_COMM), NULL outputs (MPI_ERR_ARG), a
 *     freed info (MPI_ERR_INFO). */
#include "hier_check.h"

#define EXPECT_CLASS(call, want)                                                               \
    do {                                                                                       \
        int rc_ = (call), cls_;                                                                \
        OK(MPI_Error_class(rc_, &cls_));                                                       \
        if (cls_ != (want)) {                                                                  \
            fprintf(stderr, "%s:%d: %s gave class %d, expected %d (%s)\n", __FILE__, __LINE__, \
                    #call, cls_, (want), #want);                                               \
            _exit(99);                                                                         \
        }                                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int n, me = world_rank(), len;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    char t[MPI_MAX_INFO_VAL + 1];
    MPI_Comm c = MPI_COMM_WORLD, r = MPI_COMM_WORLD;

    EXPECT_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &c), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, -7, 0, MPI_INFO_NULL, &c), MPI_ERR_ARG);

    int dup[3] = {me, (me + 1) % n, me};
    EXPECT_CLASS(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, 3, dup, t, &len), MPI_ERR_RANK);
    int out[2] = {me, n};
    EXPECT_CLASS(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, 2, out, t, &len), MPI_ERR_RANK);
    out[1] = -1;
    EXPECT_CLASS(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, 2, out, t, &len), MPI_ERR_RANK);
    EXPECT_CLASS(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, -1, dup, t, &len), MPI_ERR_ARG);
    EXPECT_CLASS(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, 2, NULL, t, &len), MPI_ERR_ARG);
    EXPECT_CLASS(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, 1, &me, NULL, &len), MPI_ERR_ARG);
    EXPECT_CLASS(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, 1, &me, t, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPIX_Comm_get_min_hlevel(MPI_COMM_NULL, 1, &me, t, &len), MPI_ERR_COMM);
    /* an empty list does not hold the caller */
    OK(MPIX_Comm_get_min_hlevel(MPI_COMM_WORLD, 0, NULL, t, &len));
    CHECK_STR(t, "Unknown");

    int num, idx;
    EXPECT_CLASS(MPIX_Comm_get_hlevel_info(MPI_COMM_WORLD, &num, &idx, t, &len), MPI_ERR_ARG);
    EXPECT_CLASS(MPIX_Comm_get_hlevel_info(MPI_COMM_SELF, &num, &idx, t, &len), MPI_ERR_ARG);
    EXPECT_CLASS(MPIX_Comm_get_hlevel_info(MPI_COMM_NULL, &num, &idx, t, &len), MPI_ERR_COMM);

    EXPECT_CLASS(MPIX_Comm_hsplit_with_roots(MPI_COMM_NULL, MPI_INFO_NULL, &c, &r), MPI_ERR_COMM);
    EXPECT_CLASS(MPIX_Comm_hsplit_with_roots(MPI_COMM_WORLD, MPI_INFO_NULL, NULL, &r),
                 MPI_ERR_ARG);
    EXPECT_CLASS(MPIX_Comm_hsplit_with_roots(MPI_COMM_WORLD, MPI_INFO_NULL, &c, NULL),
                 MPI_ERR_ARG);
    MPI_Info info;
    OK(MPI_Info_create(&info));
    MPI_Info stale = info;
    OK(MPI_Info_free(&info));
    EXPECT_CLASS(MPIX_Comm_hsplit_with_roots(MPI_COMM_WORLD, stale, &c, &r), MPI_ERR_INFO);

    /* a good split still works after all that, and its level answers; NULL outputs do not */
    OK(MPIX_Comm_hsplit_with_roots(MPI_COMM_WORLD, MPI_INFO_NULL, &c, &r));
    if (c != MPI_COMM_NULL) {
        OK(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
        EXPECT_CLASS(MPIX_Comm_get_hlevel_info(c, NULL, &idx, t, &len), MPI_ERR_ARG);
        EXPECT_CLASS(MPIX_Comm_get_hlevel_info(c, &num, NULL, t, &len), MPI_ERR_ARG);
        EXPECT_CLASS(MPIX_Comm_get_hlevel_info(c, &num, &idx, NULL, &len), MPI_ERR_ARG);
        EXPECT_CLASS(MPIX_Comm_get_hlevel_info(c, &num, &idx, t, NULL), MPI_ERR_ARG);
        MPI_Comm stalec = c;
        OK(MPI_Comm_free(&c));
        EXPECT_CLASS(MPIX_Comm_get_hlevel_info(stalec, &num, &idx, t, &len), MPI_ERR_COMM);
    }
    if (r != MPI_COMM_NULL)
        OK(MPI_Comm_free(&r));
    OK(MPI_Finalize());
    return 0;
}
