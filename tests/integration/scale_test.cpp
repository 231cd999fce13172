// Simulated runs at scale (docs/design/scale.md, "Simulated runs at scale"; experiments/configs/
// scale.conf): the memory a simulated slave's arrays hold follows what it owns (O(I/P) plus the
// slices moved to it), not the full-size arrays of the generated code (O(I) per slave, P x I per
// run); measured deterministically as the bytes in resident pages of each task's arrays
// (synthetic --report-arrays 1, dlb::task_buffer::resident_bytes), in weak scaling (I = 20 P);
// and the interrupts of a synchronization (docs/design/scale.md, "Simulated runs at scale"): one
// synchronization per epoch, one interrupt per slave and epoch, each to the K - 1 others.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "run_process.hpp"

namespace fs = std::filesystem;

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

// GCDLB at P = 256 (scale.conf's synthetic loop), every message traced: the interrupts of one
// synchronization all name its epoch (no interrupt starts a second synchronization), no slave
// interrupts twice in one epoch, each interrupt goes to the 255 others. Extra interrupters of an
// epoch are slaves that ran out before the first interrupt reached them: at epoch 1 as many as
// ran out while the first synchronization's DECISION to all 256 slaves held the shared medium;
// at most 2 at every other epoch.
TEST(ScaleInterrupts, OneSynchronizationPerEpochOneInterruptPerSlave) {
  const fs::path dir = fs::temp_directory_path() / ("dlb_scale_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto r = run_process({DLB_SYNTHETIC_APP, "--backend", "sim", "--strategy", "GCDLB",
                              "--procs", "256", "--group", "128", "--iterations", "5120",
                              "--shape", "uniform", "--work-ms", "250", "--ml", "5", "--tl", "5",
                              "--seed", "1", "--network", "ethernet1996", "--trace-dir",
                              dir.string()},
                             300);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  long long syncs = -1;
  const auto at = r.out.find(" syncs=", r.out.find("RESULT "));
  ASSERT_NE(at, std::string::npos) << r.out;
  syncs = std::stoll(r.out.substr(at + 7));
  std::map<std::pair<int, int>, int> copies;  // (from, epoch) -> interrupt messages
  for (int rank = 1; rank <= 256; ++rank) {
    std::ifstream in(dir / ("messages." + std::to_string(rank) + ".csv"));
    ASSERT_TRUE(in) << rank;
    std::string line;
    while (std::getline(in, line)) {
      // time,from,to,type,bytes,loop,group,epoch
      std::vector<std::string> f;
      std::stringstream ls(line);
      for (std::string x; std::getline(ls, x, ',');) f.push_back(x);
      if (f.size() != 8 || f[3] != "interrupt") continue;
      ++copies[{std::stoi(f[1]), std::stoi(f[7])}];
    }
  }
  fs::remove_all(dir);
  std::map<int, int> interrupters;  // epoch -> slaves that interrupted in it
  for (const auto& [key, n] : copies) {
    EXPECT_EQ(n, 255) << "slave " << key.first << ", epoch " << key.second;
    ++interrupters[key.second];
  }
  ASSERT_FALSE(interrupters.empty());
  // Epochs 0 .. syncs - 1, each one synchronization.
  EXPECT_EQ(static_cast<long long>(interrupters.size()), syncs);
  EXPECT_EQ(interrupters.rbegin()->first, syncs - 1);
  EXPECT_EQ(interrupters[0], 1);
  // Epoch 1's extra interrupters are slaves that ran out before the first interrupt reached
  // them (it queues behind the first synchronization's DECISION to every slave): how many
  // depends on the medium's queue, not a count to pin; never all of them.
  EXPECT_GE(interrupters[1], 1);
  EXPECT_LT(interrupters[1], 256);
  for (const auto& [epoch, n] : interrupters) {
    if (epoch >= 2) {
      EXPECT_LE(n, 2) << "epoch " << epoch;
    }
  }
}

}  // namespace
