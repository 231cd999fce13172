// Iteration ownership: block distribution, counting, the exactly-once check, splitting.
#include "dlb/core/distribution.hpp"

#include <algorithm>
#include <stdexcept>

namespace dlb::core {

std::int64_t length(const iteration_range& range) {
  return range.end > range.begin ? range.end - range.begin : 0;
}

std::int64_t iteration_count(const range_list& ranges) {
  std::int64_t n = 0;
  for (const auto& r : ranges) n += length(r);
  return n;
}

std::vector<std::int64_t> iteration_counts(const std::vector<range_list>& per_slave) {
  std::vector<std::int64_t> counts;
  counts.reserve(per_slave.size());
  for (const auto& ranges : per_slave) counts.push_back(iteration_count(ranges));
  return counts;
}

std::int64_t total_iterations(const std::vector<range_list>& per_slave) {
  std::int64_t n = 0;
  for (const auto& ranges : per_slave) n += iteration_count(ranges);
  return n;
}

std::vector<std::int64_t> equal_block_counts(std::int64_t iterations, std::size_t slaves) {
  if (slaves == 0) throw std::invalid_argument("equal_block_counts: no slaves");
  if (iterations < 0) throw std::invalid_argument("equal_block_counts: negative iteration count");
  const auto p = static_cast<std::int64_t>(slaves);
  std::vector<std::int64_t> counts(slaves, iterations / p);
  const auto remainder = static_cast<std::size_t>(iterations % p);
  for (std::size_t i = 0; i < remainder; ++i) ++counts[i];
  return counts;
}

std::vector<range_list> blocks_of(const std::vector<std::int64_t>& counts, std::int64_t first) {
  std::vector<range_list> blocks;
  blocks.reserve(counts.size());
  std::int64_t begin = first;
  for (const std::int64_t n : counts) {
    const std::int64_t end = begin + std::max<std::int64_t>(n, 0);
    // An empty block is an empty list, not an empty range, so "holds nothing" has one spelling.
    blocks.push_back(end > begin ? range_list{{begin, end}} : range_list{});
    begin = end;
  }
  return blocks;
}

distribution equal_blocks(std::int64_t iterations, std::size_t slaves) {
  return {iterations, blocks_of(equal_block_counts(iterations, slaves))};
}

bool owns_each_once(const distribution& d) {
  range_list all;
  for (const auto& ranges : d.slaves) {
    for (const auto& r : ranges) {
      if (length(r) > 0) all.push_back(r);
    }
  }
  std::sort(all.begin(), all.end(),
            [](const iteration_range& a, const iteration_range& b) { return a.begin < b.begin; });
  // Sorted non-empty ranges cover [0, I) exactly once iff they tile it with no gap or overlap.
  std::int64_t next = 0;
  for (const auto& r : all) {
    if (r.begin != next) return false;
    next = r.end;
  }
  return next == d.iterations;
}

range_list normalized(range_list ranges) {
  std::erase_if(ranges, [](const iteration_range& r) { return length(r) == 0; });
  std::sort(ranges.begin(), ranges.end(), [](const iteration_range& a, const iteration_range& b) {
    return a.begin < b.begin || (a.begin == b.begin && a.end < b.end);
  });
  range_list merged;
  for (const auto& r : ranges) {
    if (!merged.empty() && r.begin <= merged.back().end) {
      merged.back().end = std::max(merged.back().end, r.end);
    } else {
      merged.push_back(r);
    }
  }
  return merged;
}

namespace {
// Each range of `ranges` cut by the normalized `cut`: the pieces inside (keep_inside) or outside.
range_list cut_by(const range_list& ranges, const range_list& other, bool keep_inside) {
  const range_list cut = normalized(other);
  range_list out;
  for (const auto& r : ranges) {
    std::int64_t at = r.begin;
    bool any = false;
    const auto emit = [&](std::int64_t b, std::int64_t e) {
      if (e > b) {
        out.push_back({b, e});
        any = true;
      }
    };
    for (const auto& c : cut) {
      if (c.end <= at || c.begin >= r.end) continue;
      const std::int64_t b = std::max(at, c.begin), e = std::min(r.end, c.end);
      if (!keep_inside) emit(at, b);
      if (keep_inside) emit(b, e);
      at = e;
    }
    if (!keep_inside) emit(at, r.end);
    if (!keep_inside && !any) out.push_back({r.begin, r.begin});
  }
  return out;
}
}  // namespace

range_list intersection(const range_list& ranges, const range_list& other) {
  return cut_by(ranges, other, true);
}

range_list without(const range_list& ranges, const range_list& other) {
  return cut_by(ranges, other, false);
}

range_split split_front(const range_list& ranges, std::int64_t n) {
  range_split split;
  std::int64_t left = std::max<std::int64_t>(n, 0);
  for (const auto& r : ranges) {
    const std::int64_t len = length(r);
    if (len == 0) continue;
    if (left >= len) {
      split.front.push_back(r);
      left -= len;
    } else if (left > 0) {
      split.front.push_back({r.begin, r.begin + left});
      split.back.push_back({r.begin + left, r.end});
      left = 0;
    } else {
      split.back.push_back(r);
    }
  }
  return split;
}

range_split split_back(const range_list& ranges, std::int64_t n) {
  const std::int64_t total = iteration_count(ranges);
  return split_front(ranges, total - std::clamp<std::int64_t>(n, 0, total));
}

}  // namespace dlb::core
