// messenger.cpp: timed delivery over the transport.
#include "dlb/runtime/messenger.hpp"

#include <algorithm>
#include <span>

namespace dlb {

namespace {

// The framing of every message on the transport, in one place: its send time and its arrival
// time (each a double), then the body that protocol.hpp encoded. A message multicast as one
// transport message (pvm_mcast) to tasks whose copies arrive at different times carries
// kPerDestination as its arrival, then the number of destinations and each one's (rank,
// arrival); each receiver takes its own.
struct frame {
  double sent = 0.0;
  double arrival = 0.0;
  std::span<const std::byte> body;
};
constexpr double kPerDestination = -1.0;

bytes framed(double sent, double arrival, const bytes& body) {
  writer w;
  w.put(sent).put(arrival).put_raw(body.data(), body.size());
  return w.take();
}

bytes framed(double sent, const std::vector<std::pair<int, double>>& arrivals, const bytes& body) {
  writer w;
  w.put(sent).put(kPerDestination).put(static_cast<std::uint32_t>(arrivals.size()));
  for (const auto& [rank, arrival] : arrivals) w.put(static_cast<std::int32_t>(rank)).put(arrival);
  w.put_raw(body.data(), body.size());
  return w.take();
}

// The frame as task `rank` receives it. Throws wire_error if the message is shorter than its
// frame or names no arrival for `rank`.
frame unframed(const bytes& message, int rank) {
  reader r(message);
  frame f;
  f.sent = r.get<double>();
  f.arrival = r.get<double>();
  std::size_t header = 2 * sizeof(double);
  if (f.arrival == kPerDestination) {
    const auto n = r.get<std::uint32_t>();
    bool mine = false;
    for (std::uint32_t k = 0; k < n; ++k) {
      const auto to = r.get<std::int32_t>();
      const auto arrival = r.get<double>();
      if (to == rank) {
        f.arrival = arrival;
        mine = true;
      }
    }
    if (!mine) throw wire_error("a multicast frame without an arrival for this task");
    header += sizeof(std::uint32_t) + n * (sizeof(std::int32_t) + sizeof(double));
  }
  f.body = std::span<const std::byte>(message).subspan(header);
  return f;
}

}  // namespace

messenger::match with_tag(tag t) { return {t}; }
messenger::match with_tag_from(tag t, int from) {
  return {t, [from](const delivered& d) { return d.from == from; }};
}

messenger::messenger(transport& t, dlb::clock& c, network_model net,
                     std::chrono::milliseconds wait_timeout)
    : transport_(t), clock_(c), net_(std::move(net)), timeout_(wait_timeout) {}

bool messenger::modelled() const { return clock_.emulated() && net_.params().modelled(); }

void messenger::share_cpu(std::shared_ptr<shared_medium> ledger, bool publisher, int partner) {
  cpu_ = std::move(ledger);
  cpu_publisher_ = publisher;
  partner_ = partner;
}

void messenger::note_busy(double start, double end) {
  if (cpu_ && cpu_publisher_ && end > start) cpu_->publish_busy(start, end);
}

void messenger::absorb(double due) {
  const bool receives =
      modelled() && (net_.params().recv_overhead > 0 || net_.params().host_per_byte() > 0);
  const bool shares = cpu_ && !cpu_publisher_;
  if (!receives && !shares) return;
  for (;;) {
    drain(std::chrono::microseconds(0));
    if (shares) {
      for (const auto n = cpu_->busy_published(); cpu_read_ < n; ++cpu_read_) {
        const auto [start, end] = cpu_->busy_interval(cpu_read_);
        uncharged_.push({start, end - start});
      }
    }
    const double now = std::max(clock_.now(), due);
    if (uncharged_.empty() || uncharged_.top().first > now) return;
    while (!uncharged_.empty() && uncharged_.top().first <= std::max(clock_.now(), due)) {
      const auto [t, length] = uncharged_.top();
      uncharged_.pop();
      const double start = std::max(cpu_free_, t);
      cpu_free_ = start + length;
      note_busy(start, cpu_free_);
    }
    clock_.wait_until(cpu_free_);  // what arrived meanwhile is charged after it
  }
}

void messenger::compute(double base_seconds) {
  absorb();
  const double t0 = clock_.now();
  clock_.compute(base_seconds);
  cpu_free_ = std::max(cpu_free_, clock_.now());
  note_busy(t0, clock_.now());
  absorb();
}

void messenger::busy(double seconds) {
  absorb();
  const double t0 = clock_.now();
  clock_.wait_until(t0 + seconds);
  cpu_free_ = std::max(cpu_free_, clock_.now());
  note_busy(t0, clock_.now());
}

std::size_t messenger::send(int to, tag kind, const bytes& body) {
  absorb();
  const double sent = clock_.now();
  double arrival = sent;
  std::size_t wire = body.size();
  if (modelled()) {
    // The sender spends its overhead first; then the message takes its turn on the network:
    // the emulated one stamps its arrival, the simulated one carries it (network.hpp). A
    // message to the task on the same workstation crosses no network.
    const double leaves = sent + net_.params().send_cost(body.size());
    const bool local = to == partner_;
    arrival =
        net_.params().carried_by_transport || local ? leaves : net_.arrival(leaves, body.size());
    wire = static_cast<std::size_t>(net_.params().header_bytes +
                                    net_.params().charged_payload(body.size()));
    clock_.wait_until(leaves);
    cpu_free_ = std::max(cpu_free_, leaves);
    note_busy(sent, leaves);
  }
  if (observer_) observer_(sent, to, kind, body);
  transport_.send(to, static_cast<int>(kind), framed(sent, arrival, body), wire);
  return body.size();
}

std::size_t messenger::multicast(const std::vector<int>& to, tag kind, const bytes& body,
                                 broadcast_kind how) {
  if (to.empty()) return 0;
  if (!modelled()) {
    const double sent = clock_.now();
    if (observer_)
      for (int r : to) observer_(sent, r, kind, body);
    transport_.multicast(to, static_cast<int>(kind), framed(sent, sent, body));
    return body.size() * to.size();
  }
  if (how == broadcast_kind::unicast) {
    // One send per destination: each pays the sender's overhead, each takes its turn on the
    // medium.
    for (int r : to) send(r, kind, body);
    return body.size() * to.size();
  }
  // pvm_mcast: the task hands the message to its pvmd once (one o_s); the pvmd sends one copy to
  // each destination host, each taking its turn on the medium with its own arrival; each
  // receiver pays its o_r.
  absorb();
  const double sent = clock_.now();
  const double leaves = sent + net_.params().send_cost(body.size());
  clock_.wait_until(leaves);
  cpu_free_ = std::max(cpu_free_, leaves);
  note_busy(sent, leaves);
  const auto wire = static_cast<std::size_t>(net_.params().header_bytes +
                                             net_.params().charged_payload(body.size()));
  if (net_.params().carried_by_transport) {
    // The simulated network carries each copy (its interface queues them in order).
    if (observer_)
      for (int r : to) observer_(sent, r, kind, body);
    transport_.send_each(to, static_cast<int>(kind), framed(sent, leaves, body), wire);
    return body.size() * to.size();
  }
  std::vector<std::pair<int, double>> arrivals;
  for (int r : to) {
    arrivals.emplace_back(r, r == partner_ ? leaves : net_.arrival(leaves, body.size()));
    if (observer_) observer_(sent, r, kind, body);
  }
  transport_.multicast(to, static_cast<int>(kind), framed(sent, arrivals, body));
  return body.size() * to.size();
}

void messenger::accept(envelope&& e) {
  if (e.tag == kTaskExitTag) {
    if (e.from >= 0 && static_cast<std::size_t>(e.from) < watched_.size() &&
        watched_[static_cast<std::size_t>(e.from)]) {
      if (deliver_exits_) {
        delivered d;
        d.from = e.from;
        d.kind = tag::task_exit;
        d.sent = d.arrival = clock_.observed();
        d.seq = received_++;
        pending_[e.tag].push_back(std::move(d));
        return;
      }
      throw run_error(transport_.describe(e.from) + " exited during the run");
    }
    return;
  }
  if (e.tag == static_cast<int>(tag::abort)) {
    std::string why =
        e.from == 0 ? "the master aborted the run" : transport_.describe(e.from) + " failed";
    try {
      reader r(unframed(e.payload, transport_.rank()).body);
      why += ": " + r.get_string();
    } catch (const wire_error&) {
    }
    throw run_error(why);
  }
  const frame f = unframed(e.payload, transport_.rank());
  delivered d;
  d.from = e.from;
  d.kind = static_cast<tag>(e.tag);
  d.sent = f.sent;
  d.arrival = f.arrival;
  if (e.arrival >= 0) d.arrival = e.arrival;  // the backend's network delivered it then
  if (modelled() && net_.params().recv_cost(f.body.size()) > 0)
    uncharged_.push({d.arrival, net_.params().recv_cost(f.body.size())});
  // The body is the payload after its frame: the payload is kept, its frame erased (no copy
  // of a large body into a new buffer).
  const auto header = static_cast<std::size_t>(f.body.data() - e.payload.data());
  d.payload = std::move(e.payload);
  d.payload.erase(d.payload.begin(), d.payload.begin() + static_cast<std::ptrdiff_t>(header));
  d.seq = received_++;
  if (discard_ && (*discard_)(d)) return;
  pending_[e.tag].push_back(std::move(d));
}

void messenger::discard(match m) {
  for (auto& [t, q] : pending_) std::erase_if(q, [&m](const delivered& d) { return m(d); });
  discard_ = std::move(m);
}

void messenger::drain(std::chrono::microseconds bound) {
  auto e = transport_.receive(bound);
  while (e) {
    accept(std::move(*e));
    e = transport_.receive(std::chrono::microseconds(0));
  }
}

std::optional<delivered> messenger::take(const match& m, bool due_only) {
  // Among the matching messages, the earliest arrival first. A network carried by the
  // transport delivers in arrival order already: the first match of a queue is its earliest,
  // and across queues the first received.
  const bool in_order = net_.params().carried_by_transport;
  std::deque<delivered>* best_queue = nullptr;
  std::deque<delivered>::iterator best;
  const auto consider = [&](std::deque<delivered>& q) {
    for (auto it = q.begin(); it != q.end(); ++it) {
      if (!m(*it)) continue;
      const bool better =
          !best_queue || (in_order ? it->seq < best->seq : it->arrival < best->arrival);
      if (better) {
        best_queue = &q;
        best = it;
      }
      if (in_order) return;
    }
  };
  if (m.kind) {
    auto q = pending_.find(static_cast<int>(*m.kind));
    if (q != pending_.end()) consider(q->second);
  } else if (!m.kinds.empty()) {
    for (const tag t : m.kinds) {
      auto q = pending_.find(static_cast<int>(t));
      if (q != pending_.end()) consider(q->second);
    }
  } else {
    for (auto& [t, q] : pending_) consider(q);
  }
  if (!best_queue) return std::nullopt;
  if (due_only && best->arrival > clock_.now()) return std::nullopt;
  delivered d = std::move(*best);
  best_queue->erase(best);
  return d;
}

std::optional<delivered> messenger::poll(const match& m) {
  drain(std::chrono::microseconds(0));
  absorb();
  const double previous = last_poll_;
  last_poll_ = clock_.now();
  auto d = take(m, true);
  if (d) {
    // Emulation error: due at an earlier poll but not physically here then. (A simulated
    // network has no such error: a message is here exactly when it has arrived.)
    if (d->arrival <= previous && !net_.params().carried_by_transport)
      d->late = last_poll_ - previous;
    clock_.wait_until(d->arrival);
  }
  return d;
}

delivered messenger::wait(const match& m, const std::string& what) {
  return wait(m, [&what] { return what; });
}

delivered messenger::wait(const match& m, const std::function<std::string()>& what) {
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  for (;;) {
    if (auto d = take(m, false)) {
      clock_.wait_until(d->arrival);
      absorb(d->arrival);  // this message's receive overhead, and those of the others that came
      return std::move(*d);
    }
    if (transport_.detects_deadlock()) {
      // Virtual time: no wall-clock bound; a wait that can never end is the simulator's
      // deadlock, which ends the run with every task's state.
      transport_.waiting_for(what());
      drain(std::chrono::microseconds::max());
      continue;
    }
    auto left = std::chrono::duration_cast<std::chrono::microseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      throw run_error("timed out after " + std::to_string(timeout_.count()) + " ms waiting for " +
                      what());
    }
    drain(std::min(left, std::chrono::microseconds(100'000)));
  }
}

}  // namespace dlb
