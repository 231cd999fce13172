// The names --strategy accepts (dlb/core/policy.hpp): the paper's strategies and the
// self-scheduling baselines, table-style, with the errors of bad names.
#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "dlb/core/auto_all.hpp"
#include "dlb/core/policy.hpp"

namespace {

using dlb::core::chunk_rule;
using dlb::core::customized_mode;
using dlb::core::parse_policy;
using dlb::core::policy;
using dlb::core::scheme;

TEST(Policy, NamesParseToTheirStrategyOrRule) {
  struct row {
    std::string text;
    policy expected;
    std::string canonical;
  };
  const auto ss = [](chunk_rule r, std::int64_t k = 1) {
    return policy{dlb::core::self_scheduled{r, k}};
  };
  // Each name is one of the four kinds, with what that kind holds.
  const std::vector<row> rows{
      {"NONE", dlb::core::no_balancing{}, "NONE"},
      {"gcdlb", dlb::core::balancing{scheme::gcdlb}, "GCDLB"},
      {"LDDLB", dlb::core::balancing{scheme::lddlb}, "LDDLB"},
      {"AUTO", dlb::core::customized{customized_mode::automatic}, "AUTO"},
      {"adaptive", dlb::core::customized{customized_mode::adaptive}, "ADAPTIVE"},
      {"AUTO-ALL", dlb::core::customized{customized_mode::auto_all}, "AUTO-ALL"},
      {"SS", ss(chunk_rule::ss), "SS"},
      {"css:16", ss(chunk_rule::css, 16), "CSS:16"},
      {"CSS:1", ss(chunk_rule::css, 1), "CSS:1"},
      {"GSS", ss(chunk_rule::gss), "GSS"},
      {"tss", ss(chunk_rule::tss), "TSS"},
      {"FAC2", ss(chunk_rule::fac2), "FAC2"},
      {"AWF", ss(chunk_rule::awf), "AWF"},
  };
  for (const auto& r : rows) {
    const policy p = parse_policy(r.text);
    EXPECT_EQ(p, r.expected) << r.text;
    EXPECT_EQ(dlb::core::to_string(p), r.canonical) << r.text;
    EXPECT_EQ(parse_policy(r.canonical), p) << r.canonical;
  }
}

TEST(Policy, BadNamesAreRefusedWithAReason) {
  struct row {
    std::string text;
    std::string reason;  // part of the message
  };
  const std::vector<row> rows{
      {"", "unknown strategy ''"},
      {"SELF", "unknown strategy 'SELF'"},
      {"GSS2", "unknown strategy 'GSS2'"},
      {"CSS", "CSS needs its chunk size"},
      {"CSS:0", "k >= 1"},
      {"CSS:-3", "k >= 1"},
      {"CSS:4x", "k >= 1"},
      {"CSS:", "k >= 1"},
      {"GSS:4", "takes no chunk size"},
      {"GCDLB:4", "unknown strategy 'GCDLB:4'"},
  };
  for (const auto& r : rows) {
    try {
      (void)parse_policy(r.text);
      ADD_FAILURE() << "accepted '" << r.text << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(r.reason), std::string::npos)
          << r.text << ": " << e.what();
    }
  }
}

