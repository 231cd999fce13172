// Unit tests of the runtime's pieces that need no pvmd: the wire format, options, the emulated
// network's arrival times (with a real shared-memory medium) and the emulated clock.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dlb/core/auto_all.hpp"
#include "dlb/runtime/clocks.hpp"
#include "dlb/runtime/network.hpp"
#include "dlb/runtime/options.hpp"
#include "dlb/runtime/protocol.hpp"
#include "dlb/runtime/runtime.hpp"
#include "dlb/runtime/strategy_table.hpp"
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

// A DECISION's commitment carries the policy the receiver runs next (a core::policy: a row or a
// chunk rule) and comes back as it went, in one int of the same size for every commitment (so
// the wire format's size, and with it every simulated time, is the same whatever the commitment
// says).
TEST(Protocol, CommitmentCarriesThePolicyInForce) {
  using dlb::protocol::commitment;
  namespace core = dlb::core;
  const std::vector<std::size_t> took_part = {0, 2, 3};
  const std::vector<commitment> table = {
      {core::balancing{core::scheme::gddlb}, 0, std::nullopt},            // AUTO's, or AUTO-ALL's
      {core::balancing{core::scheme::lcdlb}, 1, std::nullopt},            // --first-sync master-*
      {core::self_scheduled{core::chunk_rule::gss, 1}, 0, std::nullopt},  // AUTO-ALL, a rule
      {core::self_scheduled{core::chunk_rule::css, 16}, 0, std::nullopt},
      {core::self_scheduled{core::chunk_rule::awf, 1}, 0, std::nullopt},
      {core::balancing{core::scheme::lddlb}, 1, took_part, true},  // a re-selection (ADAPTIVE)
      {core::no_balancing{}, 0, std::nullopt},
      {core::customized{core::customized_mode::adaptive}, 0, std::nullopt},
  };
  std::size_t size_without_members = 0;
  for (const commitment& c : table) {
    dlb::protocol::decision_msg m;
    m.sync = {1, c.group, 0};
    m.commit = c;
    m.body.counts_after = {5, 0};
    const auto bytes = dlb::protocol::encode(m);
    dlb::reader r(bytes);
    const auto back = dlb::protocol::decode_decision(r);
    ASSERT_TRUE(back.commit.has_value());
    EXPECT_EQ(*back.commit, c) << dlb::core::to_string(c.next);
    EXPECT_EQ(back.body.counts_after, m.body.counts_after);
    if (!c.members) {
      if (size_without_members == 0) size_without_members = bytes.size();
      EXPECT_EQ(bytes.size(), size_without_members) << dlb::core::to_string(c.next);
    }
  }
  dlb::protocol::decision_msg none;
  none.body.counts_after = {5, 0};
  const auto bytes = dlb::protocol::encode(none);
  dlb::reader r(bytes);
  EXPECT_FALSE(dlb::protocol::decode_decision(r).commit.has_value());
  EXPECT_EQ(bytes.size(), size_without_members);
}

// --candidates is checked whatever the strategy and kept by AUTO-ALL's policy only: the policy
// is the one owner of what --strategy named.
TEST(Options, CandidatesBelongToAutoAllsPolicy) {
  auto specs = dlb::common_options();
  auto all = dlb::read_params(dlb::options::parse(
      specs, {"--strategy", "AUTO-ALL", "--candidates", "GCDLB CSS:16", "--quiet"}));
  ASSERT_EQ(all.policy.candidates().size(), 2u);
  EXPECT_EQ(dlb::core::to_string(all.policy.candidates()[1]), "CSS:16");
  auto dflt = dlb::read_params(dlb::options::parse(specs, {"--strategy", "AUTO-ALL", "--quiet"}));
  EXPECT_EQ(dflt.policy.candidates().size(),
            dlb::core::parse_candidates(dlb::core::default_candidates()).size());
  auto gddlb = dlb::read_params(
      dlb::options::parse(specs, {"--strategy", "GDDLB", "--candidates", "GCDLB", "--quiet"}));
  EXPECT_TRUE(gddlb.policy.candidates().empty());
  EXPECT_THROW(dlb::read_params(dlb::options::parse(
                   specs, {"--strategy", "GDDLB", "--candidates", "NOPE", "--quiet"})),
               dlb::usage_error);
}

