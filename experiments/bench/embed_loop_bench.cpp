// embed_loop_bench: one loop inside a plain MPI program, run three ways so that the library can be
// set beside what a programmer would otherwise write (make bench-embed, scripts/embed-bench;
// docs/library.md, "Beside a hand-written loop"):
//
//   static       every rank computes its block of n/P iterations (no balancing at all)
//   mw           a hand-written master-worker whose rank 0 computes too: it hands out guided
//                chunks (remaining / 2P, at least 1) on request and answers between its own
//                iterations; the workers ask for the next chunk when theirs is done
//   pingpong     no loop: N raw MPI round trips of 16 bytes between ranks 0 and 1 (the floor of
//                what a chunk can cost on the two-sided path)
//   fao          a hand-written MPI_Fetch_and_op work counter (SS, one iteration a request): a
//                counter in an MPI_Win_allocate window on rank 0, every rank taking its next
//                iteration with one MPI_Fetch_and_op and MPI_Win_flush (the one-sided floor)
//   dlb:POLICY   dlb::mpi::session (defaults: native clock, no simulated load, every rank a
//                worker) under POLICY, an index-only loop (no arrays), each rank's partial result
//                reduced by the program
//                on the path the library chooses (session_params::path automatic)
//   dlb1:POLICY  the same on the one-sided path (loop_path::one_sided)
//   dlb2:POLICY  the same on the two-sided path (loop_path::two_sided)
//   dlbd:POLICY  the same with a dedicated master (master_rank::dedicated: rank 0 computes nothing)
//
// Loops (every one computes a checksum that every way must reproduce):
//   linear       iteration i busy for base * (1 + 4 i / (n - 1)) seconds (1x to 5x)
//   balanced     every iteration busy for base seconds
//   mandelbrot   row i of a Mandelbrot set, width w: iterations of z^2 + c per point, up to 2000
//   empty        iterations that do nothing (n large): what a chunk costs the library
//
//   mpirun -np P embed_loop_bench MODE LOOP N [BASE_US]
// prints, on rank 0: RESULT cell=LOOP/PP/MODE mode=... loop=... procs=P n=N wall_s=... loop_s=...
// checksum=..., wall_s from the ranks' first barrier to the end (the session's making and
// finish, the window's making, included), loop_s rank 0's time in the loop alone (the library's
// parallel_for call, the counter loop between its lock_all and unlock_all; wall_s for the others).
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "dlb/mpi.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

// Rank 0's seconds in the loop alone (loop_s), where the way measures it; -1: as wall_s.
double loop_seconds = -1;

double since(clock_type::time_point t) {
  return std::chrono::duration<double>(clock_type::now() - t).count();
}

struct loop_kind {
  std::string name;
  std::int64_t n = 0;
  double base_s = 0;
};

void spin(double seconds) {
  const auto until = clock_type::now() + std::chrono::duration<double>(seconds);
  while (clock_type::now() < until) {
  }
}

double relative_cost(const loop_kind& k, std::int64_t i) {
  if (k.name == "linear") return 1.0 + 4.0 * static_cast<double>(i) / static_cast<double>(k.n - 1);
  if (k.name == "mandelbrot") {
    // Rows near the middle hold most of the set: the cost follows their distance from it.
    const double y = 2.0 * static_cast<double>(i) / static_cast<double>(k.n) - 1.0;
    return 1.0 + 4.0 * (1.0 - (y < 0 ? -y : y));
  }
  return 1.0;
}

