// runtime_fake_world.hpp: the smallest world a loop's session runs in without processes, for the
// unit tests of the runtime's pieces that talk (policy runners, recovery). One thread holds every
// task: a send appends to the receiver's inbox, and a wait that nothing in the inbox answers
// fails at once (the transport reports it detects deadlock, so the messenger never waits on a
// wall clock), so no test can hang. Time is a counter that messages and work advance.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "dlb/dlb.hpp"
#include "dlb/runtime/messenger.hpp"
#include "dlb/runtime/options.hpp"
#include "dlb/runtime/runtime.hpp"
#include "dlb/runtime/runtime_internals.hpp"
#include "dlb/runtime/seam.hpp"

namespace fake {

// A message as it went: who sent it to whom, its tag and body (the messenger's header included).
struct sent {
  int from = 0;
  int to = 0;
  int tag = 0;
  dlb::bytes payload;
};

struct world {
  std::vector<std::deque<dlb::envelope>> inbox;  // per rank
  std::vector<sent> log;                         // every message, in order
  explicit world(int ranks) : inbox(static_cast<std::size_t>(ranks)) {}
  // The messages sent to `to` with tag `t`, in order.
  std::vector<sent> to(int to, dlb::tag t) const {
    std::vector<sent> out;
    for (const auto& s : log)
      if (s.to == to && s.tag == static_cast<int>(t)) out.push_back(s);
    return out;
  }
};

class link final : public dlb::transport {
 public:
  link(world& w, int rank) : w_(w), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(w_.inbox.size()); }
  void send(int to, int tag, const dlb::bytes& payload, std::size_t) override {
    w_.log.push_back({rank_, to, tag, payload});
    w_.inbox.at(static_cast<std::size_t>(to)).push_back({rank_, tag, payload, -1.0});
  }
  void multicast(std::span<const int> to, int tag, const dlb::bytes& payload) override {
    for (int r : to) send(r, tag, payload, payload.size());
  }
  std::optional<dlb::envelope> receive(std::chrono::microseconds bound) override {
    auto& q = w_.inbox.at(static_cast<std::size_t>(rank_));
    if (q.empty()) {
      if (bound.count() > 0)
        throw std::runtime_error("rank " + std::to_string(rank_) + " waits for " + waiting_ +
                                 ", which nothing sent");
      return std::nullopt;
    }
    dlb::envelope e = std::move(q.front());
    q.pop_front();
    return e;
  }
  bool probe() override { return !w_.inbox.at(static_cast<std::size_t>(rank_)).empty(); }
  std::string describe(int rank) const override { return "task " + std::to_string(rank); }
  void watch(std::span<const int>) override {}
  void kill(int) noexcept override {}
  void await_exit(std::span<const int>) override {}
  bool detects_deadlock() const override { return true; }
  void waiting_for(const std::string& what) override { waiting_ = what; }

 private:
  world& w_;
  int rank_;
  std::string waiting_;
};

class counter_clock final : public dlb::clock {
 public:
  double now() override { return t_; }
  void compute(double base_seconds) override { t_ += base_seconds; }
  void wait_until(double t) override { t_ = t > t_ ? t : t_; }
  double lag() const override { return 0.0; }
  bool emulated() const override { return false; }

 private:
  double t_ = 0.0;
};

// The run's parameters for P slaves and policy p: the defaults of every DLB program, on the
// ideal network and the native clock (nothing to emulate), quiet.
inline dlb::run_params params(int P, const dlb::core::policy& p, bool recover) {
  dlb::run_params prm = dlb::read_params(dlb::options::parse(dlb::common_options(), {}));
  prm.procs = P;
  prm.group = P;
  prm.policy = p;
  prm.emulated = false;
  prm.balancer_on_master = false;
  prm.network.kind = dlb::network_kind::ideal;
  prm.recover = recover;
  prm.quiet = true;
  return prm;
}

// One task of the world: its transport, clock and runtime.
class task {
 public:
  task(world& w, int rank, const dlb::run_params& prm)
      : link_(w, rank),
        runtime_(std::make_unique<dlb::runtime>(dlb::runtime_setup{
            "fake", dlb::options::parse(dlb::common_options(), {}), prm, rank, &link_, &clock_,
            nullptr, "", [](dlb::report_kind, const std::string&) {}})) {}
  dlb::runtime& rt() { return *runtime_; }
  dlb::messenger& net() { return dlb::detail::net(*runtime_); }
  counter_clock& clock() { return clock_; }

 private:
  link link_;
  counter_clock clock_;
  std::unique_ptr<dlb::runtime> runtime_;
};

}  // namespace fake
