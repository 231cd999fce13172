// Unit tests of profiles and the iterations-per-second metric.
#include <gtest/gtest.h>

#include "dlb/core/profile.hpp"

namespace dlb::core {
namespace {

TEST(Speed, IsIterationsPerSecondAndZeroWithoutAMeasurement) {
  struct row {
    profile p;
    double expected;
  };
  const std::vector<row> table = {
      {{10, 2.0, 5}, 5.0}, {{3, 4.0, 0}, 0.75}, {{0, 1.0, 7}, 0.0},  // did nothing
      {{5, 0.0, 7}, 0.0},                                            // no time measured
      {{3, -1.0, 7}, 0.0},                                           // nonsense time
  };
  for (const auto& r : table) {
    SCOPED_TRACE(testing::Message() << r.p.iterations_done << " in " << r.p.elapsed_seconds);
    EXPECT_DOUBLE_EQ(speed(r.p), r.expected);
  }
}

TEST(Profiles, CollectSpeeds) {
  const std::vector<profile> ps = {{10, 2.0, 5}, {3, 4.0, 0}, {0, 1.0, 7}};
  EXPECT_EQ(speeds(ps), (std::vector<double>{5.0, 0.75, 0.0}));
}

}  // namespace
}  // namespace dlb::core

namespace {

// The one metric with the value a caller gives for "nothing measured" (a slave's profile passes
// its previous speed): the measured cases are unchanged.
TEST(Speed, UnmeasuredGivesTheCallersValue) {
  using dlb::core::speed;
  EXPECT_DOUBLE_EQ(speed({0, 2.0, 5}, 7.5), 7.5);   // nothing done
  EXPECT_DOUBLE_EQ(speed({4, 0.0, 5}, 7.5), 7.5);   // no time
  EXPECT_DOUBLE_EQ(speed({4, -1.0, 5}, 7.5), 7.5);  // a clock that went back
  EXPECT_DOUBLE_EQ(speed({4, 2.0, 5}, 7.5), 2.0);   // measured: the metric, not the fallback
  EXPECT_DOUBLE_EQ(speed({4, 2.0, 5}), 2.0);
}

}  // namespace
