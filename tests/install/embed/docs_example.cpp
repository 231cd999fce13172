// docs_example.cpp: the example of docs/library.md ("Inside your own MPI program"), word for word
// between the BEGIN and END lines (tests/integration/readme_example_test.cpp checks it), built
// against the installed library and run under mpirun -np 4 by tests/install/run_embed_test.sh.
// BEGIN DOCS
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "dlb/mpi.hpp"

double f(std::int64_t i) { return std::sqrt(static_cast<double>(i)); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // ... the program's own MPI ...
  MPI_Comm part;  // the library on ranks 0-2 of the world; MPI_COMM_WORLD works as well
  MPI_Comm_split(MPI_COMM_WORLD, rank < 3 ? 0 : MPI_UNDEFINED, rank, &part);
  if (part != MPI_COMM_NULL) {
    const std::int64_t n = 10000;
    std::vector<double> y(n);
    auto Y = dlb::DLB_array::of("y", y.data(), n, 1, dlb::data_distribution::block);
    Y.input = false;  // a result: gathered to the master, not scattered
    Y.output = true;
    dlb::loop_spec loop;
    loop.iterations = n;
    // What iteration i costs relative to the others: the cost model's input (under the native
    // clock the library measures the real time; this only orders the work).
    loop.work = [](std::int64_t i) { return 1e-6 * static_cast<double>(1 + i % 5); };
    // The policy; none given: the environment's DLB_POLICY, as OMP_SCHEDULE for OpenMP.
    dlb::mpi::session dlb(part, {.policy = dlb::core::parse_policy("AUTO-ALL")});
    dlb.parallel_for(loop, {&Y}, [&](std::int64_t i) { y[i] = f(i); });
    dlb.finish();                                 // collective: `part` is the program's again
    MPI_Bcast(y.data(), n, MPI_DOUBLE, 0, part);  // the master has the gathered result
    std::printf("rank %d: y[%lld] = %.6f\n", rank, static_cast<long long>(n - 1), y[n - 1]);
    MPI_Comm_free(&part);
  }
  MPI_Finalize();
}
// END DOCS
