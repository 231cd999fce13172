// Unit tests of the sweep config format: expansion into runs, paired seeds, validation errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "sweep/config.hpp"

using namespace dlb::sweep;

namespace {

const char* kConfig = R"(# a comment
procs = 4 16
group = 4:2 16:8
strategies = NONE GDDLB LDDLB
repetitions = 2
seeds = 7 9
tl = 1.0     # canonical form is "1"
timeout = 30

[app mxm]
procs = 4
sizes = n=400 r=400 m=400; n=800, r=400, m=400

[app trfd]
sizes = n=30
ml = 0
repetitions = 1
)";

std::string error_of(const std::string& text) {
  try {
    parse_config(text, "t.conf");
  } catch (const config_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(SweepConfig, ExpandsSectionsInOrder) {
  const auto plan = parse_config(kConfig, "t.conf");
  // mxm: 1 P x 2 sizes x 2 reps x 3 strategies; trfd: 2 P x 1 size x 1 rep x 3 strategies.
  ASSERT_EQ(plan.runs.size(), 12u + 6u);
  const auto& first = plan.runs.front();
  EXPECT_EQ(first.app, "mxm");
  EXPECT_EQ(first.procs, 4);
  EXPECT_EQ(first.group, 2);
  EXPECT_EQ(first.size.label(), "n=400 r=400 m=400");
  EXPECT_EQ(first.strategy, "NONE");
  EXPECT_EQ(first.seed, 7u);
  EXPECT_EQ(first.ml, 5);
  EXPECT_DOUBLE_EQ(first.timeout_s, 30);
  EXPECT_EQ(plan.runs[1].strategy, "GDDLB");  // strategies innermost: paired runs back to back
  EXPECT_EQ(plan.runs[3].seed, 9u);           // then the next repetition
  EXPECT_EQ(plan.runs[6].size.label(), "n=800 r=400 m=400");  // commas accepted in sizes
  const auto& last = plan.runs.back();
  EXPECT_EQ(last.app, "trfd");
  EXPECT_EQ(last.procs, 16);
  EXPECT_EQ(last.group, 8);
  EXPECT_EQ(last.ml, 0);
}

TEST(SweepConfig, AllStrategiesOfARepetitionShareOneSeed) {
  const auto plan = parse_config(kConfig, "t.conf");
  std::map<std::string, std::set<std::uint64_t>> seeds_of;  // config + rep -> seeds
  std::map<std::string, std::set<int>> reps_of_seed;        // config + seed -> reps
  for (const auto& r : plan.runs) {
    const std::string config = r.app + std::to_string(r.procs) + r.size.label();
    seeds_of[config + "/" + std::to_string(r.rep)].insert(r.seed);
    reps_of_seed[config + "/" + std::to_string(r.seed)].insert(r.rep);
  }
  for (const auto& [k, s] : seeds_of) EXPECT_EQ(s.size(), 1u) << k;
  for (const auto& [k, s] : reps_of_seed) EXPECT_EQ(s.size(), 1u) << k;
}

TEST(SweepConfig, KeyAndArgvUseCanonicalNumbers) {
  const auto plan = parse_config(kConfig, "t.conf");
  const auto& r = plan.runs.front();
  const auto vals = r.key_values();
  ASSERT_EQ(vals.size(), run_spec::key_columns().size());
  EXPECT_EQ(vals[8], "1");    // tl = 1.0
  EXPECT_EQ(vals[10], "20");  // default scale
  const auto argv = r.argv("/bin/dir");
  const std::vector<std::string> expected{"/bin/dir/mxm",
                                          "--strategy",
                                          "NONE",
                                          "--procs",
                                          "4",
                                          "--group",
                                          "2",
                                          "--seed",
                                          "7",
                                          "--ml",
                                          "5",
                                          "--tl",
                                          "1",
                                          "--clock",
                                          "emulated",
                                          "--scale",
                                          "20",
                                          "--network",
                                          "ethernet1996",
                                          "--backend",
                                          "pvm",
                                          "--n",
                                          "400",
                                          "--r",
                                          "400",
                                          "--m",
                                          "400"};
  EXPECT_EQ(argv, expected);
}

TEST(SweepConfig, DefaultsGroupToHalfOfPAndSeedsToOneUp) {
  const auto plan =
      parse_config("procs = 8\nstrategies = NONE\nrepetitions = 3\n[app ac]\nsizes = n=100\n", "x");
  ASSERT_EQ(plan.runs.size(), 3u);
  EXPECT_EQ(plan.runs[0].group, 4);
  EXPECT_EQ(plan.runs[0].seed, 1u);
  EXPECT_EQ(plan.runs[2].seed, 3u);
}

TEST(SweepConfig, AcceptsTheSelfSchedulingBaselines) {
  const auto plan = parse_config(
      "procs = 4\nstrategies = GCDLB SS CSS:16 GSS TSS FAC2 AWF\n[app mxm]\nsizes = n=8 r=4 m=4\n",
      "x");
  ASSERT_EQ(plan.runs.size(), 7u);
  std::vector<std::string> names;
  for (const auto& r : plan.runs) names.push_back(r.strategy);
  EXPECT_NE(std::find(names.begin(), names.end(), "CSS:16"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "AWF"), names.end());
}

TEST(SweepConfig, ErrorsNameTheFileLineAndInput) {
  const std::string base = "procs = 4\nstrategies = NONE\n";
  EXPECT_EQ(error_of(base + "colour = red\n[app mxm]\nsizes = n=4\n")
                .rfind("t.conf:3: unknown key 'colour'", 0),
            0u);
  EXPECT_NE(error_of("strategies = NONE FASTEST\n").find("t.conf:1: unknown strategy 'FASTEST'"),
            std::string::npos);
  // The self-scheduling baselines: the programs' names, spelled as they echo them.
  EXPECT_NE(error_of("strategies = GSS CSS:0\n").find("t.conf:1: strategy CSS needs a chunk size"),
            std::string::npos);
  EXPECT_NE(error_of("strategies = CSS\n").find("t.conf:1: strategy CSS needs its chunk size"),
            std::string::npos);
  EXPECT_NE(error_of("strategies = gss\n").find("t.conf:1: strategy 'gss' must be spelled"),
            std::string::npos);
  EXPECT_NE(error_of(base + "sizes = n=4\n").find("sizes belong in an [app NAME] section"),
            std::string::npos);
  EXPECT_NE(error_of(base + "[app lu]\n").find("unknown app 'lu'"), std::string::npos);
  EXPECT_NE(error_of(base + "[app mxm]\n").find("no sizes"), std::string::npos);
  EXPECT_NE(error_of(base + "[app trfd]\nsizes = n=30 r=4\n").find("'r' is not an option of trfd"),
            std::string::npos);
  EXPECT_NE(error_of(base + "group = 4:3\n[app ac]\nsizes = n=1\n").find("K=3 does not divide P=4"),
            std::string::npos);
  EXPECT_NE(error_of(base + "repetitions = 3\nseeds = 1 2\n[app ac]\nsizes = n=1\n")
                .find("seeds lists 2 values for 3 repetitions"),
            std::string::npos);
  EXPECT_NE(
      error_of(base + "[app ac]\nsizes = n=1\n[app ac]\nsizes = n=1\n").find("plans a run twice"),
      std::string::npos);
  EXPECT_NE(error_of(base + "ml = -1\n").find("ml must be an integer >= 0, got '-1'"),
            std::string::npos);
  EXPECT_NE(error_of(base + "ml = 5\nml = 4\n").find("'ml' is set twice"), std::string::npos);
  EXPECT_NE(error_of(base + "clock = wall\n").find("clock must be emulated or native"),
            std::string::npos);
  EXPECT_NE(error_of(base + "scale = 0\n").find("scale must be a positive number"),
            std::string::npos);
  EXPECT_NE(error_of(base + "[app ac]\nsizes = n=x\n").find("must be a positive integer"),
            std::string::npos);
  EXPECT_NE(error_of(base).find("no [app NAME] section"), std::string::npos);
  EXPECT_NE(error_of("strategies = NONE\n[app ac]\nsizes = n=1\n").find("no procs"),
            std::string::npos);
  EXPECT_NE(error_of("procs = 4\nseeds = 3 3\n").find("seed 3 listed twice"), std::string::npos);
}

TEST(SweepConfig, ExtraArgsArePassedThroughAndPartOfTheIdentity) {
  const auto plan =
      parse_config("procs = 4\nstrategies = NONE\nargs = --x   1\n[app ac]\nsizes = n=1\n", "x");
  ASSERT_EQ(plan.runs.size(), 1u);
  EXPECT_EQ(plan.runs[0].extra_args, "--x 1");
  const auto argv = plan.runs[0].argv("/b");
  EXPECT_EQ(argv[argv.size() - 2], "--x");
  EXPECT_EQ(argv.back(), "1");
  EXPECT_NE(plan.runs[0].key().find("--x 1"), std::string::npos);
}

TEST(SweepConfig, BackendIsAKeyOfTheIdentityAndAnOptionOfTheApp) {
  const auto plan = parse_config(
      "procs = 4\nstrategies = NONE\nbackend = sim\n[app mxm]\nsizes = n=400 r=400 m=400\n"
      "[app mxm]\nbackend = pvm\nsizes = n=400 r=400 m=400\n[app trfd]\nsizes = n=30\n",
      "b.conf");
  ASSERT_EQ(plan.runs.size(), 3u);
  // The default, a section's override, and the default again.
  EXPECT_EQ(plan.runs[0].backend, "sim");
  EXPECT_EQ(plan.runs[1].backend, "pvm");
  EXPECT_EQ(plan.runs[2].backend, "sim");
  // Same parameters on two backends are two runs (two sections planned them without a clash).
  EXPECT_NE(plan.runs[0].key(), plan.runs[1].key());
  const auto& cols = run_spec::key_columns();
  const auto at = std::find(cols.begin(), cols.end(), "backend");
  ASSERT_NE(at, cols.end());
  EXPECT_EQ(*(at - 1), "network");  // the RESULT line's order
  EXPECT_EQ(plan.runs[0].key_values()[static_cast<std::size_t>(at - cols.begin())], "sim");
  const auto argv = plan.runs[0].argv("/b");
  const auto opt = std::find(argv.begin(), argv.end(), "--backend");
  ASSERT_NE(opt, argv.end());
  EXPECT_EQ(*(opt + 1), "sim");
  EXPECT_NE(plan.runs[0].describe().find("backend=sim"), std::string::npos);
  EXPECT_EQ(plan.runs[1].describe().find("backend"), std::string::npos);
  // Only emulated-clock runs on real PVM tasks need the machine alone.
  EXPECT_FALSE(plan.runs[0].needs_machine_alone());
  EXPECT_TRUE(plan.runs[1].needs_machine_alone());
  // Without the key: pvm.
  EXPECT_EQ(parse_config(kConfig, "t.conf").runs.front().backend, "pvm");
}

TEST(SweepConfig, BadBackendIsAnErrorNamingTheLine) {
  const std::string e =
      error_of("procs = 4\nstrategies = NONE\nbackend = simgrid\n[app ac]\nsizes = n=10\n");
  EXPECT_NE(e.find("t.conf:3"), std::string::npos) << e;
  EXPECT_NE(e.find("backend must be pvm, sim or mpi, got 'simgrid'"), std::string::npos) << e;
}
