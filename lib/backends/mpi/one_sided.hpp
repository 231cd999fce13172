// one_sided.hpp (internal): the one-sided path of an index-only self-scheduled loop. The chunk
// rules whose k-th chunk is a function of k alone (whoever asks: SS, CSS:k, GSS, TSS, FAC2 with
// its equal batches, MFSC) need no master: every rank computes
// the same table of chunks from core's chunk_dispenser, a counter of requests lives in an MPI
// window on rank 0, and each rank takes its next chunk with one MPI_Fetch_and_op on it, then runs
// the body locally. The rules that follow the master's measurements (AWF and its variants, AF),
// WF's speeds, FSC's h and sigma (from the master's model of the iterations' costs), the balancing
// strategies and the customized modes keep the two-sided path. Every input of the choice is one
// the ranks have agreed on (the policy, the clock, the path, whether the loop moves arrays), so
// every rank takes the same path.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dlb/core/policy.hpp"
#include "dlb/mpi.hpp"
#include "dlb/stats.hpp"

namespace dlb::mpi_detail {

// The chunks of one loop under one rule, run-length encoded: chunk k (0-based, in request
// order) starts at `start + (k - first) * size` in the run that holds it.
class chunk_table {
 public:
  struct run {
    std::int64_t first = 0;  // the run's first chunk number
    std::int64_t count = 0;  // its chunks, each of `size` iterations
    std::int64_t start = 0;  // the first chunk's first iteration
    std::int64_t size = 0;
  };
  // The chunks of `iterations` iterations over `workers` workers under a rule one_sided_rule
  // accepts (core::chunk_dispenser's sizes, in its order). Throws std::invalid_argument as the
  // dispenser does.
  chunk_table(const core::policy& policy, std::int64_t iterations, std::size_t workers);
  std::int64_t chunks() const { return chunks_; }
  // Chunk k's [begin, end); k < chunks().
  std::pair<std::int64_t, std::int64_t> chunk(std::int64_t k) const;
  const std::vector<run>& runs() const { return runs_; }
  // Every chunk's size, in order (run_stats::chunks).
  std::vector<std::int64_t> sizes() const;

 private:
  std::vector<run> runs_;
  std::int64_t chunks_ = 0;
};

// Whether the policy's chunks are a function of the request count alone (the one-sided path can
// run it).
bool one_sided_rule(const core::policy& policy);

// Why the one-sided path cannot run this loop ("" when it can): the policy, arrays, the clock.
std::string one_sided_refusal(const core::policy& policy, bool has_arrays, bool emulated_clock);

// Whether every rank of `comm` shares memory with the others (MPI_COMM_TYPE_SHARED): where a
// window from MPI_Win_allocate_shared makes progress without the target calling MPI (collective).
bool on_one_node(MPI_Comm comm);

// What a session knows of its paths across its loops.
struct path_state {
  mpi::loop_path path = mpi::loop_path::automatic;
  bool emulated = false;
  bool rank0_computes = true;
  std::optional<bool> one_node;  // on_one_node, asked once
  std::string two_sided_why;     // set once the library chose the two-sided path for good
  bool said = false;             // the line saying so is out
};

// Whether the loop takes the one-sided path, every rank alike (collective: on_one_node, the first
// time). Throws usage_error where state.path is one_sided and the loop cannot take it; sets
// `say` to the line to report (once per session) where the library's choice fell back.
bool choose_one_sided(path_state& state, MPI_Comm comm, const core::policy& policy, bool has_arrays,
                      std::string& say);

struct one_sided_loop {
  MPI_Comm comm = MPI_COMM_NULL;  // the session's communicator (every rank calls)
  bool rank0_computes = true;     // master_rank::computes
  bool shared = true;             // the window in shared memory (on_one_node)
  double timeout_s = 120;
  core::policy policy;
  std::int64_t iterations = 0;
  // Called with each chunk's [begin, end) on the rank that took it, in the order taken.
  std::function<void(std::int64_t, std::int64_t)> chunk;
};

// The outcome on every rank: `window_failed` when the window could not be made on some rank
// (nothing ran: the caller falls back or refuses, on every rank alike); else the loop ran, and
// `stats` is the loop's on rank 0. Throws (on every rank) when a rank's body threw: the thrower
// its own exception, the others a run_error naming it; run_error when a rank does not come to the
// loop's end within the timeout.
struct one_sided_outcome {
  bool window_failed = false;
  std::string why;  // the window's failure, as MPI says it
  std::optional<run_stats> stats;
};
one_sided_outcome run_one_sided(const one_sided_loop& loop);

}  // namespace dlb::mpi_detail
