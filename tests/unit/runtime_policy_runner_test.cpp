// Unit tests of the policy runners (lib/runtime/policy_runner.hpp): make_runner gives each kind
// of policy its runner, and that runner's first shares and its service of the slaves' messages
// are the kind's. The master's session runs in a world of fake tasks (runtime_fake_world.hpp):
// the slaves' messages are put in its inbox, what it sends is read back.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dlb/core/chunks.hpp"
#include "dlb/core/policy.hpp"
#include "dlb/runtime/protocol.hpp"
#include "runtime/customized_runner.hpp"
#include "runtime/loop_session.hpp"
#include "runtime_fake_world.hpp"

namespace {

namespace core = dlb::core;
namespace protocol = dlb::protocol;
using dlb::detail::master_session;

// The master of a world of P slaves running one loop of I iterations under policy p.
struct master_world {
  fake::world w;
  dlb::run_params prm;
  fake::task master;
  std::vector<std::unique_ptr<fake::task>> slaves;
  master_session m;

  master_world(const core::policy& p, int P, std::int64_t I,
               dlb::data_distribution initial = dlb::data_distribution::block)
      : w(P + 1),
        prm(fake::params(P, p, false)),
        master(w, 0, prm),
        m(master.rt(), p, P, P, dlb::loop_spec{I, {}, initial}, {}) {
    for (int r = 1; r <= P; ++r) slaves.push_back(std::make_unique<fake::task>(w, r, prm));
  }
  fake::task& slave(int rank) { return *slaves[static_cast<std::size_t>(rank - 1)]; }
  // Slave `rank` hands in its results at time t: `done` executed.
  void gather(int rank, core::range_list done, double t) {
    slave(rank).clock().wait_until(t);
    slave(rank).net().send(protocol::master_rank, dlb::tag::gather,
                           protocol::encode(protocol::gather_msg{m.loop_id_, done, {}, {}}));
  }
};

// The iterations [0, I) cut in P blocks, sizes within one of each other, in slave order.
void expect_equal_blocks(const std::vector<core::range_list>& shares, std::int64_t I) {
  const auto P = static_cast<std::int64_t>(shares.size());
  std::int64_t next = 0;
  for (const auto& s : shares) {
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s.front().begin, next);
    const std::int64_t n = s.front().end - s.front().begin;
    EXPECT_TRUE(n == I / P || n == I / P + 1) << n;
    next = s.front().end;
  }
  EXPECT_EQ(next, I);
}

// No balancing, a balancing row and customized mode (which starts with the paper's blocks unless
// AUTO-ALL commits before the scatter: not on the native clock) begin with the loop's initial
// distribution, and hand out no chunk.
TEST(PolicyRunner, BlockKindsStartWithTheLoopsInitialDistribution) {
  for (const char* name : {"NONE", "GCDLB", "LDDLB", "AUTO", "ADAPTIVE", "AUTO-ALL"}) {
    master_world x(core::parse_policy(name), 4, 103);
    const auto first = x.m.runner().first_shares(x.m);
    expect_equal_blocks(first, 103);
    EXPECT_EQ(first, x.m.initial_distribution()) << name;
    EXPECT_FALSE(x.m.self_sched_.started()) << name;
  }
  master_world cyclic(core::parse_policy("GDDLB"), 3, 7, dlb::data_distribution::cyclic);
  const auto first = cyclic.m.runner().first_shares(cyclic.m);
  EXPECT_EQ(first, (std::vector<core::range_list>{
                       {{0, 1}, {3, 4}, {6, 7}}, {{1, 2}, {4, 5}}, {{2, 3}, {5, 6}}}));
}

// A self-scheduled runner's first shares are its rule's first P chunks from the loop's front, in
// slave order; the rest is the pool.
TEST(PolicyRunner, SelfScheduledFirstSharesAreTheRulesFirstChunks) {
  for (const char* name : {"GSS", "TSS", "FAC2", "CSS:8", "SS"}) {
    const core::policy p = core::parse_policy(name);
    master_world x(p, 4, 200);
    const auto first = x.m.runner().first_shares(x.m);
    const auto* ss = std::get_if<core::self_scheduled>(&p.value);
    ASSERT_NE(ss, nullptr);
    core::chunk_dispenser d(core::chunk_params(ss->rule, 200, 4, ss->chunk));
    std::int64_t next = 0;
    ASSERT_EQ(first.size(), 4u);
    for (std::size_t s = 0; s < 4; ++s) {
      const std::int64_t c = d.next(s);
      EXPECT_EQ(first[s], (core::range_list{{next, next + c}})) << name << " slave " << s;
      next += c;
    }
    EXPECT_EQ(x.m.self_sched_.chunks().size(), 4u);
    EXPECT_EQ(x.m.self_sched_.pool(), (core::range_list{{next, 200}})) << name;
    EXPECT_NE(first, x.m.initial_distribution()) << name;
  }
}

