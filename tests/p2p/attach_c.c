/* The big-count forms of the buffer calls beyond INT_MAX (MPI 4.1 sections 3.6 and 2.5.8): a
 * buffer of 3 GiB (malloc'd; only its first bytes are ever written) attached with
 * MPI_Buffer_attach_c, MPI_Comm_attach_buffer_c and MPI_Session_attach_buffer_c carries
 * buffered sends; the int detach calls refuse it with MPI_ERR_VALUE_TOO_LARGE and leave it
 * attached (a send still goes through it); the _c detach calls give back its address and its
 * full size. Rank 0 does the big attaches; every rank takes part in the exchanges. */
#include "p2p_check.h"

#define HUGE_SIZE ((MPI_Count)3 << 30)

/* One int to partner through whatever buffer a buffered send on c uses, then back. */
static void exchange(MPI_Comm c, int rank, int peer, int tag)
{
    int out = rank * 10 + tag, in = -1;
    OK(MPI_Bsend(&out, 1, MPI_INT, peer, tag, c));
    OK(MPI_Recv(&in, 1, MPI_INT, peer, tag, c, MPI_STATUS_IGNORE));
    CHECK_INT(in, peer * 10 + tag);
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    MPI_Comm dup;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    OK(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
    MPI_Session ses;
    OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &ses));
    MPI_Group g;
    OK(MPI_Group_from_session_pset(ses, "mpi://WORLD", &g));
    MPI_Comm sc;
    OK(MPI_Comm_create_from_group(g, "loom.test.attach_c", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                  &sc));
    char small[4096];
    char *huge = rank == 0 ? malloc((size_t)HUGE_SIZE) : small;
    CHECK(huge != NULL);
    const MPI_Count sz = rank == 0 ? HUGE_SIZE : (MPI_Count)sizeof small;
    void *got;
    int got_size = -1;
    MPI_Count cgot = -1;

    /* the rank's */
    OK(MPI_Buffer_attach_c(huge, sz));
    exchange(MPI_COMM_WORLD, rank, peer, 1);
    if (rank == 0) {
        FAILS(MPI_Buffer_detach(&got, &got_size), MPI_ERR_VALUE_TOO_LARGE);
        CHECK_INT(got_size, -1);
    }
    exchange(MPI_COMM_WORLD, rank, peer, 2); /* still attached */
    OK(MPI_Buffer_detach_c(&got, &cgot));
    CHECK(got == huge);
    CHECK(cgot == sz);

    /* a communicator's */
    OK(MPI_Comm_attach_buffer_c(dup, huge, sz));
    exchange(dup, rank, peer, 3);
    if (rank == 0)
        FAILS(MPI_Comm_detach_buffer(dup, &got, &got_size), MPI_ERR_VALUE_TOO_LARGE);
    exchange(dup, rank, peer, 4);
    OK(MPI_Comm_detach_buffer_c(dup, &got, &cgot));
    CHECK(got == huge);
    CHECK(cgot == sz);

    /* a session's */
    OK(MPI_Session_attach_buffer_c(ses, huge, sz));
    exchange(sc, rank, peer, 5);
    if (rank == 0)
        FAILS(MPI_Session_detach_buffer(ses, &got, &got_size), MPI_ERR_VALUE_TOO_LARGE);
    exchange(sc, rank, peer, 6);
    OK(MPI_Session_detach_buffer_c(ses, &got, &cgot));
    CHECK(got == huge);
    CHECK(cgot == sz);

    OK(MPI_Comm_free(&sc));
    OK(MPI_Group_free(&g));
    OK(MPI_Session_finalize(&ses));
    OK(MPI_Comm_free(&dup));
    if (rank == 0)
        free(huge);
    OK(MPI_Finalize());
    return 0;
}
