// self_scheduling.cpp: loop self-scheduling as a master-worker protocol over the same transport,
// clock and messenger as the paper's strategies (the baselines SS, CSS:k, GSS, TSS,
// FAC2, AWF; their chunk rules are the pure core's, dlb/core/chunks.hpp).
//
//  - DLB_scatter_data: the master hands each slave its first chunk (chunks 0..P-1 of the rule, in
//    slave order) with the WHOLE inputs and the chunk's slices, in the scatter message: the
//    workers' first requests are implicit in the start of the loop.
//  - A worker computes its chunk through the application's unchanged loop (Figure 1.4): at its
//    end DLB_send_interrupt marks a request due and DLB_profile_send_move_work sends REQUEST(e)
//    (its e-th) with its speed over that chunk, and waits for CHUNK(e): the next chunk's ranges
//    and the slices of the moved input arrays, or no ranges (the loop is all handed out: its
//    more_work() turns false).
//  - The master answers requests in arrival order from core::chunk_dispenser (AWF: each worker's
//    weight is the speed its last request reported), taking each chunk from the front of its
//    pool ([0, I); under AUTO-ALL's switch, the iterations the slaves reported remaining:
//    auto_all.cpp), and collects the results as under the strategies (DLB_gather_data: the
//    output slices of the iterations each worker executed).
//
// Costs are the strategies': every message pays the messenger's sender and receiver overheads
// and the network (the shared Ethernet by default), and under --balancer master the master's
// work for each request takes slave 1's CPU, as the centralized balancer's does. Choosing a
// chunk is a few operations: no delta is charged for it (delta is the paper's cost of computing
// a redistribution). A worker's wait for its next chunk is synchronization time.
//
// Statistics: syncs are the workers' requests, redistributions the chunks handed out on request,
// bytes_moved the input slices shipped with those chunks; iterations_moved stays 0 (no work
// moves between workers); run_stats::chunks lists every chunk's size in order.
#include "self_scheduling.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "arrays.hpp"
#include "dlb/core/profile.hpp"
#include "dlb/runtime/protocol.hpp"

namespace dlb {

namespace detail {
namespace {

// A self-scheduling policy's runner: its chunk rule hands out the loop, the first chunks with
// the scatter (chunks 0..P-1, in slave order), the others one per request.
class self_scheduling_runner final : public policy_runner {
 public:
  explicit self_scheduling_runner(const core::self_scheduled& p) : policy_(p) {}
  std::vector<core::range_list> first_shares(master_session& m) override {
    return m.first_chunks(policy_);
  }
  void run(master_session& m) override { run_self_scheduler(m); }

