// Unit tests of the runtime's pieces that need no pvmd: the wire format, options, the emulated
// network's arrival times (with a real shared-memory medium) and the emulated clock.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dlb/runtime/clocks.hpp"
#include "dlb/runtime/network.hpp"
#include "dlb/runtime/options.hpp"
#include "dlb/runtime/runtime.hpp"
#include "dlb/runtime/wire.hpp"

namespace {

TEST(Wire, RoundTripAndShortMessages) {
  dlb::writer w;
  const dlb::core::range_list ranges{{0, 5}, {9, 12}};
  w.put(std::int64_t{5781045144000})
      .put(-2.5)
      .put_string("slave")
      .put_ranges(ranges)
      .put_vector(std::vector<int>{1, 2, 3});
  const dlb::bytes b = w.take();
  dlb::reader r(b);
  EXPECT_EQ(r.get<std::int64_t>(), 5781045144000);
  EXPECT_EQ(r.get<double>(), -2.5);
  EXPECT_EQ(r.get_string(), "slave");
  EXPECT_EQ(r.get_ranges(), ranges);
  EXPECT_EQ(r.get_vector<int>(), (std::vector<int>{1, 2, 3}));
  EXPECT_TRUE(r.done());
  EXPECT_THROW(r.get<int>(), dlb::wire_error);
  // A count larger than the message is refused before allocating.
  dlb::writer bad;
  bad.put<std::uint64_t>(1'000'000'000);
  const dlb::bytes bb = bad.take();
  dlb::reader rb(bb);
  EXPECT_THROW(rb.get_ranges(), dlb::wire_error);
}

TEST(Options, ParsesValidatesAndNamesTheOption) {
  auto specs = dlb::common_options();
  auto o = dlb::options::parse(specs, {"--procs", "16", "--strategy=lddlb", "--quiet"});
  auto p = dlb::read_params(o);
  EXPECT_EQ(p.procs, 16);
  EXPECT_EQ(p.strategy, dlb::core::strategy::lddlb);
  EXPECT_EQ(p.group, 8) << "K defaults to P/2 for local strategies, as in the paper";
  EXPECT_TRUE(p.quiet);
  EXPECT_EQ(p.speeds.size(), 16u);
  EXPECT_DOUBLE_EQ(p.network.send_overhead, p.network.latency);
  EXPECT_EQ(
      dlb::read_params(dlb::options::parse(specs, {"--strategy", "GDDLB", "--procs", "16"})).group,
      16);
  // Customized mode keeps K = P/2 for the case that the model picks a local strategy.
  EXPECT_EQ(
      dlb::read_params(dlb::options::parse(specs, {"--strategy", "AUTO", "--procs", "16"})).group,
      8);

  struct bad {
    std::vector<std::string> args;
    std::string mentions;
  };
  for (const auto& b : std::vector<bad>{{{"--procs", "x"}, "--procs"},
                                        {{"--procs", "65"}, "--procs"},
                                        {{"--strategy", "BEST"}, "--strategy"},
                                        {{"--group", "9", "--procs", "8"}, "--group"},
                                        {{"--tl", "0"}, "--tl"},
                                        {{"--clock", "sundial"}, "--clock"},
                                        {{"--bogus"}, "--bogus"},
                                        {{"--quiet=1"}, "--quiet"},
                                        {{"stray"}, "stray"}}) {
    try {
      dlb::read_params(dlb::options::parse(specs, b.args));
      ADD_FAILURE() << "accepted " << b.args.front();
    } catch (const dlb::usage_error& e) {
      EXPECT_NE(std::string(e.what()).find(b.mentions), std::string::npos) << e.what();
    }
  }
}

TEST(Network, ArrivalTimesPerProfile) {
  const double L = 2414.5e-6, B = 0.96e6;
  // Ideal: arrival = send.
  dlb::network_model ideal({dlb::network_kind::ideal, L, B, 0}, nullptr);
  EXPECT_EQ(ideal.arrival(3.0, 1000), 3.0);
  // Switched, overhead o = 0: one port per sender; back-to-back messages queue on it.
  dlb::network_model sw({dlb::network_kind::switched, L, B, 0}, nullptr);
  EXPECT_DOUBLE_EQ(sw.arrival(1.0, 960), 1.0 + 0.001 + L);
  EXPECT_DOUBLE_EQ(sw.arrival(1.0, 960), 1.0 + 0.002 + L);  // waited for the first
  EXPECT_DOUBLE_EQ(sw.arrival(5.0, 0), 5.0 + L);
  // Shared medium, two senders: the second transmission starts when the first ends.
  const std::string name = "dlb-test-medium-" + std::to_string(getpid());
  auto medium = std::make_shared<dlb::shared_medium>(name, true);
  auto other_view = std::make_shared<dlb::shared_medium>(name, false);
  dlb::network_model a({dlb::network_kind::ethernet1996, L, B, L}, medium);
  dlb::network_model b({dlb::network_kind::ethernet1996, L, B, L}, other_view);
  // Leaves at 1.0 (after its overhead), 0.01 s on the medium, arrives after the rest of L - o = 0.
  EXPECT_DOUBLE_EQ(a.arrival(1.0, 9600), 1.01);
  EXPECT_DOUBLE_EQ(b.arrival(1.005, 9600), 1.02);  // queued behind a's transmission
  EXPECT_DOUBLE_EQ(b.arrival(2.0, 9600), 2.01);    // medium idle again
  EXPECT_THROW(dlb::network_model({dlb::network_kind::ethernet1996, L, B, L}, nullptr),
               std::invalid_argument);
  EXPECT_THROW(dlb::shared_medium(name, true), std::runtime_error)
      << "a second owner of one medium";
}

TEST(EmulatedClock, IterationTimeFollowsSpeedAndLoad) {
  // A very fast time scale so the test sleeps microseconds.
  dlb::workstation ws;
  ws.slave = 0;
  ws.speed = 2.0;
  ws.loaded = true;
  ws.load.table = {{1, 3}};  // load 1 on [0, tl), 3 after
  ws.load.persistence = 10.0;
  ws.load.max_load = 5;
  dlb::emulated_clock c(dlb::monotonic_ns(), 1e6, ws);
  // 4 base seconds at S=2, load 1: rate 1 base s/s -> 4 s.
  c.compute(4.0);
  EXPECT_DOUBLE_EQ(c.now(), 4.0);
  // 8 more: 6 until t=10 at rate 1, the remaining 2 at rate 2/4 = 0.5 -> 4 s more: t = 14.
  c.compute(8.0);
  EXPECT_DOUBLE_EQ(c.now(), 14.0);
  c.wait_until(13.0);
  EXPECT_DOUBLE_EQ(c.now(), 14.0) << "the clock never goes back";
  c.wait_until(20.0);
  EXPECT_DOUBLE_EQ(c.now(), 20.0);
  EXPECT_GE(c.lag(), 0.0);
}

TEST(EmulatedClock, LagIsMeasuredWhenADeadlineIsAlreadyPast) {
  dlb::workstation ws;
  // Epoch one wall second ago at scale 1: the clock is a second behind its deadlines.
  dlb::emulated_clock c(dlb::monotonic_ns() - 1'000'000'000, 1.0, ws);
  c.compute(0.001);
  EXPECT_GT(c.lag(), 0.9);
  EXPECT_LT(c.lag(), 1.5);
}

}  // namespace