// The capability columns (what a policy can run with), from which the runtime derives the option
// combinations it refuses: one row per policy, and AUTO-ALL's from everything it may commit to.
TEST(Policy, CapabilitiesPerPolicyAndUnderAutoAll) {
  using dlb::core::capabilities;
  using dlb::core::capabilities_of;
  struct row {
    std::string name;
    capabilities expected;
  };
  const capabilities plain{true, false}, no_loss{false, false}, adaptive{false, true};
  for (const auto& r : std::vector<row>{{"NONE", plain},
                                        {"GCDLB", plain},
                                        {"GDDLB", plain},
                                        {"LCDLB", plain},
                                        {"LDDLB", plain},
                                        {"AUTO", plain},
                                        {"SS", no_loss},
                                        {"CSS:4", no_loss},
                                        {"GSS", no_loss},
                                        {"AWF", no_loss},
                                        {"ADAPTIVE", adaptive},
                                        {"AUTO-ALL", no_loss}}) {
    EXPECT_EQ(capabilities_of(parse_policy(r.name)), r.expected) << r.name;
    EXPECT_EQ(capabilities_of(parse_policy(r.name), {}, nullptr), r.expected) << r.name;
  }
  // Candidates count only under AUTO-ALL.
  const std::vector<policy> with_adaptive = dlb::core::parse_candidates("GCDLB ADAPTIVE");
  const std::vector<policy> paper = dlb::core::parse_candidates("GCDLB GDDLB LCDLB LDDLB");
  EXPECT_EQ(capabilities_of(parse_policy("GDDLB"), with_adaptive, nullptr), plain);
  const auto all = parse_policy("AUTO-ALL");
  EXPECT_EQ(capabilities_of(all, with_adaptive, nullptr), adaptive);
  EXPECT_EQ(capabilities_of(all, paper, nullptr), no_loss);
  const policy forced = parse_policy("ADAPTIVE");
  EXPECT_EQ(capabilities_of(all, paper, &forced), adaptive);
  EXPECT_EQ(
      capabilities_of(all, dlb::core::parse_candidates(dlb::core::default_candidates()), nullptr),
      adaptive);
}

}  // namespace

namespace {

// A policy is one value of one of four kinds; row(), mode(), rule(), chunk() and candidates()
// read it, each empty (or its default) for the kinds that do not hold it.
TEST(Policy, IsOneValueOfOneOfFourKinds) {
  using dlb::core::balancing;
  using dlb::core::customized;
  using dlb::core::no_balancing;
  using dlb::core::self_scheduled;
  struct row {
    policy p;
    std::size_t index;  // of the variant's alternative
    std::optional<scheme> row;
    std::optional<customized_mode> mode;
  };
  const std::vector<row> rows{
      {no_balancing{}, 1, std::nullopt, std::nullopt},
      {balancing{scheme::gcdlb}, 0, scheme::gcdlb, std::nullopt},
      {balancing{scheme::lddlb}, 0, scheme::lddlb, std::nullopt},
      {customized{customized_mode::automatic}, 2, std::nullopt, customized_mode::automatic},
      {customized{customized_mode::adaptive}, 2, std::nullopt, customized_mode::adaptive},
      {customized{customized_mode::auto_all}, 2, std::nullopt, customized_mode::auto_all}};
  for (const auto& r : rows) {
    SCOPED_TRACE(dlb::core::to_string(r.p));
    EXPECT_EQ(r.p.value.index(), r.index);
    EXPECT_EQ(r.p.row(), r.row);
    EXPECT_EQ(r.p.mode(), r.mode);
    EXPECT_EQ(r.p.is_customized(), r.mode.has_value());
    EXPECT_FALSE(r.p.is_self_scheduled());
    EXPECT_EQ(r.p.rule(), chunk_rule::gss);
    EXPECT_EQ(r.p.chunk(), 1);
    EXPECT_TRUE(r.p.candidates().empty());
    EXPECT_EQ(r.p.forced(), nullptr);
  }
  EXPECT_EQ(policy{}, policy{balancing{scheme::gddlb}}) << "GDDLB by default, as --strategy";
  const policy css{self_scheduled{chunk_rule::css, 16}};
  EXPECT_TRUE(css.is_self_scheduled());
  EXPECT_FALSE(css.row() || css.mode());
  EXPECT_EQ(css.rule(), chunk_rule::css);
  EXPECT_EQ(css.chunk(), 16);
  const policy gcdlb{balancing{scheme::gcdlb}};
  const policy all{customized{customized_mode::auto_all, {css, gcdlb}}};
  ASSERT_EQ(all.candidates().size(), 2u);
  EXPECT_EQ(all.candidates()[0], css);
  EXPECT_NE(all, policy{customized{customized_mode::auto_all}})
      << "the candidates are part of the value";
  const policy forced{customized{customized_mode::auto_all, {css, gcdlb}, {gcdlb}}};
  ASSERT_NE(forced.forced(), nullptr);
  EXPECT_EQ(*forced.forced(), gcdlb);
  EXPECT_NE(forced, all) << "so is the forced commitment";
  EXPECT_NE(policy{no_balancing{}}, policy{balancing{scheme::gddlb}});
}

}  // namespace

