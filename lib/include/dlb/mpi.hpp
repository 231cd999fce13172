// dlb/mpi.hpp: the DLB library inside your own MPI program (CMake: find_package(DLB COMPONENTS
// mpi) and DLB::mpi; pkg-config: dlb-mpi).
//
// The program owns the process and MPI: it calls MPI_Init and MPI_Finalize, and hands the
// library a communicator, the world or a part of it. Every rank of that communicator constructs
// one session (SPMD, as started by mpirun or srun). Every rank computes: rank 0 is also the
// master, whose part the library runs between rank 0's iterations, on the program's thread
// (master_rank; master_rank::dedicated: the paper's master, which only balances). Between the
// session's construction and finish() the program runs balanced loops on it; before and after, and
// on the ranks outside the communicator all along, it uses MPI as it likes. The library's messages
// go over its own duplicate of the communicator, so they never meet the program's. A failure is a
// dlb::run_error (a bad parameter a dlb::usage_error), thrown on the ranks that learn of it; the
// library never ends the job.
//
//   MPI_Init(&argc, &argv);
//   {
//     dlb::mpi::session dlb(MPI_COMM_WORLD, {.policy = dlb::core::self_scheduled{
//                                                  dlb::core::chunk_rule::fac2}});  // or
//                                                  DLB_POLICY
//     dlb.parallel_for(loop, {&x, &y}, [&](std::int64_t i) { y(i) = f(x(i)); });
//     dlb.finish();
//   }
//   MPI_Finalize();
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dlb/dlb.hpp"

namespace dlb::mpi {

// Whether rank 0, the master, also computes a share of the iterations.
enum class master_rank {
  // Every rank a worker: np ranks run np slaves, rank 0 the master and slave P at once; the
  // master's part (profiles, decisions, chunk answers) runs on the program's thread, between the
  // iterations of rank 0's own share and while it waits (no thread of the library; MPI is
  // called from the program's thread only; native clock only).
  computes,
  // The paper's layout: rank 0 balances only, np ranks run np-1 slaves.
  dedicated
};

// How the run keeps time.
enum class clock_kind {
  native,   // real time: ranks on any hosts
  emulated  // the paper's 1996 workstations and Ethernet: every rank on one host, a dedicated
            // master
};

// Which path an index-only self-scheduled loop takes (session_params::path; docs/library.md, "The
// one-sided path").
enum class loop_path {
  // One-sided where it can run and is safe (a rule whose chunks follow from the request count
  // alone, no arrays, the native clock, every rank on one node), else two-sided (said once on
  // every rank, unless quiet, where only the node or the window stood in the way).
  automatic,
  two_sided,  // every chunk through the master (rank 0's runtime)
  // The iteration counter in an MPI window on rank 0, each rank taking its next chunk with one
  // MPI_Fetch_and_op: a usage_error on every rank for a loop it cannot run or a window that
  // cannot be made.
  one_sided
};

// The operation of a reproducible reduction (session::parallel_reduce).
enum class reduce_op { sum, min, max, user };

struct reduction {
  reduce_op op = reduce_op::sum;
  // reduce_op::user: the operation and its identity (combine(identity, x) == x); the ranks
  // compare `name` (and the operation) before the loop runs.
  std::function<double(double, double)> combine;
  double identity = 0.0;
  std::string name;
};

// The session's parameters, typed, checked when the session is made (a dlb::usage_error naming
// the field, the same on every rank, before any MPI call).
struct session_params {
  // The policy (dlb/core/policy.hpp): no balancing, a balancing strategy (a row of
  // dlb::core::balancing_rows), a customized mode (AUTO, ADAPTIVE, AUTO-ALL) or a self-scheduling
  // rule (a row of dlb::core::chunk_rules; dlb::core::known_policy_names() lists every name), as
  // a value: dlb::core::self_scheduled{dlb::core::chunk_rule::fac2}, or from text
  // (a configuration file, the program's command line) dlb::core::parse_policy("AUTO-ALL").
  // AUTO-ALL may carry its candidates: dlb::core::customized{dlb::core::customized_mode::auto_all,
  // {gss, fac2}} (none: --candidates', by default every policy). Run as it is, never as text; a
  // bad one (CSS's chunk 0, a candidate that may be none) is a dlb::usage_error, and so is a
  // policy given here and in `options` too (--strategy, or --candidates beside candidates).
  // Empty: the environment's DLB_POLICY, as OMP_SCHEDULE is for OpenMP's schedule(runtime);
  // neither set: the library's default (GDDLB).
  std::optional<core::policy> policy;
  // K, the group size of the local strategies; 0: the default (P/2).
  int group = 0;
  // Rank 0 computes too (every rank a worker), or only balances (the paper's master).
  master_rank master = master_rank::computes;
  clock_kind clock = clock_kind::native;
  // The bound on every wait of the run, making the session included (--timeout); positive.
  std::chrono::duration<double> timeout = std::chrono::seconds(120);
  // No lines from the library but errors (--quiet).
  bool quiet = false;
  // The self-scheduling rules (--prefetch): a worker asks for its next chunk when this fraction
  // of its current chunk is left, so that the answer comes while it computes; in [0, 1). 0, the
  // default: when its chunk is done (and slave P on rank 0 takes its chunks from the master by a
  // function call, which prefetch does not).
  double prefetch = 0.0;
  // The path of the index-only self-scheduled loops (loop_path).
  loop_path path = loop_path::automatic;
  // Any other option of the runtime, as on a DLB program's command line (read once, when the
  // session is made): {"--threshold-pct", "5"}. A session simulates no external load unless
  // asked ({"--ml", "5"}: the paper's experiments'), and under the native clock loop_spec::work
  // only tells the cost model what an iteration costs relative to the others (the library
  // measures the real time).
  std::vector<std::string> options;
  // Names the program in the library's lines.
  std::string name = "dlb";
  // Where the library's lines go (dlb/runtime/runtime.hpp); empty: stdout and stderr.
  report_sink report;
};

// A policy from text (a configuration file, the program's command line): any name
// dlb::core::parse_policy reads, as session_params::policy; "" gives nothing (the environment's
// DLB_POLICY, else the default). Throws dlb::usage_error naming the known policies otherwise.
std::optional<core::policy> parse_policy(std::string_view text);

class session {
 public:
  // Collective over `comm` (an intracommunicator of at least 2 ranks), between the program's
  // MPI_Init and MPI_Finalize: the library calls neither. Throws usage_error for a bad parameter,
  // MPI_COMM_NULL, or MPI not initialized or already finalized (the same on every rank), and
  // run_error when the set-up fails, among others when a rank of `comm` has not made its session
  // within the run's --timeout, and usage_error when the ranks' parameters differ (policy, group,
  // master, clock, timeout: docs/library.md, "What the library checks"). Each session runs on a
  // duplicate of `comm` of its own, so a session that failed leaves nothing that a later one, or
  // the program, could receive.
  explicit session(MPI_Comm comm, session_params params = {});
  // Ends the run as finish() does, if the program did not (errors swallowed: destructors never
  // throw); while an exception unwinds, tells the other ranks that this one failed.
  ~session();
  session(const session&) = delete;
  session& operator=(const session&) = delete;