 private:
  core::self_scheduled policy_;
};

}  // namespace

std::unique_ptr<policy_runner> make_runner(const core::self_scheduled& p, master_session&) {
  return std::make_unique<self_scheduling_runner>(p);
}

double total(const core::message_parts& m) { return m.send + m.wire + m.rest + m.receive; }

// A REQUEST's payload, and a CHUNK's besides its slices (one range).
double request_bytes() {
  return static_cast<double>(protocol::encode(protocol::request_msg{}).size());
}
double answer_bytes() {
  return static_cast<double>(protocol::encode(protocol::chunk_msg{{}, 0, {{0, 1}}, {}}).size());
}

}  // namespace detail

// Its speed over the iterations done since the last request (without prefetch: since its chunk
// came), in REQUEST(e); with --prefetch the count and the time start again from here.
void detail::slave_session::send_request() {
  auto& clk = net_.clock();
  const double now = clk.now();
  // AWF's weight: the one speed metric (work per second in the balancer's unit).
  const double speed = slave_.measure_speed(now);
  const protocol::sync_header h{loop_id_, 0, slave_.window().epoch()};
  net_.send(protocol::master_rank, tag::request,
            protocol::encode(protocol::request_msg{h, slave_.window().done(), speed}));
  slave_.count_sync(false);
  requested_ = true;
  if (rt_.params().prefetch > 0) slave_.window().restart(now);
}

namespace {

// The other ranks' requests that have come, served before rank 0's own chunk of `last` seconds
// ends: the time after.
double serve_others_first(chunk_link& link, messenger& net, double now, double last) {
  if (link.serve_others()) return net.clock().now();
  // Rank 0 and a rank on a chunk as long as its own finish together, the other a few
  // microseconds later (its answer came after rank 0 served it): its request, just missed, would
  // wait all of rank 0's next chunk, and so again at every chunk (the SS linear loop at P = 2:
  // rank 1 waiting 275 us, an iteration, for most chunks). So rank 0 looks again for up to 2% of
  // its last chunk's time (at most 20 us; not at all for chunks under 50 us).
  const double look = std::min(0.02 * last, 20e-6);
  const double until = now + look;
  while (look >= 1e-6 && now < until) {
    const bool served = link.serve_others();
    now = net.clock().now();
    if (served) break;
  }
  return now;
}

// Rank 0's slave when its master computes (seam.hpp, chunk_link): its chunk by a function call
// on the master's dispenser, if the master's self scheduler serves this loop and nothing but the
// chunk's ranges would travel (native time, no arrays, no prefetch, trace, recovery or fault
// injected here). The other ranks' requests that have come are served first, in their order.
bool linked_chunk(detail::slave_session& me, messenger& net) {
  chunk_link* link = net.raw().link();
  if (link == nullptr || link->loop != me.loop_id_) return false;
  const auto& prm = me.rt_.params();
  if (net.clock().emulated() || me.states_ != nullptr || prm.recover ||
      prm.prefetch > 0 || prm.fault.slave == me.rt_.rank() || !me.arrays_.empty())
    return false;
  double now = net.clock().now();
  if (link->others) now = serve_others_first(*link, net, now, now - me.slave_.window().start());
  if (link->loop != me.loop_id_) return false;
  const double speed = me.slave_.measure_speed(now);
  link->serve(me.slave_.me(), me.slave_.window().done(), speed, now, link->ranges);
  me.slave_.work().hold_swapped(link->ranges);
  me.slave_.count_sync(false);
  me.slave_.window().next_epoch();
  me.slave_.window().restart(now);
  return true;
}

}  // namespace

void detail::slave_session::request_chunk() {
  if (!requested_ && linked_chunk(*this, net_)) {
    chunk_taken();
    return;
  }
  if (!requested_) send_request();
  requested_ = false;
  const protocol::sync_header h{loop_id_, 0, slave_.window().next_epoch()};
  auto d = net_.wait(protocol::in_sync(tag::chunk, h, protocol::master_rank), [&h] {
    return "the master's next chunk (loop " + std::to_string(h.loop) + ", request " +
           std::to_string(h.epoch) + ")";
  });
  reader r = d.body();
  protocol::chunk_msg m = protocol::decode_chunk(r);
  reader slices(m.slices);
  detail::unpack_arrays(slices, arrays_, m.ranges, detail::moved_array);
  slave_.work().hold(std::move(m.ranges));
  chunk_taken();
  if (rt_.params().prefetch > 0) return;
  slave_.window().restart(net_.clock().now());
}

void detail::slave_session::chunk_taken() {
  slave_.set_more_work(slave_.work().left() > 0);
  if (!slave_.more_work()) slave_.work().clear();
  chunk_size_ = slave_.work().left();
}

void detail::slave_session::prefetch_if_due() {
  const double f = rt_.params().prefetch;
  if (!(f > 0) || requested_ || !self_scheduled()) return;
  const std::int64_t left = slave_.work().left();
  if (left > 0 && static_cast<double>(left) <= f * static_cast<double>(chunk_size_)) send_request();
}

namespace detail {

namespace {

// The master's side of chunk_link, set while its self scheduler runs a loop.
class link_scope {
 public:
  template <class Serve>
  link_scope(messenger& net, int loop, Serve&& serve) : link_(net.raw().link()) {
    if (link_ == nullptr) return;
    link_->serve = std::forward<Serve>(serve);
    link_->loop = loop;
  }
  ~link_scope() {
    if (link_ == nullptr) return;
    link_->loop = -1;
    link_->serve = nullptr;
  }
  link_scope(const link_scope&) = delete;
  link_scope& operator=(const link_scope&) = delete;

