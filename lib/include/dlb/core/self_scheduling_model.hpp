// A model of loop self-scheduling (chunks.hpp) over the iterations that remain: what AUTO-ALL
// (beyond the paper; docs/design/policies.md, "AUTO-ALL") compares with the cost model's prediction of the
// paper's four strategies before it commits.
//
// predict_self_scheduling() is a small deterministic event simulation of the master-worker
// queue over the pool (the remaining iterations, in order; the dispenser of the rule hands out
// their counts, taken from the pool's front). Every worker asks at `ready`; worker w's request
// for its next chunk, sent at t, and the master's answer cost, with one message of b bytes
// modelled as the runtime's messenger and network do (network.hpp):
//
//   sender's CPU      o_s + b (1 - s) / 2B                 (s: the wire's share of 1/B)
//   the wire          (h + b) / (B / s), on the ONE shared medium (shared: every
//                     transmission holds it in turn, first come first served; else no queue)
//   the rest          l = L - o_s - o_r - (h + 1) / (B / s) - (1 - s) / B   (>= 0)
//   receiver's CPU    o_r + b (1 - s) / 2B
//
//   request   b = request_bytes, from w at t; the master takes requests one at a time in the
//             order they arrive (its CPU: receive, then send the answer);
//   answer    b = answer_bytes + c D, c the chunk's iterations and D bytes_per_iteration (the
//             input slices the master ships with it);
//   compute   from the answer's arrival, the chunk's work (T per iteration, or T_k) at worker
//             w's effective speed under the load function (load.hpp: finish_time), whose end
//             is w's next request.
//
// A worker's request answered with no chunk (the pool is all handed out) ends it: it has
// finished at that answer's arrival. The prediction's time is the last worker's finish minus
// start_time: the pool's computation, every chunk's two messages and their queueing at the
// medium and the master, and the tail (the last chunks, whose workers finish at different
// times). AWF's weights are fixed (the speeds observed before the prediction); the runtime's
// AWF updates them from each request. The rules that adapt to measurements (AWF-B to AWF-E, AF)
// are given each chunk's modelled times as they end (chunk_dispenser::record: its computation,
// and the time from the worker's previous request). With prefetch f > 0 a worker sends its
// request when a fraction f of its chunk's time remains, and starts its next chunk when both the
// current one is done and the answer is in. Messages take the medium in the order their senders are
// done with them (a discrete event simulation, deterministic: ties go to the message queued
// first, the workers' first requests in worker order); the master serves requests in the order
// they arrive. Not modelled: the master's CPU shared with slave 1 (--balancer master) and AWF's
// weights updated from each request.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dlb/core/chunks.hpp"
#include "dlb/core/distribution.hpp"
#include "dlb/core/load.hpp"

namespace dlb::core {

// One message's costs (network.hpp's parameters, in seconds and bytes).
struct message_costs {
  double latency = 0.0;        // L
  double bandwidth = 1e18;     // B, bytes per second, end to end
  double send_overhead = 0.0;  // o_s
  double recv_overhead = 0.0;  // o_r
  double header_bytes = 0.0;   // h
  double wire_share = 1.0;     // s, in (0, 1]
  bool shared_medium = true;   // one medium for every transmission (ethernet1996)
};

struct self_scheduling_input {
  chunk_rule rule = chunk_rule::gss;
  std::int64_t fixed = 1;               // CSS's k
  range_list pool;                      // the iterations left, in the order they are handed out
  double time_per_iteration = 0.0;      // T, base seconds (iteration_times empty)
  std::vector<double> iteration_times;  // T_k for every iteration of the loop: non-uniform
  double bytes_per_iteration = 0.0;     // D
  double request_bytes = 40.0;          // a request's payload
  double answer_bytes = 48.0;           // an answer's payload besides the slices
  message_costs network;
  std::vector<double> base_speeds;  // S_w; P = size()
  load_function load;
  std::vector<double> weights;  // AWF, WF; empty: equal
  double fsc_overhead = 0.0;    // FSC's h and sigma (chunk_params)
  double fsc_sigma = 0.0;
  double prefetch = 0.0;  // f in [0, 1): 0, the request when the chunk is done
  double start_time = 0.0;
  std::vector<double> ready;  // when each worker sends its first request; empty: start
};

struct self_scheduling_prediction {
  double total_time = 0.0;           // the last finish - start_time
  std::vector<std::int64_t> chunks;  // in the order handed out
  std::vector<double> finish;        // per worker
  std::size_t messages = 0;          // requests and answers
};

// Throws std::invalid_argument for no workers, a speed <= 0, T <= 0 (uniform, non-empty pool),
// iteration_times too short for the pool, a CSS k < 1, or ready of the wrong size.
self_scheduling_prediction predict_self_scheduling(const self_scheduling_input& in);

// One message of b payload bytes: the sender's CPU, the wire's time, the rest of the latency and
// the receiver's CPU (the formula above). l is clamped at 0.
struct message_parts {
  double send = 0.0, wire = 0.0, rest = 0.0, receive = 0.0;
};
message_parts message_cost(const message_costs& net, double bytes);

// The master sends one message to each slave in turn, of bytes[s] payload bytes (the scatter):
// the mean over the slaves of when each arrives, from when the first send starts. The master's
// CPU sends them one after the other; on a shared medium each waits for the wire too.
double mean_arrival(const message_costs& net, const std::vector<double>& bytes);

}  // namespace dlb::core
