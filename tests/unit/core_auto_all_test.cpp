// AUTO-ALL's pure parts (dlb/core/auto_all.hpp): the candidate list, the pick, ADAPTIVE's
// prediction.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "dlb/core/auto_all.hpp"

namespace {

using namespace dlb::core;

TEST(AutoAll, DefaultCandidatesParse) {
  const auto c = parse_candidates(default_candidates());
  // The paper's four, ADAPTIVE and every chunk rule: the tables', however many rows they have.
  ASSERT_EQ(c.size(), balancing_rows.size() + 1 + chunk_rules.size());
  EXPECT_EQ(c[0].row(), scheme::gcdlb);
  EXPECT_TRUE(c[4].is(customized_mode::adaptive));
  EXPECT_TRUE(c[6].is_self_scheduled());
  EXPECT_EQ(c[6].rule(), chunk_rule::css);
  EXPECT_EQ(c[6].chunk(), 16);
  EXPECT_EQ(to_string(c[10]), "AWF");
  EXPECT_EQ(to_string(c.back()), chunk_rules.back().name);
}

TEST(AutoAll, CandidatesRefusedWithTheirName) {
  const std::vector<std::pair<const char*, const char*>> bad{
      {"GDDLB FOO", "'FOO'"},     {"AUTO GSS", "'AUTO'"}, {"NONE", "'NONE'"},
      {"AUTO-ALL", "'AUTO-ALL'"}, {"GSS gss", "'gss'"},   {"CSS", "'CSS'"},
      {"CSS:0", "'CSS:0'"},       {"", "no candidate"},   {"  ", "no candidate"}};
  for (const auto& [text, named] : bad) {
    try {
      parse_candidates(text);
      ADD_FAILURE() << "accepted '" << text << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(parse_candidates("gss, CSS:4 ,GDDLB").size(), 3u);
}

TEST(AutoAll, FastestIsTheLeastFirstOnTies) {
  const policy a = parse_policy("GDDLB"), b = parse_policy("GSS"), c = parse_policy("AWF");
  EXPECT_EQ(fastest({{a, 3.0}, {b, 2.0}, {c, 2.5}}), 1u);
  EXPECT_EQ(fastest({{a, 2.0}, {b, 2.0}, {c, 2.5}}), 0u);
  EXPECT_EQ(fastest({{a, 5.0}, {b, 4.0}, {c, 4.0 * (1 + 1e-14)}}), 1u);
  EXPECT_THROW(fastest({}), std::invalid_argument);
  EXPECT_THROW(fastest({{a, -1.0}}), std::invalid_argument);
}

TEST(AutoAll, AdaptiveIsTheBestPlusItsReselections) {
  // The best of the four predicted at 100 s with 3 synchronizations in its busiest group; a
  // re-selection costs one-to-all(P) + all-to-one(P) + delta = (0.01 + 0.02) + 0.001.
  prediction best;
  best.total_time = 100.0;
  best.groups.resize(2);
  best.groups[0].synchronizations = 3;
  best.groups[1].synchronizations = 2;
  network_profile net;
  net.one_to_all.coefficients = {0.01};
  net.all_to_one.coefficients = {0.02};
  EXPECT_NEAR(predict_adaptive(best, net, 4, 0.001), 100.0 + 3 * 0.031, 1e-12);
  best.groups.clear();  // no synchronization: ADAPTIVE is the best
  EXPECT_DOUBLE_EQ(predict_adaptive(best, net, 4, 0.001), 100.0);
}

TEST(AutoAll, CandidateTimesFormat) {
  EXPECT_EQ(format_candidate_times({{parse_policy("GDDLB"), 12.5}, {parse_policy("CSS:16"), 3}}),
            "GDDLB:12.5/CSS:16:3");
  EXPECT_EQ(format_candidate_times({}), "-");
}

}  // namespace

namespace {

using namespace dlb::core;

TEST(AutoAll, FirstRunOutIsTheEarliestFinishOfTheStart) {
  // Slaves of speed 1 and 2 with 6 and 10 iterations of 1 s from t = 100: 6 s and 5 s.
  model_input in;
  in.program.time_per_iteration = 1.0;
  in.machine.base_speeds = {1.0, 2.0};
  in.machine.load.max_load = 0;
  in.start = {{{0, 6}}, {{6, 16}}};
  in.start_time = 100.0;
  EXPECT_NEAR(first_run_out(in), 105.0, 1e-12);
  // A load of 1 on slave 1 (block 0 onwards) halves it: 10 s; slave 0's 6 s is first.
  in.machine.load.table = {{0}, {1}};
  in.machine.load.max_load = 1;
  EXPECT_NEAR(first_run_out(in), 106.0, 1e-12);
  // Non-uniform: slave 0's iterations cost 3 s each now (18 s), slave 1's 10 s.
  in.program.iteration_times.assign(16, 1.0);
  for (std::size_t k = 0; k < 6; ++k) in.program.iteration_times[k] = 3.0;
  EXPECT_NEAR(first_run_out(in), 110.0, 1e-12);
  // A slave without work does not count; none with work: +infinity.
  in.start = {{}, {{6, 16}}};
  EXPECT_NEAR(first_run_out(in), 110.0, 1e-12);
  in.start = {{}, {}};
  EXPECT_TRUE(std::isinf(first_run_out(in)));
  in.start = {{}};
  EXPECT_THROW(first_run_out(in), std::invalid_argument);
}

// The choice before the scatter: the least of both lists; a rule's time is the lesser of its two.
TEST(AutoAll, ChoiceBeforeTheScatterTakesTheLeastOfBothStarts) {
  const policy gddlb = parse_policy("GDDLB"), ss = parse_policy("SS"), tss = parse_policy("TSS");
  auto c = choose_before_scatter({{gddlb, 10.0}, {ss, 9.5}}, {{ss, 9.0}, {tss, 9.2}});
  EXPECT_EQ(c.pick, ss);
  EXPECT_TRUE(c.from_start);
  ASSERT_EQ(c.times.size(), 3u);
  EXPECT_EQ(c.times[1].candidate, ss);
  EXPECT_EQ(c.times[1].time, 9.0);
  EXPECT_EQ(c.times[2].candidate, tss);
  // SS after the blocks is faster than from the start: the blocks, committed at the first
  // synchronization.
  c = choose_before_scatter({{gddlb, 10.0}, {ss, 8.5}}, {{ss, 9.0}});
  EXPECT_EQ(c.pick, ss);
  EXPECT_FALSE(c.from_start);
  // A tie goes to the blocks (the paper's start).
  c = choose_before_scatter({{gddlb, 9.0}}, {{tss, 9.0}});
  EXPECT_EQ(c.pick, gddlb);
  EXPECT_FALSE(c.from_start);
  EXPECT_THROW(choose_before_scatter({}, {}), std::invalid_argument);
  EXPECT_THROW(choose_before_scatter({{gddlb, -1.0}}, {}), std::invalid_argument);
}

TEST(AutoAll, RemainingAtTakesTheWorkDoneFromTheFront) {
  // Slaves of speed 1 and 2 with [0, 10) and [10, 20), iterations of 1 s, no load, from t = 0:
  // at t = 3 slave 0 has done 3 iterations, slave 1 six.
  model_input in;
  in.program.time_per_iteration = 1.0;
  in.machine.base_speeds = {1.0, 2.0};
  in.machine.load.max_load = 0;
  in.start = {{{0, 10}}, {{10, 20}}};
  EXPECT_EQ(remaining_at(in, 3.0), (std::vector<range_list>{{{3, 10}}, {{16, 20}}}));
  EXPECT_EQ(remaining_at(in, 0.0), in.start);
  EXPECT_EQ(remaining_at(in, 100.0), (std::vector<range_list>{{}, {}}));
  // Two ranges: the second is untouched while the first is not done. At t = 1.75 slave 0 has
  // done 1 iteration (0.75 s into the next), slave 1 three (3.5 s: 10, 11, 15).
  in.start = {{{0, 2}, {5, 9}}, {{10, 12}, {15, 17}}};
  EXPECT_EQ(remaining_at(in, 1.75), (std::vector<range_list>{{{1, 2}, {5, 9}}, {{16, 17}}}));
  in.start = {{}};
  EXPECT_THROW(remaining_at(in, 1.0), std::invalid_argument);
}

}  // namespace