// One iteration: its contribution to the checksum.
double iteration(const loop_kind& k, std::int64_t i) {
  if (k.name == "empty") return 1.0;
  if (k.name == "mandelbrot") {
    const int width = 400, max_iter = 2000;
    const double ci = 2.4 * static_cast<double>(i) / static_cast<double>(k.n) - 1.2;
    std::int64_t inside = 0;
    for (int x = 0; x < width; ++x) {
      const double cr = 3.0 * x / width - 2.1;
      double zr = 0, zi = 0;
      int it = 0;
      while (it < max_iter && zr * zr + zi * zi <= 4.0) {
        const double t = zr * zr - zi * zi + cr;
        zi = 2 * zr * zi + ci;
        zr = t;
        ++it;
      }
      inside += it == max_iter;
    }
    return static_cast<double>(inside);
  }
  spin(k.base_s * relative_cost(k, i));
  return static_cast<double>(i % 7);
}

double run_static(const loop_kind& k, int rank, int size) {
  double sum = 0;
  const std::int64_t lo = k.n * rank / size, hi = k.n * (rank + 1) / size;
  for (std::int64_t i = lo; i < hi; ++i) sum += iteration(k, i);
  return sum;
}

// The hand-written master-worker, rank 0 computing too.
constexpr int kAsk = 1, kChunk = 2;
std::int64_t guided(std::int64_t left, int size) {
  return std::max<std::int64_t>(1, left / (2 * static_cast<std::int64_t>(size)));
}

