// The self-scheduling model (self_scheduling_model.hpp): the master-worker queue stepped one
// request at a time.
#include "dlb/core/self_scheduling_model.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>

namespace dlb::core {
namespace {

void validate(const self_scheduling_input& in) {
  if (in.base_speeds.empty()) throw std::invalid_argument("self-scheduling model: no workers");
  for (double s : in.base_speeds)
    if (!(s > 0)) throw std::invalid_argument("self-scheduling model: a speed <= 0");
  const std::int64_t n = iteration_count(in.pool);
  if (in.iteration_times.empty()) {
    if (n > 0 && !(in.time_per_iteration > 0))
      throw std::invalid_argument("self-scheduling model: T <= 0");
  } else {
    for (const auto& r : in.pool)
      if (r.end > static_cast<std::int64_t>(in.iteration_times.size()) || r.begin < 0)
        throw std::invalid_argument("self-scheduling model: iteration_times too short");
  }
  if (in.rule == chunk_rule::css && in.fixed < 1)
    throw std::invalid_argument("self-scheduling model: CSS needs k >= 1");
  if (!in.ready.empty() && in.ready.size() != in.base_speeds.size())
    throw std::invalid_argument("self-scheduling model: ready of the wrong size");
}

double work_of(const self_scheduling_input& in, const range_list& chunk) {
  if (in.iteration_times.empty())
    return static_cast<double>(iteration_count(chunk)) * in.time_per_iteration;
  double w = 0.0;
  for (const auto& r : chunk)
    for (std::int64_t k = r.begin; k < r.end; ++k)
      w += in.iteration_times[static_cast<std::size_t>(k)];
  return w;
}

// The medium: shared (one queue for every transmission) or not (no queue).
struct medium {
  bool shared;
  double free = -std::numeric_limits<double>::infinity();
  // The transmission's end, from when the sender is done with its CPU.
  double transmit(double ready, double wire) {
    if (!shared) return ready + wire;
    const double start = std::max(ready, free);
    free = start + wire;
    return free;
  }
};

// A message waiting for the medium: a worker's request (chunk < 0) or the master's answer with
// its chunk (0: none left).
struct transmission {
  double ready = 0.0;  // the sender's CPU is done with it
  std::uint64_t seq = 0;
  std::size_t worker = 0;
  std::int64_t chunk = -1;
  range_list ranges;
  bool operator>(const transmission& o) const {
    return ready != o.ready ? ready > o.ready : seq > o.seq;
  }
};

}  // namespace

message_parts message_cost(const message_costs& net, double bytes) {
  message_parts m;
  const double share = net.wire_share > 0 ? std::min(net.wire_share, 1.0) : 1.0;
  const double wire_bw = net.bandwidth / share;
  const double host = (1.0 - share) / net.bandwidth;
  m.send = net.send_overhead + bytes * host / 2.0;
  m.receive = net.recv_overhead + bytes * host / 2.0;
  m.wire = (net.header_bytes + bytes) / wire_bw;
  m.rest = std::max(0.0, net.latency - net.send_overhead - net.recv_overhead -
                             (net.header_bytes + 1.0) / wire_bw - host);
  return m;
}

self_scheduling_prediction predict_self_scheduling(const self_scheduling_input& in) {
  validate(in);
  const std::size_t P = in.base_speeds.size();
  self_scheduling_prediction out;
  out.finish.assign(P, in.start_time);
  chunk_params cp;
  cp.rule = in.rule;
  cp.iterations = iteration_count(in.pool);
  cp.workers = P;
  cp.fixed = in.fixed;
  chunk_dispenser dispenser(cp);
  if (in.rule == chunk_rule::awf && in.weights.size() == P) dispenser.set_weights(in.weights);
  range_list pool = in.pool;
  medium wire{in.network.shared_medium};
  double master_free = -std::numeric_limits<double>::infinity();
  const message_parts request = message_cost(in.network, in.request_bytes);
  // Transmissions in the order they are ready for the medium (ties: the order they were queued).
  std::priority_queue<transmission, std::vector<transmission>, std::greater<>> queue;
  std::uint64_t seq = 0;
  for (std::size_t w = 0; w < P; ++w)
    queue.push({(in.ready.empty() ? in.start_time : in.ready[w]) + request.send, seq++, w, -1, {}});
  while (!queue.empty()) {
    transmission t = queue.top();
    queue.pop();
    if (t.chunk < 0) {  // a request: the master takes it when it arrives and is free
      const double arrived = wire.transmit(t.ready, request.wire) + request.rest;
      const double taken = std::max(arrived, master_free) + request.receive;
      const std::int64_t c = dispenser.next(t.worker);
      range_split split = split_front(pool, c);
      pool = std::move(split.back);
      const message_parts answer = message_cost(
          in.network, in.answer_bytes + static_cast<double>(c) * in.bytes_per_iteration);
      master_free = taken + answer.send;
      queue.push({master_free, seq++, t.worker, c, std::move(split.front)});
      continue;
    }
    const message_parts answer = message_cost(
        in.network, in.answer_bytes + static_cast<double>(t.chunk) * in.bytes_per_iteration);
    const double received = wire.transmit(t.ready, answer.wire) + answer.rest + answer.receive;
    out.messages += 2;
    if (t.chunk == 0) {
      out.finish[t.worker] = received;
      continue;
    }
    out.chunks.push_back(t.chunk);
    const double done =
        finish_time(in.load, t.worker, in.base_speeds[t.worker], received, work_of(in, t.ranges));
    queue.push({done + request.send, seq++, t.worker, -1, {}});
  }
  out.total_time = *std::max_element(out.finish.begin(), out.finish.end()) - in.start_time;
  return out;
}

}  // namespace dlb::core
