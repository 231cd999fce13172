// message_pattern_test: who talks to whom in one synchronization, per strategy, on both backends.
// The synthetic loop runs on P = 8 slaves (K = 4 for the local strategies)
// without external load, slaves 4 and 8 at quarter speed (the margin, 3 s emulated,
// outlasts a fast member's start lagging on a loaded machine), so the first synchronization of
// group 0 has a known shape: the fast members run out first, the slow one holds the surplus and
// ships it. Every message each task sends is traced (--trace-dir) and the messages of that
// synchronization (loop 1, group 0, epoch 0) are checked against section 1.2's pattern:
// interrupts within the group, profiles all-to-one (centralized) or all-to-all within the group
// (distributed), instructions from the master to the senders only (centralized), data from
// senders to receivers, and nothing else. (That is the first synchronization under
// --first-sync strategy; FirstSync below checks the master's first synchronization and the
// strategy's second one under every reading.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "message_trace.hpp"
#include "run_process.hpp"

namespace {

using message = testing_support::traced_message;
using testing_support::read_trace;

// Every message of a run of the synthetic loop (P = 8, K = 4, slaves 4 and 8 at quarter speed),
// with --first-sync `first`.
std::vector<message> traced_run(const std::string& strategy, const std::string& first,
                                const std::string& backend,
                                const std::string& speeds = "1,1,1,0.25,1,1,1,0.25",
                                const std::string& broadcast = "mcast",
                                const std::string& app = DLB_SYNTHETIC_APP) {
  char dir_template[] = "/tmp/dlb_messages_XXXXXX";
  if (mkdtemp(dir_template) == nullptr) {
    ADD_FAILURE() << "mkdtemp";
    return {};
  }
  const std::string dir = dir_template;
  // Time scale 2: under PVM the 2 cores are shared with other tests.
  auto r = testing_support::run_process(
      {app,    "--backend",    backend, "--strategy",  strategy,  "--procs",
       "8",    "--group",      "4",     "--ml",        "0",       "--speeds",
       speeds, "--iterations", "400",   "--work-ms",   "20",      "--scale",
       "2",    "--first-sync", first,   "--broadcast", broadcast, "--trace-dir",
       dir,    "--quiet"},
      120);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto all = r.exit_code == 0 ? read_trace(dir, 8) : std::vector<message>{};
  std::filesystem::remove_all(dir);
  EXPECT_TRUE(testing_support::none_left(r.marker));
  return all;
}

// Data: from senders to receivers; nobody both sends and receives; a pair at most once; the
// slow member K among the senders. The receivers.
std::set<int> expect_transfers(const std::vector<message>& work, const std::set<int>& members,
                               int K) {
  std::set<int> senders, receivers;
  std::set<std::pair<int, int>> pairs;
  for (const auto& m : work) {
    EXPECT_TRUE(members.count(m.from) && members.count(m.to)) << m.from << " -> " << m.to;
    EXPECT_TRUE(pairs.insert({m.from, m.to}).second) << "two transfers " << m.from << "->" << m.to;
    EXPECT_GT(m.bytes, 0);
    senders.insert(m.from);
    receivers.insert(m.to);
  }
  for (int s : senders) EXPECT_EQ(receivers.count(s), 0u) << "slave " << s << " sends and receives";
  EXPECT_TRUE(senders.count(K)) << "the slow member " << K << " holds the surplus";
  return receivers;
}

// Who is told the decision, by the master only (see below).
void expect_told(std::map<std::string, std::vector<message>>& by_type,
                 const std::vector<message>& work, const std::set<int>& receivers, bool central) {
  // The decision is computed by the master (centralized) and sent as instructions to the
  // senders only, one per transfer (psi = beta L, section 1.3.2): the receivers learn from the
  // data; a notice goes only to a member that ran out and gets nothing. Distributed: every
  // member computed it, nobody is told.
  EXPECT_TRUE(by_type["decision"].empty()) << "the decision went to every member";
  std::multiset<int> instructed;
  for (const auto& m : by_type["instruction"]) {
    EXPECT_EQ(m.from, 0);
    instructed.insert(m.to);
  }
  std::multiset<int> shipping;
  for (const auto& m : work) shipping.insert(m.from);
  for (const auto& m : by_type["notice"]) {
    EXPECT_EQ(m.from, 0);
    EXPECT_EQ(receivers.count(m.to), 0u) << "a notice to a receiver";
  }
  if (central) {
    EXPECT_EQ(instructed, shipping) << "instructions go to the senders, one per transfer";
  } else {
    EXPECT_TRUE(instructed.empty());
    EXPECT_TRUE(by_type["notice"].empty());
  }
}

using Case = std::tuple<std::string, std::string>;  // strategy, backend
class MessagePattern : public ::testing::TestWithParam<Case> {};

TEST_P(MessagePattern, OneSynchronizationFollowsThePapersPattern) {
  const auto& [strategy, backend] = GetParam();
  const int P = 8;
  const bool local = strategy[0] == 'L', central = strategy[1] == 'C';
  const int K = local ? 4 : P;
  // The strategy's own protocol from the first synchronization on (--first-sync strategy).
  const auto all = traced_run(strategy, "strategy", backend);

  std::set<int> members;
  for (int s = 1; s <= K; ++s) members.insert(s);
  std::vector<message> sync;
  for (const auto& m : all)
    if (m.loop == 1 && m.group == 0 && m.epoch == 0) sync.push_back(m);
  ASSERT_FALSE(sync.empty()) << "no synchronization of group 0";

  std::map<std::string, std::vector<message>> by_type;
  for (const auto& m : sync) by_type[m.type].push_back(m);
  for (const auto& [type, v] : by_type)
    EXPECT_TRUE(type == "interrupt" || type == "profile" || type == "instruction" ||
                type == "notice" || type == "work")
        << "unexpected " << type << " message in the synchronization";

  // Interrupts: from the members that ran out, to other members of the group only.
  ASSERT_FALSE(by_type["interrupt"].empty());
  for (const auto& m : by_type["interrupt"]) {
    EXPECT_TRUE(members.count(m.from) && members.count(m.to) && m.from != m.to)
        << "interrupt " << m.from << " -> " << m.to;
  }
  // Profiles: all-to-one to the master (centralized) or all-to-all within the group
  // (distributed), one from every member (all are active at the first synchronization).
  std::multiset<std::pair<int, int>> profiles, expected;
  for (const auto& m : by_type["profile"]) profiles.insert({m.from, m.to});
  for (int a : members) {
    if (central) {
      expected.insert({a, 0});
    } else {
      for (int b : members)
        if (a != b) expected.insert({a, b});
    }
  }
  EXPECT_EQ(profiles, expected);
  const auto& work = by_type["work"];
  ASSERT_FALSE(work.empty()) << "the slow member's surplus should move";
  const std::set<int> receivers = expect_transfers(work, members, K);
  expect_told(by_type, work, receivers, central);
  // Nothing of this synchronization comes from the master but instructions and notices.
  for (const auto& m : sync)
    EXPECT_TRUE(m.from != 0 || m.type == "instruction" || m.type == "notice") << m.type;
}

std::map<std::string, std::vector<message>> by_type_of(const std::vector<message>& all, int group,
                                                       int epoch) {
  std::map<std::string, std::vector<message>> by_type;
  for (const auto& m : all)
    if (m.loop == 1 && m.group == group && m.epoch == epoch) by_type[m.type].push_back(m);
  return by_type;
}

// A synchronization under the strategy's own protocol, among `members`: interrupts within the
// group; profiles all-to-one (centralized) or all-to-all among those that sent one
// (distributed); the master's instructions to the senders only, one per transfer, and notices
// to requesters that get nothing (centralized); data within the group; nothing else.
void expect_strategy_pattern(std::map<std::string, std::vector<message>> by_type,
                             const std::set<int>& members, bool central) {
  for (const auto& [type, v] : by_type)
    EXPECT_TRUE(type == "interrupt" || type == "profile" || type == "instruction" ||
                type == "notice" || type == "work")
        << "unexpected " << type << " message";
  for (const auto& m : by_type["interrupt"])
    EXPECT_TRUE(members.count(m.from) && members.count(m.to) && m.from != m.to)
        << "interrupt " << m.from << " -> " << m.to;
  std::set<int> sent_profile;
  for (const auto& m : by_type["profile"]) sent_profile.insert(m.from);
  ASSERT_FALSE(sent_profile.empty());
  std::multiset<std::pair<int, int>> profiles, expected;
  for (const auto& m : by_type["profile"]) profiles.insert({m.from, m.to});
  for (int a : sent_profile) {
    EXPECT_TRUE(members.count(a)) << "a profile from " << a << ", not a member";
    if (central) {
      expected.insert({a, 0});
    } else {
      for (int b : sent_profile)
        if (a != b) expected.insert({a, b});
    }
  }
  EXPECT_EQ(profiles, expected);
  std::multiset<int> shipping, instructed;
  for (const auto& m : by_type["work"]) {
    EXPECT_TRUE(members.count(m.from) && members.count(m.to)) << m.from << " -> " << m.to;
    shipping.insert(m.from);
  }
  for (const auto& m : by_type["instruction"]) {
    EXPECT_EQ(m.from, 0);
    instructed.insert(m.to);
  }
  if (central) {
    EXPECT_EQ(instructed, shipping) << "instructions go to the senders, one per transfer";
    for (const auto& m : by_type["notice"]) EXPECT_EQ(m.from, 0);
  } else {
    EXPECT_TRUE(instructed.empty());
    EXPECT_TRUE(by_type["notice"].empty());
  }
}

// A balancing strategy added as one row of core::balancing_rows and one of the runtime's protocol
// table, in the tests' build only (DLB_TEST_STRATEGY_ROW, tests/CMakeLists.txt): TEST-ROW,
// global and centralized, whose decision is multicast to the group. Its first synchronization
// (--first-sync strategy) has the pattern its row says: interrupts within the group to the
// members known active, every member's profile to the master, one DECISION from the master to
// each member whose profile it decided on, data from senders to receivers, and no instruction or
// notice. The run itself computes and verifies the loop (exit 0).
TEST(TestStrategyRow, ItsSynchronizationFollowsItsRow) {
  const int P = 8;
  const auto all =
      traced_run("TEST-ROW", "strategy", "sim", "1,1,1,0.25,1,1,1,0.25", "mcast", DLB_TEST_ROW_APP);
  auto by_type = by_type_of(all, 0, 0);
  ASSERT_FALSE(by_type.empty()) << "no synchronization of group 0";
  for (const auto& [type, v] : by_type)
    EXPECT_TRUE(type == "interrupt" || type == "profile" || type == "decision" || type == "work")
        << "unexpected " << type << " message";
  std::set<int> members;
  for (int s = 1; s <= P; ++s) members.insert(s);
  ASSERT_FALSE(by_type["interrupt"].empty());
  for (const auto& m : by_type["interrupt"])
    EXPECT_TRUE(members.count(m.from) && members.count(m.to) && m.from != m.to)
        << "interrupt " << m.from << " -> " << m.to;
  std::multiset<std::pair<int, int>> profiles, expected_profiles, decisions, expected_decisions;
  for (const auto& m : by_type["profile"]) profiles.insert({m.from, m.to});
  for (const auto& m : by_type["decision"]) decisions.insert({m.from, m.to});
  for (int a : members) {
    expected_profiles.insert({a, 0});
    expected_decisions.insert({0, a});
  }
  EXPECT_EQ(profiles, expected_profiles) << "every member's profile to the master";
  EXPECT_EQ(decisions, expected_decisions) << "one DECISION to each member";
  std::set<int> senders, receivers;
  ASSERT_FALSE(by_type["work"].empty()) << "the slow members' surplus should move";
  for (const auto& m : by_type["work"]) {
    EXPECT_TRUE(members.count(m.from) && members.count(m.to)) << m.from << " -> " << m.to;
    senders.insert(m.from);
    receivers.insert(m.to);
  }
  for (int s : senders) EXPECT_EQ(receivers.count(s), 0u) << "slave " << s << " sends and receives";
  EXPECT_TRUE(senders.count(4) || senders.count(8)) << "a slow member holds the surplus";
}

using FirstSyncCase =
    std::tuple<std::string, std::string, std::string>;  // strategy, first, backend
class FirstSync : public ::testing::TestWithParam<FirstSyncCase> {};

// The first synchronization (loop 1, group 0, epoch 0) and group 0's second one (epoch 1).
// Under --first-sync strategy the first is the strategy's own, in its groups. Under master-group
// and master-global it is the master's (section 1.4.2: DLB_master_sync "handles the first
// synchronization"): every slave is interrupted by the first to run out, every slave's profile
// goes to the master, which sends each slave one DECISION (with the commitment to the strategy
// and its group); the data moves within the strategy's groups (master-group) or anywhere
// (master-global). The second synchronization follows the strategy's own pattern.
TEST_P(FirstSync, FirstAndSecondSynchronization) {
  const auto& [strategy, first, backend] = GetParam();
  const int P = 8;
  const bool local = strategy[0] == 'L', central = strategy[1] == 'C';
  const int K = local ? 4 : P;
  const auto all = traced_run(strategy, first, backend);
  ASSERT_FALSE(all.empty());
  std::set<int> group0, slaves;
  for (int s = 1; s <= K; ++s) group0.insert(s);
  for (int s = 1; s <= P; ++s) slaves.insert(s);
  const auto group_of = [K](int s) { return (s - 1) / K; };

  auto one = by_type_of(all, 0, 0);
  ASSERT_FALSE(one.empty()) << "no first synchronization";
  ASSERT_FALSE(one["work"].empty()) << "the slow members' surplus should move";
  std::set<int> senders, receivers;
  for (const auto& m : one["work"]) {
    senders.insert(m.from);
    receivers.insert(m.to);
  }
  for (int s : senders) EXPECT_EQ(receivers.count(s), 0u) << "slave " << s << " sends and receives";
  EXPECT_TRUE(senders.count(K)) << "the slow member " << K << " holds the surplus";
  if (first == "strategy") {
    expect_strategy_pattern(one, group0, central);
  } else {
    for (const auto& [type, v] : one)
      EXPECT_TRUE(type == "interrupt" || type == "profile" || type == "decision" || type == "work")
          << "unexpected " << type << " message in the master's synchronization";
    for (const auto& m : one["interrupt"])
      EXPECT_TRUE(slaves.count(m.from) && slaves.count(m.to) && m.from != m.to)
          << "interrupt " << m.from << " -> " << m.to;
    std::multiset<std::pair<int, int>> profiles, to_master;
    for (const auto& m : one["profile"]) profiles.insert({m.from, m.to});
    for (int s : slaves) to_master.insert({s, 0});
    EXPECT_EQ(profiles, to_master) << "every slave's profile, to the master only";
    std::multiset<int> decided;
    for (const auto& m : one["decision"]) {
      EXPECT_EQ(m.from, 0);
      decided.insert(m.to);
    }
    EXPECT_EQ(decided, std::multiset<int>(slaves.begin(), slaves.end()))
        << "one DECISION to every slave";
    bool crosses = false;
    for (const auto& m : one["work"]) crosses = crosses || group_of(m.from) != group_of(m.to);
    if (first == "master-group") {
      EXPECT_FALSE(crosses) << "work crossed the strategy's groups";
    }
    for (const auto& m : one["work"]) EXPECT_TRUE(slaves.count(m.from) && slaves.count(m.to));
  }
  auto two = by_type_of(all, 0, 1);
  ASSERT_FALSE(two.empty()) << "no second synchronization of group 0";
  expect_strategy_pattern(two, group0, central);
}

// The readings differ where the strategy's groups differ: with group 0 (slaves 1-4) fast and
// group 1 (5-8) slow, the master's global first decision moves work from group 1 to group 0;
// within the groups (master-group) nothing can cross.
TEST(FirstSyncReadings, OnlyTheGlobalReadingMovesWorkAcrossGroups) {
  for (const std::string backend : {"sim", "pvm"}) {
    for (const std::string first : {"master-group", "master-global"}) {
      SCOPED_TRACE(backend + " " + first);
      const auto all = traced_run("LDDLB", first, backend, "1,1,1,1,0.25,0.25,0.25,0.25");
      ASSERT_FALSE(all.empty());
      int across = 0;
      for (const auto& m : all)
        if (m.type == "work" && m.loop == 1 && m.epoch == 0 && (m.from - 1) / 4 != (m.to - 1) / 4)
          ++across;
      if (first == "master-global") {
        EXPECT_GT(across, 0);
      } else {
        EXPECT_EQ(across, 0);
      }
    }
  }
}

// How a broadcast is sent (--broadcast): GDDLB's all-to-all profiles. Under mcast (pvm_mcast)
// a member hands its profile over once: every copy leaves at the same time (one send
// overhead); under unicast each copy is a send of its own, each after the previous one's send
// overhead (o_s = 965.8 us by default). Who talks to whom is the same.
TEST(Broadcast, McastPaysOneSendOverheadUnicastOnePerCopy) {
  for (const std::string backend : {"sim", "pvm"}) {
    for (const std::string how : {"mcast", "unicast"}) {
      SCOPED_TRACE(backend + " " + how);
      const auto all = traced_run("GDDLB", "strategy", backend, "1,1,1,0.25,1,1,1,0.25", how);
      ASSERT_FALSE(all.empty());
      std::map<int, std::vector<double>> copies;  // by sender, in the order sent
      for (const auto& m : all)
        if (m.type == "profile" && m.loop == 1 && m.epoch == 0) copies[m.from].push_back(m.time);
      ASSERT_EQ(copies.size(), 8u);
      for (const auto& [from, times] : copies) {
        ASSERT_EQ(times.size(), 7u) << "slave " << from << ": one copy to each other slave";
        for (std::size_t k = 1; k < times.size(); ++k) {
          if (how == "mcast") {
            EXPECT_EQ(times[k], times[0]) << "slave " << from << ", copy " << k;
          } else {
            EXPECT_GE(times[k] - times[k - 1], 0.9e-3) << "slave " << from << ", copy " << k;
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryStrategyAndReading, FirstSync,
                         ::testing::Combine(::testing::Values("GCDLB", "GDDLB", "LCDLB", "LDDLB"),
                                            ::testing::Values("strategy", "master-group",
                                                              "master-global"),
                                            ::testing::Values("sim", "pvm")),
                         [](const ::testing::TestParamInfo<FirstSyncCase>& i) {
                           std::string first = std::get<1>(i.param);
                           first.erase(std::remove(first.begin(), first.end(), '-'), first.end());
                           return std::get<0>(i.param) + "_" + first + "_" + std::get<2>(i.param);
                         });

INSTANTIATE_TEST_SUITE_P(EveryStrategy, MessagePattern,
                         ::testing::Combine(::testing::Values("GCDLB", "GDDLB", "LCDLB", "LDDLB"),
                                            ::testing::Values("sim", "pvm")),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           return std::get<0>(i.param) + "_" + std::get<1>(i.param);
                         });

}  // namespace
