// reduction.hpp (internal): the reproducible reduction of an index-only loop (dlb/mpi.hpp,
// session::parallel_reduce). The loop's iterations fall into fixed blocks of B iterations, B a
// function of the loop's length alone (reduction_block); the result is the blocks' partials folded
// in block order from the identity, each partial its block's values folded in iteration order from
// the identity: the same bits whichever ranks computed which iterations, in whatever chunks.
//
// Each rank feeds the values it computes to a block_reducer, in the order it computes them. A run
// of consecutive iterations that covers a whole block leaves the block's partial; the values of a
// block the rank saw only part of (a chunk that starts or ends inside it) stay raw, with their
// first iteration. At the end every rank's records go to rank 0, which refolds each split block
// from its fragments in iteration order and folds the blocks (block_reducer::fold); the result goes
// to every rank (reduce_over).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dlb/mpi.hpp"

namespace dlb::mpi_detail {

// B for a loop of `iterations` iterations: at most 1024 blocks, at least one iteration each.
std::int64_t reduction_block(std::int64_t iterations);

class block_reducer {
 public:
  // Throws usage_error for a user operation without its function.
  block_reducer(const mpi::reduction& r, std::int64_t iterations);
  // Iteration i's value (0 <= i < iterations; logic_error otherwise).
  void add(std::int64_t i, double value);
  // This rank's records (the run under way ended), to be folded with the others'.
  std::vector<double> take();
  // The result from every rank's records, concatenated in any order. Throws run_error when the
  // records do not cover every iteration exactly once.
  double fold(const std::vector<double>& records) const;
  double combine(double a, double b) const {
    switch (op_) {
      case mpi::reduce_op::sum:
        return a + b;
      case mpi::reduce_op::min:
        return b < a ? b : a;
      case mpi::reduce_op::max:
        return b > a ? b : a;
      case mpi::reduce_op::user:
        break;
    }
    return user_(a, b);
  }
  double identity() const { return identity_; }

 private:
  void flush();  // the values gathered so far: a block's partial, or a fragment
  mpi::reduce_op op_;
  std::function<double(double, double)> user_;
  double identity_;
  std::int64_t iterations_, block_;
  std::vector<double> buffer_;  // the current run's values in its current block
  std::int64_t buffer_start_ = 0, block_end_ = 0, next_ = -1;
  std::vector<double> records_;
};

// The identity of a built-in operation (the user's for reduce_op::user).
double reduction_identity(const mpi::reduction& r);

// Collective over `comm`: every rank's records folded on rank 0, the result on every rank.
// run_error when a rank does not come within the timeout (or `give_up` says so) or the records
// are wrong.
double reduce_over(MPI_Comm comm, block_reducer& reducer, double timeout_s,
                   const std::function<bool()>& give_up = {});

}  // namespace dlb::mpi_detail
