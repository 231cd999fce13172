// app_test_support.hpp: what the integration tests of the application programs (mxm, trfd, ac)
// share: running a program as a child process (run_process.hpp: its own private PVM virtual
// machine, or under --backend sim one process in virtual time; a timeout, a marker to find
// anything left running) and checking its output against the contract the experiment driver
// relies on (experiments/README.md), and that simulated runs are deterministic.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "run_process.hpp"

namespace app_testing {

// The RESULT keys every program prints, in order (experiments/README.md).
inline const std::vector<std::string>& result_keys() {
  static const std::vector<std::string> keys{"app",
                                             "strategy",
                                             "P",
                                             "K",
                                             "size",
                                             "seed",
                                             "ml",
                                             "tl",
                                             "clock",
                                             "scale",
                                             "network",
                                             "backend",
                                             "verified",
                                             "total_s",
                                             "loop1_s",
                                             "loop2_s",
                                             "syncs",
                                             "redistributions",
                                             "iterations_moved",
                                             "bytes_moved",
                                             "lag_s",
                                             "lag_pct",
                                             "predicted_best",
                                             "wall_s",
                                             "oracle_s"};
  return keys;
}

inline testing_support::process_result run(const std::string& bin, std::vector<std::string> args,
                                           double timeout_s = 120) {
  args.insert(args.begin(), bin);
  args.push_back("--quiet");
  return testing_support::run_process(args, timeout_s);
}

// Keys of the RESULT line in the order printed.
inline std::vector<std::string> result_key_order(const std::string& out) {
  std::vector<std::string> keys;
  const auto at = out.find("RESULT ");
  if (at == std::string::npos) return keys;
  std::istringstream line(out.substr(at + 7, out.find('\n', at) - at - 7));
  std::string kv;
  while (line >> kv) keys.push_back(kv.substr(0, kv.find('=')));
  return keys;
}

// A run that must have succeeded: exit 0, verified, one complete RESULT line echoing the run's
// parameters, and nothing of it left running. Returns the RESULT fields.
inline std::map<std::string, std::string> expect_verified_run(
    const testing_support::process_result& r, const std::map<std::string, std::string>& echoed) {
  EXPECT_FALSE(r.timed_out) << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Verification = SUCCESSFUL"), std::string::npos) << r.out << r.err;
  EXPECT_EQ(r.out.find("Verification = FAILED"), std::string::npos) << r.out;
  EXPECT_EQ(testing_support::count_lines(r.out, "RESULT "), 1) << r.out;
  auto res = testing_support::fields_of(r.out, "RESULT ");
  const auto order = result_key_order(r.out);
  const auto& keys = result_keys();
  EXPECT_GE(order.size(), keys.size()) << r.out;
  for (std::size_t k = 0; k < keys.size() && k < order.size(); ++k) {
    EXPECT_EQ(order[k], keys[k]) << "RESULT key " << k << " in: " << r.out;
  }
  for (const auto& [k, v] : echoed) EXPECT_EQ(res[k], v) << "RESULT " << k << " in: " << r.out;
  EXPECT_EQ(res["verified"], "1");
  EXPECT_GT(std::stod(res["total_s"]), 0.0) << r.out;
  // The oracle bound: positive, and no run (balanced or not) beats an ideal balancer with zero
  // overhead under the same load. Under the native clock there is none (0).
  if (res["clock"] == "native") {
    EXPECT_EQ(std::stod(res["oracle_s"]), 0.0) << r.out;
  } else {
    EXPECT_GT(std::stod(res["oracle_s"]), 0.0) << r.out;
    EXPECT_LE(std::stod(res["oracle_s"]), std::stod(res["total_s"]) * (1 + 1e-9)) << r.out;
  }
  EXPECT_TRUE(testing_support::processes_with_marker(r.marker).empty())
      << "a process of the run is still alive";
  return res;
}

// Bad input: exit 2, a message naming the option, no virtual machine started or left.
inline void expect_usage_error(const std::string& bin, const std::vector<std::string>& args,
                               const std::string& names) {
  auto r = run(bin, args, 30);
  EXPECT_EQ(r.exit_code, 2) << names << ": " << r.out << r.err;
  EXPECT_NE(r.err.find(names), std::string::npos) << "error should name " << names << ": " << r.err;
  EXPECT_EQ(r.out.find("RESULT "), std::string::npos) << r.out;
  EXPECT_TRUE(testing_support::processes_with_marker(r.marker).empty());
}

// --help: exit 0 and the application's own options listed with the common ones.
inline void expect_help(const std::string& bin, const std::vector<std::string>& own) {
  auto r = testing_support::run_process({bin, "--help"}, 30);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const auto& o : own)
    EXPECT_NE(r.out.find("--" + o + " "), std::string::npos) << o << "\n" << r.out;
  EXPECT_NE(r.out.find("--strategy"), std::string::npos) << r.out;
}

inline const std::vector<std::string>& all_strategies() {
  static const std::vector<std::string> s{"NONE",  "GCDLB", "GDDLB",   "LCDLB",
                                          "LDDLB", "AUTO",  "ADAPTIVE"};
  return s;
}

// NONE never synchronizes; the global strategies do under load at the tests' sizes.
inline void expect_sync_counts(std::map<std::string, std::string>& res, const std::string& strategy,
                               const std::string& out) {
  if (strategy == "NONE") {
    EXPECT_EQ(res["syncs"], "0");
  }
  if (strategy == "GCDLB" || strategy == "GDDLB") {
    EXPECT_GT(std::stoi(res["syncs"]), 0) << out;
  }
}

// "GDDLB_P4_sim" for a (strategy, P, backend) test parameter.
template <class Param>
std::string strategy_p_name(const ::testing::TestParamInfo<Param>& info) {
  return std::get<0>(info.param) + "_P" + std::to_string(std::get<1>(info.param)) + "_" +
         std::get<2>(info.param);
}

using testing_support::without_wall_time;

// Under --backend sim the run is in virtual time: the same configuration and seed, run twice,
// prints the same bytes but for wall_s, under every strategy (args: without --strategy and
// --backend). Every strategy but NONE must have balanced, or the comparison proves little.
inline void expect_deterministic_under_sim(const std::string& bin,
                                           const std::vector<std::string>& args) {
  for (const auto& strategy : all_strategies()) {
    auto with = args;
    with.insert(with.end(), {"--backend", "sim", "--strategy", strategy});
    auto a = run(bin, with), b = run(bin, with);
    expect_verified_run(a, {{"backend", "sim"}});
    expect_verified_run(b, {{"backend", "sim"}});
    EXPECT_EQ(without_wall_time(a.out), without_wall_time(b.out)) << strategy;
    EXPECT_EQ(a.err, b.err) << strategy;
    if (strategy != "NONE") {
      EXPECT_NE(testing_support::fields_of(a.out, "RESULT ")["syncs"], "0")
          << strategy << ": " << a.out;
    }
  }
}

}  // namespace app_testing
