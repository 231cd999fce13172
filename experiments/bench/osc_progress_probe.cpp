// osc_progress_probe: does a one-sided MPI_Fetch_and_op on rank 0's window complete while rank 0
// computes and calls no MPI (passive-target progress)? What the one-sided path's choice rests on
// (docs/library.md, "The one-sided path"). Rank 0 spins for 300 ms without MPI while every other
// rank does 1000 fetch-and-ops (each with MPI_Win_flush) on a counter in rank 0's window
// (MPI_Win_allocate); then rank 0 does 100000 on its own window. Prints the microseconds of one
// of each. Where progress needs the target, the others' 1000 take the 300 ms (about 300 us each).
//
//   mpirun -np 2 [--mca osc pt2pt|sm|rdma|ucx] [--mca btl tcp,self] osc_progress_probe
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>

namespace {

using clock_type = std::chrono::steady_clock;

double fetch_and_ops(MPI_Win win, int n) {
  const auto t0 = clock_type::now();
  const std::int64_t one = 1;
  std::int64_t old = 0;
  for (int i = 0; i < n; ++i) {
    MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, 0, MPI_SUM, win);
    MPI_Win_flush(0, win);
  }
  return std::chrono::duration<double, std::micro>(clock_type::now() - t0).count() / n;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::int64_t* base = nullptr;
  MPI_Win win;
  MPI_Win_allocate(rank == 0 ? sizeof(std::int64_t) : 0, sizeof(std::int64_t), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &base, &win);
  if (rank == 0) *base = 0;
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    const auto t0 = clock_type::now();
    volatile double x = 0;
    while (clock_type::now() - t0 < std::chrono::milliseconds(300)) x = x + 1;
  } else {
    std::printf("rank %d: %.3f us a fetch-and-op while rank 0 computes\n", rank,
                fetch_and_ops(win, 1000));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("rank 0: %.3f us a fetch-and-op on itself\n", fetch_and_ops(win, 100000));
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
