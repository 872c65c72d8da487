// Built through mpicxx with -Wall -Wextra -Werror -pedantic: mpi.h must not warn in C++.
// Uses the standard library and MPI together, and returns a failure on a wrong sum.
#include <mpi.h>

#include <cstdio>
#include <numeric>
#include <vector>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::vector<int> mine(4, rank), sum(4, 0);
    MPI_Allreduce(mine.data(), sum.data(), 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    const int want = size * (size - 1) / 2;
    const bool ok = std::accumulate(sum.begin(), sum.end(), 0) == 4 * want;
    if (ok)
        std::printf("strict c++ %d of %d\n", rank, size);
    else
        std::printf("rank %d: sum %d, expected %d\n", rank, sum[0], want);
    MPI_Finalize();
    return ok ? 0 : 1;
}
