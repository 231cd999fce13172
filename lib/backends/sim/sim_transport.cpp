// sim_transport.cpp: a simulated task's transport (sim_transport.hpp).
#include "backends/sim/sim_transport.hpp"

namespace dlb::sim {

void sim_transport::send_shared(int to, int tag, const std::shared_ptr<bytes>& payload,
                                std::size_t charged_bytes) {
  if (w_.done[static_cast<std::size_t>(to)]) return;  // as PVM drops messages to exited tasks
  w_.count(charged_bytes);
  auto* m = new message{rank_, tag, payload};
  // The receiver's mailbox has a permanent receiver, so a transfer starts at once.
  const int k = w_.transmitter_of[static_cast<std::size_t>(rank_)];
  if (w_.local(rank_, to)) {  // the same workstation: no wire
    mailbox(to)->put(m, 0);
    return;
  }
  if (k < 0) {
    mailbox(to)->put(m, static_cast<std::uint64_t>(charged_bytes));
    return;
  }
  // The message is handed to the network interface; the sender goes on.
  auto& tx = *w_.transmitters[static_cast<std::size_t>(k)];
  tx.queue.push_back({to, m, static_cast<std::uint64_t>(charged_bytes)});
  tx.ready->release();
}

void sim_transport::multicast(std::span<const int> to, int tag, const bytes& payload) {
  // Only aborts and unmodelled networks come here: detached, never blocking the sender.
  for (int r : to) {
    if (w_.done[static_cast<std::size_t>(r)]) continue;
    w_.count(payload.size());
    auto* m = new message{rank_, tag, std::make_shared<bytes>(payload)};
    mailbox(r)->put_init(m, payload.size())->detach([](void* p) {
      delete static_cast<message*>(p);
    });
  }
}

std::optional<envelope> sim_transport::receive(std::chrono::microseconds bound) {
  if (ready_) return take_ready();
  // A poll takes only a message that has fully arrived; a wait blocks with no wall-clock
  // bound (virtual time: a wait that can never end is the engine's deadlock, which ends the
  // run; detects_deadlock()).
  if (bound.count() == 0 && !mailbox(rank_)->ready()) return std::nullopt;
  std::unique_ptr<message> m(mailbox(rank_)->get<message>());
  w_.waiting[static_cast<std::size_t>(rank_)].clear();
  // The last (or only) destination of a payload takes it; the others copy it.
  bytes payload;
  if (m->payload) payload = m->payload.use_count() == 1 ? std::move(*m->payload) : *m->payload;
  return envelope{m->from, m->tag, std::move(payload), m->arrival};
}

void sim_transport::kill(int rank) noexcept {
  auto& a = w_.actors.at(static_cast<std::size_t>(rank));
  if (!w_.done[static_cast<std::size_t>(rank)] && a) {
    w_.done[static_cast<std::size_t>(rank)] = true;
    a->kill();
  }
}

void sim_transport::lose_self() {
  // The killer (world::start) ends this actor as it ends one at an alarm: the same kill, exit
  // notices and dropped messages. At the same virtual time; this actor waits for it.
  w_.kill_now->release();
  w_.never->acquire();
}

void sim_transport::await_exit(std::span<const int> ranks) {
  // Every watched task that exits posts a notice; wait until all of these have exited.
  const auto all_done = [&] {
    for (int r : ranks)
      if (!w_.done[static_cast<std::size_t>(r)]) return false;
    return true;
  };
  while (!all_done()) {
    waiting_for("the slaves' exit at the end of the run");
    receive(std::chrono::microseconds::max());
  }
}

}  // namespace dlb::sim