double run_mw_master(const loop_kind& k, int size) {
  double sum = 0;
  std::int64_t next = 0;
  int stopped = 0;
  const auto answer = [&](int to) {
    const std::int64_t len = std::min(guided(k.n - next, size), k.n - next);
    const std::int64_t chunk[2] = {next, next + len};
    next += len;
    if (len == 0) ++stopped;
    MPI_Send(chunk, 2, MPI_INT64_T, to, kChunk, MPI_COMM_WORLD);
  };
  const auto serve = [&] {
    for (;;) {
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(MPI_ANY_SOURCE, kAsk, MPI_COMM_WORLD, &flag, &st);
      if (!flag) return;
      MPI_Recv(nullptr, 0, MPI_BYTE, st.MPI_SOURCE, kAsk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      answer(st.MPI_SOURCE);
    }
  };
  while (next < k.n) {
    const std::int64_t lo = next, hi = next + std::min(guided(k.n - next, size), k.n - next);
    next = hi;
    for (std::int64_t i = lo; i < hi; ++i) {
      sum += iteration(k, i);
      serve();
    }
  }
  while (stopped < size - 1) {
    MPI_Status st;
    MPI_Recv(nullptr, 0, MPI_BYTE, MPI_ANY_SOURCE, kAsk, MPI_COMM_WORLD, &st);
    answer(st.MPI_SOURCE);
  }
  return sum;
}

double run_mw_worker(const loop_kind& k) {
  double sum = 0;
  for (;;) {
    std::int64_t chunk[2];
    MPI_Send(nullptr, 0, MPI_BYTE, 0, kAsk, MPI_COMM_WORLD);
    MPI_Recv(chunk, 2, MPI_INT64_T, 0, kChunk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (chunk[0] == chunk[1]) return sum;
    for (std::int64_t i = chunk[0]; i < chunk[1]; ++i) sum += iteration(k, i);
  }
}

// The raw MPI round trip (16 bytes) between ranks 0 and 1, n times: the floor of a chunk's cost.
double run_pingpong(const loop_kind& k, int rank) {
  std::int64_t msg[2] = {0, 0};
  for (std::int64_t i = 0; i < k.n && rank < 2; ++i) {
    if (rank == 0) {
      MPI_Send(msg, 2, MPI_INT64_T, 1, kAsk, MPI_COMM_WORLD);
      MPI_Recv(msg, 2, MPI_INT64_T, 1, kChunk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(msg, 2, MPI_INT64_T, 0, kAsk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(msg, 2, MPI_INT64_T, 0, kChunk, MPI_COMM_WORLD);
    }
  }
  return rank == 0 ? static_cast<double>(k.n) : 0.0;
}

// The hand-written one-sided work counter: what a programmer writes with MPI-3 RMA.
double run_fao(const loop_kind& k, int rank) {
  double sum = 0;
  std::int64_t* base = nullptr;
  MPI_Win win;
  MPI_Win_allocate(rank == 0 ? sizeof(std::int64_t) : 0, sizeof(std::int64_t), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &base, &win);
  if (rank == 0) *base = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  const auto t0 = clock_type::now();
  for (;;) {
    const std::int64_t one = 1;
    std::int64_t i = 0;
    MPI_Fetch_and_op(&one, &i, MPI_INT64_T, 0, 0, MPI_SUM, win);
    MPI_Win_flush(0, win);
    if (i >= k.n) break;
    sum += iteration(k, i);
  }
  loop_seconds = since(t0);
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  return sum;
}

double run_dlb(const loop_kind& k, const std::string& policy, dlb::mpi::master_rank master,
               dlb::mpi::loop_path path = dlb::mpi::loop_path::automatic) {
  double sum = 0;
  dlb::mpi::session_params params;
  params.policy = dlb::core::parse_policy(policy);
  params.master = master;
  params.path = path;
  params.quiet = true;
  dlb::mpi::session s(MPI_COMM_WORLD, params);
  dlb::loop_spec loop;
  loop.iterations = k.n;
  if (k.name != "balanced" && k.name != "empty")
    loop.work = [&k](std::int64_t i) { return k.base_s * relative_cost(k, i); };
  const auto t0 = clock_type::now();
  s.parallel_for(loop, {}, [&](std::int64_t i) { sum += iteration(k, i); });
  loop_seconds = since(t0);
  s.finish();
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 4) {
    if (rank == 0)
      std::fprintf(stderr,
                   "usage: embed_loop_bench "
                   "static|mw|pingpong|fao|dlb:POLICY|dlb1:POLICY|dlb2:POLICY|dlbd:POLICY "
                   "linear|balanced|mandelbrot|empty N [BASE_US]\n");
    MPI_Finalize();
    return 2;
  }
  const std::string mode = argv[1];
  loop_kind k{argv[2], std::atoll(argv[3]), argc > 4 ? std::atof(argv[4]) * 1e-6 : 100e-6};
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = clock_type::now();
  double mine = 0;
  try {
    if (mode == "static")
      mine = run_static(k, rank, size);
    else if (mode == "pingpong")
      mine = run_pingpong(k, rank);
    else if (mode == "mw")
      mine = rank == 0 ? run_mw_master(k, size) : run_mw_worker(k);
    else if (mode.rfind("dlb:", 0) == 0)
      mine = run_dlb(k, mode.substr(4), dlb::mpi::master_rank::computes);
    else if (mode == "fao")
      mine = run_fao(k, rank);
    else if (mode.rfind("dlb1:", 0) == 0)
      mine = run_dlb(k, mode.substr(5), dlb::mpi::master_rank::computes,
                     dlb::mpi::loop_path::one_sided);
    else if (mode.rfind("dlb2:", 0) == 0)
      mine = run_dlb(k, mode.substr(5), dlb::mpi::master_rank::computes,
                     dlb::mpi::loop_path::two_sided);
    else if (mode.rfind("dlbd:", 0) == 0)
      mine = run_dlb(k, mode.substr(5), dlb::mpi::master_rank::dedicated);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "embed_loop_bench: rank %d: %s\n", rank, e.what());
    MPI_Finalize();
    return 1;
  }
  double sum = 0;
  MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  const double wall = since(start);
  if (rank == 0)
    std::printf(
        "RESULT cell=%s/P%d/%s mode=%s loop=%s procs=%d n=%lld wall_s=%.6f loop_s=%.6f "
        "checksum=%.1f\n",
        k.name.c_str(), size, mode.c_str(), mode.c_str(), k.name.c_str(), size,
        static_cast<long long>(k.n), wall, loop_seconds >= 0 ? loop_seconds : wall, sum);
  MPI_Finalize();
  return 0;
}
