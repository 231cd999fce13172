// self_scheduling_test: the loop self-scheduling rules (core::chunk_rules) as a
// master-worker protocol over the runtime's transport (lib/runtime/self_scheduling.cpp), on both
// backends, with the synthetic loop: verified results, the chunks handed out are exactly the
// rule's sequence (dlb/core/chunks.hpp; the rules that follow measurements: an exact cover; FSC:
// one fixed chunk), one REQUEST per chunk and one
// CHUNK answer per request and no other message of the strategies, and determinism under sim.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "dlb/core/chunks.hpp"
#include "dlb/core/policy.hpp"
#include "message_trace.hpp"
#include "run_process.hpp"

namespace {

using message = testing_support::traced_message;
using testing_support::read_trace;

std::vector<std::int64_t> chunks_of(const std::string& out) {
  std::vector<std::int64_t> v;
  const auto f = testing_support::fields_of(out, "CHUNKS ");
  const auto it = f.find("sizes");
  if (it == f.end()) return v;
  std::stringstream ss(it->second);
  std::string x;
  while (std::getline(ss, x, ',')) v.push_back(std::stoll(x));
  return v;
}

constexpr int kProcs = 4;
constexpr std::int64_t kIterations = 120;

std::vector<std::string> args_of(const std::string& policy, const std::string& backend,
                                 const std::string& shape) {
  return {DLB_SYNTHETIC_APP,
          "--backend",
          backend,
          "--strategy",
          policy,
          "--procs",
          "4",
          "--iterations",
          std::to_string(kIterations),
          "--work-ms",
          "20",
          "--shape",
          shape,
          "--seed",
          "5",
          "--tl",
          "0.5",
          "--scale",
          "50",
          "--quiet"};
}

// The chunks: the rule's sequence (whoever asks, for every rule whose chunks depend on no
// measurement; WF's weights are the speeds, all 1 here); the others positive, covering the loop
// exactly; FSC's all of one size (from the run's h and sigma) but the last.
void expect_chunks_follow(const std::string& policy, const std::vector<std::int64_t>& chunks,
                          const std::string& out) {
  const dlb::core::policy p = dlb::core::parse_policy(policy);
  const auto rule = p.rule();
  if (rule != dlb::core::chunk_rule::awf && rule != dlb::core::chunk_rule::fsc &&
      !dlb::core::adapts_to_measurements(rule)) {
    EXPECT_EQ(chunks, dlb::core::chunk_sequence({rule, kIterations, kProcs, p.chunk()})) << out;
  } else {
    for (auto c : chunks) EXPECT_GT(c, 0);
    EXPECT_EQ(std::accumulate(chunks.begin(), chunks.end(), std::int64_t{0}), kIterations);
  }
  if (rule == dlb::core::chunk_rule::fsc) {
    ASSERT_FALSE(chunks.empty());
    for (std::size_t k = 0; k + 1 < chunks.size(); ++k) EXPECT_EQ(chunks[k], chunks[0]) << out;
    EXPECT_LE(chunks.back(), chunks[0]);
  }
}

using Case = std::tuple<std::string, std::string>;  // policy, backend
class SelfScheduling : public ::testing::TestWithParam<Case> {};

TEST_P(SelfScheduling, ChunksFollowTheRuleOneRequestEach) {
  const auto& [policy, backend] = GetParam();
  char dir_template[] = "/tmp/dlb_selfsched_XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  auto args = args_of(policy, backend, "triangular");
  args.insert(args.end(), {"--trace-dir", dir});
  auto r = testing_support::run_process(args, 120);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto all = read_trace(dir, kProcs);
  std::filesystem::remove_all(dir);
  EXPECT_TRUE(testing_support::none_left(r.marker));
  EXPECT_NE(r.out.find("Verification = SUCCESSFUL"), std::string::npos) << r.out;
  auto res = testing_support::fields_of(r.out, "RESULT ");
  EXPECT_EQ(res["strategy"], policy);
  EXPECT_EQ(res["wrong"], "0");
  EXPECT_EQ(res["stats_ok"], "1");

  const auto chunks = chunks_of(r.out);
  expect_chunks_follow(policy, chunks, r.out);
  // The first P chunks come with the scatter; then every chunk a worker got is answered by one
  // REQUEST when it is done: requests = chunks (each worker's last is answered with none).
  std::map<std::string, int> count;
  std::map<int, int> requests_of, answers_to;
  for (const auto& m : all) {
    ++count[m.type];
    if (m.type == "request") {
      EXPECT_EQ(m.to, 0) << "a request goes to the master";
      ++requests_of[m.from];
    }
    if (m.type == "chunk") {
      EXPECT_EQ(m.from, 0) << "chunks come from the master";
      ++answers_to[m.to];
    }
  }
  EXPECT_EQ(count["request"], static_cast<int>(chunks.size())) << r.out;
  EXPECT_EQ(count["chunk"], count["request"]);
  EXPECT_EQ(requests_of, answers_to);
  EXPECT_EQ(count["scatter"], kProcs);
  EXPECT_EQ(count["gather"], kProcs);
  for (const char* t : {"interrupt", "profile", "decision", "instruction", "notice", "work"})
    EXPECT_EQ(count[t], 0) << t << " messages under " << policy;
  EXPECT_EQ(std::stoll(res["syncs"]), count["request"]);
  EXPECT_EQ(std::stoll(res["redistributions"]), static_cast<long long>(chunks.size()) - kProcs);
}

const std::vector<std::string> kPolicies{"SS",   "CSS:7", "GSS",   "TSS",   "FAC2",  "AWF",   "FSC",
                                         "MFSC", "WF",    "AWF-B", "AWF-C", "AWF-D", "AWF-E", "AF"};

// Every rule on both backends; under the sanitizers (make check, one test at a time, each
// process several times slower) the PVM runs of the first six rules only (the others are the
// same protocol), every rule simulated.
std::vector<Case> cases() {
  std::vector<Case> v;
  for (std::size_t k = 0; k < kPolicies.size(); ++k) {
    if (!DLB_SANITIZED || k < 6) v.emplace_back(kPolicies[k], "pvm");
    v.emplace_back(kPolicies[k], "sim");
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Both, SelfScheduling, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           std::string n = std::get<0>(i.param) + "_" + std::get<1>(i.param);
                           for (char& c : n)
                             if (c == ':' || c == '-') c = '_';
                           return n;
                         });

// Under sim the same configuration and seed print the same bytes (wall time aside), and the
// runs depend on the rule.
TEST(SelfSchedulingSim, DeterministicAndRuleDependent) {
  std::map<std::string, std::string> total;
  for (const auto& policy : kPolicies) {
    auto a = testing_support::run_process(args_of(policy, "sim", "uniform"), 60);
    auto b = testing_support::run_process(args_of(policy, "sim", "uniform"), 60);
    ASSERT_EQ(a.exit_code, 0) << a.err;
    EXPECT_EQ(testing_support::without_wall_time(a.out), testing_support::without_wall_time(b.out))
        << policy;
    total[policy] = testing_support::fields_of(a.out, "RESULT ")["total_s"];
  }
  // (FAC2 and TSS may tie: both start with chunks of ceil(I / 2P), and under this load the
  // slowest worker's first chunk ends the loop.)
  EXPECT_NE(total["SS"], total["GSS"]);
  EXPECT_NE(total["CSS:7"], total["GSS"]);
}

// Without load and with 2 ms iterations, SS pays a request and an answer (2 x 2.4 ms on the 1996
// Ethernet, most of it the master's CPU) per iteration: the master is the bottleneck, and SS takes
// over twice as long as GSS's 15 chunks.
TEST(SelfSchedulingSim, SsPaysAMessagePairPerIteration) {
  std::map<std::string, double> total;
  for (const std::string policy : {"SS", "GSS"}) {
    auto args = args_of(policy, "sim", "uniform");
    args.insert(args.end(), {"--ml", "0", "--work-ms", "2"});
    auto r = testing_support::run_process(args, 60);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    total[policy] = std::stod(testing_support::fields_of(r.out, "RESULT ")["total_s"]);
  }
  EXPECT_GT(total["SS"], 2 * total["GSS"]);
  // At least I requests of 2 one-way latencies each, shared by 4 workers, and the ideal 0.06 s.
  EXPECT_GT(total["SS"], 0.06 + 120 * 2 * 2414.5e-6 / 4);
}

// --prefetch: a worker asks for its next chunk while it still computes the current one, so the
// round trip (about 5 ms on the 1996 Ethernet) hides behind the computation. Without load, CSS:4
// with 2 ms iterations: the same chunks are handed out, one request each, the results verified,
// and the loop ends sooner than without prefetch. (Not with every rule: a chunk asked for early
// is one another worker, idle, cannot have; at the loop's end of a short GSS loop that costs more
// than the round trips saved.)
TEST(SelfSchedulingSim, PrefetchHidesTheRequest) {
  std::map<std::string, double> total;
  std::map<std::string, std::vector<std::int64_t>> chunks;
  for (const std::string prefetch : {"0", "0.5"}) {
    auto args = args_of("CSS:4", "sim", "uniform");
    args.insert(args.end(), {"--ml", "0", "--work-ms", "2", "--prefetch", prefetch});
    auto r = testing_support::run_process(args, 60);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Verification = SUCCESSFUL"), std::string::npos) << r.out;
    auto res = testing_support::fields_of(r.out, "RESULT ");
    total[prefetch] = std::stod(res["total_s"]);
    chunks[prefetch] = chunks_of(r.out);
    EXPECT_EQ(std::stoll(res["syncs"]), static_cast<long long>(chunks[prefetch].size()));
  }
  EXPECT_EQ(chunks["0.5"], chunks["0"]);
  EXPECT_LT(total["0.5"], total["0"]);
}

}  // namespace
