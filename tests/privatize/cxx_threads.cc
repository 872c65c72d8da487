/* tests/privatize/cxx_threads.cc — std::threads a rank starts share its C++ globals (docs/
 * privatize.md): they read the rank's std::vector, std::string and object, update its counter
 * under its std::mutex, and race to the first use of a function-local static, which is
 * constructed once per rank (its guard is the rank's) and seen by every thread of the rank. A
 * thread_local stays per thread. */
#include <mpi.h>
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>
#include "check.h"
#include "own_address.h"

struct Table {
    std::vector<int> cells;
    explicit Table(int n) : cells((size_t)n, -1)
    {
        __atomic_fetch_add(&built, 1, __ATOMIC_SEQ_CST);
    }
    static LOOM_SHARED int built; /* constructions in the whole job */
};
LOOM_SHARED int Table::built;

std::vector<int> data;
std::string label;
std::mutex lock;
long total;
thread_local int per_thread = 5; /* stays per thread: each thread starts with 5 */

static Table &table(void)
{
    static Table t(16); /* constructed by whichever thread of the rank comes first */
    return t;
}

enum { THREADS = 3, ADDS = 1000 };

static void worker(int rank, int id)
{
    CHECK_INT(data.size(), rank + 1);
    CHECK_INT(data[(size_t)rank], rank);
    CHECK(label == "rank " + std::to_string(rank));
    CHECK_INT(per_thread, 5); /* not the rank thread's */
    per_thread = 1000 + id;
    Table &t = table();
    t.cells[(size_t)id] = rank;
    for (int i = 0; i < ADDS; i++) {
        std::lock_guard<std::mutex> g(lock);
        total += rank + 1;
    }
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    data.assign((size_t)rank + 1, rank);
    label = "rank " + std::to_string(rank);
    per_thread = 100 + rank;
    MPI_Barrier(MPI_COMM_WORLD);
    std::vector<std::thread> threads;
    for (int i = 0; i < THREADS; i++)
        threads.emplace_back(worker, rank, i);
    for (std::thread &t : threads)
        t.join();
    CHECK_INT(total, (long)THREADS * ADDS * (rank + 1));
    CHECK_INT(per_thread, 100 + rank);
    for (int i = 0; i < THREADS; i++)
        CHECK_INT(table().cells[(size_t)i], rank);
    check_own_address(&table());
    check_own_address(&total);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_INT(__atomic_load_n(&Table::built, __ATOMIC_SEQ_CST), size);
    if (rank == 0)
        printf("cxx threads: the threads share their rank's globals\n");
    MPI_Finalize();
    return 0;
}