  // Rank 0 holds the master (under master_rank::computes, also slave P).
  bool master() const;
  int rank() const;  // in `comm`
  // P: the communicator's ranks (master_rank::computes) or one less (dedicated).
  int slaves() const;
  // The run's parameters (the policy in run_params::policy) and the DLB_* calls' runtime.
  dlb::runtime& runtime();

  // One balanced loop (dlb::parallel_for on this session), collective over `comm`: `body(i)` runs
  // for every iteration on the slaves, the arrays are scattered, moved and gathered to the
  // master. Returns the loop's statistics on the master (empty on the slaves). Before it runs,
  // every rank checks that the others run the same loop (its number in the session, its length,
  // distribution and arrays) within the timeout: a usage_error on every rank naming what differs
  // and on which ranks (after finish(): a usage_error too). Throws run_error when the run fails;
  // the session is then over (finish() throws the same).
  run_stats parallel_for(const loop_spec& loop, const std::vector<array_ref>& arrays,
                         const std::function<void(std::int64_t)>& body);

  // An index-only loop (collective, as parallel_for with no arrays) whose body returns iteration
  // i's value: the values reduced by `r` in iteration order by fixed blocks (docs/library.md,
  // "Reproducible reductions"), so the result is bitwise the same under every policy, every P and
  // both paths; returned on every rank. The ranks' operations (op, and name for a user one) must
  // agree: a usage_error on every rank otherwise. `stats`, if given, gets parallel_for's result.
  double parallel_reduce(const loop_spec& loop, const reduction& r,
                         const std::function<double(std::int64_t)>& body,
                         run_stats* stats = nullptr);

  // Collective: the end of the library's part (every rank's messages delivered, the ranks
  // met); the communicator is the program's alone again. Throws run_error if the run failed,
  // usage_error if other ranks run a loop instead.
  void finish();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
  // Every rank states the next step (a loop, or finish) and checks that the others state the same.
  void agree(int what, const loop_spec* loop, const std::vector<array_ref>& arrays,
             const reduction* r = nullptr);
  run_stats run_loop(const loop_spec& loop, const std::vector<array_ref>& arrays,
                     const std::function<void(std::int64_t)>& body, const reduction* r);
  // Whether this loop takes the one-sided path (every rank alike; one_sided.cpp): throws
  // usage_error where session_params::path requires it and it cannot run.
  bool one_sided_path(const loop_spec& loop, bool arrays);
  // The loop on the one-sided path: its statistics (rank 0's; empty on the others), nothing when
  // the window could not be made and the path was the library's choice.
  std::optional<run_stats> run_one_sided(const loop_spec& loop,
                                         const std::function<void(std::int64_t)>& body);
  // The one line on every rank (unless quiet) saying that loops take the two-sided path, and why.
  void say_two_sided(const std::string& why);
  run_stats colocated(const loop_spec& loop, const std::vector<array_ref>& arrays,
                      const std::function<void(std::int64_t)>& body, bool& body_threw);
};

}  // namespace dlb::mpi
