// Unit tests of customized mode's runner (lib/runtime/customized_runner.hpp), a policy made of
// policies: at the master's own first synchronization it chooses, commits, and hands the rest of
// the loop to the runner of what it chose (a chunk rule's self scheduler, a row's balancer,
// ADAPTIVE's re-selections). The master's session runs in a world of fake tasks
// (runtime_fake_world.hpp): the slaves' profiles, requests and results are put in its inbox, what
// it sends is read back.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "dlb/core/chunks.hpp"
#include "dlb/core/policy.hpp"
#include "dlb/runtime/protocol.hpp"
#include "runtime/loop_session.hpp"
#include "runtime_fake_world.hpp"

namespace {

namespace core = dlb::core;
namespace protocol = dlb::protocol;

const core::policy gss{core::self_scheduled{core::chunk_rule::gss}};
const core::policy gcdlb{core::balancing{core::scheme::gcdlb}};
const core::policy adaptive{core::customized{core::customized_mode::adaptive}};

// AUTO-ALL among GSS, GCDLB and ADAPTIVE, committing to `forced`, on P slaves and I iterations.
struct auto_all_world {
  fake::world w;
  dlb::run_params prm;
  fake::task master;
  std::vector<std::unique_ptr<fake::task>> slaves;
  dlb::detail::master_session m;

  auto_all_world(const core::policy& forced, int P, std::int64_t I)
      : w(P + 1),
        prm(fake::params(P, policy_of(forced), false)),
        master(w, 0, prm),
        m(master.rt(), prm.policy, P, P, dlb::loop_spec{I, {}, dlb::data_distribution::block}, {}) {
    for (int r = 1; r <= P; ++r) slaves.push_back(std::make_unique<fake::task>(w, r, prm));
  }
  static core::policy policy_of(const core::policy& forced) {
    return core::customized{core::customized_mode::auto_all, {gss, gcdlb, adaptive}, {forced}};
  }
  dlb::messenger& net(int rank) { return slaves[static_cast<std::size_t>(rank - 1)]->net(); }
  // Slave `rank`'s profile of the first synchronization: `remaining` still to do.
  void profile(int rank, core::range_list remaining) {
    slaves[static_cast<std::size_t>(rank - 1)]->clock().wait_until(1.0);
    protocol::member_profile p;
    p.slave = static_cast<std::size_t>(rank - 1);
    p.done = 1;
    p.elapsed = 1.0;
    p.speed = 1.0;
    p.remaining = std::move(remaining);
    net(rank).send(protocol::master_rank, dlb::tag::profile,
                   protocol::encode(protocol::profile_msg{{m.loop_id_, 0, 0}, p}));
  }
  // Slave `rank` hands in its results, after everything else it sent (time 10).
  void gather(int rank) {
    slaves[static_cast<std::size_t>(rank - 1)]->clock().wait_until(10.0);
    net(rank).send(protocol::master_rank, dlb::tag::gather,
                   protocol::encode(protocol::gather_msg{m.loop_id_, {}, {}, {}}));
  }
  // The first synchronization with slaves 1 and 2 holding [40, 50) and [80, 100), then both
  // results in, run through the master.
  void first_synchronization() {
    m.runner().first_shares(m);
    profile(1, {{40, 50}});
    profile(2, {{80, 100}});
    gather(1);
    gather(2);
    m.runner().run(m);
  }
  // The DECISION slave `rank` was sent at the first synchronization.
  protocol::decision_msg decision(int rank) {
    const auto d = net(rank).wait(dlb::with_tag(dlb::tag::decision), "the decision");
    dlb::reader r = d.body();
    return protocol::decode_decision(r);
  }
};

// A commitment to a chunk rule hands the loop over to its self scheduler: every slave that took
// part is told the rule and to keep nothing, and a REQUEST is answered with the rule's first
// chunk of the pool, the iterations the slaves reported remaining (in slave order).
TEST(CustomizedRunner, ACommitmentToAChunkRuleHandsOverToItsSelfScheduler) {
  auto_all_world x(gss, 2, 100);
  x.m.runner().first_shares(x.m);
  x.profile(1, {{40, 50}});
  x.profile(2, {{80, 100}});
  x.slaves[0]->clock().wait_until(2.0);
  x.net(1).send(protocol::master_rank, dlb::tag::request,
                protocol::encode(protocol::request_msg{{x.m.loop_id_, 0, 1}, 5, 1.0}));
  x.gather(1);
  x.gather(2);
  x.m.runner().run(x.m);
  for (int r : {1, 2}) {
    const auto d = x.decision(r);
    ASSERT_TRUE(d.commit.has_value()) << r;
    EXPECT_EQ(d.commit->next, gss);
    EXPECT_FALSE(d.commit->adaptive);
    EXPECT_EQ(d.body.counts_after, (std::vector<std::int64_t>{0, 0}));
  }
  core::chunk_dispenser rule(core::chunk_params(core::chunk_rule::gss, 30, 2));
  const auto answer = x.net(1).wait(dlb::with_tag(dlb::tag::chunk), "the chunk");
  dlb::reader r = answer.body();
  const auto chunk = protocol::decode_chunk(r);
  EXPECT_EQ(core::iteration_count(chunk.ranges), rule.next(0));
  EXPECT_EQ(chunk.ranges.front().begin, 40) << "the pool's front: slave 1's remaining first";
  EXPECT_EQ(x.m.master_.results_in(), 2u);
}

// A commitment to a row hands the loop to that row's balancer: the commitment names the row and
// each slave's group of it, and the row's next synchronization (epoch 1) is the balancer's.
TEST(CustomizedRunner, ACommitmentToARowHandsOverToItsBalancer) {
  auto_all_world x(gcdlb, 2, 100);
  x.first_synchronization();
  for (int r : {1, 2}) {
    const auto d = x.decision(r);
    ASSERT_TRUE(d.commit.has_value()) << r;
    EXPECT_EQ(d.commit->next, gcdlb);
    EXPECT_EQ(d.commit->group, 0) << "GCDLB: one global group";
    EXPECT_FALSE(d.commit->adaptive);
  }
  EXPECT_EQ(x.m.proto().profiles_to, dlb::profile_destination::to_master);
  EXPECT_FALSE(x.m.adaptive());
}

// A commitment to ADAPTIVE makes this synchronization its first re-selection: the commitment
// names a row, says ADAPTIVE is in force and lists who took part; ADAPTIVE is the master's
// policy in force from then on.
TEST(CustomizedRunner, ACommitmentToAdaptiveHandsOverToItsReselections) {
  auto_all_world x(adaptive, 2, 100);
  x.first_synchronization();
  for (int r : {1, 2}) {
    const auto d = x.decision(r);
    ASSERT_TRUE(d.commit.has_value()) << r;
    EXPECT_TRUE(d.commit->next.row().has_value()) << core::to_string(d.commit->next);
    EXPECT_TRUE(d.commit->adaptive);
    ASSERT_TRUE(d.commit->members.has_value());
  }
  EXPECT_TRUE(x.m.adaptive());
  EXPECT_TRUE(x.m.in_force().is(core::customized_mode::adaptive));
}

}  // namespace