namespace {

using dlb::core::balancing;
using dlb::core::check_policy;
using dlb::core::customized;
using dlb::core::no_balancing;
using dlb::core::self_scheduled;

// A policy made as a value (dlb::mpi::session_params::policy) is checked as a name would be,
// without becoming text: every name parse_policy reads passes, AUTO-ALL with its own candidates
// passes, and each wrong value says what is wrong.
TEST(Policy, TypedValuesAreCheckedAsNamesAre) {
  std::istringstream names{std::string(dlb::core::known_policy_names())};
  for (std::string n; names >> n;) {
    if (n == "CSS:k") n = "CSS:3";
    EXPECT_NO_THROW(check_policy(parse_policy(n))) << n;
  }
  const policy gss{self_scheduled{chunk_rule::gss}}, fac2{self_scheduled{chunk_rule::fac2}};
  const policy adaptive{customized{customized_mode::adaptive}};
  EXPECT_NO_THROW(check_policy(customized{customized_mode::auto_all, {gss, fac2, adaptive}}));
  EXPECT_NO_THROW(check_policy(customized{customized_mode::auto_all, {gss, fac2}, {fac2}}));
  struct row {
    policy p;
    std::string says;
  };
  for (const auto& r : std::vector<row>{
           {self_scheduled{chunk_rule::css, 0}, "CSS needs a chunk size k >= 1, got 0"},
           {self_scheduled{chunk_rule::gss, 4}, "GSS takes no chunk size, got 4"},
           {self_scheduled{static_cast<chunk_rule>(999), 1}, "none of chunk_rules"},
           {balancing{static_cast<scheme>(999)}, "none of balancing_rows"},
           {customized{static_cast<customized_mode>(9)}, "none of AUTO, ADAPTIVE, AUTO-ALL"},
           {customized{customized_mode::adaptive, {gss}}, "only AUTO-ALL has candidates"},
           {customized{customized_mode::auto_all, {gss, no_balancing{}}},
            "candidate 'NONE' is no candidate"},
           {customized{customized_mode::auto_all,
                       {gss, customized{customized_mode::auto_all}}},
            "candidate 'AUTO-ALL' is no candidate"},
           {customized{customized_mode::auto_all, {gss, self_scheduled{chunk_rule::css, 0}}},
            "CSS needs a chunk size"},
           {customized{customized_mode::auto_all, {gss, fac2, gss}}, "'GSS' given twice"},
           {customized{customized_mode::auto_all, {gss}, {gss, fac2}}, "one forced policy, got 2"},
           {customized{customized_mode::auto_all, {gss}, {customized{}}},
            "forced policy 'AUTO' is no candidate"},
       }) {
    std::string what;
    try {
      check_policy(r.p);
    } catch (const std::invalid_argument& e) {
      what = e.what();
    }
    EXPECT_NE(what.find(r.says), std::string::npos) << "expected: " << r.says << "; got: " << what;
  }
}

}  // namespace

namespace {

// --strategy's help comes from the tables: every name parse_policy accepts, each with its row's
// one-line description (none empty).
TEST(Policy, TheHelpListsEveryRowWithItsDescription) {
  const std::string help = dlb::core::described_policy_names();
  std::istringstream names{std::string(dlb::core::known_policy_names())};
  for (std::string n; names >> n;) EXPECT_NE(help.find(n + " ("), std::string::npos) << n;
  for (const auto& r : dlb::core::chunk_rules) {
    EXPECT_FALSE(r.description.empty()) << r.name;
    EXPECT_NE(help.find(std::string(r.description)), std::string::npos) << r.name;
  }
  EXPECT_EQ(help.find("()"), std::string::npos) << help;
}

}  // namespace
