// Unit tests of the command line (lib/runtime/options.cpp, runtime.cpp) and of the reference
// network profiles' lookup (network_profile.cpp), none of which needs a pvmd: small defects
// once found (an option taken as the value of the one before it; two defaults for tl), and that
// lib/ receives the profiles and never reads experiments/.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dlb/core/policy.hpp"
#include "dlb/runtime/network_profile.hpp"
#include "dlb/runtime/runtime.hpp"

namespace {

std::string usage_error_of(const std::vector<std::string>& args) {
  try {
    dlb::read_params(dlb::options::parse(dlb::common_options(), args));
  } catch (const dlb::usage_error& e) {
    return e.what();
  }
  return "";
}

// `--procs --strategy GCDLB` is a missing value for --procs, not "unexpected argument 'GCDLB'"
// (nor a --procs of "--strategy"); the same for every option that takes a value.
TEST(Options, AnOptionIsNeverTheValueOfTheOneBefore) {
  struct row {
    std::vector<std::string> args;
    std::string message;
  };
  for (const auto& r : std::vector<row>{
           {{"--procs", "--strategy", "GCDLB"},
            "option --procs needs a value, got the option '--strategy'"},
           {{"--strategy", "--procs", "4"},
            "option --strategy needs a value, got the option '--procs'"},
           {{"--tl", "--quiet"}, "option --tl needs a value, got the option '--quiet'"},
           {{"--seed", "--ml=3"}, "option --seed needs a value, got the option '--ml=3'"},
           {{"--procs", "4", "--seed"}, "option --seed needs a value"},
       }) {
    EXPECT_EQ(usage_error_of(r.args), r.message) << r.args.front();
  }
}

// Negative numbers are values: a range error names the option and the number, never "needs a
// value"; and a value given with = is taken as it is.
TEST(Options, NegativeNumbersAreValues) {
  EXPECT_EQ(usage_error_of({"--tl", "-1"}), "option --tl must be in [1e-06, 1e+12], got -1");
  EXPECT_EQ(usage_error_of({"--seed", "-3"}),
            "option --seed must be in 0..9223372036854775807, got -3");
  EXPECT_EQ(usage_error_of({"--threshold", "-1", "--procs", "2"}), "");
  const auto o = dlb::options::parse(dlb::common_options(), {"--threshold", "-1", "--speeds=-2"});
  EXPECT_EQ(o.str("threshold"), "-1");
  EXPECT_EQ(o.str("speeds"), "-2");
  EXPECT_NE(usage_error_of({"--speeds", "-2.5"}).find("option --speeds needs numbers in"),
            std::string::npos);
}

// Speeds the simulator cannot honour are refused before a run (issue 55: 1e308 aborted it,
// 1e-9 grew it without end): each in [0.001, 1000], and under the simulator the slowest times
// tl at least 1e-4 s (without load too: tl = 1e-6 took seconds of model steps). An empty
// message: accepted.
TEST(Options, SpeedsOutsideTheirRangeAreRefused) {
  const std::string range = "option --speeds needs numbers in [0.001, 1000]";
  const std::string product = "options --speeds and --tl: under --backend sim the slowest";
  struct row {
    std::vector<std::string> args;
    std::string message;  // what the refusal starts with; empty: accepted
  };
  const std::vector<row> rows{
      {{"--procs", "4", "--speeds", "1e308,1,1,1"}, range},
      {{"--procs", "4", "--speeds", "1e-9,1,1,1"}, range},
      {{"--procs", "2", "--speeds", "1000.5,1"}, range},
      {{"--procs", "2", "--speeds", "1,0.0009"}, range},
      {{"--procs", "2", "--speeds", "1,inf"}, range},
      {{"--procs", "2", "--speeds", "1,nan"}, range},
      {{"--procs", "2", "--speeds", "1,4.9e-324"}, range},
      {{"--procs", "2", "--speeds", "0.001,1000"}, ""},
      {{"--backend", "sim", "--procs", "2", "--speeds", "0.001,1", "--tl", "0.05"}, product},
      {{"--backend", "sim", "--procs", "2", "--speeds", "0.001,1", "--tl", "1"}, ""},
      {{"--backend", "sim", "--procs", "2", "--speeds", "1", "--tl", "1e-6"}, product},
      {{"--backend", "sim", "--procs", "2", "--speeds", "1", "--tl", "1e-6", "--ml", "0"}, product},
      {{"--backend", "sim", "--procs", "2", "--speeds", "1", "--tl", "1e-4", "--ml", "0"}, ""},
      {{"--backend", "pvm", "--procs", "2", "--speeds", "0.001,1", "--tl", "0.05"}, ""},
  };
  for (const auto& r : rows) {
    const std::string got = usage_error_of(r.args);
    if (r.message.empty()) {
      EXPECT_EQ(got, "") << r.args[r.args.size() - 1];
    } else {
      EXPECT_EQ(got.rfind(r.message, 0), 0u) << got;
    }
  }
}

// One default for the load's persistence: the load function's and --tl's.
TEST(Options, OneDefaultPersistence) {
  const dlb::core::load_function defaults;
  const auto p = dlb::read_params(dlb::options::parse(dlb::common_options(), {}));
  EXPECT_EQ(p.load.persistence, defaults.persistence);
  EXPECT_EQ(p.load.persistence, dlb::core::kDefaultPersistence);
  EXPECT_EQ(p.load.max_load, defaults.max_load);
  for (const auto& s : dlb::common_options()) {
    if (s.name == "tl") {
      EXPECT_EQ(std::stod(s.value), defaults.persistence);
    }
  }
}

// A choice option's values are listed once (its option_spec): the parser refuses any other,
// naming them; its default is one of them, and its help describes each.
TEST(Options, ChoiceValuesAreListedOnceAndChecked) {
  int choices = 0;
  for (const auto& s : dlb::common_options()) {
    if (s.values.empty()) continue;
    ++choices;
    EXPECT_NE(std::find(s.values.begin(), s.values.end(), s.value), s.values.end()) << s.name;
    for (const auto& v : s.values)
      EXPECT_NE(s.help.find(v), std::string::npos) << s.name << " " << v;
    EXPECT_EQ(usage_error_of({"--" + s.name, "bogus"}),
              "option --" + s.name + " must be " + dlb::list_values(s.values) + ", got 'bogus'");
  }
  EXPECT_GE(choices, 13);
  EXPECT_EQ(dlb::list_values({"a"}), "a");
  EXPECT_EQ(dlb::list_values({"a", "b"}), "a or b");
  EXPECT_EQ(dlb::list_values({"a", "b", "c"}), "a, b or c");
}

// The refused combinations follow from the capability columns (core::capabilities_of), for every
// policy: --on-loss recover needs one that survives a loss, --after-no-move stop one that does
// not wait for every profile. Nothing else is refused for these pairs.
TEST(Options, RefusedCombinationsFollowTheCapabilities) {
  struct row {
    std::vector<std::string> strategy;
    bool recover_ok, stop_ok;
  };
  for (const auto& r : std::vector<row>{
           {{"--strategy", "NONE"}, true, true},
           {{"--strategy", "GCDLB"}, true, true},
           {{"--strategy", "GDDLB"}, true, true},
           {{"--strategy", "LCDLB"}, true, true},
           {{"--strategy", "LDDLB"}, true, true},
           {{"--strategy", "AUTO"}, true, true},
           {{"--strategy", "SS"}, false, true},
           {{"--strategy", "CSS:8"}, false, true},
           {{"--strategy", "FAC2"}, false, true},
           {{"--strategy", "ADAPTIVE"}, false, false},
           {{"--strategy", "AUTO-ALL"}, false, false},  // ADAPTIVE among the default candidates
           {{"--strategy", "AUTO-ALL", "--candidates", "GCDLB LDDLB SS"}, false, true},
           {{"--strategy", "AUTO-ALL", "--candidates", "GCDLB SS", "--auto-force", "ADAPTIVE"},
            false,
            false},
       }) {
    auto with = [&r](std::vector<std::string> more) {
      auto a = r.strategy;
      a.insert(a.end(), more.begin(), more.end());
      return usage_error_of(a);
    };
    const std::string name = r.strategy[1];
    EXPECT_EQ(with({}), "") << name;
    const auto recover = with({"--backend", "sim", "--on-loss", "recover"});
    const auto stop = with({"--after-no-move", "stop"});
    EXPECT_EQ(recover.empty(), r.recover_ok) << name << ": " << recover;
    EXPECT_EQ(stop.empty(), r.stop_ok) << name << ": " << stop;
    if (!r.recover_ok) {
      EXPECT_NE(recover.find("--on-loss recover does not work with --strategy " + name),
                std::string::npos)
          << recover;
    }
    if (!r.stop_ok) {
      EXPECT_NE(stop.find("--after-no-move stop does not work with --strategy " + name),
                std::string::npos)
          << stop;
    }
  }
  // The backend's and the protocol's columns.
  EXPECT_NE(usage_error_of({"--backend", "mpi", "--on-loss", "recover"}).find("ULFM"),
            std::string::npos);
  EXPECT_NE(usage_error_of({"--on-loss", "recover", "--first-sync", "master-global"})
                .find("does not work with --first-sync master-global"),
            std::string::npos);
}

// Every rank a worker is an MPI layout: elsewhere the master is a task of its own.
// A typed policy (dlb::mpi::session_params::policy) stands for --strategy as it is: AUTO-ALL
// keeps its own candidates, or takes --candidates' when it has none; the refusals name it.
TEST(Options, ATypedPolicyIsReadAsItIs) {
  using namespace dlb::core;
  const policy gss{self_scheduled{chunk_rule::gss}}, fac2{self_scheduled{chunk_rule::fac2}};
  const auto read = [](const policy& p, const std::vector<std::string>& args) {
    return dlb::read_params(dlb::options::parse(dlb::common_options(), args), p);
  };
  const policy own{customized{customized_mode::auto_all, {gss, fac2}}};
  EXPECT_EQ(read(own, {}).policy, own);
  const auto filled = read(customized{customized_mode::auto_all}, {"--candidates", "TSS SS"});
  ASSERT_EQ(filled.policy.candidates().size(), 2u);
  EXPECT_EQ(to_string(filled.policy.candidates()[1]), "SS");
  const auto forced = read(customized{customized_mode::auto_all}, {"--auto-force", "GDDLB"});
  ASSERT_NE(forced.policy.forced(), nullptr);
  EXPECT_EQ(to_string(*forced.policy.forced()), "GDDLB");
  EXPECT_EQ(read(policy{self_scheduled{chunk_rule::css, 7}}, {}).policy.chunk(), 7);
  std::string refused;
  try {
    read(customized{customized_mode::adaptive}, {"--after-no-move", "stop"});
  } catch (const dlb::usage_error& e) {
    refused = e.what();
  }
  EXPECT_NE(refused.find("--after-no-move stop does not work with the policy ADAPTIVE"),
            std::string::npos)
      << refused;
}

TEST(Options, MasterComputesIsAnMpiLayout) {
  for (const char* backend : {"pvm", "sim"})
    EXPECT_NE(usage_error_of({"--backend", backend, "--master-rank", "computes"})
                  .find("option --master-rank computes needs --backend mpi"),
              std::string::npos)
        << backend;
  EXPECT_EQ(usage_error_of({"--backend", "sim", "--master-rank", "dedicated"}), "");
}

// The reference profiles are found as data: $DLB_NETWORK_DIR first, then beside the file that
// holds the library (this test program, linked with the static archives: build/share/dlb/network,
// where the build copies them), never in the source tree's experiments/network.
TEST(NetworkProfiles, FoundAsDataBesideTheLibraryOrByEnvironment) {
  ::unsetenv("DLB_NETWORK_DIR");
  const auto exe = std::filesystem::read_symlink("/proc/self/exe");
  const auto beside = (exe.parent_path().parent_path() / "share/dlb/network").lexically_normal();
  const auto dirs = dlb::network_profile_dirs();
  ASSERT_EQ(dirs, std::vector<std::string>{beside.string()});
  const std::string found = dlb::find_network_profile("ethernet1996");
  EXPECT_EQ(found, (beside / "ethernet1996.profile").string());
  EXPECT_EQ(found.find("experiments/network"), std::string::npos) << found;
  EXPECT_NO_THROW(dlb::read_network_profile(found));

  // $DLB_NETWORK_DIR comes first; a name found nowhere is an error naming every place.
  const auto dir =
      std::filesystem::temp_directory_path() / ("dlb-profiles-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "ethernet1996.profile") << "latency_s = 1\n";
  ::setenv("DLB_NETWORK_DIR", dir.c_str(), 1);
  EXPECT_EQ(dlb::network_profile_dirs().front(), dir.string());
  EXPECT_EQ(dlb::find_network_profile("ethernet1996"), (dir / "ethernet1996.profile").string());
  EXPECT_EQ(dlb::find_network_profile("switched"), (beside / "switched.profile").string());
  try {
    dlb::find_network_profile("token-ring");
    ADD_FAILURE() << "found a profile that exists nowhere";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'token-ring.profile'"), std::string::npos) << what;
    EXPECT_NE(what.find(dir.string()), std::string::npos) << what;
    EXPECT_NE(what.find(beside.string()), std::string::npos) << what;
  }
  ::unsetenv("DLB_NETWORK_DIR");
  std::filesystem::remove_all(dir);
  try {
    dlb::find_network_profile("token-ring");
    ADD_FAILURE() << "found a profile that exists nowhere";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("$DLB_NETWORK_DIR (not set)"), std::string::npos);
  }
}

}  // namespace

