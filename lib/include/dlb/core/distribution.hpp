// Ownership of the iterations of one do-all loop, [0, I), among the slaves.
//
// A slave starts with one block (chi_i(0) = I/P) and may hold several ranges after work moves;
// it works through its list front to back, so list order is work order, not index order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dlb::core {

// Half-open [begin, end); an empty or inverted range holds nothing.
struct iteration_range {
  std::int64_t begin = 0;
  std::int64_t end = 0;

  friend bool operator==(const iteration_range&, const iteration_range&) = default;
};

using range_list = std::vector<iteration_range>;

struct distribution {
  std::int64_t iterations = 0;     // I: the loop is [0, iterations)
  std::vector<range_list> slaves;  // slaves[i]: what slave i holds, in work order

  friend bool operator==(const distribution&, const distribution&) = default;
};

std::int64_t length(const iteration_range& range);
std::int64_t iteration_count(const range_list& ranges);
std::vector<std::int64_t> iteration_counts(const std::vector<range_list>& per_slave);
std::int64_t total_iterations(const std::vector<range_list>& per_slave);

// chi_i(0): I/P each, the remainder going one apiece to the first slaves, so counts differ by at
// most one and lower slaves never hold less. Throws std::invalid_argument for slaves == 0 or I < 0.
std::vector<std::int64_t> equal_block_counts(std::int64_t iterations, std::size_t slaves);
// Consecutive blocks with equal_block_counts: slave 0 holds the front of the loop.
distribution equal_blocks(std::int64_t iterations, std::size_t slaves);
// Consecutive blocks of the given sizes, in slave order, starting at `first`.
std::vector<range_list> blocks_of(const std::vector<std::int64_t>& counts, std::int64_t first = 0);

// True iff every iteration of [0, I) is held by exactly one slave and nothing outside it is held.
bool owns_each_once(const distribution& d);

// Sorted by begin, empty ranges dropped, touching or overlapping ranges merged. Loses the work
// order, so use it to compare or to store, not on a list a slave is working through.
range_list normalized(range_list ranges);

// The iterations of `ranges` that are also in `other`, in the work order of `ranges`.
range_list intersection(const range_list& ranges, const range_list& other);
// `ranges` without the iterations of `other`, in the work order of `ranges`; a range that loses
// all its iterations stays as an empty range at its begin (so a slave's current range, element
// 0, keeps its place and its begin).
range_list without(const range_list& ranges, const range_list& other);

struct range_split {
  range_list front;
  range_list back;
};
// front: the first n iterations in work order (n clamped to [0, count]); back: the rest.
range_split split_front(const range_list& ranges, std::int64_t n);
// back: the last n iterations in work order (n clamped to [0, count]); front: the rest.
range_split split_back(const range_list& ranges, std::int64_t n);

}  // namespace dlb::core
