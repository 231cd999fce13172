// Unit tests of customized mode's choosers alone (lib/runtime/chooser.hpp): profiles and the
// models' answers in, the policy to commit to out, with what each records in the run's
// statistics and tells. The models are a table here, not a run.
#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "dlb/core/policy.hpp"
#include "dlb/core/strategy.hpp"
#include "runtime/chooser.hpp"

namespace {

namespace core = dlb::core;
using dlb::detail::choice_input;
using dlb::detail::make_chooser;
using times = std::array<double, core::kBalancingStrategies>;

// The models as a test sets them, and what the choosers asked and told.
class table_models final : public dlb::detail::choice_models {
 public:
  dlb::strategy_prediction prediction;
  std::optional<times> remaining;
  dlb::detail::auto_all_pick pick;
  bool be_quiet = false;
  double clock = 0.0;
  // What the choosers passed on.
  std::vector<core::policy> asked_candidates;
  std::optional<core::policy> asked_forced;
  std::vector<std::string> notices;
  dlb::run_stats st;

  dlb::strategy_prediction predict(const std::vector<double>&) const override { return prediction; }
  std::optional<times> predict_remaining(const choice_input&) const override { return remaining; }
  dlb::detail::auto_all_pick choose_policy(std::span<const core::policy> candidates,
                                           const core::policy* forced,
                                           const choice_input&) override {
    asked_candidates.assign(candidates.begin(), candidates.end());
    if (forced) asked_forced = *forced;
    return pick;
  }
  dlb::run_stats& stats() override { return st; }
  double now() const override { return clock; }
  bool quiet() const override { return be_quiet; }
  void notice(const std::string& line) override { notices.push_back(line); }
};

// Times with `best` the least: 10 s for the others, 4 s for it.
times fastest(core::scheme best) {
  times t;
  t.fill(10.0);
  t[core::index_of(best)] = 4.0;
  return t;
}

// AUTO commits to the model's best of the paper's four, GDDLB when the model cannot predict;
// it records the prediction and the choice, and tells it from the loop's start.
TEST(Choosers, AutoCommitsToTheModelsBest) {
  for (const core::scheme best : core::balancing_strategies) {
    table_models m;
    m.prediction.valid = true;
    m.prediction.best = best;
    m.st.start_time = 1.0;
    m.clock = 3.5;
    const auto c = make_chooser(m, core::customized{core::customized_mode::automatic});
    const core::policy p = c->choose(choice_input{});
    EXPECT_EQ(p, core::policy{core::balancing{best}}) << to_string(best);
    EXPECT_EQ(m.st.chosen, p);
    EXPECT_TRUE(m.st.prediction.valid);
    ASSERT_EQ(m.notices.size(), 1u);
    EXPECT_EQ(m.notices[0].rfind("AUTO at t = 2.5 s predicts", 0), 0u) << m.notices[0];
    EXPECT_NE(m.notices[0].find("commits to " + std::string(to_string(best))), std::string::npos);
  }
  table_models none;
  none.be_quiet = true;
  const auto c = make_chooser(none, core::customized{core::customized_mode::automatic});
  EXPECT_EQ(c->choose(choice_input{}), core::policy{core::balancing{core::scheme::gddlb}});
  EXPECT_TRUE(none.notices.empty());  // --quiet
}

// ADAPTIVE re-selects at every call: the least predicted time to the end, the strategy in force
// on a tie, the strategy in force (or GDDLB) when the model cannot run; every choice recorded,
// the first as the loop's choice; told only when it commits or switches.
TEST(Choosers, AdaptiveReselectsAndKeepsTheStrategyInForceOnATie) {
  table_models m;
  const auto c = make_chooser(m, core::customized{core::customized_mode::adaptive});
  choice_input in;
  const core::scheme first = core::balancing_strategies.back();
  const core::scheme second = core::balancing_strategies.front();
  m.remaining = fastest(first);
  in.now = 1.0;
  EXPECT_EQ(c->choose(in), core::policy{core::balancing{first}});
  EXPECT_EQ(m.st.chosen, core::policy{core::balancing{first}});
  m.remaining->fill(7.0);  // a tie: it stays
  in.now = 2.0;
  EXPECT_EQ(c->choose(in), core::policy{core::balancing{first}});
  m.remaining = fastest(second);
  in.now = 3.0;
  EXPECT_EQ(c->choose(in), core::policy{core::balancing{second}});
  m.remaining.reset();  // the model cannot run: the strategy in force
  in.now = 4.0;
  EXPECT_EQ(c->choose(in), core::policy{core::balancing{second}});
  ASSERT_EQ(m.st.choices.size(), 4u);
  EXPECT_EQ(m.st.choices[0].scheme, first);
  EXPECT_EQ(m.st.choices[2].scheme, second);
  EXPECT_DOUBLE_EQ(m.st.choices[2].time, 3.0);
  EXPECT_EQ(m.st.choices[2].predicted, fastest(second));
  EXPECT_EQ(m.st.chosen, core::policy{core::balancing{first}});  // the first choice
  ASSERT_EQ(m.notices.size(), 2u);                               // committed, then switched
  EXPECT_NE(m.notices[0].find("commits to"), std::string::npos) << m.notices[0];
  EXPECT_NE(m.notices[1].find("switches from"), std::string::npos) << m.notices[1];

  table_models blind;  // no model from the start: GDDLB
  const auto b = make_chooser(blind, core::customized{core::customized_mode::adaptive});
  EXPECT_EQ(b->choose(choice_input{}), core::policy{core::balancing{core::scheme::gddlb}});
}

// AUTO-ALL asks the models about its own candidates (and its forced commitment, if any) and
// commits to their pick, whatever kind of policy it is.
TEST(Choosers, AutoAllCommitsToThePickAmongItsCandidates) {
  const std::vector<core::policy> candidates = {
      core::parse_policy("GCDLB"), core::parse_policy("GSS"), core::parse_policy("ADAPTIVE")};
  for (const auto& pick : candidates) {
    for (const bool forced : {false, true}) {
      table_models m;
      m.pick.policy = pick;
      core::customized mode{core::customized_mode::auto_all};
      mode.candidates = candidates;
      if (forced) mode.forced = {pick};
      const auto c = make_chooser(m, mode);
      EXPECT_EQ(c->choose(choice_input{}), pick) << core::to_string(pick);
      EXPECT_EQ(m.asked_candidates, candidates);
      EXPECT_EQ(m.asked_forced.has_value(), forced);
      ASSERT_EQ(m.notices.size(), 1u);
      EXPECT_EQ(m.notices[0].find("(--auto-force)") != std::string::npos, forced);
    }
  }
}

}  // namespace