 private:
  chunk_link* link_;
};

}  // namespace

void run_self_scheduler(master_session& DLB) {
  auto& net = DLB.net_;
  auto& sched = DLB.self_sched_;  // the chunk rule's state
  if (!sched.started()) throw run_error("DLB_master_sync before DLB_scatter_data");
  const auto P = static_cast<std::size_t>(DLB.procs_);
  const core::iteration_cost cost = DLB.work_cost();  // the requests' measure of work
  std::int64_t requests = 0, served = 0;
  const int loop = DLB.loop_id_;
  // Rank 0's own slave, when its master computes, takes its chunks by a function call
  // (linked_chunk): the same rule, request count and order as by message.
  const link_scope linked(net, loop, [&](std::size_t s, std::int64_t done, double speed,
                                         double now, core::range_list& out) {
    ++requests;
    sched.take_request(s, done, speed, now, cost);
    sched.next_chunk(s, out);
    if (!out.empty()) ++served;
  });
  while (DLB.master_.results_in() < P) {
    auto d = net.wait(
        [loop](const delivered& m) {
          return (m.kind == tag::gather || m.kind == tag::request) &&
                 protocol::peek_loop(m) == loop;
        },
        [&DLB, P] {
          return "requests or results of loop " + std::to_string(DLB.loop_id_) + " (" +
                 std::to_string(DLB.master_.results_in()) + " of " + std::to_string(P) +
                 " workers done)";
        });
    if (d.kind == tag::gather) {
      DLB.master_.take_results(std::move(d));
      continue;
    }
    reader r = d.body();
    const protocol::request_msg q = protocol::decode_request(r);
    const auto s = static_cast<std::size_t>(d.from - 1);
    if (d.from < 1 || s >= P) throw run_error("request from an unknown task");
    ++requests;
    sched.take_request(s, q.done, q.speed, net.clock().now(), cost);
    const auto index = static_cast<std::int64_t>(sched.chunks().size());
    const core::range_list ranges = sched.next_chunk(s);
    if (!ranges.empty()) ++served;
    writer slices;
    pack_arrays(slices, DLB.arrays_, ranges, moved_array);
    sched.count_shipped(slices.size());
    net.send(d.from, tag::chunk,
             protocol::encode(protocol::chunk_msg{q.sync, index, ranges, slices.data()}));
  }
  // The balancer's own count, as for the centralized strategies (DLB_gather_data reads it);
  // under AUTO-ALL after its first synchronization, added to that one.
  DLB.master_.count_requests(requests, served);
}

}  // namespace detail

core::chunk_params detail::master_session::chunk_params_for(const core::policy& p,
                                                            std::int64_t iterations) const {
  const auto& prm = rt_.params();
  core::chunk_params cp;
  cp.rule = p.rule();
  cp.iterations = iterations;
  cp.workers = static_cast<std::size_t>(procs_);
  cp.fixed = p.chunk();
  if (p.rule() == core::chunk_rule::wf) cp.weights = prm.speeds;
  // FSC's h: one request and one answer on the run's network; its sigma: the iterations' costs
  // under the run's load (core::fsc_sigma). A loop without costs gives neither.
  if (p.rule() == core::chunk_rule::fsc && loop_.work && loop_.iterations > 0) {
    const auto net = message_costs_of(prm, rt_.model_network());
    cp.overhead = total(core::message_cost(net, request_bytes())) +
                  total(core::message_cost(net, answer_bytes()));
    double sum = 0.0, squares = 0.0;
    for (std::int64_t i = 0; i < loop_.iterations; ++i) {
      const double t = loop_.work(i);
      sum += t;
      squares += t * t;
    }
    const auto n = static_cast<double>(loop_.iterations);
    cp.sigma = core::fsc_sigma(sum / n, squares / n, prm.load.max_load);
  }
  return cp;
}

void detail::master_session::start_pool(const core::policy& p, core::range_list pool,
                                        std::vector<double> weights) {
  const auto cp = chunk_params_for(p, core::iteration_count(pool));
  self_sched_.start(cp, std::move(pool), std::move(weights), net_.clock().now());
}

std::vector<core::range_list> detail::master_session::first_chunks(const core::policy& p) {
  start_pool(p, {{0, loop_.iterations}},
             std::vector<double>(static_cast<std::size_t>(procs_), 0.0));
  std::vector<core::range_list> first(static_cast<std::size_t>(procs_));
  for (std::size_t s = 0; s < first.size(); ++s) first[s] = self_sched_.next_chunk(s);
  return first;
}

}  // namespace dlb
