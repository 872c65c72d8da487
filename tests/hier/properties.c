/* properties.c — the properties of Section 3.2.2 for any binding and rank count: the loop of
 * Section 5 ends with MPI_COMM_NULL; every new communicator is a strict subset of its parent
 * (MPI_UNEQUAL); MPI_Comm_split_type and MPIX_Comm_hsplit_with_roots agree (congruent); the
 * hierarchy nests (members of a child share the parent); 0 <= index < num_comms; a rank is
 * in a roots communicator exactly when it is rank 0 of its new communicator, and the roots
 * communicator has num_comms members with indexes 0..num-1 in rank order; get_min_hlevel of
 * the caller alone is never "Unknown". Run under compact, scatter, spread, none, user sets,
 * oversubscription and an XML machine (CMakeLists.txt). */
#include "hier_check.h"

int main(int argc, char **argv)
{
    OK(MPI_Init(&argc, &argv));
    MPI_Comm a = MPI_COMM_WORLD, b = MPI_COMM_WORLD;
    MPI_Comm made[3 * HIER_STEPS];
    int nmade = 0, step = 0, len;
    char t[MPI_MAX_INFO_VAL + 1];
    while (a != MPI_COMM_NULL) {
        CHECK(step < HIER_STEPS);
        int rank, me_b;
        MPI_Comm na, nb, roots;
        OK(MPI_Comm_rank(a, &rank));
        OK(MPI_Comm_rank(b, &me_b));
        OK(MPIX_Comm_get_min_hlevel(b, 1, &me_b, t, &len));
        CHECK(strcmp(t, "Unknown") != 0);
        OK(MPI_Comm_split_type(a, MPI_COMM_TYPE_HW_UNGUIDED, rank, MPI_INFO_NULL, &na));
        OK(MPIX_Comm_hsplit_with_roots(b, MPI_INFO_NULL, &nb, &roots));
        CHECK((na == MPI_COMM_NULL) == (nb == MPI_COMM_NULL));
        if (na != MPI_COMM_NULL) {
            int r, num, idx, nbrank, nbsize;
            OK(MPI_Comm_compare(a, na, &r));
            CHECK_INT(r, MPI_UNEQUAL);
            OK(MPI_Comm_compare(na, nb, &r));
            CHECK_INT(r, MPI_CONGRUENT);
            OK(MPIX_Comm_get_hlevel_info(nb, &num, &idx, t, &len));
            CHECK(num >= 1 && idx >= 0 && idx < num);
            CHECK(len > 0);
            OK(MPI_Comm_rank(nb, &nbrank));
            OK(MPI_Comm_size(nb, &nbsize));
            /* the members of nb are members of b (nesting) */
            MPI_Group gb, gnb;
            OK(MPI_Comm_group(b, &gb));
            OK(MPI_Comm_group(nb, &gnb));
            int *in = malloc((size_t)nbsize * sizeof *in);
            int *out = malloc((size_t)nbsize * sizeof *out);
            CHECK(in && out);
            for (int i = 0; i < nbsize; i++)
                in[i] = i;
            OK(MPI_Group_translate_ranks(gnb, nbsize, in, gb, out));
            for (int i = 0; i < nbsize; i++)
                CHECK(out[i] != MPI_UNDEFINED);
            free(in);
            free(out);
            OK(MPI_Group_free(&gb));
            OK(MPI_Group_free(&gnb));
            CHECK((roots != MPI_COMM_NULL) == (nbrank == 0));
            if (roots != MPI_COMM_NULL) {
                int rsize, rrank, one, zero;
                OK(MPI_Comm_size(roots, &rsize));
                OK(MPI_Comm_rank(roots, &rrank));
                CHECK_INT(rsize, num); /* one root per sibling communicator */
                CHECK_INT(rrank, idx); /* siblings are numbered like their roots */
                OK(MPIX_Comm_get_hlevel_info(roots, &one, &zero, t, &len));
                CHECK_INT(one, 1);
                CHECK_INT(zero, 0);
                made[nmade++] = roots;
            }
            made[nmade++] = na;
            made[nmade++] = nb;
        } else {
            CHECK(roots == MPI_COMM_NULL);
        }
        a = na;
        b = nb;
        step++;
    }
    for (int i = 0; i < nmade; i++)
        OK(MPI_Comm_free(&made[i]));
    OK(MPI_Finalize());
    return 0;
}
