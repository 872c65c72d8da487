/* MPI_Get_count and MPI_Get_elements(_x) on the statuses of real messages: counts in the
 * type sent and in others, MPI_UNDEFINED when the bytes are not whole elements of the type,
 * basic elements of a derived type (partial last element counted by Get_elements), zero-byte
 * messages, and the status of a send. */
#include "p2p_check.h"

static MPI_Status exchange(const void *out, int count, MPI_Datatype stype, void *in, int rcount,
                           MPI_Datatype rtype, int peer, int tag)
{
    MPI_Request req;
    MPI_Status st;
    OK(MPI_Isend(out, count, stype, peer, tag, MPI_COMM_WORLD, &req));
    OK(MPI_Recv(in, rcount, rtype, peer, tag, MPI_COMM_WORLD, &st));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    return st;
}

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    int rank = p2p_rank(), size = p2p_size(), peer = p2p_partner(rank, size);
    int out[10], in[10], count;
    MPI_Count xcount;
    for (int i = 0; i < 10; i++)
        out[i] = rank + i;
    MPI_Datatype four;
    OK(MPI_Type_contiguous(4, MPI_INT, &four));
    OK(MPI_Type_commit(&four));

    /* 10 ints received as ints */
    MPI_Status st = exchange(out, 10, MPI_INT, in, 10, MPI_INT, peer, 1);
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK_INT(count, 10);
    OK(MPI_Get_count(&st, MPI_SHORT, &count));
    CHECK_INT(count, 10 * (int)(sizeof(int) / sizeof(short)));
    OK(MPI_Get_count(&st, four, &count));
    CHECK_INT(count, MPI_UNDEFINED);
    OK(MPI_Get_elements(&st, four, &count));
    CHECK_INT(count, 10);
    OK(MPI_Get_elements_x(&st, four, &xcount));
    CHECK_INT(xcount, 10);

    /* 8 ints received as two "four"s */
    st = exchange(out, 8, MPI_INT, in, 2, four, peer, 2);
    OK(MPI_Get_count(&st, four, &count));
    CHECK_INT(count, 2);
    OK(MPI_Get_elements(&st, four, &count));
    CHECK_INT(count, 8);
    for (int i = 0; i < 8; i++)
        CHECK_INT(in[i], peer + i);

    /* 3 bytes: not a whole int */
    st = exchange(out, 3, MPI_BYTE, in, 40, MPI_BYTE, peer, 3);
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK_INT(count, MPI_UNDEFINED);
    OK(MPI_Get_elements(&st, MPI_INT, &count));
    CHECK_INT(count, MPI_UNDEFINED);
    OK(MPI_Get_count(&st, MPI_BYTE, &count));
    CHECK_INT(count, 3);

    /* a struct {int; double}: one and a half elements' worth of basic elements */
    struct pair {
        int i;
        double d;
    } ps[2] = {{rank, 1.5}, {rank + 1, 2.5}}, pr[2];
    MPI_Datatype pt;
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {offsetof(struct pair, i), offsetof(struct pair, d)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    OK(MPI_Type_create_struct(2, bl, disp, types, &pt));
    OK(MPI_Type_commit(&pt));
    st = exchange(ps, 2, pt, pr, 2, pt, peer, 4);
    OK(MPI_Get_count(&st, pt, &count));
    CHECK_INT(count, 2);
    OK(MPI_Get_elements(&st, pt, &count));
    CHECK_INT(count, 4);
    CHECK_INT(pr[1].i, peer + 1);
    CHECK(pr[1].d == 2.5);
    /* send an int, a double and an int as bytes of the struct: 3 basic elements */
    struct pair one[2] = {{rank, 3.5}, {rank, 0}};
    MPI_Request req;
    OK(MPI_Isend(one, 1, pt, peer, 5, MPI_COMM_WORLD, &req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    OK(MPI_Isend(&one[1].i, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    OK(MPI_Recv(pr, 2, pt, peer, 5, MPI_COMM_WORLD, &st));
    OK(MPI_Get_elements(&st, pt, &count));
    CHECK_INT(count, 2);
    OK(MPI_Recv(&pr[1], 1, pt, peer, 5, MPI_COMM_WORLD, &st));
    OK(MPI_Get_elements(&st, pt, &count));
    CHECK_INT(count, 1);
    OK(MPI_Get_count(&st, pt, &count));
    CHECK_INT(count, MPI_UNDEFINED);

    /* zero bytes */
    st = exchange(NULL, 0, MPI_INT, in, 10, MPI_INT, peer, 6);
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK_INT(count, 0);
    OK(MPI_Get_elements(&st, four, &count));
    CHECK_INT(count, 0);

    OK(MPI_Type_free(&four));
    OK(MPI_Type_free(&pt));
    OK(MPI_Finalize());
    return 0;
}