// --threshold-pct (the sensitivity study): the move threshold in percent of the loop's
// iterations, 1 by default (the earlier "1% of the loop"); 0, negative or above 100 refused.
TEST(Options, ThresholdPercent) {
  const auto def = dlb::read_params(dlb::options::parse(dlb::common_options(), {}));
  EXPECT_DOUBLE_EQ(def.threshold_pct, 1.0);
  EXPECT_EQ(def.threshold, -1);
  const auto p =
      dlb::read_params(dlb::options::parse(dlb::common_options(), {"--threshold-pct", "0.25"}));
  EXPECT_DOUBLE_EQ(p.threshold_pct, 0.25);
  EXPECT_EQ(usage_error_of({"--threshold-pct", "0"}),
            "option --threshold-pct must be in (0, 100], got 0");
  EXPECT_EQ(usage_error_of({"--threshold-pct", "101"}),
            "option --threshold-pct must be in [0, 100], got 101");
  EXPECT_EQ(usage_error_of({"--threshold-pct", "-1"}),
            "option --threshold-pct must be in [0, 100], got -1");
}

namespace {

// A backend's refusals follow from its capability columns (lib/runtime/backend_table.hpp): each
// option is refused exactly by the backends that cannot have it, and the message names the
// option and the backends that can.
TEST(Options, BackendRefusalsFollowTheBackendsColumns) {
  struct row {
    std::vector<std::string> asked;
    const char* option;
    bool pvm, sim, mpi;  // which backends take it
    const char* can;     // the backends the refusal names
  };
  const std::vector<row> table = {
      {{"--clock", "native"}, "--clock native", true, false, true, "pvm or mpi"},
      {{"--hostfile", "hosts"}, "--hostfile", true, false, false, "pvm"},
      {{"--join-vm"}, "--join-vm", true, false, false, "pvm"},
      {{"--kill-slave", "1", "--fault-mark", "mark"},
       "--fault-mark",
       true,
       false,
       true,
       "pvm or mpi"},
      {{"--on-loss", "recover"}, "--on-loss recover", true, true, false, "pvm or sim"},
      {{"--master-rank", "computes"}, "--master-rank computes", false, false, true, "mpi"},
  };
  for (const auto& r : table) {
    for (const auto& [backend, takes] :
         {std::pair{"pvm", r.pvm}, std::pair{"sim", r.sim}, std::pair{"mpi", r.mpi}}) {
      auto args = r.asked;
      args.insert(args.end(), {"--backend", backend});
      const std::string e = usage_error_of(args);
      if (takes) {
        // Something else may refuse the run (the emulated clock, under --master-rank computes):
        // never this option's refusal.
        EXPECT_EQ(e.find(std::string("option ") + r.option + " needs --backend"), std::string::npos)
            << backend << ": " << e;
      } else {
        EXPECT_EQ(e.find(std::string("option ") + r.option + " needs --backend " + r.can + ": "),
                  0u)
            << backend << ": " << e;
      }
    }
  }
  EXPECT_NE(usage_error_of({"--backend", "pvm", "--procs", "65"}).find("at most 64"),
            std::string::npos);
  EXPECT_EQ(usage_error_of({"--backend", "sim", "--procs", "4096"}), "");
}

}  // namespace
