/* flow.c — a program that never calls MPI_Init: each rank opens a session, reads its process
 * sets, makes a communicator from the group of "mpi://WORLD" (and of "mpi://SELF"),
 * communicates on it, frees it and finalizes the session; then does it all again with a new
 * session (MPI can be initialized again through sessions). MPI_Initialized and MPI_Finalized
 * stay false: they describe the world model. */
#include <stdlib.h>
#include "sess_check.h"

static void one_round(int round)
{
    MPI_Session s = MPI_SESSION_NULL;
    OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    CHECK(s != MPI_SESSION_NULL);

    /* the process sets: WORLD first, then SELF (then hardware levels: hw_psets.c) */
    int np = -1;
    OK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &np));
    CHECK(np >= 2);
    const char *names[2] = {"mpi://WORLD", "mpi://SELF"};
    for (int i = 0; i < 2; i++) {
        char name[MPI_MAX_PSET_NAME_LEN];
        int len = 0; /* 0: only the length needed */
        OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
        CHECK_INT(len, (int)strlen(names[i]) + 1);
        len = sizeof name;
        OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        CHECK(strcmp(name, names[i]) == 0);
        CHECK_INT(len, (int)strlen(names[i]) + 1);
        char small[5];
        len = sizeof small; /* truncated, terminated, the full length back */
        OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, small));
        CHECK(strncmp(small, names[i], 4) == 0 && small[4] == '\0');
        CHECK_INT(len, (int)strlen(names[i]) + 1);
    }

    /* "mpi_size" of each set */
    /* the job's ranks: LOOM_JOB_NP when the job is several node processes */
    const char *job_np = getenv("LOOM_JOB_NP") ? getenv("LOOM_JOB_NP") : getenv("LOOM_NP");
    int nranks = atoi(job_np ? job_np : "0");
    MPI_Info info;
    char val[MPI_MAX_INFO_VAL];
    int vlen = sizeof val, flag = 0;
    OK(MPI_Session_get_pset_info(s, "mpi://WORLD", &info));
    OK(MPI_Info_get_string(info, "mpi_size", &vlen, val, &flag));
    CHECK_INT(flag, 1);
    int world_size = atoi(val);
    CHECK(world_size >= 1);
    if (nranks > 0)
        CHECK_INT(world_size, nranks);
    OK(MPI_Info_free(&info));
    OK(MPI_Session_get_pset_info(s, "mpi://SELF", &info));
    vlen = sizeof val;
    OK(MPI_Info_get_string(info, "mpi_size", &vlen, val, &flag));
    CHECK_INT(flag, 1);
    CHECK(strcmp(val, "1") == 0);
    OK(MPI_Info_free(&info));

    /* the thread level the session provides */
    OK(MPI_Session_get_info(s, &info));
    vlen = sizeof val;
    OK(MPI_Info_get_string(info, "thread_level", &vlen, val, &flag));
    CHECK_INT(flag, 1);
    CHECK(strcmp(val, "MPI_THREAD_MULTIPLE") == 0);
    OK(MPI_Info_free(&info));

    /* the groups: WORLD in rank order, SELF this rank */
    MPI_Group g;
    int gsize, grank;
    OK(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    OK(MPI_Group_size(g, &gsize));
    CHECK_INT(gsize, world_size);
    OK(MPI_Group_rank(g, &grank));
    CHECK(grank >= 0 && grank < gsize);
    OK(MPI_Group_free(&g));

    char tag[64];
    snprintf(tag, sizeof tag, "loom.test.flow.%d", round);
    MPI_Comm c = sess_comm(s, "mpi://WORLD", tag);
    int me;
    OK(MPI_Comm_rank(c, &me));
    CHECK_INT(me, grank); /* the group's order */
    sess_talk(c, world_size, 100 * round);
    OK(MPI_Barrier(c));
    snprintf(tag, sizeof tag, "loom.test.flow.self.%d", round);
    MPI_Comm self = sess_comm(s, "mpi://SELF", tag);
    sess_talk(self, 1, round);
    OK(MPI_Comm_free(&self));
    OK(MPI_Comm_free(&c));

    OK(MPI_Session_finalize(&s));
    CHECK(s == MPI_SESSION_NULL);
}

int main(int argc, char **argv)
{
    (void)argc, (void)argv;
    int flag = -1;
    OK(MPI_Initialized(&flag));
    CHECK_INT(flag, 0);
    one_round(1);
    one_round(2); /* a second session after the first was finalized */
    OK(MPI_Initialized(&flag));
    CHECK_INT(flag, 0);
    OK(MPI_Finalized(&flag));
    CHECK_INT(flag, 0);
    return 0;
}
