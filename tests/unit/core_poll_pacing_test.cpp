// core_poll_pacing_test: how often the runtime polls (dlb/core/poll_pacing.hpp), table-style.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "dlb/core/poll_pacing.hpp"

namespace {

using dlb::core::next_poll_count;
using dlb::core::next_wait_step;
using dlb::core::poll_pacing;
using dlb::core::wait_pacing;
using dlb::core::wait_step;
using us = std::chrono::microseconds;

TEST(PollPacing, CountFollowsTheTargetInterval) {
  const poll_pacing p{200'000, 1'000'000};
  struct row {
    std::int64_t count, elapsed_ns, next;
  };
  const std::vector<row> rows{
      {1, 10, 2},                // far too fast: doubles
      {1000, 100'000, 2000},     // half the target: doubles (exactly the ideal)
      {1000, 150'000, 1333},     // ideal below the doubling: the ideal
      {1000, 200'000, 1000},     // on target: unchanged
      {1000, 400'000, 500},      // twice the target: halves at once
      {1000, 1'000'000'000, 1},  // one iteration longer than the target: every iteration
      {10, 0, 20},               // the clock did not move: doubles
      {10, -5, 20},              // nor backwards
      {0, 100, 2},               // a count below 1 counts as 1
      {800'000, 1, 1'000'000},   // capped at max_count
      {1'000'000, 1, 1'000'000},
  };
  for (const auto& r : rows)
    EXPECT_EQ(next_poll_count(r.count, r.elapsed_ns, p), r.next)
        << "count " << r.count << ", elapsed " << r.elapsed_ns << " ns";
}

TEST(PollPacing, NeverZeroNorAboveTheCap) {
  const poll_pacing p{50'000, 64};
  for (std::int64_t c : {1, 2, 7, 64, 1000})
    for (std::int64_t e : {-1, 0, 1, 49'999, 50'000, 10'000'000}) {
      const auto n = next_poll_count(c, e, p);
      EXPECT_GE(n, 1) << c << " " << e;
      EXPECT_LE(n, 64) << c << " " << e;
    }
}

TEST(WaitPacing, SpinThenYieldThenSleepDoubling) {
  const wait_pacing p{us(200), us(2000), us(10), us(200)};
  struct row {
    us waited, last_sleep;
    wait_step step;
  };
  const std::vector<row> rows{
      {us(0), us(0), {wait_step::kind::spin, us(0)}},
      {us(199), us(0), {wait_step::kind::spin, us(0)}},
      {us(200), us(0), {wait_step::kind::yield, us(0)}},
      {us(1999), us(0), {wait_step::kind::yield, us(0)}},
      {us(2000), us(0), {wait_step::kind::sleep, us(10)}},
      {us(2010), us(10), {wait_step::kind::sleep, us(20)}},
      {us(5000), us(160), {wait_step::kind::sleep, us(200)}},
      {us(9000), us(200), {wait_step::kind::sleep, us(200)}},
  };
  for (const auto& r : rows)
    EXPECT_EQ(next_wait_step(r.waited, r.last_sleep, p), r.step)
        << "waited " << r.waited.count() << " us, last sleep " << r.last_sleep.count() << " us";
}

TEST(WaitPacing, NoSpinMeansSleepingFromTheStart) {
  const wait_pacing p{us(0), us(0), us(10), us(200)};
  EXPECT_EQ(next_wait_step(us(0), us(0), p), (wait_step{wait_step::kind::sleep, us(10)}));
}

}  // namespace
