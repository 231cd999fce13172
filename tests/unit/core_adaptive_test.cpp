// Unit tests of ADAPTIVE's re-selection rule (core::reselect) and of its name.
#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

#include "dlb/core/adaptive.hpp"
#include "dlb/core/policy.hpp"

namespace dlb::core {
namespace {

TEST(Reselect, TakesTheLeastPredictedTimeWhateverIsInForce) {
  struct row {
    std::array<double, 4> predicted;  // GCDLB, GDDLB, LCDLB, LDDLB
    std::optional<scheme> current;
    scheme expected;
  };
  const std::vector<row> table = {
      // The first choice (nothing in force).
      {{10, 9, 11, 12}, std::nullopt, scheme::gddlb},
      {{8, 9, 11, 12}, std::nullopt, scheme::gcdlb},
      {{10, 9, 11, 7}, std::nullopt, scheme::lddlb},
      // A strategy in force that is no longer the best is left, by any margin (no hysteresis).
      {{10, 9, 11, 12}, scheme::gcdlb, scheme::gddlb},
      {{10, 9.999, 11, 12}, scheme::gcdlb, scheme::gddlb},
      {{5, 9, 4.5, 12}, scheme::lddlb, scheme::lcdlb},
      // Still the best: kept.
      {{10, 9, 11, 12}, scheme::gddlb, scheme::gddlb},
      {{10, 9, 3, 12}, scheme::lcdlb, scheme::lcdlb},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(::testing::Message()
                 << r.predicted[0] << " " << r.predicted[1] << " " << r.predicted[2] << " "
                 << r.predicted[3] << ", in force "
                 << (r.current ? to_string(*r.current) : std::string_view("-")));
    EXPECT_EQ(reselect(r.predicted, r.current), r.expected);
  }
}

TEST(Reselect, TiesKeepTheStrategyInForceElseTheFirstInOrder) {
  struct row {
    std::array<double, 4> predicted;
    std::optional<scheme> current;
    scheme expected;
  };
  const std::vector<row> table = {
      {{7, 7, 7, 7}, std::nullopt, scheme::gcdlb},
      {{7, 7, 7, 7}, scheme::lddlb, scheme::lddlb},
      {{9, 7, 8, 7}, scheme::lddlb, scheme::lddlb},
      {{9, 7, 8, 7}, scheme::gcdlb, scheme::gddlb},  // in force but not tied: left
      {{9, 7, 8, 7}, std::nullopt, scheme::gddlb},
      {{0, 0, 1, 1}, scheme::gddlb, scheme::gddlb},
      {{0, 0, 1, 1}, scheme::lcdlb, scheme::gcdlb},
  };
  for (const auto& r : table) EXPECT_EQ(reselect(r.predicted, r.current), r.expected);
}

TEST(Reselect, RefusesBadPredictions) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(reselect({1, -1, 2, 3}, std::nullopt), std::invalid_argument);
  EXPECT_THROW(reselect({1, inf, 2, 3}, std::nullopt), std::invalid_argument);
  EXPECT_THROW(reselect({1, 2, nan, 3}, std::nullopt), std::invalid_argument);
}

TEST(Reselect, AdaptiveIsANamedCustomizedModeOnNoAxis) {
  EXPECT_EQ(parse_policy("ADAPTIVE"), policy{customized{customized_mode::adaptive}});
  EXPECT_EQ(parse_policy("adaptive"), policy{customized{customized_mode::adaptive}});
  EXPECT_EQ(to_string(customized_mode::adaptive), "ADAPTIVE");
  EXPECT_TRUE(parse_policy("Adaptive").is(customized_mode::adaptive));
  EXPECT_THROW(parse_policy("ADAPTIVE:4"), std::invalid_argument);
  EXPECT_THROW(parse_policy("ADAPT"), std::invalid_argument);
  EXPECT_TRUE(parse_policy("ADAPTIVE").is_customized());
  EXPECT_TRUE(parse_policy("AUTO").is_customized());
  EXPECT_FALSE(parse_policy("GDDLB").is_customized());
  EXPECT_FALSE(parse_policy("ADAPTIVE").row().has_value()) << "no balancing row: on no axis";
  EXPECT_FALSE(parse_scheme("ADAPTIVE").has_value());
}

}  // namespace
}  // namespace dlb::core
