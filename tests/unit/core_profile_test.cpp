// Unit tests of profiles and the work-per-second metric (iterations when a loop gives no costs).
#include <gtest/gtest.h>

#include <optional>

#include "dlb/core/profile.hpp"

namespace dlb::core {
namespace {

TEST(Speed, IsIterationsPerSecondAndZeroWithoutAMeasurement) {
  struct row {
    profile p;
    double expected;
  };
  const std::vector<row> table = {
      {{10, 2.0, 5, std::nullopt}, 5.0}, {{3, 4.0, 0, std::nullopt}, 0.75},
      {{0, 1.0, 7, std::nullopt}, 0.0},   // did nothing
      {{5, 0.0, 7, std::nullopt}, 0.0},   // no time measured
      {{3, -1.0, 7, std::nullopt}, 0.0},  // nonsense time
  };
  for (const auto& r : table) {
    SCOPED_TRACE(testing::Message() << r.p.iterations_done << " in " << r.p.elapsed_seconds);
    EXPECT_DOUBLE_EQ(speed(r.p), r.expected);
  }
}

TEST(Profiles, CollectSpeeds) {
  const std::vector<profile> ps = {
      {10, 2.0, 5, std::nullopt}, {3, 4.0, 0, std::nullopt}, {0, 1.0, 7, std::nullopt}};
  EXPECT_EQ(speeds(ps), (std::vector<double>{5.0, 0.75, 0.0}));
}

// Where the loop gives costs the metric is work per second, so a slave that did few
// expensive iterations is not slower than one that did many cheap ones in the same time.
TEST(Speed, IsWorkPerSecondWhereTheLoopGivesCosts) {
  const profile cheap{40, 2.0, 10, 4.0};  // 40 iterations of 0.1 s of work in 2 s
  const profile costly{4, 2.0, 10, 4.0};  // 4 iterations of 1 s of work in 2 s
  EXPECT_DOUBLE_EQ(speed(cheap), 2.0);
  EXPECT_DOUBLE_EQ(speed(costly), 2.0);                 // the same machine
  EXPECT_DOUBLE_EQ(speed({0, 2.0, 5, 0.0}, 7.5), 7.5);  // nothing done: the caller's value
  EXPECT_DOUBLE_EQ(speed({4, 0.0, 5, 1.0}, 7.5), 7.5);  // no time
}

}  // namespace
}  // namespace dlb::core

namespace {

// The one metric with the value a caller gives for "nothing measured" (a slave's profile passes
// its previous speed): the measured cases are unchanged.
TEST(Speed, UnmeasuredGivesTheCallersValue) {
  using dlb::core::speed;
  EXPECT_DOUBLE_EQ(speed({0, 2.0, 5, std::nullopt}, 7.5), 7.5);   // nothing done
  EXPECT_DOUBLE_EQ(speed({4, 0.0, 5, std::nullopt}, 7.5), 7.5);   // no time
  EXPECT_DOUBLE_EQ(speed({4, -1.0, 5, std::nullopt}, 7.5), 7.5);  // a clock that went back
  EXPECT_DOUBLE_EQ(speed({4, 2.0, 5, std::nullopt}, 7.5),
                   2.0);  // measured: the metric, not the fallback
  EXPECT_DOUBLE_EQ(speed({4, 2.0, 5, std::nullopt}), 2.0);
}

}  // namespace
