/* tests/harness/mtest_lite.h — a small test harness in the style of MPICH's test suite: a
 * program counts its errors, MTest_Finalize sums them over MPI_COMM_WORLD and rank 0 prints
 * " No Errors" when there are none (" Found N errors" otherwise), which is what the tests
 * match. Programs are built with loomcc, so the harness's own globals are per rank, as a
 * process-based MPI gives them. */
#ifndef MTEST_LITE_H
#define MTEST_LITE_H

#include <mpi.h>

/* MPI_Init, and the verbosity from MPITEST_VERBOSE. */
void MTest_Init(int *argc, char ***argv);
/* Sums errs over MPI_COMM_WORLD, prints the verdict on rank 0, then MPI_Finalize. */
void MTest_Finalize(int errs);
/* What main returns: 0 when this rank found no error. */
int MTestReturnValue(int errs);
/* An MPI error code, as text, on stderr with the caller's rank. */
void MTestPrintError(int errcode);
void MTestPrintErrorMsg(const char *msg, int errcode);
/* printf to stderr when MPITEST_VERBOSE is at least level. */
void MTestPrintfMsg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The communicators a test runs on, one by one: MPI_COMM_WORLD, a dup of it (MPI_Comm_idup),
 * its even and odd ranks (MPI_Comm_split), and all of it in reversed order (MPI_Comm_create).
 * Returns 0 when there are no more; otherwise sets *comm (MPI_COMM_NULL on a rank outside a
 * communicator of at least min_size ranks) and its name in *name, which MPI_Comm_get_name
 * gives too. */
int MTestGetIntracomm(MPI_Comm *comm, int min_size, const char **name);
/* Frees what MTestGetIntracomm made (not MPI_COMM_WORLD, not MPI_COMM_NULL). */
void MTestFreeComm(MPI_Comm *comm);

/* Counts a failed check: prints where and what, returns 1 (to add to errs). */
int MTestFail(const char *file, int line, const char *what);
#define MTEST_CHECK(errs, cond) \
    ((errs) += (cond) ? 0 : MTestFail(__FILE__, __LINE__, #cond))

#endif