TEST(Options, ParsesValidatesAndNamesTheOption) {
  auto specs = dlb::common_options();
  auto o = dlb::options::parse(specs, {"--procs", "16", "--strategy=lddlb", "--quiet"});
  auto p = dlb::read_params(o);
  EXPECT_EQ(p.procs, 16);
  EXPECT_EQ(p.policy.row(), dlb::core::scheme::lddlb);
  EXPECT_EQ(p.group, 8) << "K defaults to P/2 for local strategies, as in the paper";
  EXPECT_TRUE(p.quiet);
  EXPECT_EQ(p.speeds.size(), 16u);
  // The default split of the paper's L (network.cpp): o_s = o_r = 0.4 L, 98 header bytes.
  EXPECT_DOUBLE_EQ(p.network.send_overhead, 0.4 * p.network.latency);
  EXPECT_DOUBLE_EQ(p.network.recv_overhead, 0.4 * p.network.latency);
  EXPECT_DOUBLE_EQ(p.network.header_bytes, 98);
  EXPECT_EQ(p.after_no_move, dlb::core::after_no_move::idle);
  EXPECT_EQ(p.balance_unit, dlb::core::balance_unit::work);
  EXPECT_EQ(
      dlb::read_params(dlb::options::parse(specs, {"--balance-by", "iterations"})).balance_unit,
      dlb::core::balance_unit::iterations);
  // Every strategy keeps K (P/2 by default): the model predicts the local strategies with it;
  // a global strategy's run is still one group of P (group_size_under).
  EXPECT_EQ(
      dlb::read_params(dlb::options::parse(specs, {"--strategy", "GDDLB", "--procs", "16"})).group,
      8);
  EXPECT_EQ(dlb::read_params(dlb::options::parse(
                                 specs, {"--strategy", "GCDLB", "--procs", "16", "--group", "4"}))
                .group,
            4);
  EXPECT_EQ(dlb::group_size_under(dlb::core::scheme::gddlb, 8, 16), 16);
  EXPECT_EQ(dlb::group_size_under(dlb::core::scheme::lddlb, 8, 16), 8);
  // Customized mode keeps K = P/2 for the case that the model picks a local strategy.
  EXPECT_EQ(
      dlb::read_params(dlb::options::parse(specs, {"--strategy", "AUTO", "--procs", "16"})).group,
      8);

  struct bad {
    std::vector<std::string> args;
    std::string mentions;
  };
  for (const auto& b : std::vector<bad>{
           {{"--procs", "x"}, "--procs"},
           {{"--procs", "65"}, "--procs"},
           {{"--strategy", "BEST"}, "--strategy"},
           {{"--group", "9", "--procs", "8"}, "--group"},
           {{"--tl", "0"}, "--tl"},
           {{"--clock", "sundial"}, "--clock"},
           {{"--bogus"}, "--bogus"},
           {{"--quiet=1"}, "--quiet"},
           {{"stray"}, "stray"},
           {{"--send-overhead", "0.7", "--recv-overhead", "0.5"}, "exceeds the latency"},
           {{"--header-bytes", "-3"}, "--header-bytes"},
           {{"--recv-overhead", "2"}, "--recv-overhead"},
           {{"--network-file", "x.net", "--latency-us", "100"}, "--latency-us"},
           {{"--network-file", "/nonexistent.net"}, "/nonexistent.net"},
           {{"--after-no-move", "sulk"}, "--after-no-move"},
           {{"--strategy", "GSS", "--on-loss", "recover"}, "--on-loss recover"},
           {{"--balance-by", "bytes"}, "--balance-by"}}) {
    try {
      dlb::read_params(dlb::options::parse(specs, b.args));
      ADD_FAILURE() << "accepted " << b.args.front();
    } catch (const dlb::usage_error& e) {
      EXPECT_NE(std::string(e.what()).find(b.mentions), std::string::npos) << e.what();
    }
  }
}

dlb::network_params net(dlb::network_kind k, double o_s, double o_r, double h) {
  dlb::network_params p;
  p.kind = k;
  p.latency = 2414.5e-6;
  p.bandwidth = 0.96e6;
  p.send_overhead = o_s;
  p.recv_overhead = o_r;
  p.header_bytes = h;
  return p;
}

