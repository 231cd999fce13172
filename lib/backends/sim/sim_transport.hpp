// sim_transport.hpp: a simulated task's transport and clock (sim.hpp). A message goes to its
// sender's network interface (world_state.hpp), which carries it to the receiver's mailbox in
// virtual time; computing costs virtual time on the task's host.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "backends/sim/world_state.hpp"

namespace dlb::sim {

class sim_transport final : public transport {
 public:
  sim_transport(world::state& w, int rank) : w_(w), rank_(rank) {}
  ~sim_transport() override = default;
  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(w_.hosts.size()); }

  void send(int to, int tag, const bytes& payload, std::size_t charged_bytes) override {
    send_shared(to, tag, std::make_shared<bytes>(payload), charged_bytes);
  }
  void send_each(std::span<const int> to, int tag, const bytes& payload,
                 std::size_t charged_bytes) override {
    const auto shared = std::make_shared<bytes>(payload);
    for (int r : to) send_shared(r, tag, shared, charged_bytes);
  }
  void multicast(std::span<const int> to, int tag, const bytes& payload) override;
  std::optional<envelope> receive(std::chrono::microseconds bound) override;
  bool probe() override {
    if (!ready_) ready_ = receive(std::chrono::microseconds(0));
    return ready_.has_value();
  }

  std::string describe(int rank) const override { return w_.describe(rank); }
  void watch(std::span<const int> ranks) override {
    for (int r : ranks) w_.watchers.at(static_cast<std::size_t>(r)).push_back(rank_);
  }
  void kill(int rank) noexcept override;
  void lose_self() override;
  void await_exit(std::span<const int> ranks) override;
  bool detects_deadlock() const override { return true; }
  void waiting_for(const std::string& what) override {
    w_.waiting[static_cast<std::size_t>(rank_)] = what;
  }

 private:
  void send_shared(int to, int tag, const std::shared_ptr<bytes>& payload,
                   std::size_t charged_bytes);
  sg::Mailbox* mailbox(int r) const { return w_.mailboxes.at(static_cast<std::size_t>(r)); }
  std::optional<envelope> take_ready() {
    auto e = std::move(ready_);
    ready_.reset();
    return e;
  }

  world::state& w_;
  int rank_;
  std::optional<envelope> ready_;
};

class sim_clock final : public dlb::clock {
 public:
  double now() override { return sg::Engine::get_clock(); }
  void compute(double base_seconds) override {
    if (base_seconds > 0) sg::this_actor::execute(base_seconds * kFlopsPerBaseSecond);
  }
  void wait_until(double t) override {
    if (t > now()) sg::this_actor::sleep_until(t);
  }
  double lag() const override { return 0.0; }
  bool emulated() const override { return true; }
};

}  // namespace dlb::sim
