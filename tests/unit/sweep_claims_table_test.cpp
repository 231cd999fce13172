// Unit tests of the claims table (experiments/report/claims.cpp): each claim of claims.md on
// synthetic summaries where it must hold and where it must not, and its tolerance at work.
#include <gtest/gtest.h>

#include <array>
#include <set>

#include "report/claims.hpp"

using namespace dlb::report;

namespace {

// Normalized medians of GCDLB, GDDLB, LCDLB, LDDLB.
using four = std::array<double, 4>;

struct config {
  std::string app;
  int procs = 4;
  std::string size;
  four norm;
  int ml = 5;
  std::string predicted = "GDDLB";
  double syncs = 3;
  four loop1{};  // per-loop normalized medians (TRFD), all 0: none
  four loop2{};
};

std::vector<summary_row> rows_of(const std::vector<config>& configs) {
  static const std::array<std::string, 4> names{"GCDLB", "GDDLB", "LCDLB", "LDDLB"};
  std::vector<summary_row> rows;
  for (const auto& c : configs) {
    for (int i = -1; i < 4; ++i) {
      summary_row r;
      const bool none = i < 0;
      const double norm = none ? 1.0 : c.norm[i];
      r.fields = {{"app", c.app},
                  {"P", std::to_string(c.procs)},
                  {"K", std::to_string(c.procs / 2)},
                  {"size", c.size},
                  {"ml", std::to_string(c.ml)},
                  {"tl", "1"},
                  {"clock", "emulated"},
                  {"scale", "20"},
                  {"network", "ethernet1996"},
                  {"strategy", none ? "NONE" : names[i]},
                  {"runs", "3"},
                  {"norm_median", std::to_string(norm)},
                  {"total_median", std::to_string(100 * norm)},
                  {"syncs_max", std::to_string(none ? 0.0 : c.syncs)},
                  {"predicted_best", c.predicted}};
      if (!none && c.loop1[0] > 0) {
        r.fields["norm_loop1_median"] = std::to_string(c.loop1[i]);
        r.fields["norm_loop2_median"] = std::to_string(c.loop2[i]);
      }
      rows.push_back(r);
    }
  }
  return rows;
}

const claim_spec& spec(const std::string& id) {
  for (const auto& s : claim_table()) {
    if (s.id == id) return s;
  }
  throw std::runtime_error("no claim " + id);
}

verdict evaluate(const claim_spec& s, const std::vector<config>& configs) {
  const auto rows = rows_of(configs);
  return s.evaluate(s, group_configs(rows)).outcome;
}

struct claim_case {
  std::string id;
  std::vector<config> holds;  // a summary where the claim must hold
  std::vector<config> fails;  // and one where it must not
};

//                                GCDLB GDDLB LCDLB LDDLB
const four global_best_gd{0.62, 0.58, 0.70, 0.65};  // GDDLB < GCDLB < LDDLB < LCDLB
const four global_best_gc{0.58, 0.62, 0.70, 0.65};  // GCDLB first: centralized wins
const four local_best_ld{0.70, 0.62, 0.66, 0.58};   // LDDLB < GDDLB < LCDLB < GCDLB
const four local_best_lc{0.70, 0.66, 0.58, 0.62};   // LCDLB first

const std::vector<claim_case>& cases() {
  static const std::vector<claim_case> table{
      {"M1",
       {{"mxm", 4, "n=400", global_best_gd}, {"mxm", 16, "n=1600", global_best_gd}},
       {{"mxm", 4, "n=400", global_best_gd}, {"mxm", 16, "n=1600", global_best_gc}}},
      {"M2",
       {{"mxm", 4, "n=400", {0.6, 0.6, 0.70, 0.65}}},
       {{"mxm", 4, "n=400", {0.6, 0.6, 0.65, 0.70}}}},
      {"M3",
       {{"mxm", 4, "n=400", {0.6, 0.6, 0.7, 0.7}}},
       {{"mxm", 4, "n=400", {0.6, 0.8, 0.65, 0.65}}}},  // best is global, mean is not
      {"M4",
       {{"mxm", 4, "n=400", {0.6, 0.6, 0.8, 0.8}}, {"mxm", 16, "n=1600", {0.6, 0.6, 0.65, 0.65}}},
       {{"mxm", 4, "n=400", {0.6, 0.6, 0.65, 0.65}}, {"mxm", 16, "n=1600", {0.6, 0.6, 0.8, 0.8}}}},
      {"M5",
       {{"mxm", 4, "n=400", global_best_gd}},
       {{"mxm", 4, "n=400", {0.62, 0.58, 0.65, 0.70}}}},  // LCDLB beats LDDLB
      {"T1",
       {{"trfd", 4, "n=30", local_best_ld}, {"trfd", 4, "n=100", global_best_gd}},
       {{"trfd", 4, "n=30", global_best_gd}, {"trfd", 4, "n=100", local_best_ld}}},
      {"T2", {{"trfd", 4, "n=30", global_best_gd}}, {{"trfd", 4, "n=30", local_best_lc}}},
      {"T3", {{"trfd", 16, "n=30", local_best_ld}}, {{"trfd", 16, "n=30", global_best_gd}}},
      {"T4", {{"trfd", 16, "n=30", local_best_lc}}, {{"trfd", 16, "n=30", global_best_gc}}},
      {"T5", {{"trfd", 16, "n=30", local_best_ld}}, {{"trfd", 4, "n=30", local_best_lc}}},
      {"T6",
       {{"trfd", 4, "n=30", local_best_ld, 5, "GDDLB", 3, local_best_ld, local_best_ld},
        {"trfd", 4, "n=100", local_best_ld, 5, "GDDLB", 3, local_best_ld, global_best_gd},
        {"trfd", 16, "n=30", local_best_ld, 5, "GDDLB", 3, local_best_ld, local_best_ld}},
       {{"trfd", 4, "n=30", local_best_ld, 5, "GDDLB", 3, local_best_ld, local_best_ld},
        {"trfd", 4, "n=100", local_best_ld, 5, "GDDLB", 3, local_best_ld, local_best_ld}}},
      {"A1",
       {{"ac", 4, "n=100", local_best_ld}, {"ac", 4, "n=250", global_best_gd}},
       {{"ac", 4, "n=100", local_best_ld}, {"ac", 4, "n=250", local_best_lc}}},
      {"A2",
       {{"ac", 16, "n=100", local_best_lc}, {"ac", 16, "n=250", global_best_gc}},
       {{"ac", 16, "n=100", global_best_gd}, {"ac", 16, "n=250", global_best_gd}}},
      {"A3",
       {{"ac", 4, "n=100", {0.62, 0.60, 0.70, 0.68}}},
       {{"ac", 4, "n=100", {0.60, 0.62, 0.68, 0.70}}}},
      {"O1",
       {{"mxm", 4, "n=400", {1.01, 1.01, 1.02, 1.02}, 0, "-", 1}},
       {{"mxm", 4, "n=400", {1.01, 1.01, 1.02, 1.02}, 0, "-", 3}}},  // 3 > 2 groups' worth
      {"O2",
       {{"mxm", 4, "n=400", global_best_gd, 5, "GDDLB"},
        {"mxm", 4, "n=800", global_best_gd, 5, "GCDLB"},  // miss: the second best
        {"mxm", 4, "n=1600", global_best_gd, 5, "GDDLB"}},
       {{"mxm", 4, "n=400", global_best_gd, 5, "GDDLB"},
        {"mxm", 4, "n=800", global_best_gd, 5, "LCDLB"},  // miss: not the second best
        {"mxm", 4, "n=1600", global_best_gd, 5, "GDDLB"}}},
  };
  return table;
}

void PrintTo(const claim_case& c, std::ostream* os) { *os << c.id; }

class ClaimTable : public ::testing::TestWithParam<claim_case> {};

}  // namespace

