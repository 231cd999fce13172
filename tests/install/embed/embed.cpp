// embed.cpp: an outside MPI program with the installed DLB library inside (ctest
// install_embed_mpi, tests/install/run_embed_test.sh): the program owns MPI. It calls MPI_Init,
// an MPI_Allreduce on the world, then on a sub-communicator (every rank but the world's last,
// which keeps to its own MPI meanwhile; the world itself for 3 ranks or fewer) two balanced
// loops, the first under the policy of the environment's DLB_POLICY, the second under AUTO-ALL,
// then a collective on the same communicator and one on the world, and MPI_Finalize. It checks
// every result and prints "embed: rank R: OK" on each rank.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "dlb/mpi.hpp"

namespace {

int failures = 0;
void check(bool ok, const char* what, int rank) {
  if (!ok) {
    std::printf("embed: rank %d: FAILED: %s\n", rank, what);
    ++failures;
  }
}

double value(std::int64_t i) {
  return std::sqrt(static_cast<double>(i)) + 0.5 * static_cast<double>(i % 7);
}

// y[i] = value(i) * scale over `n` iterations of uneven cost, balanced on `s`; true on the
// master when every element is right (the slaves check nothing: the gather is to the master).
// `stats`: the loop's, on the master.
bool balanced_loop(dlb::mpi::session& s, std::int64_t n, double scale,
                   dlb::run_stats* stats = nullptr) {
  std::vector<double> y(static_cast<std::size_t>(n), 0.0);
  auto Y = dlb::DLB_array::of("y", y.data(), n, 1, dlb::data_distribution::block);
  Y.input = false;
  Y.output = true;
  dlb::loop_spec loop;
  loop.iterations = n;
  loop.work = [](std::int64_t i) { return 1e-4 * static_cast<double>(1 + i % 5); };
  const dlb::run_stats st = s.parallel_for(
      loop, {&Y}, [&](std::int64_t i) { y[static_cast<std::size_t>(i)] = value(i) * scale; });
  if (!s.master()) return true;
  if (stats) *stats = st;
  for (std::int64_t i = 0; i < n; ++i)
    if (y[static_cast<std::size_t>(i)] != value(i) * scale) return false;
  return true;
}

}  // namespace

// DLB_EMBED_FAIL=1: the body throws on the communicator's last rank (=0: on rank 0, which
// computes as slave P while its master part runs beside), at the first iteration that rank
// computes (not at a fixed index: balancing may move any later iteration away from it,
// and then nothing would throw). Every rank must catch an exception (that rank its own, the
// others a dlb::run_error) and the program go on to a collective and MPI_Finalize: the library
// never aborts the job. Prints "caught" per rank.
int failing_run(int thrower) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int caught = 0;
  try {
    dlb::mpi::session s(MPI_COMM_WORLD,
                        {.policy = dlb::core::parse_policy("GCDLB"), .quiet = true});
    std::vector<double> y(200, 0.0);
    auto Y = dlb::DLB_array::of("y", y.data(), 200, 1, dlb::data_distribution::block);
    Y.input = false;
    Y.output = true;
    dlb::loop_spec loop;
    loop.iterations = 200;
    loop.work = [](std::int64_t) { return 1e-4; };
    int computed_here = 0;
    s.parallel_for(loop, {&Y}, [&](std::int64_t i) {
      if (s.rank() == (thrower < 0 ? size - 1 : thrower) && ++computed_here == 1)
        throw std::runtime_error("the body failed");
      y[static_cast<std::size_t>(i)] = 1.0;
    });
    s.finish();
  } catch (const dlb::run_error& e) {
    caught = 1;
  } catch (const std::exception& e) {
    caught = rank == (thrower < 0 ? size - 1 : thrower) ? 1 : 0;
  }
  int all = 0;
  MPI_Allreduce(&caught, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (all == size) std::printf("embed: rank %d: caught\n", rank);
  MPI_Finalize();
  return all == size ? 0 : 1;
}

