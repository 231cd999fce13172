// agreement.hpp (internal): what every rank of a session states before it acts, and what a set
// of such statements means (pure: no MPI; session_comm.hpp exchanges them).
//
// Before the session is made, before every loop and before finish(), each rank states what it
// is about to do: a `statement` of fixed size (so one MPI_Iallgather of bytes carries it) with
// the step (session, loop or finish), the session's sequence number on the communicator, the
// loop's number in the session, its length and arrays, and the session's parameters. The ranks
// agree when every statement is the same; otherwise the first field that differs, with the ranks
// that gave each value, is the usage error every rank reports ("the loop's iterations: rank 2
// has 300, ranks 0-1 have 400"), before any data moves.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlb::mpi_detail {

// What a rank is about to do: the step and the values of `field`.
enum class step : std::int64_t { session = 0, loop = 1, finish = 2 };

enum class field : int {
  what,             // the step
  session,          // the session's sequence number on the communicator (0, 1, ...)
  loop,             // the loop's number in the session (0, 1, ...)
  iterations,       // the loop's length
  distribution,     // the loop's initial distribution (block 0, cyclic 1)
  arrays,           // how many arrays the loop moves
  array_shapes,     // a digest of every array's element type, extents and roles
  master_computes,  // the session's layout (1: rank 0 computes too)
  emulated,         // the session's clock (1: emulated)
  group,            // K as given (0: P/2)
  timeout_ms,       // the session's --timeout, in ms
  path,             // session_params::path (loop_path: 0 automatic, 1 two-sided, 2 one-sided)
  reduction,        // the loop's reduction: -1 none (parallel_for), else mpi::reduce_op
  reduction_name,   // a digest of a user reduction's name (0 otherwise)
  count
};

constexpr int field_count = static_cast<int>(field::count);

struct statement {
  std::array<std::int64_t, field_count> values{};
  std::array<char, 48> policy{};  // the session's policy's name ("" before a loop), NUL-ended
  std::array<char, 80> shapes{};  // the arrays as text ("y f64 200x2 out"), cut to fit

  std::int64_t& operator[](field f) { return values[static_cast<std::size_t>(f)]; }
  std::int64_t operator[](field f) const { return values[static_cast<std::size_t>(f)]; }
  void set_policy(const std::string& name);
  std::string policy_name() const;
  void set_shapes(const std::string& text);
  std::string shapes_text() const;
};

// The ranks that gave one value of the field that differs.
struct faction {
  std::string value;
  std::vector<int> ranks;
};

struct disagreement {
  std::string field;              // "the loop's iterations", "the policy", ...
  std::vector<faction> factions;  // the smallest first (then by first rank)
};

// The first field (in `field` order, the policy last) on which the statements (by rank) differ,
// nothing when they all agree.
std::optional<disagreement> find_disagreement(const std::vector<statement>& by_rank);

// "the loop's iterations: rank 2 has 300, ranks 0-1 have 400".
std::string describe(const disagreement& d);

// "rank 2", "ranks 0-1", "ranks 0, 2-3".
std::string rank_list(const std::vector<int>& ranks);

// An order-dependent digest of 64-bit values (FNV-1a over their bytes).
std::int64_t digest(const std::vector<std::int64_t>& values);

}  // namespace dlb::mpi_detail
