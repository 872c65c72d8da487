/* tests/harness/comms.c — what MPICH's mtest does around a test: MPI_Get_library_version,
 * buffers from MPI_Alloc_mem, MPI_Type_get_envelope to tell named from derived types, and a
 * loop over communicators from MTestGetIntracomm (the world, an MPI_Comm_idup of it, an
 * even/odd MPI_Comm_split, a reversed MPI_Comm_create), checking each one's name and that
 * with MPI_ERRORS_RETURN a bad call returns its error class, and running a broadcast and a
 * reduction from every root of each. */
#include <stdio.h>
#include <string.h>
#include "mtest_lite.h"

#define N 33

/* Frees a type unless it is a named one, as mtest does. */
static int free_if_derived(MPI_Datatype *type, int want_combiner)
{
    int errs = 0, ni, na, nd, combiner;
    MPI_Type_get_envelope(*type, &ni, &na, &nd, &combiner);
    MTEST_CHECK(errs, combiner == want_combiner);
    if (combiner == MPI_COMBINER_VECTOR)
        MTEST_CHECK(errs, ni == 3 && na == 0 && nd == 1);
    if (combiner != MPI_COMBINER_NAMED)
        MPI_Type_free(type);
    return errs;
}

static int on_comm(MPI_Comm comm, const char *name)
{
    int errs = 0, size, rank, wrank;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int *buf, *out;
    int rc = MPI_Alloc_mem(sizeof(int) * N, MPI_INFO_NULL, &buf);
    if (rc != MPI_SUCCESS) {
        MTestPrintErrorMsg("MPI_Alloc_mem", rc);
        return 1;
    }
    MPI_Alloc_mem(sizeof(int) * N, MPI_INFO_NULL, &out);

    /* Every third int, as a vector type, from each root. */
    MPI_Datatype every3;
    MPI_Type_vector(N / 3, 1, 3, MPI_INT, &every3);
    MPI_Type_commit(&every3);
    for (int root = 0; root < size; root++) {
        for (int i = 0; i < N; i++)
            buf[i] = rank == root ? root * 1000 + i : -1;
        MPI_Bcast(buf, 1, every3, root, comm);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            int want = (rank == root || (i % 3 == 0 && i / 3 < N / 3)) ? root * 1000 + i : -1;
            bad += buf[i] != want;
        }
        MTEST_CHECK(errs, bad == 0);

        /* The reduction's inputs are the world ranks, so a wrong order of ranks shows. */
        for (int i = 0; i < N; i++) {
            buf[i] = wrank * (i + 1) + rank;
            out[i] = -1;
        }
        MPI_Reduce(buf, out, N, MPI_INT, MPI_SUM, root, comm);
        if (rank == root) {
            /* The world ranks of this communicator, in its order. */
            int w[64], all = 0;
            MPI_Group g, wg;
            int ranks[64];
            for (int i = 0; i < size && i < 64; i++)
                ranks[i] = i;
            MPI_Comm_group(comm, &g);
            MPI_Comm_group(MPI_COMM_WORLD, &wg);
            MPI_Group_translate_ranks(g, size, ranks, wg, w);
            MPI_Group_free(&g);
            MPI_Group_free(&wg);
            for (int i = 0; i < size; i++)
                all += w[i];
            bad = 0;
            for (int i = 0; i < N; i++)
                bad += out[i] != all * (i + 1) + size * (size - 1) / 2;
            MTEST_CHECK(errs, bad == 0);
        } else {
            MTEST_CHECK(errs, out[0] == -1);
        }
    }
    errs += free_if_derived(&every3, MPI_COMBINER_VECTOR);
    MTEST_CHECK(errs, every3 == MPI_DATATYPE_NULL);
    MPI_Datatype named = MPI_INT;
    errs += free_if_derived(&named, MPI_COMBINER_NAMED);
    MTEST_CHECK(errs, named == MPI_INT);
    MPI_Free_mem(buf);
    MPI_Free_mem(out);
    if (errs)
        fprintf(stderr, "[%d] errors on %s\n", wrank, name);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, wrank, wsize;
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);

    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = -1;
    MPI_Get_library_version(version, &len);
    MTEST_CHECK(errs, len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING &&
                          (int)strlen(version) == len);
    int major, minor;
    MPI_Get_version(&major, &minor);
    MTEST_CHECK(errs, major == MPI_VERSION && minor == MPI_SUBVERSION);
    MTestPrintfMsg(1, "%s\n", version);

    MPI_Comm comm;
    const char *name;
    int seen = 0;
    while (MTestGetIntracomm(&comm, 1, &name)) {
        seen++;
        if (comm == MPI_COMM_NULL)
            continue;
        int size;
        MPI_Comm_size(comm, &size);
        /* World, dup and reversed have every rank; the split half of them. */
        if (seen == 3)
            MTEST_CHECK(errs, size == (wrank % 2 ? wsize / 2 : (wsize + 1) / 2));
        else
            MTEST_CHECK(errs, size == wsize);
        if (seen == 4) {
            int rank;
            MPI_Comm_rank(comm, &rank);
            MTEST_CHECK(errs, rank == wsize - 1 - wrank);
        }
        if (seen == 2) {
            int result;
            MPI_Comm_compare(comm, MPI_COMM_WORLD, &result);
            MTEST_CHECK(errs, result == MPI_CONGRUENT);
        }
        char got[MPI_MAX_OBJECT_NAME];
        int nlen;
        MPI_Comm_get_name(comm, got, &nlen);
        MTEST_CHECK(errs, strcmp(got, name) == 0 && nlen == (int)strlen(name));
        /* With MPI_ERRORS_RETURN a bad rank is an error code, of class MPI_ERR_RANK. */
        MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
        int v = 0, cls = MPI_SUCCESS;
        int rc = MPI_Send(&v, 1, MPI_INT, size, 0, comm);
        MPI_Error_class(rc, &cls);
        MTEST_CHECK(errs, rc != MPI_SUCCESS && cls == MPI_ERR_RANK);
        if (cls != MPI_ERR_RANK)
            MTestPrintError(rc);
        errs += on_comm(comm, name);
        MTestFreeComm(&comm);
    }
    MTEST_CHECK(errs, seen == 4);
    /* The loop starts over, per rank. */
    MTEST_CHECK(errs, MTestGetIntracomm(&comm, 1, &name) == 1 && comm == MPI_COMM_WORLD);
    MTestFreeComm(&comm);
    MTest_Finalize(errs);
    return MTestReturnValue(errs);
}
