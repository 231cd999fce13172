// Unit tests of the cost model (sections 1.3.2-1.3.3), with every number worked by hand.
//
// The hand-worked scenarios share one small world, chosen so the arithmetic stays exact:
//   network: L = 1 ms, B = 1000 B/s; one-to-all(p) = all-to-one(p) = 0.01 p s,
//            all-to-all(p) = 0.01 p^2 s;
//   program: I = 8 uniform iterations of T = 1 base second, D = 10 bytes per iteration,
//            delta = 0.01 s; threshold 1 iteration, 10% profitability;
//   machine: P = 4 slaves of speed 1, K = 2 (groups {0,1} and {2,3}); constant loads
//            (a table, persistence 1000 s), so slave i works at 1 / (l_i + 1).
// Synchronization costs, xi: GCDLB 0.04 + 0.04 = 0.08, GDDLB 0.04 + 0.16 = 0.20,
//                            LCDLB 0.02 + 0.02 = 0.04, LDDLB 0.02 + 0.04 = 0.06.
// Data movement, kappa = beta L + alpha D / B: one iteration in one message 0.011 s, two in two
// 0.022 s. Instructions, psi = beta L (centralized only).
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "dlb/core/cost_model.hpp"

namespace dlb::core {
namespace {

constexpr double kTol = 1e-9;

// A table row's strategy, or no balancing (empty).
prediction predict_under(const std::optional<scheme>& s, const model_input& in) {
  return s ? predict(*s, in) : predict_without_balancing(in);
}
std::string name_of(const std::optional<scheme>& s) {
  return s ? std::string(to_string(*s)) : "NONE";
}

network_profile small_network() {
  network_profile net;
  net.latency = 0.001;
  net.bandwidth = 1000.0;
  net.one_to_all = {{0.0, 0.01}};
  net.all_to_one = {{0.0, 0.01}};
  net.all_to_all = {{0.0, 0.0, 0.01}};
  return net;
}

model_input small_world(const std::vector<int>& loads) {
  model_input in;
  in.network = small_network();
  in.program.iterations = 8;
  in.program.time_per_iteration = 1.0;
  in.program.bytes_per_iteration = 10.0;
  in.program.distribution_cost = 0.01;
  // The hand-computed cases below follow the stop rule (a decision not to move ends balancing);
  // the idle rule has cases of its own.
  in.program.balance.no_move = after_no_move::stop;
  in.machine.base_speeds = std::vector<double>(loads.size(), 1.0);
  in.machine.load.persistence = 1000.0;
  for (const int l : loads) in.machine.load.table.push_back({l});
  in.group_size = 2;
  return in;
}

TEST(Polynomial, EvaluatesByCoefficientOrder) {
  struct row {
    std::vector<double> coefficients;
    double p;
    double expected;
  };
  const std::vector<row> table = {
      {{}, 3.0, 0.0},          // the zero polynomial
      {{5.0}, 3.0, 5.0},       // a constant
      {{1, 2, 3}, 2.0, 17.0},  // 1 + 2*2 + 3*4
      {{0, 0, 0.01}, 4.0, 0.16},
  };
  for (const auto& r : table) EXPECT_NEAR(evaluate({r.coefficients}, r.p), r.expected, kTol);
}

TEST(SynchronizationCost, FollowsTheStrategyTable) {
  network_profile net = small_network();
  net.all_to_one = {{0.005, 0.01}};  // make all-to-one and all-to-all tell apart
  struct row {
    scheme s;
    std::size_t slaves;
    std::size_t group_size;
    double expected;
  };
  const std::vector<row> table = {
      {scheme::gcdlb, 4, 2, 0.04 + 0.045},  // one-to-all(4) + all-to-one(4)
      {scheme::gddlb, 4, 2, 0.04 + 0.16},   // one-to-all(4) + all-to-all(4)
      {scheme::lcdlb, 4, 2, 0.02 + 0.025},  // one-to-all(2) + all-to-one(2)
      {scheme::lddlb, 4, 2, 0.02 + 0.04},   // one-to-all(2) + all-to-all(2)
      {scheme::lcdlb, 4, 8, 0.04 + 0.045},  // K > P: one group of P
  };
  for (const auto& r : table) {
    EXPECT_NEAR(synchronization_cost(r.s, net, r.slaves, r.group_size), r.expected, kTol)
        << to_string(r.s);
  }
  EXPECT_THROW(synchronization_cost(scheme::lddlb, net, 4, 0), std::invalid_argument);
}

TEST(MovementCosts, KappaAndPsi) {
  const network_profile net = small_network();
  EXPECT_NEAR(data_movement_cost(net, 2, 2, 10.0), 0.002 + 0.02, kTol);  // 2 L + 2 * 10 / B
  EXPECT_NEAR(data_movement_cost(net, 5, 1, 0.0), 0.001, kTol);          // AC: D = 0
  EXPECT_NEAR(instruction_cost(scheme::gcdlb, net, 3), 0.003, kTol);
  EXPECT_NEAR(instruction_cost(scheme::lcdlb, net, 1), 0.001, kTol);
  EXPECT_EQ(instruction_cost(scheme::gddlb, net, 3), 0.0);
  EXPECT_EQ(instruction_cost(scheme::lddlb, net, 3), 0.0);
}

TEST(Recurrence, UniformLoopsFollowEquation131) {
  struct row {
    const char* why;
    std::vector<std::int64_t> assigned;
    std::vector<double> sigma;
    std::size_t first;
    std::vector<std::int64_t> expected;
  };
  const std::vector<row> table = {
      // chi_f = 4: slave 1 did 4 * 1/2 = 2, slave 2 did 4 * 0.25 = 1.
      {"whole iterations", {4, 4, 4}, {2, 1, 0.5}, 0, {0, 2, 3}},
      // 10 * 0.35 = 3.5 done: the iteration in progress counts (the paper's ceiling) -> 4.
      {"a partly done iteration counts", {10, 6}, {1, 0.35}, 0, {0, 2}},
      {"cannot do more than it holds", {10, 6}, {1, 3}, 0, {0, 0}},
      {"no speed, nothing done", {2, 5}, {1, 0}, 0, {0, 5}},
      // f = 1 with chi_f = 2: slave 0 did 2 * 1/4 = .5 -> 1 of 3; slave 2 did 2 * 2/4 = 1 of 6.
      {"f need not be slave 0", {3, 2, 6}, {1, 4, 2}, 1, {2, 0, 5}},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(r.why);
    EXPECT_EQ(remaining_uniform(r.assigned, r.sigma, r.first), r.expected);
  }
  EXPECT_THROW(remaining_uniform({1, 1}, {0, 1}, 0), std::invalid_argument);  // sigma_f = 0
  EXPECT_THROW(remaining_uniform({1, 1}, {1, 1}, 2), std::invalid_argument);
}

TEST(Recurrence, NonUniformLoopsFollowEquation132) {
  // T_k = 1, 2, 3, 4, 5, 6. Slave 0 holds iterations 0 and 1: 3 base seconds of work.
  const std::vector<double> times = {1, 2, 3, 4, 5, 6};
  struct row {
    const char* why;
    range_list slave1;
    double sigma1;
    std::int64_t expected_gamma1;
  };
  const std::vector<row> table = {
      // Slave 1 did sigma_1 / sigma_0 * 3 base seconds of its own iterations, in work order.
      {"3 of 3 + 4 + 5 + 6: one iteration", {{2, 6}}, 1.0, 3},
      {"6 of 3 + 4...: in the second", {{2, 6}}, 2.0, 2},
      {"12 = 3 + 4 + 5 exactly: three", {{2, 6}}, 4.0, 1},
      {"work order 5, 6, 3, 4: 6 of 5 + 6", {{4, 6}, {2, 4}}, 2.0, 2},
      {"work order 5, 6, 3, 4: 3 of 5", {{4, 6}, {2, 4}}, 1.0, 3},
      {"all of it", {{2, 6}}, 10.0, 0},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(r.why);
    const std::vector<std::int64_t> gamma =
        remaining_nonuniform({{{0, 2}}, r.slave1}, {1.0, r.sigma1}, 0, times);
    EXPECT_EQ(gamma, (std::vector<std::int64_t>{0, r.expected_gamma1}));
  }
  EXPECT_THROW(remaining_nonuniform({{{0, 2}}, {{2, 7}}}, {1, 1}, 0, times),
               std::invalid_argument);  // iteration 6 has no time
}

// Scenario A: loads 0, 1, 0, 1 (rates 1, 1/2, 1, 1/2): the imbalance is inside each group.
// At t = 2 slaves 0 and 2 finish their 2 iterations; slaves 1 and 3 have done exactly 1
// (boundary also at 2). Gamma = 2.
//  Global: sigma = 1, .5, 1, .5 -> quotas 2/3, 1/3, 2/3, 1/3 -> {1, 0, 1, 0}; alpha 2;
//    finish 1/.5 = 2 -> 1/1 = 1: move, 1 -> 0 and 3 -> 2, beta 2, kappa 0.022.
//    Slaves 1 and 3 now hold nothing: the last synchronization is among slaves 0 and 2 alone
//    (only active members take part), xi(2).
//    GDDLB: resume 2 + .20 + .01 + .022 = 2.232, done at 3.232, last sync +.07: 3.302.
//    GCDLB: resume 2 + .08 + .01 + .002 + .022 = 2.114, 3.114, +.05: 3.164.
//  Local, per group: Gamma 1 -> {1, 0}, alpha 1, beta 1, kappa 0.011; each group is then left
//    with one active member, who finishes without another synchronization.
//    LDDLB: resume 2 + .06 + .01 + .011 = 2.081, done 3.081.
//    LCDLB: both groups reach the balancer at 2.04. Group 0: served 2.04-2.051 (delta + psi),
//      resumes 2.062, done 3.062. Group 1 waits for group 0 (Delta = delta + psi_0 = .011):
//      served 2.051-2.062, resumes 2.073, done 3.073.
//  So a local strategy (LCDLB, 3.073) wins: same plan, cheaper synchronization.
TEST(Predict, ScenarioALocalStrategyWins) {
  const model_input in = small_world({0, 1, 0, 1});
  struct row {
    std::optional<scheme> s;  // empty: no balancing
    double total;
    double cost;
  };
  const std::vector<row> table = {
      {scheme::gcdlb, 3.164, 0.164},  // cost: .08+.01+.002+.022 + .04+.01
      {scheme::gddlb, 3.302, 0.302},  // .20+.01+.022 + .06+.01
      {scheme::lcdlb, 3.073, 0.073},  // group 1: .04+.01+.001+.011+.011
      {scheme::lddlb, 3.081, 0.081},  // .06+.01+.011
      {std::nullopt, 4.0, 0.0},       // slaves 1 and 3: 2 iterations at 1/2
  };
  for (const auto& r : table) {
    SCOPED_TRACE(name_of(r.s));
    const prediction p = predict_under(r.s, in);
    EXPECT_EQ(p.scheme, r.s);
    EXPECT_NEAR(p.total_time, r.total, kTol);
    EXPECT_NEAR(p.cost, r.cost, kTol);
  }
  const strategy_choice choice = choose_strategy(in);
  EXPECT_EQ(choice.best, scheme::lcdlb);
  EXPECT_TRUE(is_local(choice.best));
}

TEST(Predict, ScenarioAStepByStep) {
  const model_input in = small_world({0, 1, 0, 1});
  const prediction gddlb = predict(scheme::gddlb, in);
  ASSERT_EQ(gddlb.groups.size(), 1u);
  const group_prediction& g = gddlb.groups[0];
  EXPECT_EQ(g.members, (std::vector<std::size_t>{0, 1, 2, 3}));
  EXPECT_EQ(g.synchronizations, 2u);  // eta: one move, then Gamma(2) = 0
  EXPECT_EQ(g.redistributions, 1u);
  EXPECT_EQ(g.iterations_moved, 2);
  EXPECT_EQ(g.messages, 2u);
  ASSERT_EQ(g.syncs.size(), 2u);
  EXPECT_NEAR(g.syncs[0].first_done, 2.0, kTol);
  EXPECT_NEAR(g.syncs[0].boundary, 2.0, kTol);
  EXPECT_EQ(g.syncs[0].remaining, 2);
  EXPECT_EQ(g.syncs[0].reason, balance_reason::moved);
  EXPECT_EQ(g.syncs[0].alpha, 2);
  EXPECT_EQ(g.syncs[0].beta, 2u);
  EXPECT_NEAR(g.syncs[0].xi, 0.20, kTol);
  EXPECT_NEAR(g.syncs[0].kappa, 0.022, kTol);
  EXPECT_EQ(g.syncs[0].psi, 0.0);
  EXPECT_NEAR(g.syncs[0].resume, 2.232, kTol);
  EXPECT_EQ(g.syncs[1].remaining, 0);
  EXPECT_EQ(g.syncs[1].reason, balance_reason::nothing_left);
  EXPECT_NEAR(g.syncs[1].first_done, 3.232, kTol);
  EXPECT_NEAR(g.syncs[1].xi, 0.06, kTol);  // slaves 0 and 2 only
  EXPECT_NEAR(g.finish, 3.302, kTol);

  const prediction lcdlb = predict(scheme::lcdlb, in);
  ASSERT_EQ(lcdlb.groups.size(), 2u);
  EXPECT_EQ(lcdlb.groups[1].members, (std::vector<std::size_t>{2, 3}));
  EXPECT_NEAR(lcdlb.groups[0].syncs[0].delay, 0.0, kTol);
  EXPECT_NEAR(lcdlb.groups[1].syncs[0].delay, 0.011, kTol);  // delta + psi of group 0
  EXPECT_NEAR(lcdlb.groups[1].syncs[0].psi, 0.001, kTol);
  EXPECT_EQ(lcdlb.groups[0].synchronizations, 1u);  // then one active member: no more
  EXPECT_NEAR(lcdlb.groups[0].finish, 3.062, kTol);
  EXPECT_NEAR(lcdlb.groups[1].finish, 3.073, kTol);
}

// Scenario B: loads 0, 0, 3, 3 (rates 1, 1, 1/4, 1/4): the imbalance is between the groups.
//  Global: at t = 2 slaves 0 and 1 finish; slaves 2 and 3 have done half an iteration, which
//    counts (gamma = 1 each) but takes them to t = 4 to finish. sigma 1, 1, .25, .25 ->
//    quotas .8, .8, .2, .2 -> {1, 1, 0, 0}; finish 1/.25 = 4 -> 1: move 2 -> 0, 3 -> 1.
//    Slaves 2 and 3 are then inactive: the last synchronization is between 0 and 1, xi(2).
//    GCDLB: 4 + .08 + .01 + .002 + .022 = 4.114, done 5.114, +.05: 5.164.
//    GDDLB: 4 + .20 + .01 + .022 = 4.232, 5.232, +.07: 5.302.
//  Local: group {0,1} is done at 2, group {2,3} at 8 (2 iterations at 1/4) and nobody can help.
//    LCDLB: 8 + .04 + .01 = 8.05. LDDLB: 8 + .06 + .01 = 8.07.
//  So a global strategy (GCDLB) wins.
TEST(Predict, ScenarioBGlobalStrategyWins) {
  const model_input in = small_world({0, 0, 3, 3});
  struct row {
    std::optional<scheme> s;  // empty: no balancing
    double total;
    std::size_t syncs_of_last_group;
  };
  const std::vector<row> table = {
      {scheme::gcdlb, 5.164, 2}, {scheme::gddlb, 5.302, 2}, {scheme::lcdlb, 8.05, 1},
      {scheme::lddlb, 8.07, 1},  {std::nullopt, 8.0, 0},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(name_of(r.s));
    const prediction p = predict_under(r.s, in);
    EXPECT_NEAR(p.total_time, r.total, kTol);
    EXPECT_EQ(p.groups.back().synchronizations, r.syncs_of_last_group);
  }
  const prediction gcdlb = predict(scheme::gcdlb, in);
  EXPECT_NEAR(gcdlb.groups[0].syncs[0].first_done, 2.0, kTol);
  EXPECT_NEAR(gcdlb.groups[0].syncs[0].boundary, 4.0, kTol);  // the iteration in progress
  EXPECT_EQ(choose_strategy(in).best, scheme::gcdlb);
}

// Scenario C: scenario A with all-to-all(p) = all-to-one(p) = 0.01 p, so that the two kinds of
// synchronization cost the same (GDDLB xi .08, LDDLB xi .04) and the centralized strategies
// differ only by the instructions and the queue.
//   GDDLB: 2 + .08 + .01 + .022 = 2.112, 3.112, +.05: 3.162 < GCDLB 3.164 (psi = .002).
//   LDDLB: 2 + .04 + .01 + .011 = 2.061, 3.061 < LCDLB 3.073 (psi and the queue).
TEST(Predict, ScenarioCDistributedBeatsItsCentralizedTwin) {
  model_input in = small_world({0, 1, 0, 1});
  in.network.all_to_all = {{0.0, 0.01}};
  const strategy_choice choice = choose_strategy(in);
  const auto& p = choice.predictions;  // GCDLB, GDDLB, LCDLB, LDDLB
  EXPECT_NEAR(p[0].total_time, 3.164, kTol);
  EXPECT_NEAR(p[1].total_time, 3.162, kTol);
  EXPECT_NEAR(p[2].total_time, 3.073, kTol);
  EXPECT_NEAR(p[3].total_time, 3.061, kTol);
  EXPECT_LT(p[1].total_time, p[0].total_time);
  EXPECT_LT(p[3].total_time, p[2].total_time);
  EXPECT_EQ(choice.best, scheme::lddlb);
}

// The delay factor with three groups reaching the central balancer together: P = 6, K = 2,
// loads 0, 1 in every group, I = 12 (2 each). Each group moves one iteration (psi = .001).
// At 2.04 all three arrive: group 0 waits 0, group 1 waits delta + psi_0 = .011, group 2 waits
// (delta + psi_0) + (delta + psi_1) = .022 -- the paper's sum over the groups already waiting.
// They resume at 2.062, 2.073, 2.084 and, each left with one active member, are done one second
// later, at 3.062, 3.073, 3.084, without another synchronization.
TEST(Predict, LcdlbDelayFactorSumsTheGroupsAhead) {
  model_input in = small_world({0, 1, 0, 1, 0, 1});
  in.program.iterations = 12;
  const prediction p = predict(scheme::lcdlb, in);
  ASSERT_EQ(p.groups.size(), 3u);
  const std::vector<double> delay = {0.0, 0.011, 0.022};
  const std::vector<double> finish = {3.062, 3.073, 3.084};
  for (std::size_t g = 0; g < 3; ++g) {
    SCOPED_TRACE(testing::Message() << "group " << g);
    EXPECT_NEAR(p.groups[g].syncs[0].delay, delay[g], kTol);
    EXPECT_EQ(p.groups[g].synchronizations, 1u);
    EXPECT_NEAR(p.groups[g].finish, finish[g], kTol);
  }
  EXPECT_NEAR(p.total_time, 3.084, kTol);
  EXPECT_NEAR(p.cost, 0.04 + 0.01 + 0.001 + 0.011 + 0.022, kTol);
}

// Without load the paper observes a single synchronization (section 1.5).
//   I = 8: everybody finishes at 2; Gamma(1) = 0. GDDLB 2 + .20 + .01 = 2.21, GCDLB 2.09,
//   LDDLB 2.07, LCDLB: group 1 waits delta = .01 behind group 0: 2.06.
//   I = 10: blocks 3, 3, 2, 2. At 2 slaves 2, 3 are done, 0 and 1 have one left each; equal
//   speeds propose {1, 1, 0, 0}, which is what they hold: alpha 0, no move, and a decision not
//   to move ends balancing in the group (as in the runtime). GDDLB: resume at 2.21, the last
//   iterations end at 3.21: one synchronization, no redistribution.
TEST(Predict, WithoutLoad) {
  struct row {
    std::int64_t iterations;
    std::optional<scheme> s;  // empty: no balancing
    double total;
    std::size_t syncs;
  };
  const std::vector<row> table = {
      {8, scheme::gddlb, 2.21, 1}, {8, scheme::gcdlb, 2.09, 1}, {8, scheme::lddlb, 2.07, 1},
      {8, scheme::lcdlb, 2.06, 1}, {8, std::nullopt, 2.0, 0},   {10, scheme::gddlb, 3.21, 1},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(testing::Message() << name_of(r.s) << " I=" << r.iterations);
    model_input in = small_world({0, 0, 0, 0});
    in.program.iterations = r.iterations;
    const prediction p = predict_under(r.s, in);
    EXPECT_NEAR(p.total_time, r.total, kTol);
    EXPECT_EQ(p.groups[0].synchronizations, r.syncs);
    EXPECT_EQ(p.groups[0].redistributions, 0u);
  }
}

// The idle rule (the default): a decision not to move leaves the requesters idle and the others
// go on. I = 10, no load, GDDLB: at 2 slaves 2 and 3 are done and 0 and 1 hold one iteration
// each; nothing to move, so 2 and 3 go idle and 0 and 1 resume at 2.21 (as under the stop rule)
// and run out together at 3.21, which is a second synchronization, between the two of them:
// Gamma 0, xi(2) = .02 + .04, done at 3.21 + .06 + .01 = 3.28.
TEST(Predict, IdleRuleSynchronizesAgainAmongTheActiveMembers) {
  model_input in = small_world({0, 0, 0, 0});
  in.program.iterations = 10;
  in.program.balance.no_move = after_no_move::idle;
  const prediction p = predict(scheme::gddlb, in);
  const group_prediction& g = p.groups[0];
  ASSERT_EQ(g.syncs.size(), 2u);
  EXPECT_EQ(g.syncs[0].reason, balance_reason::below_threshold);
  EXPECT_NEAR(g.syncs[0].xi, 0.20, kTol);
  EXPECT_EQ(g.syncs[1].reason, balance_reason::nothing_left);
  EXPECT_NEAR(g.syncs[1].first_done, 3.21, kTol);
  EXPECT_NEAR(g.syncs[1].xi, 0.06, kTol);
  EXPECT_NEAR(p.total_time, 3.28, kTol);
  in.program.balance.no_move = after_no_move::stop;  // the same start, balancing ended at 2.21
  EXPECT_NEAR(predict(scheme::gddlb, in).total_time, 3.21, kTol);
}

// A non-uniform loop, P = 2, no load, T_k = 1, 1, 3, 3: slave 0 holds 2 base seconds, slave 1
// 6. At 2 slave 0 is done; slave 1 has done 2 of iteration 2's 3 seconds, which counts (eq.
// 1.3.2: aleph = 1) and ends at 3. Gamma 1, equal speeds propose {1, 0}: alpha 1 but the
// finish, counted in iterations, stays 1 -> not profitable, which ends balancing. GDDLB
// (xi(2) = .02 + .04): 3 + .06 + .01 = 3.07, iteration 3 ends at 6.07.
TEST(Predict, NonUniformLoop) {
  model_input in = small_world({0, 0});
  in.program.iterations = 4;
  in.program.iteration_times = {1, 1, 3, 3};
  const prediction p = predict(scheme::gddlb, in);
  const group_prediction& g = p.groups[0];
  ASSERT_EQ(g.syncs.size(), 1u);
  EXPECT_NEAR(g.syncs[0].first_done, 2.0, kTol);
  EXPECT_NEAR(g.syncs[0].boundary, 3.0, kTol);
  EXPECT_EQ(g.syncs[0].remaining, 1);
  EXPECT_EQ(g.syncs[0].reason, balance_reason::not_profitable);
  EXPECT_NEAR(p.total_time, 6.07, kTol);
  EXPECT_NEAR(predict_without_balancing(in).total_time, 6.0, kTol);  // slave 1: 3 + 3
}

TEST(Predict, StartsFromAGivenState) {
  // Scenario A from an explicit start at t = 10: the loads are constant, so nothing changes.
  model_input in = small_world({0, 1, 0, 1});
  in.start_time = 10.0;
  in.start = {{{0, 2}}, {{2, 4}}, {{4, 6}}, {{6, 8}}};
  EXPECT_NEAR(predict(scheme::gddlb, in).total_time, 3.302, kTol);
  // Two iterations already done, and the rest balanced for the speeds: slaves 0 and 2 hold 2,
  // slaves 1 and 3 hold 1; all are done at 2, Gamma(1) = 0: 2 + .20 + .01.
  in.start = {{{0, 2}}, {{2, 3}}, {{3, 5}}, {{5, 6}}};
  const prediction p = predict(scheme::gddlb, in);
  EXPECT_NEAR(p.total_time, 2.21, kTol);
  EXPECT_EQ(p.groups[0].synchronizations, 1u);
}

TEST(Predict, RejectsInconsistentInput) {
  const model_input good = small_world({0, 1});
  model_input in = good;
  in.machine.base_speeds = {};
  EXPECT_THROW(predict(scheme::gddlb, in), std::invalid_argument);
  EXPECT_THROW(predict_without_balancing(in), std::invalid_argument);
  in = good;
  in.machine.base_speeds[1] = 0.0;
  EXPECT_THROW(predict(scheme::gddlb, in), std::invalid_argument);
  in = good;
  in.program.time_per_iteration = 0.0;
  EXPECT_THROW(predict(scheme::gddlb, in), std::invalid_argument);
  in = good;
  in.program.iteration_times = {1, 2, 3};  // I = 8
  EXPECT_THROW(predict(scheme::gddlb, in), std::invalid_argument);
  in = good;
  in.start = {{{0, 8}}};  // one list for two slaves
  EXPECT_THROW(predict(scheme::gddlb, in), std::invalid_argument);
  in = good;
  in.group_size = 0;
  EXPECT_THROW(predict(scheme::lddlb, in), std::invalid_argument);
}

}  // namespace
}  // namespace dlb::core
