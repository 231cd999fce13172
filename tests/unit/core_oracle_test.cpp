// The oracle bound, table-style against hand-computed cases.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <vector>

#include "dlb/core/load.hpp"
#include "dlb/core/oracle.hpp"

namespace {

using dlb::core::load_function;
using dlb::core::oracle_makespan;

load_function table(std::vector<std::vector<int>> rows, double tl) {
  load_function f;
  f.persistence = tl;
  f.table = std::move(rows);
  return f;
}

TEST(Oracle, HandComputedCases) {
  struct row {
    const char* what;
    load_function load;
    std::vector<double> speeds;
    double t0, work, expected;
  };
  load_function none;
  none.max_load = 0;
  const std::vector<row> rows{
      // No load: total work over the sum of speeds.
      {"no load, equal speeds", none, {1, 1, 1, 1}, 0, 100, 25},
      {"no load, mixed speeds", none, {1, 2, 0.5}, 0, 35, 10},
      {"no load, late start", none, {1, 1}, 3, 10, 8},
      // Step: slave 0 unloaded, slave 1 at load 1 (half speed) for the first 10 s, then
      // unloaded: rate 1.5 until 10 (15 done), then 2: 25 more take 12.5 s.
      {"step load", table({{0}, {1, 0}}, 10), {1, 1}, 0, 40, 22.5},
      // Work done inside the first block.
      {"inside a block", table({{0}, {1, 0}}, 10), {1, 1}, 0, 6, 4},
      // Starting mid-block: from 5 to 10 at rate 1.5 (7.5), then rate 2.
      {"mid-block start", table({{0}, {1, 0}}, 10), {1, 1}, 5, 11.5, 12},
      // Everyone at load 2 forever: a third of the speed.
      {"constant load", table({{2}, {2}}, 1), {3, 3}, 0, 12, 6},
      {"no work", table({{2}, {2}}, 1), {3, 3}, 7, 0, 7},
  };
  for (const auto& r : rows) {
    EXPECT_NEAR(oracle_makespan(r.load, r.speeds, r.t0, r.work), r.expected, 1e-9) << r.what;
  }
}

TEST(Oracle, IsTheInverseOfTheSummedWorkUnderTheHashedLoad) {
  load_function f;
  f.seed = 7;
  f.max_load = 5;
  f.persistence = 0.7;
  const std::vector<double> speeds{1.0, 0.5, 2.0, 1.25};
  for (double work : {0.3, 4.0, 37.5, 200.0}) {
    const double t = oracle_makespan(f, speeds, 1.1, work);
    double done = 0.0;
    for (std::size_t i = 0; i < speeds.size(); ++i)
      done += dlb::core::work_done(f, i, speeds[i], 1.1, t);
    EXPECT_NEAR(done, work, 1e-9 * work) << work;
    // No single slave alone finishes it sooner: the bound is below each one's own time.
    for (std::size_t i = 0; i < speeds.size(); ++i)
      EXPECT_LE(t, dlb::core::finish_time(f, i, speeds[i], 1.1, work) + 1e-12);
  }
}

TEST(Oracle, InfinitePersistenceIsOneBlock) {
  load_function f;
  f.seed = 3;
  f.max_load = 5;
  f.persistence = std::numeric_limits<double>::infinity();
  const std::vector<double> speeds{1.0, 1.0};
  double rate = 0.0;
  for (std::size_t i = 0; i < 2; ++i)
    rate += dlb::core::effective_speed(1.0, dlb::core::load_in_block(f, i, 0));
  EXPECT_NEAR(oracle_makespan(f, speeds, 0, 10), 10 / rate, 1e-12);
}

TEST(Oracle, BadInputIsRefused) {
  load_function none;
  none.max_load = 0;
  EXPECT_THROW(oracle_makespan(none, std::vector<double>{}, 0, 1), std::invalid_argument);
  EXPECT_THROW(oracle_makespan(none, std::vector<double>{1, 0}, 0, 1), std::invalid_argument);
  EXPECT_THROW(oracle_makespan(none, std::vector<double>{1}, 0, -1), std::invalid_argument);
  EXPECT_THROW(oracle_makespan(table({{1}}, 1), std::vector<double>{1, 1}, 0, 1),
               std::invalid_argument);
}

}  // namespace
