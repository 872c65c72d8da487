// Built with FindMPI's MPI::MPI_CXX: a C++ program using mpi.h and the standard library.
#include <mpi.h>

#include <iostream>
#include <sstream>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0, sum = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    const bool ok = sum == size * (size - 1) / 2;
    // One line, written at once: the ranks share std::cout.
    std::ostringstream line;
    line << (ok ? "findmpi-c++ " : "bad sum in ") << rank << " of " << size << '\n';
    std::cout << line.str() << std::flush;
    MPI_Finalize();
    return ok ? 0 : 1;
}
