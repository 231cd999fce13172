// Simulated runs at scale (lib/README.md, "Memory of a simulated run"; experiments/configs/
// scale.conf): the memory a simulated slave's arrays hold follows what it owns (O(I/P) plus the
// slices moved to it), not the full-size arrays of the generated code (O(I) per slave, P x I per
// run); measured deterministically as the bytes in resident pages of each task's arrays
// (synthetic --report-arrays 1, dlb::task_buffer::resident_bytes), in weak scaling (I = 20 P).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

#include "run_process.hpp"

using testing_support::run_process;

namespace {

struct array_bytes {
  std::int64_t master = 0;
  std::int64_t slaves_total = 0;
  std::int64_t slaves_max = 0;
  int slaves = 0;
};

// The synthetic loop of scale.conf (uniform work, 20 iterations of 250 ms per slave, ml = 5,
// tl = 5, K = P/2, the 1996 Ethernet) under `strategy`, with every task's ARRAYS line.
array_bytes run_weak(const std::string& strategy, int procs) {
  const auto r = run_process({DLB_SYNTHETIC_APP, "--backend", "sim", "--strategy", strategy,
                              "--procs", std::to_string(procs), "--group",
                              std::to_string(procs / 2), "--iterations",
                              std::to_string(20 * procs), "--shape", "uniform", "--work-ms",
                              "250", "--ml", "5", "--tl", "5", "--seed", "1", "--network",
                              "ethernet1996", "--report-arrays", "1"},
                             300);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("verified=1"), std::string::npos) << r.out;
  array_bytes b;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    int rank = -1;
    long long bytes = -1;
    if (std::sscanf(line.c_str(), "ARRAYS rank=%d bytes=%lld", &rank, &bytes) != 2) continue;
    if (rank == 0) {
      b.master = bytes;
      continue;
    }
    ++b.slaves;
    b.slaves_total += bytes;
    b.slaves_max = std::max<std::int64_t>(b.slaves_max, bytes);
  }
  return b;
}

TEST(ScaleMemory, SlaveArraysHoldWhatTheSlaveOwns) {
  for (const std::string strategy : {"GCDLB", "LDDLB"}) {
    const array_bytes small = run_weak(strategy, 64);
    const array_bytes large = run_weak(strategy, 256);
    ASSERT_EQ(small.slaves, 64) << strategy;
    ASSERT_EQ(large.slaves, 256) << strategy;
    // The master holds the loop's arrays whole: in and out (I doubles each) and w (16).
    EXPECT_EQ(large.master, 2 * 20 * 256 * 8 + 16 * 8) << strategy;
    // A slave's full-size arrays would be 2 x 5120 doubles (80 KiB) at P = 256; it holds its
    // pages only: on average under a quarter of that, at most all of it.
    const std::int64_t full = 2 * 20 * 256 * 8;
    EXPECT_LT(large.slaves_total / 256, full / 4) << strategy;
    EXPECT_LE(large.slaves_max, full + 16 * 8 + 2 * 4096) << strategy;
    // Weak scaling: a slave owns as much at P = 256 as at 64, so the mean per slave stays
    // within 2x (its own block's pages plus those of the slices moved to it), while the arrays
    // are 4x longer; the run's total grows about like P, not like P x I (16x).
    EXPECT_LT(large.slaves_total / 256, 2 * (small.slaves_total / 64)) << strategy;
    EXPECT_LT(large.slaves_total, 8 * small.slaves_total) << strategy;
  }
}

}  // namespace