// The library's defaults on communicator `part`: the policy from the environment (DLB_POLICY),
// every rank a worker, no simulated load; one loop, whose result it returns.
bool every_rank_a_worker(MPI_Comm part, int part_rank, int part_size, int world_rank) {
  // The policy from the environment (DLB_POLICY), as OMP_SCHEDULE.
  dlb::mpi::session s(part, {.quiet = true});
  const char* env = std::getenv("DLB_POLICY");
  check(env && dlb::core::to_string(s.runtime().params().policy) == env, "the policy of DLB_POLICY",
        world_rank);
  check(s.master() == (part_rank == 0), "rank 0 of the communicator is the master", world_rank);
  // The default: every rank a worker, rank 0 also slave P.
  check(s.slaves() == part_size, "P is the communicator's ranks", world_rank);
  // A real program's default: no simulated external load (the paper's ml = 5 is asked for).
  check(s.runtime().params().load.max_load == 0, "no simulated load by default", world_rank);
  dlb::run_stats st;
  const bool ok = balanced_loop(s, 300, 2.0, &st);
  if (part_rank == 0) {
    check(st.slaves.size() == static_cast<std::size_t>(part_size) &&
              st.slaves.back().iterations_done > 0,
          "rank 0 computed iterations of its own (slave P)", world_rank);
  }
  s.finish();
  return ok;
}

// The job's end: no rank may have failed; this rank's exit status.
int finish(int world_rank) {
  int all_failures = 0;
  MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  check(all_failures == failures && all_failures == 0, "no rank failed", world_rank);
  if (failures == 0) std::printf("embed: rank %d: OK\n", world_rank);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (const char* f = std::getenv("DLB_EMBED_FAIL"); f && *f)
    return failing_run(std::string(f) == "0" ? 0 : -1);
  int world_rank = 0, world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);

  // The program's own MPI before the library.
  int sum = 0, one = 1;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  check(sum == world_size, "MPI_Allreduce before the session", world_rank);

  // The library on a part of the world: every rank but the last (the world itself when the
  // job has 3 ranks or fewer).
  const bool split = world_size > 3;
  const int color = split && world_rank == world_size - 1 ? MPI_UNDEFINED : 0;
  MPI_Comm part = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, color, world_rank, &part);
  if (part != MPI_COMM_NULL) {
    int part_rank = 0, part_size = 0;
    MPI_Comm_rank(part, &part_rank);
    MPI_Comm_size(part, &part_size);
    bool ok1 = false, ok2 = false;
    try {
      ok1 = every_rank_a_worker(part, part_rank, part_size, world_rank);
      {
        // The paper's layout, one parameter away: rank 0 balances only.
        dlb::mpi::session s(part, {.policy = dlb::core::parse_policy("AUTO-ALL"),
                                   .master = dlb::mpi::master_rank::dedicated,
                                   .quiet = true});
        check(s.slaves() == part_size - 1, "P is the communicator's ranks less one (dedicated)",
              world_rank);
        ok2 = balanced_loop(s, 500, 3.0);
        s.finish();
      }
    } catch (const std::exception& e) {
      std::printf("embed: rank %d: FAILED: %s\n", world_rank, e.what());
      ++failures;
    }
    if (part_rank == 0) {
      check(ok1, "the first loop's result", world_rank);
      check(ok2, "the AUTO-ALL loop's result", world_rank);
    }
    // Another collective on the same communicator: the master's verdict to every rank of it.
    int verdict = part_rank == 0 && ok1 && ok2 ? 1 : 0;
    MPI_Bcast(&verdict, 1, MPI_INT, 0, part);
    check(verdict == 1, "the master's verdict, broadcast on the communicator", world_rank);
    MPI_Comm_free(&part);
  } else {
    // Outside the library's communicator: the program's own MPI meanwhile.
    int token = 42;
    MPI_Bcast(&token, 1, MPI_INT, 0, MPI_COMM_SELF);
    check(token == 42, "MPI on the rank outside", world_rank);
  }

  return finish(world_rank);
}
