// The paper's constants, in one place, each with the section of the paper (the book chapter,
// Zaki, Parthasarathy and Li, "Customized Dynamic Load Balancing", the extended version of the
// HPDC 1996 paper "Customized Dynamic Load Balancing for a Network of Workstations") that states it. Everything else in the tree that means one of these
// values names it from here; what the paper does not state (tl, the split of a message's cost,
// the move threshold, delta, ...) is ours, and its default is written beside its option with its
// source (docs/deviations.md).
#pragma once

namespace dlb::paper {

// Section 1.5.1, Network Characterization: "The latency obtained with PVM is 2414.5 us, and
// bandwidth is 0.96 Mbytes/s" (one-way time of a 1-byte message; bytes per second).
inline constexpr double latency_s = 2414.5e-6;
inline constexpr double bandwidth_Bps = 0.96e6;

// Section 1.3.1, Maximum Load: "In our experiments, we set ml = 5" (load uniform in 0..ml).
inline constexpr int max_load = 5;

// Section 1.2, Work Movement: redistribute "as long as the potential benefit ... results in at
// least a 10% improvement (empirically, this number worked well)".
inline constexpr double min_improvement = 0.10;

// Section 1.5.2: "The local strategies used two groups", i.e. K = P / 2.
inline constexpr int local_groups = 2;

}  // namespace dlb::paper
