// Unit tests of the fault-injection decision (core/fault.hpp): table-style, the progress values
// both backends pass at their fault points, and the plan read from the options.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "dlb/core/fault.hpp"

namespace {

using dlb::core::fault_due;
using dlb::core::fault_plan;
using dlb::core::fault_progress;
using dlb::core::fault_trigger;
using dlb::core::make_fault_plan;

TEST(FaultDue, Table) {
  const fault_plan none{};
  const fault_plan at_time{2, fault_trigger::at_time, 1.5, 0, 0};
  const fault_plan after3{2, fault_trigger::after_iterations, 0.0, 3, 0};
  const fault_plan sync2{2, fault_trigger::at_sync, 0.0, 0, 2};
  struct row {
    const char* what;
    fault_plan plan;
    fault_progress at;  // rank, now, iterations, syncs_entered
    bool due;
  } rows[] = {
      {"no fault", none, {2, 100.0, 1000, 10}, false},
      {"another slave", after3, {3, 100.0, 1000, 10}, false},
      {"the master", after3, {0, 100.0, 1000, 10}, false},
      {"time: before", at_time, {2, 1.4999, 1000, 10}, false},
      {"time: at", at_time, {2, 1.5, 0, 0}, true},
      {"time: after", at_time, {2, 7.0, 0, 0}, true},
      {"iterations: one short", after3, {2, 100.0, 2, 10}, false},
      {"iterations: the Jth", after3, {2, 0.0, 3, 0}, true},
      {"iterations: later (a later loop)", after3, {2, 0.0, 40, 0}, true},
      {"iterations: time is no trigger", after3, {2, 1e9, 0, 0}, false},
      {"sync: before the first", sync2, {2, 100.0, 1000, 0}, false},
      {"sync: entering the first", sync2, {2, 100.0, 1000, 1}, false},
      {"sync: entering the second", sync2, {2, 0.0, 0, 2}, true},
      {"sync: past it", sync2, {2, 0.0, 0, 5}, true},
  };
  for (const auto& r : rows) EXPECT_EQ(fault_due(r.plan, r.at), r.due) << r.what;
}

TEST(FaultPlan, FromTheOptions) {
  // Only --kill-slave: --kill-at 0 (dies at its first fault point), as before there were
  // triggers by progress.
  auto p = make_fault_plan(4, 2, std::nullopt, std::nullopt, std::nullopt);
  EXPECT_EQ(p.slave, 2);
  EXPECT_EQ(p.trigger, fault_trigger::at_time);
  EXPECT_EQ(p.at_time, 0.0);
  p = make_fault_plan(4, 3, 2.5, std::nullopt, std::nullopt);
  EXPECT_EQ(p.trigger, fault_trigger::at_time);
  EXPECT_EQ(p.at_time, 2.5);
  p = make_fault_plan(4, 4, std::nullopt, 7, std::nullopt);
  EXPECT_EQ(p.trigger, fault_trigger::after_iterations);
  EXPECT_EQ(p.iterations, 7);
  EXPECT_EQ(p.slave, 4);
  p = make_fault_plan(4, 1, std::nullopt, std::nullopt, 2);
  EXPECT_EQ(p.trigger, fault_trigger::at_sync);
  EXPECT_EQ(p.sync, 2);
  p = make_fault_plan(4, 0, std::nullopt, std::nullopt, std::nullopt);
  EXPECT_EQ(p.slave, 0);
  EXPECT_EQ(p.trigger, fault_trigger::none);
  p = make_fault_plan(4, std::nullopt, std::nullopt, std::nullopt, std::nullopt);
  EXPECT_EQ(p.trigger, fault_trigger::none);
}

TEST(FaultPlan, BadValuesNameTheOption) {
  struct bad {
    int procs;
    std::optional<std::int64_t> slave;
    std::optional<double> at;
    std::optional<std::int64_t> iters, sync;
    std::string names;
  } cases[] = {
      {4, 5, std::nullopt, std::nullopt, std::nullopt, "--kill-slave"},
      {4, -1, std::nullopt, std::nullopt, std::nullopt, "--kill-slave"},
      {4, 2, -1.0, std::nullopt, std::nullopt, "--kill-at"},
      {4, 2, std::nullopt, 0, std::nullopt, "--kill-after-iters"},
      {4, 2, std::nullopt, -3, std::nullopt, "--kill-after-iters"},
      {4, 2, std::nullopt, std::nullopt, 0, "--kill-at-sync"},
      {4, 2, 1.0, 3, std::nullopt, "not several"},
      {4, 2, std::nullopt, 3, 1, "not several"},
      {4, 0, std::nullopt, 3, std::nullopt, "--kill-after-iters needs --kill-slave"},
      {4, std::nullopt, std::nullopt, std::nullopt, 1, "--kill-at-sync needs --kill-slave"},
  };
  for (const auto& c : cases) {
    try {
      make_fault_plan(c.procs, c.slave, c.at, c.iters, c.sync);
      ADD_FAILURE() << "accepted; expected an error naming " << c.names;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(c.names), std::string::npos) << e.what();
    }
  }
}

}  // namespace
