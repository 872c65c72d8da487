/* Handle and status conversion between C and Fortran (MPI_Xxx_c2f/f2c, MPI_Status_*):
 * round trips of every kind of handle, predefined and made, stable integers, the null
 * handles, integers that name nothing, freed handles, a request waited on through its
 * converted handle, statuses from a real receive through every form, several threads of a
 * rank converting one handle at once, and bad arguments. */
#include <pthread.h>
#include <string.h>
#include "check.h"
#include "mpi.h"

#define ROUND_TRIP(kind, h)                                                                    \
    do {                                                                                       \
        MPI_Fint f_ = MPI_##kind##_c2f(h);                                                     \
        CHECK(f_ > 0);                                                                         \
        CHECK_INT(MPI_##kind##_c2f(h), f_); /* stable */                                        \
        CHECK(MPI_##kind##_f2c(f_) == (h));                                                    \
    } while (0)

/* Globals are shared by the ranks (this test is not built with loomcc): rank 0's only. */
static MPI_Comm shared_comm; /* converted by several threads of rank 0 at once */
static MPI_Fint got[4];

static void *convert_many(void *arg)
{
    int me = (int)(long)arg;
    MPI_Fint f = 0;
    for (int i = 0; i < 1000; i++) {
        MPI_Fint g = MPI_Comm_c2f(shared_comm);
        CHECK(i == 0 || g == f);
        f = g;
    }
    got[me] = f;
    return NULL;
}

static void statuses(int rank, int size)
{
    int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    double out[3] = {1, 2, 3}, in[3];
    MPI_Status s, back;
    MPI_Request r;
    MPI_Irecv(in, 3, MPI_DOUBLE, from, 40 + from, MPI_COMM_WORLD, &r);
    MPI_Send(out, 3, MPI_DOUBLE, peer, 40 + rank, MPI_COMM_WORLD);
    /* the receive is waited on through its Fortran handle */
    MPI_Fint fr = MPI_Request_c2f(r);
    MPI_Request r2 = MPI_Request_f2c(fr);
    CHECK(r2 == r);
    CHECK_INT(MPI_Wait(&r2, &s), MPI_SUCCESS);
    CHECK(r2 == MPI_REQUEST_NULL);

    MPI_Fint f[MPI_F_STATUS_SIZE];
    CHECK_INT(MPI_Status_c2f(&s, f), MPI_SUCCESS);
    CHECK_INT(f[MPI_F_SOURCE], from);
    CHECK_INT(f[MPI_F_TAG], 40 + from);
    CHECK_INT(f[MPI_F_ERROR], s.MPI_ERROR);
    memset(&back, 0xff, sizeof back);
    CHECK_INT(MPI_Status_f2c(f, &back), MPI_SUCCESS);
    int n = -1;
    CHECK_INT(MPI_Get_count(&back, MPI_DOUBLE, &n), MPI_SUCCESS);
    CHECK_INT(n, 3);
    CHECK_INT(back.MPI_SOURCE, from);
    CHECK_INT(back.MPI_TAG, 40 + from);

    MPI_F08_status f08, f08b;
    MPI_Fint f2[MPI_F_STATUS_SIZE];
    CHECK_INT(MPI_Status_c2f08(&s, &f08), MPI_SUCCESS);
    CHECK_INT(f08.MPI_SOURCE, from);
    CHECK_INT(f08.MPI_TAG, 40 + from);
    CHECK_INT(MPI_Status_f082f(&f08, f2), MPI_SUCCESS);
    CHECK(memcmp(f, f2, sizeof f) == 0);
    CHECK_INT(MPI_Status_f2f08(f2, &f08b), MPI_SUCCESS);
    CHECK(memcmp(&f08, &f08b, sizeof f08) == 0);
    memset(&back, 0, sizeof back);
    CHECK_INT(MPI_Status_f082c(&f08b, &back), MPI_SUCCESS);
    CHECK_INT(MPI_Get_count(&back, MPI_DOUBLE, &n), MPI_SUCCESS);
    CHECK_INT(n, 3);
    int flag = -1;
    CHECK_INT(MPI_Test_cancelled(&back, &flag), MPI_SUCCESS);
    CHECK_INT(flag, 0);

    /* a byte count above 2^32 survives the two Fortran words */
    MPI_Status big = s;
    CHECK_INT(MPI_Status_set_elements_x(&big, MPI_BYTE, (MPI_Count)5 << 32 | 7), MPI_SUCCESS);
    CHECK_INT(MPI_Status_c2f(&big, f), MPI_SUCCESS);
    CHECK_INT(MPI_Status_f2c(f, &back), MPI_SUCCESS);
    MPI_Count c = 0;
    CHECK_INT(MPI_Get_elements_x(&back, MPI_BYTE, &c), MPI_SUCCESS);
    CHECK(c == ((MPI_Count)5 << 32 | 7));
}

static void bad_arguments(void)
{
    MPI_Status s = {0};
    MPI_Fint f[MPI_F_STATUS_SIZE] = {0};
    MPI_F08_status f08 = {0};
    CHECK_INT(MPI_Status_c2f(NULL, f), MPI_ERR_ARG);
    CHECK_INT(MPI_Status_c2f(MPI_STATUS_IGNORE, f), MPI_ERR_ARG);
    CHECK_INT(MPI_Status_c2f(&s, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Status_c2f(&s, MPI_F_STATUS_IGNORE), MPI_ERR_ARG);
    CHECK_INT(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &s), MPI_ERR_ARG);
    CHECK_INT(MPI_Status_f2c(f, MPI_STATUS_IGNORE), MPI_ERR_ARG);
    CHECK_INT(MPI_Status_c2f08(&s, MPI_F08_STATUS_IGNORE), MPI_ERR_ARG);
    CHECK_INT(MPI_Status_f082c(MPI_F08_STATUS_IGNORE, &s), MPI_ERR_ARG);
    CHECK_INT(MPI_Status_f2f08(f, NULL), MPI_ERR_ARG);
    CHECK_INT(MPI_Status_f082f(&f08, NULL), MPI_ERR_ARG);
    /* an integer that names nothing is a handle every call refuses, not the null handle */
    int size;
    CHECK_INT(MPI_Comm_size(MPI_Comm_f2c(1 << 30), &size), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_size(MPI_Comm_f2c(-7), &size), MPI_ERR_COMM);
    CHECK_INT(MPI_Type_size(MPI_Type_f2c(1 << 30), &size), MPI_ERR_TYPE);
    /* a handle of another kind does not become one */
    CHECK_INT(MPI_Comm_size(MPI_Comm_f2c(MPI_Type_c2f(MPI_INT)), &size), MPI_ERR_COMM);
    CHECK_INT(MPI_Comm_c2f((MPI_Comm)(void *)&s), -1); /* memory that is no communicator */
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* null handles are 0 both ways */
    CHECK_INT(MPI_Comm_c2f(MPI_COMM_NULL), 0);
    CHECK(MPI_Comm_f2c(0) == MPI_COMM_NULL);
    CHECK_INT(MPI_Type_c2f(MPI_DATATYPE_NULL), 0);
    CHECK(MPI_Type_f2c(0) == MPI_DATATYPE_NULL);
    CHECK(MPI_Group_f2c(0) == MPI_GROUP_NULL);
    CHECK(MPI_Request_f2c(0) == MPI_REQUEST_NULL);
    CHECK(MPI_Op_f2c(0) == MPI_OP_NULL);
    CHECK(MPI_Info_f2c(0) == MPI_INFO_NULL);
    CHECK(MPI_Errhandler_f2c(0) == MPI_ERRHANDLER_NULL);
    CHECK(MPI_Message_f2c(0) == MPI_MESSAGE_NULL);
    CHECK(MPI_Session_f2c(0) == MPI_SESSION_NULL);
    MPI_Session session;
    CHECK_INT(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session), MPI_SUCCESS);
    ROUND_TRIP(Session, session);
    MPI_Fint fsession = MPI_Session_c2f(session);
    int npsets = -1;
    CHECK_INT(MPI_Session_get_num_psets(MPI_Session_f2c(fsession), MPI_INFO_NULL, &npsets),
              MPI_SUCCESS);
    CHECK(npsets >= 2);
    CHECK_INT(MPI_Session_finalize(&session), MPI_SUCCESS);

    /* predefined handles */
    ROUND_TRIP(Comm, MPI_COMM_WORLD);
    ROUND_TRIP(Comm, MPI_COMM_SELF);
    ROUND_TRIP(Type, MPI_INT);
    ROUND_TRIP(Type, MPI_DOUBLE_INT);
    ROUND_TRIP(Op, MPI_SUM);
    ROUND_TRIP(Errhandler, MPI_ERRORS_RETURN);
    ROUND_TRIP(Info, MPI_INFO_ENV);
    ROUND_TRIP(Group, MPI_GROUP_EMPTY);
    ROUND_TRIP(Message, MPI_MESSAGE_NO_PROC);
    CHECK(MPI_Comm_c2f(MPI_COMM_WORLD) != MPI_Comm_c2f(MPI_COMM_SELF));

    /* made handles: distinct, usable through their conversion, refused once freed */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    ROUND_TRIP(Comm, dup);
    MPI_Fint fdup = MPI_Comm_c2f(dup);
    CHECK(fdup != MPI_Comm_c2f(MPI_COMM_WORLD));
    int n = -1;
    CHECK_INT(MPI_Comm_size(MPI_Comm_f2c(fdup), &n), MPI_SUCCESS);
    CHECK_INT(n, size);
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    ROUND_TRIP(Type, vec);
    MPI_Group g;
    MPI_Comm_group(dup, &g);
    ROUND_TRIP(Group, g);
    MPI_Info info;
    MPI_Info_create(&info);
    ROUND_TRIP(Info, info);
    MPI_Op op;
    MPI_Op_create((MPI_User_function *)(void (*)(void))MPI_Comm_c2f, 1, &op); /* never run */
    ROUND_TRIP(Op, op);
    MPI_Comm_free(&dup);
    CHECK_INT(MPI_Comm_size(MPI_Comm_f2c(fdup), &n), MPI_ERR_COMM); /* freed */
    MPI_Op_free(&op);
    MPI_Info_free(&info);
    MPI_Group_free(&g);
    MPI_Type_free(&vec);

    statuses(rank, size);
    bad_arguments();

    /* several threads of a rank convert one new handle at once: one integer */
    MPI_Comm mine;
    MPI_Comm_dup(MPI_COMM_WORLD, &mine);
    if (rank == 0) {
        shared_comm = mine;
        pthread_t t[4];
        for (long i = 0; i < 4; i++)
            pthread_create(&t[i], NULL, convert_many, (void *)i);
        for (int i = 0; i < 4; i++)
            pthread_join(t[i], NULL);
        for (int i = 1; i < 4; i++)
            CHECK_INT(got[i], got[0]);
        CHECK(MPI_Comm_f2c(got[0]) == shared_comm);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_free(&mine);
    MPI_Finalize();
    return 0;
}
