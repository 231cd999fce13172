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
    std::optional<strategy> current;
    strategy expected;
  };
  const std::vector<row> table = {
      // The first choice (nothing in force).
      {{10, 9, 11, 12}, std::nullopt, strategy::gddlb},
      {{8, 9, 11, 12}, std::nullopt, strategy::gcdlb},
      {{10, 9, 11, 7}, std::nullopt, strategy::lddlb},
      // A strategy in force that is no longer the best is left, by any margin (no hysteresis).
      {{10, 9, 11, 12}, strategy::gcdlb, strategy::gddlb},
      {{10, 9.999, 11, 12}, strategy::gcdlb, strategy::gddlb},
      {{5, 9, 4.5, 12}, strategy::lddlb, strategy::lcdlb},
      // Still the best: kept.
      {{10, 9, 11, 12}, strategy::gddlb, strategy::gddlb},
      {{10, 9, 3, 12}, strategy::lcdlb, strategy::lcdlb},
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
    std::optional<strategy> current;
    strategy expected;
  };
  const std::vector<row> table = {
      {{7, 7, 7, 7}, std::nullopt, strategy::gcdlb},
      {{7, 7, 7, 7}, strategy::lddlb, strategy::lddlb},
      {{9, 7, 8, 7}, strategy::lddlb, strategy::lddlb},
      {{9, 7, 8, 7}, strategy::gcdlb, strategy::gddlb},  // in force but not tied: left
      {{9, 7, 8, 7}, std::nullopt, strategy::gddlb},
      {{0, 0, 1, 1}, strategy::gddlb, strategy::gddlb},
      {{0, 0, 1, 1}, strategy::lcdlb, strategy::gcdlb},
  };
  for (const auto& r : table) EXPECT_EQ(reselect(r.predicted, r.current), r.expected);
}

TEST(Reselect, RefusesBadPredictionsAndAStrategyInForceThatIsNotOneOfTheFour) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(reselect({1, -1, 2, 3}, std::nullopt), std::invalid_argument);
  EXPECT_THROW(reselect({1, inf, 2, 3}, std::nullopt), std::invalid_argument);
  EXPECT_THROW(reselect({1, 2, nan, 3}, std::nullopt), std::invalid_argument);
  for (strategy s :
       {strategy::none, strategy::automatic, strategy::adaptive, strategy::self_scheduling})
    EXPECT_THROW(reselect({1, 2, 3, 4}, s), std::invalid_argument) << to_string(s);
}

TEST(Reselect, AdaptiveIsANamedCustomizedModeOnNoAxis) {
  EXPECT_EQ(parse_strategy("ADAPTIVE"), strategy::adaptive);
  EXPECT_EQ(parse_strategy("adaptive"), strategy::adaptive);
  EXPECT_EQ(to_string(strategy::adaptive), "ADAPTIVE");
  EXPECT_EQ(parse_policy("Adaptive").kind(), strategy::adaptive);
  EXPECT_THROW(parse_policy("ADAPTIVE:4"), std::invalid_argument);
  EXPECT_THROW(parse_policy("ADAPT"), std::invalid_argument);
  EXPECT_TRUE(is_customized(strategy::adaptive));
  EXPECT_TRUE(is_customized(strategy::automatic));
  EXPECT_FALSE(is_customized(strategy::gddlb));
  EXPECT_FALSE(is_global(strategy::adaptive) || is_local(strategy::adaptive) ||
               is_centralized(strategy::adaptive) || is_distributed(strategy::adaptive));
}

}  // namespace
}  // namespace dlb::core
