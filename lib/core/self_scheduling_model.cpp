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
  if (!(in.prefetch >= 0 && in.prefetch < 1))
    throw std::invalid_argument("self-scheduling model: prefetch must be in [0, 1)");
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

double mean_arrival(const message_costs& net, const std::vector<double>& bytes) {
  if (bytes.empty()) return 0.0;
  double cpu = 0.0, wire_free = 0.0, sum = 0.0;
  for (double b : bytes) {
    const message_parts m = message_cost(net, b);
    cpu += m.send;
    const double start = net.shared_medium ? std::max(cpu, wire_free) : cpu;
    wire_free = start + m.wire;
    sum += wire_free + m.rest + m.receive;
  }
  return sum / static_cast<double>(bytes.size());
}

namespace {

chunk_dispenser dispenser_of(const self_scheduling_input& in) {
  const std::size_t P = in.base_speeds.size();
  const bool weighted = in.weights.size() == P;
  chunk_dispenser d(
      chunk_params(in.rule, iteration_count(in.pool), P, in.fixed, in.fsc_overhead, in.fsc_sigma,
                   in.rule == chunk_rule::wf && weighted ? in.weights : std::vector<double>{}));
  if (in.rule == chunk_rule::awf && weighted) d.set_weights(in.weights);
  return d;
}

// The master-worker queue, stepped one transmission at a time (predict_self_scheduling).
class queue_model {
 public:
  explicit queue_model(const self_scheduling_input& in)
      : in_(in),
        dispenser_(dispenser_of(in)),
        pool_(in.pool),
        wire_{in.network.shared_medium},
        request_(message_cost(in.network, in.request_bytes)) {
    const std::size_t P = in.base_speeds.size();
    out_.finish.assign(P, in.start_time);
    asked_.assign(P, in.start_time);
    busy_.assign(P, in.start_time);
    pending_.assign(P, {});
    for (std::size_t w = 0; w < P; ++w) {
      asked_[w] = in.ready.empty() ? in.start_time : in.ready[w];
      queue_.push({asked_[w] + request_.send, seq_++, w, -1, {}});
    }
  }
  self_scheduling_prediction run() {
    while (!queue_.empty()) {
      transmission t = queue_.top();
      queue_.pop();
      if (t.chunk < 0)
        answer(t);
      else
        compute(t);
    }
    out_.total_time = *std::max_element(out_.finish.begin(), out_.finish.end()) - in_.start_time;
    return std::move(out_);
  }

 private:
  // A chunk's measurement, which the master learns with the worker's next request.
  struct measurement {
    std::int64_t iterations = 0;
    double compute = 0.0, total = 0.0;
  };
  message_parts answer_cost(std::int64_t c) const {
    return message_cost(in_.network,
                        in_.answer_bytes + static_cast<double>(c) * in_.bytes_per_iteration);
  }
  // A request: the master takes it when it arrives and is free, and sends the next chunk.
  void answer(const transmission& t) {
    const double arrived = wire_.transmit(t.ready, request_.wire) + request_.rest;
    const double taken = std::max(arrived, master_free_) + request_.receive;
    const measurement& m = pending_[t.worker];
    dispenser_.record(t.worker, m.iterations, m.compute, m.total);
    const std::int64_t c = dispenser_.next(t.worker);
    range_split split = split_front(pool_, c);
    pool_ = std::move(split.back);
    master_free_ = taken + answer_cost(c).send;
    queue_.push({master_free_, seq_++, t.worker, c, std::move(split.front)});
  }
  // An answer: the worker computes its chunk (after the one in hand, under prefetch) and asks
  // when it is done, or (prefetch f) when a fraction f of its time remains.
  void compute(const transmission& t) {
    const message_parts answer = answer_cost(t.chunk);
    const double received = wire_.transmit(t.ready, answer.wire) + answer.rest + answer.receive;
    out_.messages += 2;
    const std::size_t w = t.worker;
    const double start = std::max(received, busy_[w]);
    if (t.chunk == 0) {
      out_.finish[w] = start;
      return;
    }
    out_.chunks.push_back(t.chunk);
    const double done = finish_time(in_.load, w, in_.base_speeds[w], start, work_of(in_, t.ranges));
    busy_[w] = done;
    const double ask = in_.prefetch > 0 ? start + (1 - in_.prefetch) * (done - start) : done;
    pending_[w] = {t.chunk, done - start, ask - asked_[w]};
    asked_[w] = ask;
    queue_.push({ask + request_.send, seq_++, w, -1, {}});
  }

  const self_scheduling_input& in_;
  chunk_dispenser dispenser_;
  range_list pool_;
  medium wire_;
  message_parts request_;
  double master_free_ = -std::numeric_limits<double>::infinity();
  // Transmissions in the order they are ready for the medium (ties: the order they were queued).
  std::priority_queue<transmission, std::vector<transmission>, std::greater<>> queue_;
  std::uint64_t seq_ = 0;
  // Per worker: when its last request was sent, when its chunk in hand is done, and that chunk's
  // measurement.
  std::vector<double> asked_, busy_;
  std::vector<measurement> pending_;
  self_scheduling_prediction out_;
};

}  // namespace

self_scheduling_prediction predict_self_scheduling(const self_scheduling_input& in) {
  validate(in);
  return queue_model(in).run();
}

}  // namespace dlb::core
