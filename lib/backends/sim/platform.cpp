// platform.cpp: the platform of one simulated run (sim.hpp): the master's and the slaves' hosts
// with their speeds and external load, the medium's links and routes, and its network
// interfaces.
#include <cmath>
#include <simgrid/kernel/ProfileBuilder.hpp>

#include "backends/sim/world_state.hpp"

namespace dlb::sim {

namespace {

// Blocks of the load function generated per call of a host's speed-profile callback.
constexpr std::int64_t kLoadBlocksPerCall = 64;
// The ideal network: fast enough that no message of the applications costs a measurable time.
constexpr double kIdealBandwidth = 1e12;

// The speed profile of slave `slave`: S_i / (load + 1) in each persistence block, as the
// scale factor 1 / (load + 1) of the host's speed, generated a few blocks at a time.
simgrid::kernel::profile::Profile* load_profile(const std::string& name,
                                                const core::load_function& load,
                                                std::size_t slave) {
  auto next_block = std::make_shared<std::int64_t>(0);
  return simgrid::kernel::profile::ProfileBuilder::from_callback(
      name,
      [load, slave, next_block](std::vector<simgrid::kernel::profile::DatedValue>& values) {
        for (std::int64_t k = 0; k < kLoadBlocksPerCall; ++k) {
          const std::int64_t b = (*next_block)++;
          // Each value holds from the previous event's date plus `date` (0 for the first).
          const double delay = b == 0 ? 0.0 : load.persistence;
          values.emplace_back(delay, 1.0 / (core::load_in_block(load, slave, b) + 1));
        }
      },
      -1);
}
}  // namespace

void world::state::add_hosts(sg::NetZone* zone, const run_params& params, sg::Link* shared) {
  auto& s = *this;
  const auto& net = params.network;
  const int n = params.procs + 1;
  const bool loaded = params.load.max_load > 0;
  s.master_on_slave1 = params.balancer_on_master && params.procs >= 1;
  for (int r = 0; r < n; ++r) {
    const std::string host = s.name + (r == 0 ? ":master" : ":ws" + std::to_string(r));
    const double speed = r == 0 ? 1.0 : params.speeds[static_cast<std::size_t>(r - 1)];
    const auto slave = static_cast<std::size_t>(std::max(0, r - 1));
    // A load that never changes (tl infinite) is a slower host; otherwise a speed profile.
    const bool constant = r > 0 && loaded && std::isinf(params.load.persistence);
    const double divisor = constant ? core::load_in_block(params.load, slave, 0) + 1 : 1;
    auto* h = zone->create_host(host, speed * kFlopsPerBaseSecond / divisor);
    if (r > 0 && loaded && !constant)
      h->set_speed_profile(load_profile(host + ":load", params.load, slave));
    h->seal();
    sg::Link* l = shared;
    if (!l) {
      l = zone->create_link(host + ":port", net.wire_bandwidth())
              ->set_latency(0)
              ->set_sharing_policy(sg::Link::SharingPolicy::SHARED)
              ->seal();
    }
    // Star zone: the links of a host's outgoing messages (duplicates along a route are
    // removed, so two hosts on the one Ethernet share exactly one link).
    zone->add_route(h->get_netpoint(), nullptr, nullptr, nullptr, {sg::LinkInRoute(l)},
                    shared != nullptr);
    // A private port carries its host's outgoing messages only: incoming ones cross nothing
    // more.
    if (!shared) zone->add_route(nullptr, h->get_netpoint(), nullptr, nullptr, {}, false);
    s.hosts.push_back(h);
    s.mailboxes.push_back(sg::Mailbox::by_name(s.name + ":" + std::to_string(r)));
  }
}

void world::state::add_transmitters(sg::NetZone* zone, const network_params& net, sg::Link* shared,
                                    int n) {
  auto& s = *this;
  // The links carry the transmissions (h + b bytes at B) only; the rest of the latency, l,
  // follows the end of a transmission without holding the medium: the interface stamps each
  // message's arrival (network.hpp).
  const double wire_latency = net.modelled() ? net.wire_latency() : 0.0;
  if (net.kind == network_kind::ethernet1996) {
    // The Ethernet's interface: on a host of its own whose only route is the shared link.
    auto* h = zone->create_host(s.name + ":ethernet", kFlopsPerBaseSecond);
    h->seal();
    zone->add_route(h->get_netpoint(), nullptr, nullptr, nullptr, {sg::LinkInRoute(shared)}, true);
    s.transmitters.push_back(std::make_unique<state::transmitter>());
    s.transmitters.back()->host = h;
    s.transmitters.back()->bandwidth = net.wire_bandwidth();
    s.transmitters.back()->wire_latency = wire_latency;
    s.transmitter_of.assign(static_cast<std::size_t>(n), 0);
  } else if (net.kind == network_kind::switched) {
    // Each sender's port: its own interface on its own host.
    for (int r = 0; r < n; ++r) {
      s.transmitters.push_back(std::make_unique<state::transmitter>());
      s.transmitters.back()->host = s.hosts[static_cast<std::size_t>(r)];
      s.transmitters.back()->bandwidth = net.wire_bandwidth();
      s.transmitters.back()->wire_latency = wire_latency;
      s.transmitter_of.push_back(r);
    }
  } else {
    s.transmitter_of.assign(static_cast<std::size_t>(n), -1);
  }
}

world::world(engine& e, std::string name, const run_params& params)
    : state_(std::make_shared<state>()) {
  (void)e;
  auto& s = *state_;
  s.name = std::move(name);
  const auto& net = params.network;
  auto* zone = sg::create_star_zone(s.name);
  zone->set_parent(sg::Engine::get_instance()->get_netzone_root());
  const int n = params.procs + 1;
  sg::Link* shared = nullptr;
  if (net.kind == network_kind::ethernet1996) {
    shared = zone->create_link(s.name + ":ethernet", net.wire_bandwidth())
                 ->set_latency(0)
                 ->set_sharing_policy(sg::Link::SharingPolicy::SHARED)
                 ->seal();
  } else if (net.kind == network_kind::ideal) {
    shared = zone->create_link(s.name + ":ideal", kIdealBandwidth)
                 ->set_latency(0)
                 ->set_sharing_policy(sg::Link::SharingPolicy::FATPIPE)
                 ->seal();
  }
  s.add_hosts(zone, params, shared);
  s.add_transmitters(zone, net, shared, n);
  zone->seal();
  s.actors.resize(static_cast<std::size_t>(n));
  s.exit_codes.assign(static_cast<std::size_t>(n), -1);
  s.done.assign(static_cast<std::size_t>(n), false);
  s.watchers.resize(static_cast<std::size_t>(n));
  s.waiting.resize(static_cast<std::size_t>(n));
  s.killed.assign(static_cast<std::size_t>(n), false);
  s.kill_rank = params.fault.slave;
  s.kill_by_alarm = params.fault.trigger == core::fault_trigger::at_time;
  s.kill_at = params.fault.at_time;
}

world::~world() = default;

}  // namespace dlb::sim
