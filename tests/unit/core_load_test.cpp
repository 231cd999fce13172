// Unit tests of the external load function and exact work integration across load blocks.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "dlb/core/load.hpp"

namespace dlb::core {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(Splitmix64, MatchesThePublishedReferenceSequence) {
  // SplitMix64 seeded with 0 (Vigna's splitmix64.c): the n-th output is the mix of n * gamma.
  constexpr std::uint64_t gamma = 0x9e3779b97f4a7c15ULL;
  EXPECT_EQ(splitmix64(0), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(splitmix64(gamma), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(splitmix64(2 * gamma), 0x06c45d188009454fULL);
  EXPECT_EQ(splitmix64(3 * gamma), 0xf88bb8a8724c81ecULL);
}

TEST(LoadBlock, IsTheZeroBasedPersistenceBlock) {
  struct row {
    double t;
    double tl;
    std::int64_t expected;
  };
  const std::vector<row> table = {
      {0.0, 1.0, 0}, {0.999, 1.0, 0}, {1.0, 1.0, 1},
      {5.0, 2.0, 2}, {-0.5, 1.0, -1}, {100.0, kInf, 0},  // infinite persistence: one block forever
  };
  for (const auto& r : table) EXPECT_EQ(load_block(r.t, r.tl), r.expected) << r.t << "/" << r.tl;
}

TEST(HashedLoad, StaysInZeroToMaxLoadAndIsAPureFunction) {
  for (const int ml : {0, 1, 5}) {
    for (std::size_t slave = 0; slave < 4; ++slave) {
      for (std::int64_t block = -3; block < 200; ++block) {
        const int l = load_in_block(42, slave, block, ml);
        ASSERT_GE(l, 0);
        ASSERT_LE(l, ml);
        ASSERT_EQ(l, load_in_block(42, slave, block, ml));  // no hidden state
      }
    }
  }
  EXPECT_THROW(load_in_block(1, 0, 0, -1), std::invalid_argument);
}

TEST(HashedLoad, IsRoughlyUniform) {
  // 60000 draws over 0..5: each value expects 10000; a fair die stays within +-400 (about four
  // standard deviations, sqrt(60000 * 1/6 * 5/6) = 91) with overwhelming probability.
  std::array<int, 6> histogram{};
  for (std::size_t slave = 0; slave < 6; ++slave) {
    for (std::int64_t block = 0; block < 10000; ++block)
      ++histogram[load_in_block(7, slave, block, 5)];
  }
  for (const int count : histogram) {
    EXPECT_GT(count, 9600);
    EXPECT_LT(count, 10400);
  }
}

TEST(HashedLoad, ConsecutiveBlocksLookIndependent) {
  // Over 36000 pairs of consecutive blocks each of the 36 (l_k, l_k+1) combinations expects
  // 1000 (standard deviation about 31); a key that reached the result without mixing, e.g.
  // (x ^ k) % 6, would never repeat a value between blocks 2j and 2j + 1.
  std::array<std::array<int, 6>, 6> pairs{};
  for (std::size_t slave = 0; slave < 6; ++slave) {
    for (std::int64_t block = 0; block < 6000; ++block) {
      ++pairs[load_in_block(11, slave, block, 5)][load_in_block(11, slave, block + 1, 5)];
    }
  }
  for (const auto& row : pairs) {
    for (const int count : row) {
      EXPECT_GT(count, 850);
      EXPECT_LT(count, 1150);
    }
  }
}

TEST(HashedLoad, DependsOnSeedSlaveAndBlock) {
  // Each comparison is over 100 blocks: equal sequences would mean the key part is ignored.
  int seed_differs = 0, slave_differs = 0, swapped_differs = 0;
  for (std::int64_t b = 0; b < 100; ++b) {
    seed_differs += load_in_block(1, 0, b, 5) != load_in_block(2, 0, b, 5);
    slave_differs += load_in_block(1, 0, b, 5) != load_in_block(1, 1, b, 5);
    swapped_differs +=
        load_in_block(1, 3, b, 5) != load_in_block(1, static_cast<std::size_t>(b), 3, 5);
  }
  EXPECT_GT(seed_differs, 50);
  EXPECT_GT(slave_differs, 50);
  EXPECT_GT(swapped_differs, 50);
}

TEST(HashedLoad, LoadAtReadsTheBlockOfTheTime) {
  struct row {
    double t;
    std::int64_t block;
  };
  const std::vector<row> table = {{0.0, 0}, {1.49, 0}, {1.5, 1}, {2.9, 1}, {3.0, 2}, {45.1, 30}};
  for (const auto& r : table) {
    EXPECT_EQ(load_at(99, 2, r.t, 1.5, 5), load_in_block(99, 2, r.block, 5)) << "t=" << r.t;
  }
  EXPECT_THROW(load_at(99, 2, 1.0, 0.0, 5), std::invalid_argument);
}

TEST(EffectiveSpeed, IsSpeedOverLoadPlusOne) {
  EXPECT_DOUBLE_EQ(effective_speed(1.0, 0), 1.0);
  EXPECT_DOUBLE_EQ(effective_speed(1.0, 5), 1.0 / 6.0);
  EXPECT_DOUBLE_EQ(effective_speed(2.0, 1), 1.0);
}

// A hand-made load: blocks of tl = 2 s with loads 0, 1, 3 (then 3 forever). At S = 1 the
// rates are 1, 1/2, 1/4 base seconds per second: [0,2) rate 1, [2,4) rate 0.5, [4,...) 0.25.
load_function staircase() {
  load_function load;
  load.persistence = 2.0;
  load.table = {{0, 1, 3}, {}};
  return load;
}

TEST(TableLoad, HoldsTheLastValueAndTreatsAnEmptyRowAsNoLoad) {
  const load_function load = staircase();
  EXPECT_EQ(load_at(load, 0, 0.5), 0);
  EXPECT_EQ(load_at(load, 0, 2.0), 1);
  EXPECT_EQ(load_at(load, 0, 5.0), 3);
  EXPECT_EQ(load_at(load, 0, 1000.0), 3);
  EXPECT_EQ(load_at(load, 1, 3.0), 0);
  EXPECT_THROW(load_at(load, 2, 3.0), std::invalid_argument);
}

TEST(TableLoad, WorkDoneIntegratesAcrossBlocks) {
  struct row {
    double speed;
    double t0;
    double t1;
    double expected;
  };
  const std::vector<row> table = {
      {1, 0, 2, 2.0},   // block 0 only
      {1, 0, 4, 3.0},   // 2*1 + 2*0.5
      {1, 1, 5, 2.25},  // 1*1 + 2*0.5 + 1*0.25
      {1, 6, 10, 1.0},  // 4 * 0.25 in the persisting last block
      {2, 1, 5, 4.5},   // twice the speed, twice the work
      {1, 3, 3, 0.0},   // empty interval
      {1, 5, 3, 0.0},   // inverted interval
  };
  const load_function load = staircase();
  for (const auto& r : table) {
    EXPECT_DOUBLE_EQ(work_done(load, 0, r.speed, r.t0, r.t1), r.expected)
        << "S=" << r.speed << " [" << r.t0 << ", " << r.t1 << "]";
  }
}

TEST(TableLoad, FinishTimeInvertsWorkDone) {
  struct row {
    double speed;
    double t0;
    double work;
    double expected;
  };
  const std::vector<row> table = {
      {1, 0, 0.0, 0.0},  // nothing to do
      {1, 0, 2.0, 2.0},  // exactly block 0
      {1, 0, 2.5, 3.0},  // 2 in block 0, 0.5 at rate 0.5 takes 1 s
      {1, 0, 3.5, 6.0},  // 2 + 1 in blocks 0-1, 0.5 at rate 0.25 takes 2 s
      {1, 1, 0.5, 1.5},  // inside block 0
      {1, 3, 1.0, 6.0},  // 0.5 in the rest of block 1, then 0.5 at 0.25
      {2, 0, 5.0, 3.0},  // rates 2, 1: 4 in block 0, 1 more takes 1 s
  };
  const load_function load = staircase();
  for (const auto& r : table) {
    EXPECT_DOUBLE_EQ(finish_time(load, 0, r.speed, r.t0, r.work), r.expected)
        << "S=" << r.speed << " t0=" << r.t0 << " w=" << r.work;
  }
  EXPECT_THROW(finish_time(load, 0, 1.0, 0.0, -1.0), std::invalid_argument);
  EXPECT_THROW(finish_time(load, 0, 0.0, 0.0, 1.0), std::invalid_argument);
}

TEST(TableLoad, AverageSpeedsAndEffectiveLoad) {
  struct row {
    double t0;
    double t1;
    double mean;           // work / time
    double block_average;  // the paper's: plain mean over the blocks touched
  };
  const std::vector<row> table = {
      {0, 4, 0.75, 0.75},                          // 3 / 4; blocks 0, 1: (1 + 0.5) / 2
      {1, 5, 0.5625, 1.75 / 3},                    // 2.25 / 4; blocks 0, 1, 2: (1 + 0.5 + 0.25) / 3
      {0, 2, 1.0, 1.0},                            // ends on a boundary: block 1 not touched
      {2, 2.5, 0.5, 0.5},       {3, 3, 0.5, 0.5},  // an instant: the speed at t0
  };
  const load_function load = staircase();
  for (const auto& r : table) {
    SCOPED_TRACE(testing::Message() << "[" << r.t0 << ", " << r.t1 << "]");
    EXPECT_DOUBLE_EQ(mean_effective_speed(load, 0, 1.0, r.t0, r.t1), r.mean);
    EXPECT_DOUBLE_EQ(block_average_speed(load, 0, 1.0, r.t0, r.t1), r.block_average);
  }
  EXPECT_DOUBLE_EQ(effective_load(1.0, 0.75), 4.0 / 3.0);
  EXPECT_DOUBLE_EQ(effective_load(2.0, 2.0), 1.0);
}

TEST(HashedLoad, InfinitePersistenceIsAConstantLoad) {
  load_function load;
  load.seed = 5;
  load.persistence = kInf;
  for (std::size_t slave = 0; slave < 3; ++slave) {
    const int l = load_in_block(5, slave, 0, 5);
    // w base seconds at S / (l + 1) take w (l + 1) / S.
    EXPECT_DOUBLE_EQ(finish_time(load, slave, 2.0, 1.0, 3.0), 1.0 + 3.0 * (l + 1) / 2.0);
    EXPECT_DOUBLE_EQ(work_done(load, slave, 2.0, 1.0, 4.0), 3.0 * 2.0 / (l + 1));
  }
}

TEST(HashedLoad, FinishTimeAndWorkDoneAreInverses) {
  std::mt19937 gen(20240601);
  std::uniform_real_distribution<double> start(0.0, 50.0), work(0.0, 30.0), tl(0.1, 5.0);
  std::uniform_real_distribution<double> speed(0.25, 4.0);
  for (int trial = 0; trial < 500; ++trial) {
    load_function load;
    load.seed = gen();
    load.persistence = tl(gen);
    const double s = speed(gen), t0 = start(gen), w = work(gen);
    const double t1 = finish_time(load, 1, s, t0, w);
    // The slowest rate is s / 6, so the work cannot take longer than 6 w / s, nor less than w / s.
    EXPECT_GE(t1, t0 + w / s - 1e-9);
    EXPECT_LE(t1, t0 + 6 * w / s + 1e-9);
    EXPECT_NEAR(work_done(load, 1, s, t0, t1), w, 1e-9 * (1 + w));
  }
}

}  // namespace
}  // namespace dlb::core

namespace dlb::core {
namespace {

// --load-after: the first unloaded_blocks blocks carry no load, later ones are the hash's (or the
// table's) unchanged; work integrates across the start of the load.
TEST(DelayedLoad, NoLoadBeforeItsFirstBlockTheSameLoadAfter) {
  load_function hashed{7, 5, 2.0, {}, 0};
  load_function delayed = hashed;
  delayed.unloaded_blocks = 3;
  int loaded_after = 0;
  for (std::size_t slave = 0; slave < 4; ++slave) {
    for (std::int64_t k = 0; k < 20; ++k) {
      const int want = k < 3 ? 0 : load_in_block(hashed, slave, k);
      EXPECT_EQ(load_in_block(delayed, slave, k), want) << "slave " << slave << " block " << k;
      if (k >= 3 && want > 0) ++loaded_after;
    }
    EXPECT_EQ(load_at(delayed, slave, 5.99), 0);
    EXPECT_EQ(load_at(delayed, slave, 6.0), load_in_block(hashed, slave, 3));
  }
  EXPECT_GT(loaded_after, 0) << "the seed gives some load after the start";
  // Six unloaded seconds at speed 2 do 12 base seconds of work, then the load's.
  EXPECT_DOUBLE_EQ(work_done(delayed, 0, 2.0, 0.0, 6.0), 12.0);
  EXPECT_DOUBLE_EQ(work_done(delayed, 0, 2.0, 0.0, 8.0) - 12.0,
                   work_done(hashed, 0, 2.0, 6.0, 8.0));
  // A table's load is held back the same way, and its last value still persists.
  load_function table{0, 5, 1.0, {{4, 4, 2}}, 2};
  const std::array<int, 5> want{0, 0, 2, 2, 2};
  for (std::int64_t k = 0; k < 5; ++k)
    EXPECT_EQ(load_in_block(table, 0, k), want[static_cast<std::size_t>(k)]) << k;
  // Two unloaded seconds do 2 of the 5 base seconds; the other 3 at a third of the speed: 9 s.
  EXPECT_DOUBLE_EQ(finish_time(table, 0, 1.0, 0.0, 5.0), 11.0);
}

}  // namespace
}  // namespace dlb::core
