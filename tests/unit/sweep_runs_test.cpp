// The table of runs (experiments/report/runs.hpp) and the seed bootstrap (stats.hpp) on small
// results tables whose answers are worked by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/runs.hpp"
#include "report/stats.hpp"
#include "sweep/csv_table.hpp"

namespace {

using namespace dlb::report;

const char* kHeader = "app,P,K,size,strategy,rep,seed,ml,tl,backend,extra_args,status,total_s\n";

dlb::sweep::csv_table table(const std::string& rows) {
  return dlb::sweep::parse_csv_table(kHeader + rows, "test");
}

TEST(Runs, LaterRowOfARunWinsInThePlaceOfTheFirst) {
  const std::vector<dlb::sweep::csv_table> t{table("mxm,4,2,n=40,NONE,0,1,5,5,sim,,failed,\n"
                                                   "mxm,4,2,n=40,GCDLB,0,1,5,5,sim,,ok,8\n"),
                                             table("mxm,4,2,n=40,NONE,0,1,5,5,sim,,ok,10\n")};
  std::size_t superseded = 0;
  const auto runs = latest_runs(t, &superseded);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(superseded, 1u);
  EXPECT_EQ(runs[0].policy(), "NONE");  // the first run's place, the later row
  EXPECT_TRUE(runs[0].ok());
  EXPECT_EQ(runs[0].number("total_s"), 10.0);
  EXPECT_FALSE(runs[0].number("no_such_column"));
  EXPECT_EQ(runs[1].value("total_s"), 8.0);
}

TEST(Runs, ConfigKeyLeavesOutPolicyAndRepetitionAndReadsAMissingBackendAsPvm) {
  const auto a = table("mxm,4,2,n=40,NONE,0,1,5,5,,,ok,10\n");
  const auto b = table("mxm,4,2,n=40,LDDLB,3,7,5,5,pvm,,ok,9\n");
  const auto c = table("mxm,4,2,n=40,NONE,0,1,0,5,pvm,,ok,9\n");
  EXPECT_EQ(rows_of(a)[0].config_key(), rows_of(b)[0].config_key());
  EXPECT_NE(rows_of(a)[0].config_key(), rows_of(c)[0].config_key());  // ml differs
}

bool ok(const run& r) { return r.ok(); }

TEST(Runs, PairsWithTheReferencePolicyOfTheSameConfigurationAndSeed) {
  const auto t = table(
      "mxm,4,2,n=40,NONE,0,1,5,5,sim,,ok,10\n"
      "mxm,4,2,n=40,NONE,1,2,5,5,sim,,failed,\n"
      "mxm,4,2,n=40,GCDLB,0,1,5,5,sim,,ok,8\n"
      "mxm,4,2,n=40,GCDLB,1,2,5,5,sim,,ok,7\n"
      "mxm,16,8,n=40,GCDLB,0,1,5,5,sim,,ok,3\n");
  const auto runs = rows_of(t);
  const reference_runs none(runs, "NONE", ok);
  const run* p = none.partner(runs[2], runs[2].config_key());
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->value("total_s"), 10.0);
  EXPECT_EQ(none.partner(runs[3], runs[3].config_key()), nullptr);  // seed 2's NONE failed
  EXPECT_EQ(none.partner(runs[4], runs[4].config_key()), nullptr);  // no NONE at P = 16
  const reference_runs gcdlb(runs, "GCDLB", ok);                    // any named policy
  EXPECT_EQ(gcdlb.partner(runs[0], runs[0].config_key())->value("total_s"), 8.0);
}

TEST(Runs, PairedRatiosOverTheSeedsOfBoth) {
  const by_seed a{{"1", 8}, {"2", 6}, {"3", 0}, {"4", 5}};
  const by_seed b{{"1", 10}, {"2", 0}, {"3", 4}};
  EXPECT_EQ(paired_ratios(a, b), (std::vector<double>{0.8, 0.0}));   // seed 2: b = 0; 4: no b
  EXPECT_EQ(paired_ratios(a, b, true), (std::vector<double>{0.8}));  // and a > 0
}

TEST(Runs, SeedsInOrderOfFirstAppearanceAndTheirResampling) {
  const auto t = table(
      "mxm,4,2,n=40,NONE,0,5,5,5,sim,,ok,10\n"
      "mxm,4,2,n=40,NONE,1,2,5,5,sim,,ok,11\n"
      "mxm,4,2,n=40,GCDLB,0,5,5,5,sim,,ok,8\n");
  EXPECT_EQ(seeds_of({t}), (std::vector<std::string>{"5", "2"}));
  const auto r = resample_seeds(t, {"5", "5"});  // seed 5 drawn twice: two seeds of two runs
  ASSERT_EQ(r.rows.size(), 4u);
  EXPECT_EQ(r.field(r.rows[0], "seed"), "1000000");
  EXPECT_EQ(r.field(r.rows[2], "seed"), "1000001");
  EXPECT_EQ(r.field(r.rows[3], "rep"), "1");
}

TEST(Stats, BootstrapDrawsAreFixedBySeedAndComeFromTheSeeds) {
  const std::vector<std::string> seeds{"1", "2", "3"};
  std::vector<std::vector<std::string>> first, again, other;
  bootstrap_seeds(seeds, 5, 42, [&](const auto& d) { first.push_back(d); });
  bootstrap_seeds(seeds, 5, 42, [&](const auto& d) { again.push_back(d); });
  bootstrap_seeds(seeds, 5, 43, [&](const auto& d) { other.push_back(d); });
  ASSERT_EQ(first.size(), 5u);
  EXPECT_EQ(first, again);
  EXPECT_NE(first, other);
  for (const auto& d : first) {
    ASSERT_EQ(d.size(), 3u);
    for (const auto& s : d) EXPECT_TRUE(s == "1" || s == "2" || s == "3") << s;
  }
  int calls = 0;
  bootstrap_seeds({}, 5, 42, [&](const auto&) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(Stats, EstimatesAreWrittenWithTheirIntervals) {
  EXPECT_EQ(format_estimate(std::nullopt), "-");
  EXPECT_EQ(format_estimate(ratio_of({2.0})), "2.000 (1 seed)");
  EXPECT_EQ(format_estimate(ratio_of({2.0, 2.0})), "2.000 [2.000, 2.000]");
}

}  // namespace
