// What the ranks' statements mean (lib/backends/mpi/agreement.hpp): agreement, the field that
// differs first, and the ranks behind each value, table-style. No MPI.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "agreement.hpp"

namespace dlb::mpi_detail {
namespace {

statement loop_of(std::int64_t n, std::int64_t number = 0) {
  statement s;
  s[field::what] = static_cast<std::int64_t>(step::loop);
  s[field::loop] = number;
  s[field::iterations] = n;
  return s;
}

TEST(MpiAgreement, RankLists) {
  const struct {
    std::vector<int> ranks;
    std::string text;
  } rows[] = {
      {{2}, "rank 2"},
      {{0, 1}, "ranks 0-1"},
      {{0, 2, 3}, "ranks 0, 2-3"},
      {{0, 1, 2, 5}, "ranks 0-2, 5"},
      {{1, 3, 5}, "ranks 1, 3, 5"},
  };
  for (const auto& r : rows) EXPECT_EQ(rank_list(r.ranks), r.text);
}

TEST(MpiAgreement, SameStatementsAgree) {
  EXPECT_FALSE(find_disagreement({}).has_value());
  EXPECT_FALSE(find_disagreement({loop_of(400)}).has_value());
  statement a = loop_of(400), b = loop_of(400);
  a.set_policy("GDDLB");
  b.set_policy("GDDLB");
  EXPECT_FALSE(find_disagreement({a, b, a}).has_value());
}

TEST(MpiAgreement, TheFirstDifferingFieldWithItsRanks) {
  const struct {
    std::vector<statement> by_rank;
    std::string text;
  } rows[] = {
      {{loop_of(400), loop_of(400), loop_of(300)},
       "the ranks disagree on the loop's length (loop_spec::iterations): rank 2 has 300 "
       "iterations, ranks 0-1 have 400 iterations"},
      {{loop_of(300), loop_of(400), loop_of(300), loop_of(400)},
       "the ranks disagree on the loop's length (loop_spec::iterations): ranks 0, 2 have 300 "
       "iterations, ranks 1, 3 have 400 iterations"},
      // The loop's number comes before its length: a rank a loop behind is named as such.
      {{loop_of(400, 1), loop_of(300, 0), loop_of(400, 1)},
       "the ranks disagree on the loop's number in the session (a rank skipped a loop, or ran "
       "one more): rank 1 has loop number 0, ranks 0, 2 have loop number 1"},
  };
  for (const auto& r : rows) {
    const auto d = find_disagreement(r.by_rank);
    ASSERT_TRUE(d.has_value()) << r.text;
    EXPECT_EQ(describe(*d), r.text);
  }
}

TEST(MpiAgreement, FinishAgainstALoop) {
  statement fin;
  fin[field::what] = static_cast<std::int64_t>(step::finish);
  const auto d = find_disagreement({loop_of(10), loop_of(10), fin});
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(describe(*d),
            "the ranks disagree on what they call: rank 2 has called finish, ranks 0-1 have "
            "called parallel_for");
}

TEST(MpiAgreement, ThePolicyLastByName) {
  statement a, b;
  a.set_policy("GDDLB");
  b.set_policy("SS");
  const auto d = find_disagreement({a, a, b});
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(describe(*d),
            "the ranks disagree on session_params::policy: rank 2 has policy SS, ranks 0-1 have "
            "policy GDDLB");
  statement c = b;
  c[field::timeout_ms] = 4000;  // a field before the policy is named first
  EXPECT_EQ(find_disagreement({a, c})->field, "session_params::timeout");
}

TEST(MpiAgreement, SessionNumbers) {
  statement a, b;
  a[field::session] = 1;
  const auto d = find_disagreement({a, b, b});
  ASSERT_TRUE(d.has_value());
  EXPECT_NE(describe(*d).find("rank 0 has session number 1, ranks 1-2 have session number 0"),
            std::string::npos);
}

TEST(MpiAgreement, PolicyNamesAreCutNotOverrun) {
  statement s;
  s.set_policy(std::string(100, 'x'));
  EXPECT_EQ(s.policy_name(), std::string(s.policy.size() - 1, 'x'));
}

TEST(MpiAgreement, DigestIsOrderDependent) {
  EXPECT_EQ(digest({1, 2, 3}), digest({1, 2, 3}));
  EXPECT_NE(digest({1, 2, 3}), digest({3, 2, 1}));
  EXPECT_NE(digest({400, 1}), digest({300, 1}));
}

}  // namespace
}  // namespace dlb::mpi_detail