TEST(Network, ArrivalTimesPerProfile) {
  const double L = 2414.5e-6, B = 0.96e6;
  // Ideal: arrival = departure.
  dlb::network_model ideal(dlb::default_network(dlb::network_kind::ideal), nullptr);
  EXPECT_EQ(ideal.arrival(3.0, 1000), 3.0);
  // Switched, no overheads, no header: one port per sender; back-to-back messages queue on it;
  // l = L - 1/B.
  dlb::network_model sw(net(dlb::network_kind::switched, 0, 0, 0), nullptr);
  const double l = L - 1 / B;
  EXPECT_DOUBLE_EQ(sw.arrival(1.0, 960), 1.0 + 0.001 + l);
  EXPECT_DOUBLE_EQ(sw.arrival(1.0, 960), 1.0 + 0.002 + l);  // waited for the first
  EXPECT_DOUBLE_EQ(sw.arrival(5.0, 0), 5.0 + l);
  // Headers hold the wire too: 96 + 864 bytes take 1 ms.
  dlb::network_model swh(net(dlb::network_kind::switched, 0, 0, 96), nullptr);
  EXPECT_DOUBLE_EQ(swh.arrival(1.0, 864), 1.0 + 0.001 + L - 97 / B);
  // Shared medium, two senders: the second transmission (headers and payload) starts when the
  // first ends. o_s = o_r = L/4, h = 0: l = L/2 - 1/B.
  const std::string name = "dlb-test-medium-" + std::to_string(getpid());
  auto medium = std::make_shared<dlb::shared_medium>(name, true);
  auto other_view = std::make_shared<dlb::shared_medium>(name, false);
  const auto eth = net(dlb::network_kind::ethernet1996, L / 4, L / 4, 0);
  dlb::network_model a(eth, medium);
  dlb::network_model b(eth, other_view);
  const double l2 = L / 2 - 1 / B;
  EXPECT_DOUBLE_EQ(a.arrival(1.0, 9600), 1.01 + l2);
  EXPECT_DOUBLE_EQ(b.arrival(1.005, 9600), 1.02 + l2);  // queued behind a's transmission
  EXPECT_DOUBLE_EQ(b.arrival(2.0, 9600), 2.01 + l2);    // medium idle again
  EXPECT_THROW(dlb::network_model(eth, nullptr), std::invalid_argument);
  EXPECT_THROW(dlb::shared_medium(name, true), std::runtime_error)
      << "a second owner of one medium";
}

// The ledger of the master's busy intervals that slave 1, sharing its workstation, reads. In one
// process (the simulated backend) it keeps every interval not yet read, however far behind its
// reader is (at P = 2048 the master published more than a ring holds while slave 1 computed);
// between processes (/dev/shm) it is a ring, and a reader that fell behind is told.
TEST(SharedMedium, TheLedgerKeepsWhatItsReaderHasNotReadInOneProcess) {
  const std::uint64_t n = dlb::shared_medium::kLedgerSlots * 2 + 5;
  dlb::shared_medium in_process;
  for (std::uint64_t i = 0; i < n; ++i)
    in_process.publish_busy(static_cast<double>(i), static_cast<double>(i) + 0.5);
  EXPECT_EQ(in_process.busy_published(), n);
  std::uint64_t wrong = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto [start, end] = in_process.busy_interval(i);
    if (start != static_cast<double>(i) || end != static_cast<double>(i) + 0.5) ++wrong;
  }
  EXPECT_EQ(wrong, 0u);
  in_process.publish_busy(1e6, 2e6);
  EXPECT_EQ(in_process.busy_interval(n), (std::pair<double, double>{1e6, 2e6}));

  const std::string name = "dlb-test-ledger-" + std::to_string(getpid());
  dlb::shared_medium between(name, true);
  for (std::uint64_t i = 0; i <= dlb::shared_medium::kLedgerSlots; ++i) between.publish_busy(1, 2);
  EXPECT_THROW(between.busy_interval(0), std::runtime_error);
  EXPECT_EQ(between.busy_interval(1), (std::pair<double, double>{1, 2}));
}

// Wire share 1 (--wire-share 1) gives back the paper's totals with every byte on the wire: a
// 1-byte message takes L one way, and the wire carries b bytes at B.
TEST(Network, AllOnTheWireGivesBackThePapersLatencyAndBandwidth) {
  auto p = dlb::default_network(dlb::network_kind::ethernet1996);
  p.wire_share = 1.0;
  EXPECT_DOUBLE_EQ(p.send_overhead + p.transmission(1) + p.wire_latency() + p.recv_overhead,
                   2414.5e-6);
  EXPECT_DOUBLE_EQ(p.transmission(960000 - 98), 1.0);
  EXPECT_EQ(p.send_cost(1000), p.send_overhead);  // no host time per byte
  EXPECT_GT(p.wire_latency(), 0);
  EXPECT_NO_THROW(dlb::validate(p));
}