TEST(ClaimTable, OneEntryPerClaimOfTheChapterInItsOrder) {
  std::vector<std::string> ids;
  for (const auto& s : claim_table()) {
    ids.push_back(s.id);
    EXPECT_FALSE(s.statement.empty()) << s.id;
    EXPECT_FALSE(s.reads.empty()) << s.id;
    EXPECT_FALSE(s.predicate.empty()) << s.id;
    EXPECT_GE(s.tolerance, 0) << s.id;
    EXPECT_TRUE(s.evaluate) << s.id;
  }
  const std::vector<std::string> expected{"M1", "M2", "M3", "M4", "M5", "T1", "T2", "T3",
                                          "T4", "T5", "T6", "A1", "A2", "A3", "O1", "O2"};
  EXPECT_EQ(ids, expected);
  std::set<std::string> with_case;
  for (const auto& c : cases()) with_case.insert(c.id);
  EXPECT_EQ(with_case, std::set<std::string>(expected.begin(), expected.end()))
      << "every claim needs a case below";
  // The loop gives each claim's result in the table's order.
  const auto results = evaluate_claims({});
  ASSERT_EQ(results.size(), expected.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].id, expected[i]);
    EXPECT_EQ(results[i].outcome, verdict::not_measured) << results[i].id;
  }
}

TEST_P(ClaimTable, HoldsWhereItMustAndNotWhereItMustNot) {
  const claim_case& c = GetParam();
  const claim_spec& s = spec(c.id);
  EXPECT_EQ(evaluate(s, c.holds), verdict::holds) << c.id << ": " << s.predicate;
  EXPECT_EQ(evaluate(s, c.fails), verdict::does_not_hold) << c.id << ": " << s.predicate;
}

INSTANTIATE_TEST_SUITE_P(EachClaim, ClaimTable, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.id; });

// The tolerance is read: a 1.5% edge counts with none, not with a 5% margin.
TEST(ClaimTolerance, AnOrderingNeedsTheMarginItIsGiven) {
  claim_spec m2 = spec("M2");
  const std::vector<config> close{{"mxm", 4, "n=400", {0.6, 0.6, 0.660, 0.650}}};
  EXPECT_EQ(evaluate(m2, close), verdict::holds);
  m2.tolerance = 0.05;
  EXPECT_EQ(evaluate(m2, close), verdict::does_not_hold);
}

TEST(ClaimTolerance, OverheadAndPredictionShares) {
  claim_spec o1 = spec("O1");
  const std::vector<config> two_syncs{{"mxm", 4, "n=400", {1.01, 1.01, 1.02, 1.02}, 0, "-", 2}};
  EXPECT_EQ(evaluate(o1, two_syncs), verdict::does_not_hold);  // globals: one group, one loop
  o1.tolerance = 1;
  EXPECT_EQ(evaluate(o1, two_syncs), verdict::holds);

  // Half of the configurations match: not "most" at the claim's 0.5, enough at 0.4.
  claim_spec o2 = spec("O2");
  const std::vector<config> half{{"mxm", 4, "n=400", global_best_gd, 5, "GDDLB"},
                                 {"mxm", 4, "n=800", global_best_gd, 5, "GCDLB"}};
  EXPECT_EQ(evaluate(o2, half), verdict::does_not_hold);
  o2.tolerance = 0.4;
  EXPECT_EQ(evaluate(o2, half), verdict::holds);
}