// make_runner: customized policies get customized mode's runner, the others not.
TEST(PolicyRunner, CustomizedPoliciesGetTheCustomizedRunner) {
  for (const char* name : {"NONE", "GCDLB", "AUTO", "ADAPTIVE", "AUTO-ALL", "GSS"}) {
    master_world x(core::parse_policy(name), 2, 10);
    const bool customized = dynamic_cast<dlb::detail::customized_runner*>(&x.m.runner()) != nullptr;
    EXPECT_EQ(customized, x.m.policy_.is_customized()) << name;
  }
}

// No balancing: the results are collected, nothing is sent, nothing counted.
TEST(PolicyRunner, NoBalancingCollectsTheResultsAndSendsNothing) {
  master_world x(core::parse_policy("NONE"), 3, 30);
  x.m.runner().first_shares(x.m);
  for (int r = 1; r <= 3; ++r) x.gather(r, {{10 * (r - 1), 10 * r}}, 1.0);
  const auto before = x.w.log.size();
  x.m.runner().run(x.m);
  EXPECT_EQ(x.m.master_.results_in(), 3u);
  EXPECT_EQ(x.w.log.size(), before);
  EXPECT_TRUE(x.m.master_.tally().empty());
}

// Self-scheduling: a REQUEST is answered with the rule's next chunk (index P: the scatter's were
// 0..P-1) and counted as a synchronization that moved work; the results end the run.
TEST(PolicyRunner, SelfScheduledRunnerAnswersARequestWithTheNextChunk) {
  master_world x(core::parse_policy("GSS"), 2, 100);
  const auto first = x.m.runner().first_shares(x.m);
  x.slave(1).clock().wait_until(1.0);
  x.slave(1).net().send(protocol::master_rank, dlb::tag::request,
                        protocol::encode(protocol::request_msg{
                            {x.m.loop_id_, 0, 0}, core::iteration_count(first[0]), 5.0}));
  x.gather(1, {}, 2.0);
  x.gather(2, {}, 2.0);
  x.m.runner().run(x.m);
  core::chunk_dispenser d(core::chunk_params(core::chunk_rule::gss, 100, 2));
  const std::int64_t c0 = d.next(0), c1 = d.next(1), c2 = d.next(0);
  const auto answer = x.slave(1).net().wait(dlb::with_tag(dlb::tag::chunk), "the chunk");
  dlb::reader r = answer.body();
  const auto chunk = protocol::decode_chunk(r);
  EXPECT_EQ(chunk.index, 2);
  EXPECT_EQ(chunk.ranges, (core::range_list{{c0 + c1, c0 + c1 + c2}}));
  EXPECT_EQ(x.m.master_.tally().at(0), (std::pair<std::int64_t, std::int64_t>{1, 1}));
  EXPECT_TRUE(x.w.to(2, dlb::tag::chunk).empty());
}

// A balancing row's runner answers no REQUEST: the central balancer serves profiles, not chunks
// (the request is left unread when the results are in).
TEST(PolicyRunner, BalancingRunnerServesNoChunks) {
  master_world x(core::parse_policy("GCDLB"), 2, 20);
  x.m.runner().first_shares(x.m);
  x.slave(1).net().send(protocol::master_rank, dlb::tag::request,
                        protocol::encode(protocol::request_msg{{x.m.loop_id_, 0, 0}, 10, 5.0}));
  x.gather(1, {{0, 10}}, 1.0);
  x.gather(2, {{10, 20}}, 1.0);
  x.m.runner().run(x.m);
  EXPECT_EQ(x.m.master_.results_in(), 2u);
  EXPECT_TRUE(x.w.to(1, dlb::tag::chunk).empty());
}

}  // namespace