// The default split (the period's wire share: 10 Mb/s Ethernet under the paper's end-to-end
// 0.96 MB/s): a message still takes L + (b - 1)/B end to end; the wire carries b bytes at
// 1.25 MB/s and the hosts' CPU the rest of each byte's 1/B, half on each side.
TEST(Network, DefaultSplitKeepsThePapersEndToEndCost) {
  auto p = dlb::default_network(dlb::network_kind::ethernet1996);
  EXPECT_DOUBLE_EQ(p.wire_share, dlb::kPeriodWireShare);
  const auto end_to_end = [&p](std::size_t b) {
    return p.send_cost(b) + p.transmission(b) + p.wire_latency() + p.recv_cost(b);
  };
  EXPECT_DOUBLE_EQ(end_to_end(1), 2414.5e-6);
  EXPECT_NEAR(end_to_end(96001), 2414.5e-6 + 0.1, 1e-12);
  EXPECT_NEAR(p.transmission(1250000 - 98), 1.0, 1e-12);
  EXPECT_NEAR(p.send_cost(96000) - p.send_overhead, 0.5 * 96000 * (1 / 0.96e6 - 1 / 1.25e6), 1e-12);
  EXPECT_DOUBLE_EQ(p.send_cost(96000) - p.send_overhead, p.recv_cost(96000) - p.recv_overhead);
  EXPECT_GT(p.wire_latency(), 0);
  EXPECT_NO_THROW(dlb::validate(p));
  p.wire_share = 0.0;
  EXPECT_THROW(dlb::validate(p), std::invalid_argument);
  p.wire_share = 1.5;
  EXPECT_THROW(dlb::validate(p), std::invalid_argument);
}

// The bulk rate (--bulk-bytes S --bulk-mbps B_bulk; experiments/regime/bulk.md): a payload above
// S is charged B / B_bulk times its bytes, on the wire and on the hosts; at or below S, and without
// the options, nothing changes.
TEST(Network, BulkRateChargesLargePayloadsOnly) {
  struct row {
    double bulk_bytes, bulk_mbps;
    std::size_t payload;
    double charged;
  };
  const std::vector<row> table{
      {0, 0, 1000000, 1000000},             // off: the default
      {65536, 0.48, 65536, 65536},          // at the threshold: unchanged
      {65536, 0.48, 65537, 65537 * 2.0},    // above: twice the bytes at half the rate
      {65536, 0.96, 1000000, 1000000},      // the same rate: unchanged
      {65536, 0.24, 100000, 100000 * 4.0},  // a quarter of the rate
  };
  for (const auto& r : table) {
    auto p = dlb::default_network(dlb::network_kind::ethernet1996);
    const auto plain = p;
    p.bulk_bytes = r.bulk_bytes;
    p.bulk_bandwidth = r.bulk_mbps * 1e6;
    EXPECT_DOUBLE_EQ(p.charged_payload(r.payload), r.charged) << r.payload << " bytes";
    const double f = r.charged / static_cast<double>(r.payload);
    EXPECT_NEAR(p.transmission(r.payload) - p.transmission(0),
                f * (plain.transmission(r.payload) - plain.transmission(0)), 1e-12);
    EXPECT_NEAR(p.send_cost(r.payload) - p.send_overhead,
                f * (plain.send_cost(r.payload) - plain.send_overhead), 1e-12);
    EXPECT_NEAR(p.recv_cost(r.payload) - p.recv_overhead,
                f * (plain.recv_cost(r.payload) - plain.recv_overhead), 1e-12);
  }
  // The options go together, and a bad value names its option.
  auto specs = dlb::common_options();
  const auto net = [&specs](std::vector<std::string> args) {
    return dlb::read_params(dlb::options::parse(specs, args)).network;
  };
  EXPECT_DOUBLE_EQ(net({"--bulk-bytes", "65536", "--bulk-mbps", "0.5"}).bulk_bandwidth, 0.5e6);
  EXPECT_DOUBLE_EQ(net({}).bulk_bytes, 0);
  EXPECT_THROW(net({"--bulk-mbps", "0.5"}), dlb::usage_error);
  EXPECT_THROW(net({"--bulk-bytes", "65536", "--bulk-mbps", "-1"}), dlb::usage_error);
}

