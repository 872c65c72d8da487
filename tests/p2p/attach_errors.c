/* Bad input to the buffer calls of MPI 4.1 section 3.6, under MPI_ERRORS_RETURN (the
 * communicators', the session's and MPI_COMM_SELF's, which takes an invalid session's), and
 * their big-count forms on ordinary sizes:
 *   MPI_ERR_COMM     MPI_COMM_NULL or a freed communicator (attach, detach, flush, iflush)
 *   MPI_ERR_SESSION  MPI_SESSION_NULL (the same four)
 *   MPI_ERR_ARG      a negative size; a NULL buffer_addr or size to detach; a NULL request
 *   MPI_ERR_BUFFER   a NULL buffer with a positive size; a second attach to the same
 *                    communicator, session or rank; a detach with nothing attached; a
 *                    buffered send with no buffer attached anywhere
 * A NULL buffer of size 0 attaches (and gives NULL, 0 back). Each _c call gives what its int
 * twin gives, whichever form attached. The job goes on after each error. */
#include "p2p_check.h"

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    char buf[1000];
    void *got;
    int got_size;
    MPI_Count cgot;
    MPI_Request req;
    MPI_Comm dup, stale;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    OK(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
    OK(MPI_Comm_dup(dup, &stale));
    MPI_Comm freed = stale;
    OK(MPI_Comm_free(&stale));
    MPI_Session ses;
    OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &ses));

    /* invalid communicator or session */
    const MPI_Comm bad[2] = {MPI_COMM_NULL, freed};
    for (int i = 0; i < 2; i++) {
        FAILS(MPI_Comm_attach_buffer(bad[i], buf, 100), MPI_ERR_COMM);
        FAILS(MPI_Comm_attach_buffer_c(bad[i], buf, 100), MPI_ERR_COMM);
        FAILS(MPI_Comm_detach_buffer(bad[i], &got, &got_size), MPI_ERR_COMM);
        FAILS(MPI_Comm_detach_buffer_c(bad[i], &got, &cgot), MPI_ERR_COMM);
        FAILS(MPI_Comm_flush_buffer(bad[i]), MPI_ERR_COMM);
        FAILS(MPI_Comm_iflush_buffer(bad[i], &req), MPI_ERR_COMM);
    }
    FAILS(MPI_Session_attach_buffer(MPI_SESSION_NULL, buf, 100), MPI_ERR_SESSION);
    FAILS(MPI_Session_attach_buffer_c(MPI_SESSION_NULL, buf, 100), MPI_ERR_SESSION);
    FAILS(MPI_Session_detach_buffer(MPI_SESSION_NULL, &got, &got_size), MPI_ERR_SESSION);
    FAILS(MPI_Session_detach_buffer_c(MPI_SESSION_NULL, &got, &cgot), MPI_ERR_SESSION);
    FAILS(MPI_Session_flush_buffer(MPI_SESSION_NULL), MPI_ERR_SESSION);
    FAILS(MPI_Session_iflush_buffer(MPI_SESSION_NULL, &req), MPI_ERR_SESSION);

    /* sizes and buffers */
    FAILS(MPI_Comm_attach_buffer(dup, buf, -1), MPI_ERR_ARG);
    FAILS(MPI_Comm_attach_buffer_c(dup, buf, -1), MPI_ERR_ARG);
    FAILS(MPI_Session_attach_buffer(ses, buf, -1), MPI_ERR_ARG);
    FAILS(MPI_Session_attach_buffer_c(ses, buf, -1), MPI_ERR_ARG);
    FAILS(MPI_Buffer_attach(buf, -1), MPI_ERR_ARG);
    FAILS(MPI_Buffer_attach_c(buf, -1), MPI_ERR_ARG);
    FAILS(MPI_Comm_attach_buffer(dup, NULL, 10), MPI_ERR_BUFFER);
    FAILS(MPI_Session_attach_buffer(ses, NULL, 10), MPI_ERR_BUFFER);
    FAILS(MPI_Buffer_attach_c(NULL, 10), MPI_ERR_BUFFER);
    OK(MPI_Comm_attach_buffer(dup, NULL, 0));
    OK(MPI_Comm_detach_buffer(dup, &got, &got_size));
    CHECK(got == NULL);
    CHECK_INT(got_size, 0);

    /* nothing attached */
    FAILS(MPI_Comm_detach_buffer(dup, &got, &got_size), MPI_ERR_BUFFER);
    FAILS(MPI_Comm_detach_buffer_c(dup, &got, &cgot), MPI_ERR_BUFFER);
    FAILS(MPI_Session_detach_buffer(ses, &got, &got_size), MPI_ERR_BUFFER);
    FAILS(MPI_Session_detach_buffer_c(ses, &got, &cgot), MPI_ERR_BUFFER);
    FAILS(MPI_Buffer_detach(&got, &got_size), MPI_ERR_BUFFER);
    FAILS(MPI_Buffer_detach_c(&got, &cgot), MPI_ERR_BUFFER);
    FAILS(MPI_Bsend(buf, 10, MPI_BYTE, peer, 0, dup), MPI_ERR_BUFFER);
    OK(MPI_Comm_flush_buffer(dup)); /* nothing to wait for */
    OK(MPI_Session_flush_buffer(ses));
    int flag = 0;
    OK(MPI_Comm_iflush_buffer(dup, &req));
    OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 1);
    flag = 0;
    OK(MPI_Session_iflush_buffer(ses, &req));
    OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
    CHECK_INT(flag, 1);

    /* NULL results and requests */
    OK(MPI_Comm_attach_buffer(dup, buf, 100));
    OK(MPI_Session_attach_buffer(ses, buf, 100)); /* never used at once: only attached */
    FAILS(MPI_Comm_detach_buffer(dup, NULL, &got_size), MPI_ERR_ARG);
    FAILS(MPI_Comm_detach_buffer(dup, &got, NULL), MPI_ERR_ARG);
    FAILS(MPI_Comm_detach_buffer_c(dup, &got, NULL), MPI_ERR_ARG);
    FAILS(MPI_Session_detach_buffer(ses, NULL, &got_size), MPI_ERR_ARG);
    FAILS(MPI_Session_detach_buffer_c(ses, &got, NULL), MPI_ERR_ARG);
    FAILS(MPI_Buffer_detach(NULL, &got_size), MPI_ERR_ARG);
    FAILS(MPI_Comm_iflush_buffer(dup, NULL), MPI_ERR_ARG);
    FAILS(MPI_Session_iflush_buffer(ses, NULL), MPI_ERR_ARG);

    /* a second attach */
    FAILS(MPI_Comm_attach_buffer(dup, buf, 100), MPI_ERR_BUFFER);
    FAILS(MPI_Comm_attach_buffer_c(dup, MPI_BUFFER_AUTOMATIC, 0), MPI_ERR_BUFFER);
    FAILS(MPI_Session_attach_buffer(ses, buf, 100), MPI_ERR_BUFFER);
    OK(MPI_Buffer_attach(buf + 500, 100));
    FAILS(MPI_Buffer_attach(buf, 100), MPI_ERR_BUFFER);

    /* the _c forms give what the int forms give: attach with one, detach with the other */
    OK(MPI_Comm_detach_buffer_c(dup, &got, &cgot));
    CHECK(got == buf);
    CHECK(cgot == 100);
    OK(MPI_Comm_attach_buffer_c(dup, buf + 1, 99));
    OK(MPI_Comm_detach_buffer(dup, &got, &got_size));
    CHECK(got == buf + 1);
    CHECK_INT(got_size, 99);
    OK(MPI_Session_detach_buffer_c(ses, &got, &cgot));
    CHECK(got == buf);
    CHECK(cgot == 100);
    OK(MPI_Session_attach_buffer_c(ses, buf + 2, 98));
    OK(MPI_Session_detach_buffer(ses, &got, &got_size));
    CHECK(got == buf + 2);
    CHECK_INT(got_size, 98);
    OK(MPI_Buffer_detach_c(&got, &cgot));
    CHECK(got == buf + 500);
    CHECK(cgot == 100);
    OK(MPI_Buffer_attach_c(buf + 3, 97));
    OK(MPI_Buffer_detach(&got, &got_size));
    CHECK(got == buf + 3);
    CHECK_INT(got_size, 97);

    /* still working: an exchange through a communicator's buffer */
    OK(MPI_Comm_attach_buffer(dup, buf, (int)sizeof buf));
    int out = rank + 1, in = -1;
    OK(MPI_Bsend(&out, 1, MPI_INT, peer, 3, dup));
    OK(MPI_Recv(&in, 1, MPI_INT, peer, 3, dup, MPI_STATUS_IGNORE));
    CHECK_INT(in, peer + 1);
    OK(MPI_Comm_free(&dup)); /* detaches */
    OK(MPI_Session_finalize(&ses));
    OK(MPI_Finalize());
    return 0;
}