// A description whose parts do not fit in its latency, or with a negative part, is refused,
// naming the part.
TEST(Network, InconsistentDescriptionsAreRefusedNamingTheField) {
  struct bad {
    dlb::network_params p;
    std::string mentions;
  };
  const double L = 2414.5e-6;
  for (const auto& b : std::vector<bad>{
           {net(dlb::network_kind::ethernet1996, 0.6 * L, 0.5 * L, 0), "exceeds the latency"},
           {net(dlb::network_kind::ethernet1996, 0, 0, 3000), "exceeds the latency"},
           {net(dlb::network_kind::switched, -1e-6, 0, 0), "send overhead"},
           {net(dlb::network_kind::switched, 0, -1e-6, 0), "receive overhead"},
           {net(dlb::network_kind::switched, 0, 0, -1), "header bytes"},
       }) {
    try {
      dlb::validate(b.p);
      ADD_FAILURE() << "accepted " << b.mentions;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(b.mentions), std::string::npos) << e.what();
    }
  }
}

TEST(NetworkDescription, ParsesEveryFieldAndRefusesBadFilesNamingTheField) {
  const std::string good =
      "# the paper's network, our split\nmedium = switched\nlatency_us = 2414.5\n"
      "bandwidth_MBps = 0.96\nsend_overhead_us = 1000  # o_s\nrecv_overhead_us = 500\n"
      "header_bytes = 64\n";
  const auto p = dlb::parse_network_description(good, "good.net");
  EXPECT_EQ(p.kind, dlb::network_kind::switched);
  EXPECT_DOUBLE_EQ(p.send_overhead, 1000e-6);
  EXPECT_DOUBLE_EQ(p.recv_overhead, 500e-6);
  EXPECT_DOUBLE_EQ(p.header_bytes, 64);
  struct bad {
    std::string from, to, mentions;
  };
  for (const auto& b : std::vector<bad>{
           {"header_bytes = 64\n", "", "missing field 'header_bytes'"},
           {"recv_overhead_us = 500", "recv_overhead_us = -5", "'recv_overhead_us'"},
           {"latency_us = 2414.5", "latency_us = fast", "'latency_us'"},
           {"medium = switched", "medium = token-ring", "'medium'"},
           {"header_bytes = 64", "header_bytes = 64\nheader_bytes = 2", "given twice"},
           {"header_bytes = 64", "header_bytes = 64\nwire = 1", "unknown field 'wire'"},
           {"send_overhead_us = 1000", "send_overhead_us = 2000", "exceeds the latency"},
           {"bandwidth_MBps = 0.96", "bandwidth_MBps 0.96", "expected 'key = value'"},
       }) {
    std::string text = good;
    text.replace(text.find(b.from), b.from.size(), b.to);
    try {
      dlb::parse_network_description(text, "bad.net");
      ADD_FAILURE() << "accepted: " << b.mentions;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(b.mentions), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("bad.net"), std::string::npos) << e.what();
    }
  }
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
  const std::int64_t epoch = dlb::monotonic_ns();
  dlb::emulated_clock c(epoch, 1e6, ws);
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
  // At this scale every deadline is microseconds of wall time away, so the clock may well be
  // late (how late is the machine's business): but its lag is lateness past a deadline, in
  // emulated seconds. The earliest deadline is 4 s (4 us of wall time) after the epoch, and the
  // lag was measured before now: it is at most the wall time since the epoch, less those 4 us,
  // in emulated seconds. Lag in another unit (nanoseconds, the scale applied twice) or measured
  // against the wrong deadline breaks the bound.
  const double wall_since_epoch_emulated =
      static_cast<double>(dlb::monotonic_ns() - epoch) * 1e-9 * 1e6;
  EXPECT_GE(c.lag(), 0.0);
  EXPECT_LE(c.lag(), wall_since_epoch_emulated - 4.0 + 1e-3)
      << "wall time since the epoch: " << wall_since_epoch_emulated << " emulated s";
  // A deadline the clock is already past adds no lag of its own: it does not sleep, and the lag
  // stays what it was (the clock never goes back, above, and never counts a wait as lateness).
  const double lag = c.lag();
  c.wait_until(20.0);
  EXPECT_EQ(c.lag(), lag);
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
