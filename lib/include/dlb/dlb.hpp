// dlb.hpp: the paper's DLB library calls (section 1.4, Figure 1.4) and a modern entry point.
//
// The loop of Figure 1.4 compiles as printed, modulo C++ syntax:
//
//   dlb::context DLB(rt);
//   DLB_init(DLB, P, K, loop, {&DLB_arrayZ, &DLB_arrayX, &DLB_arrayY});
//   DLB_scatter_data(DLB);
//   if (DLB.master()) DLB_master_sync(DLB);
//   else
//     while (DLB.more_work()) {
//       for (i = DLB.start(); i < DLB.end() && DLB.more_work(); i++) {
//         body(i);
//         if (DLB_slave_sync(DLB) && DLB.interrupt()) DLB_profile_send_move_work(DLB);
//       }
//       if (DLB.more_work()) DLB_send_interrupt(DLB);
//       DLB_profile_send_move_work(DLB);
//     }
//   DLB_gather_data(DLB);
//
// or, without writing it out: dlb::parallel_for(rt, loop, arrays, body).
//
// The strategies share the pure core (dlb::core: the decision, the plan, the groups) and differ
// only in who receives the profiles and who computes and sends the plan (lib/README.md).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dlb/core/chunks.hpp"
#include "dlb/core/distribution.hpp"
#include "dlb/core/redistribution.hpp"
#include "dlb/core/strategy.hpp"
#include "dlb/runtime/runtime.hpp"

namespace dlb {
namespace core {
struct model_input;  // dlb/core/cost_model.hpp
}

enum class element_type { f64, f32, i32, i64 };
std::size_t element_size(element_type t);
template <class T>
constexpr element_type element_type_of();
template <>
constexpr element_type element_type_of<double>() {
  return element_type::f64;
}
template <>
constexpr element_type element_type_of<float>() {
  return element_type::f32;
}
template <>
constexpr element_type element_type_of<std::int32_t>() {
  return element_type::i32;
}
template <>
constexpr element_type element_type_of<std::int64_t>() {
  return element_type::i64;
}

// BLOCK and CYCLIC arrays are split by iterations along one dimension; WHOLE arrays are
// replicated on every slave.
enum class data_distribution { block, cyclic, whole };
enum class along { rows, columns };
enum class storage { row_major, column_major };
// Which slices (rows or columns) an iteration touches: its own (identity), or its own and its
// bitonic partner S-1-i (a triangular loop made uniform by bitonic scheduling).
enum class iteration_map { identity, bitonic };

// The paper's DLB_array: what the runtime needs to scatter, move and gather one shared array.
// The data lives in the caller's full-size array (global indices, as in the paper's generated
// code); each task fills only the slices it owns.
struct DLB_array {
  std::string name;
  void* data = nullptr;
  element_type type = element_type::f64;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  storage layout = storage::row_major;
  data_distribution distribution = data_distribution::block;
  along axis = along::rows;
  iteration_map map = iteration_map::identity;
  // Scattered from the master at the start; a distributed input array moves with its iterations
  // (its slices are the data D of the paper's model).
  bool input = true;
  // Gathered to the master at the end, the slices of the iterations each slave executed.
  bool output = false;

  template <class T>
  static DLB_array of(std::string name, T* data, std::int64_t rows, std::int64_t cols,
                      data_distribution dist, along axis = along::rows) {
    DLB_array a;
    a.name = std::move(name);
    a.data = data;
    a.type = element_type_of<T>();
    a.rows = rows;
    a.cols = cols;
    a.distribution = dist;
    a.axis = axis;
    return a;
  }
  std::int64_t slice_count() const { return axis == along::rows ? rows : cols; }
  std::int64_t slice_length() const { return axis == along::rows ? cols : rows; }
  bool moves() const { return input && distribution != data_distribution::whole; }
};

// The loop: iterations [0, I) and, optionally, the work of each iteration in base seconds
// (seconds on the unloaded base workstation).
//  - With a work function, it is the iteration's cost: the emulated clock and the simulated
//    backend charge work(i) for iteration i (stretched by the load), and the cost model and the
//    oracle read it. The master calls it too (for every iteration, for the model). Under
//    --balance-by work (the default) it is also the balancer's unit: speeds are work per second,
//    moves are sized in work and the block start is blocks of equal work, so every task calls it
//    for the iterations it decides about (lib/README.md, "Work, not iterations"); it must be
//    cheap and give the same value on every task.
//  - Without one (work empty), the body reports its own cost to the clock with
//    runtime::compute(base_seconds) (under the native clock, real time is the cost and the body
//    reports nothing); the runtime counts what the clock advanced during each iteration as its
//    busy time, the cost model treats the iterations as equal (speeds in iterations per second,
//    no modelled load), and there is no oracle bound (0).
struct loop_spec {
  std::int64_t iterations = 0;
  std::function<double(std::int64_t)> work;
  // Initial distribution of the iterations: BLOCK (equal blocks, the paper's chi_i(0) = I/P) or
  // CYCLIC (iteration i on slave i mod P).
  data_distribution initial = data_distribution::block;
};

// Bytes moved per iteration (the paper's D, summed over the moved arrays).
std::size_t bytes_per_iteration(const std::vector<DLB_array*>& arrays, std::int64_t iterations);

struct slave_stats {
  std::int64_t iterations_done = 0;
  std::int64_t iterations_sent = 0;
  std::int64_t iterations_received = 0;
  std::uint64_t bytes_sent = 0;      // array data shipped with moved iterations
  std::int64_t syncs = 0;            // synchronizations taken part in
  std::int64_t redistributions = 0;  // of those, the ones that moved work
  double busy = 0.0;                 // computing iterations
  double sync = 0.0;  // in the DLB calls: interrupts, profiles, decisions, instructions, moves
  double idle = 0.0;  // waiting with nothing to do: a requester told nothing comes, or awaiting
                      // work announced to it (the paper's "idle processor")
  // busy, sync and idle are each measured, interval by interval: the application's time between
  // DLB calls is busy (its loop body), a call's own time is sync but for what it computes or
  // waits idle; together they cover [start, finish], which the tests check.
  double start = 0.0;   // when its loop started (scatter received)
  double finish = 0.0;  // when it handed in its results
  double lag = 0.0;     // emulation lag, seconds
  int group = 0;
  // Its speed measured at its first synchronization (-1: it had none): the cost model's view of
  // this workstation's effective speed, in work per second (the unit of --balance-by: the loop's
  // costs in base seconds, or iterations).
  double first_speed = -1.0;
  // The work it did in that unit (iterations under --balance-by iterations or without costs).
  double work_done = 0.0;
};

// The cost model's predicted total time of each balancing strategy, and the best of them, under
// one assumption about the external load (core/load_estimate.hpp).
struct strategy_prediction {
  bool valid = false;
  core::strategy best = core::strategy::none;
  std::array<double, 4> total_time{};  // in core::balancing_strategies order
  core::model_load load = core::model_load::run;
  // The load parameters the model used: the run's (run) or the estimated ones (estimated).
  int max_load = 0;
  double persistence = 0.0;
};

// One choice of ADAPTIVE (a re-selection synchronization): when, what the model predicted from
// there to the loop's end under each balancing strategy, and the strategy it committed to.
struct adaptive_choice {
  double time = 0.0;  // seconds from the loop's start
  core::strategy strategy = core::strategy::none;
  std::array<double, 4> predicted{};  // in core::balancing_strategies order
};

// A slave lost during a loop (--on-loss recover): which, and when the master learned of it.
struct slave_loss {
  std::size_t slave = 0;  // 0-based
  double time = 0.0;      // seconds from the loop's start
};

struct run_stats {
  core::strategy strategy = core::strategy::none;
  int procs = 0;
  int group_size = 0;
  std::int64_t iterations = 0;
  std::vector<slave_stats> slaves;
  std::int64_t syncs = 0;            // synchronizations (summed over groups)
  std::int64_t redistributions = 0;  // synchronizations that moved work
  std::int64_t iterations_moved = 0;
  std::uint64_t bytes_moved = 0;
  double start_time = 0.0;  // master's clock at DLB_scatter_data
  double end_time = 0.0;    // master's clock when the last results were in
  double total_time() const { return end_time - start_time; }
  double lag = 0.0;  // worst emulation lag of any task, seconds
  // The oracle bound (core/oracle.hpp): seconds an ideal zero-overhead balancer would take for
  // this loop's work from its start, every slave busy throughout, under the run's load (0 under
  // the native clock, where the work function is not the iterations' real cost).
  double oracle_time = 0.0;
  // Self-scheduling: the chunk sizes the master handed out, in order (the scatter's first).
  std::vector<std::int64_t> chunks;
  // Customized mode: the strategy the run committed to at its first synchronization.
  core::strategy chosen = core::strategy::none;
  // ADAPTIVE: every re-selection, in order (chosen is the first one's strategy).
  std::vector<adaptive_choice> choices;
  // What the model predicts from the speeds observed up to the first synchronization (every
  // run that balances; in AUTO runs, the prediction it committed on), with the load that
  // --model-load names; other_prediction is the same with the other assumption (both are
  // computed on every balanced run).
  strategy_prediction prediction;
  strategy_prediction other_prediction;
  // The prediction made with the given assumption about the load (one of the two above).
  const strategy_prediction& prediction_with(core::model_load m) const {
    return prediction.load == m ? prediction : other_prediction;
  }
  // --on-loss recover: the slaves lost in this loop, the iterations the survivors computed
  // because nobody had handed them in (the lost slaves' unfinished work, and work in flight to
  // or from them), and the recovery's time: from the first reassignment to the loop's end.
  bool recover = false;  // the run survives a lost slave (--on-loss recover)
  std::vector<slave_loss> lost;
  std::int64_t recovered_iterations = 0;
  double recovery_time = 0.0;
  std::string summary() const;
};

// ADAPTIVE's choices as "GDDLB@0.512,LDDLB@3.204" (strategy@seconds from the loop's start);
// "-" if there were none.
std::string choice_sequence(const run_stats& st);

class context;
namespace protocol {  // dlb/runtime/protocol.hpp
struct sync_header;
struct member_profile;
struct decision;
struct instruction_msg;
}  // namespace protocol
namespace detail {
class central_balancer;                 // lib/runtime/central_balancer.cpp
void run_self_scheduler(context& DLB);  // lib/runtime/self_scheduling.cpp
// A slave's DLB call, for its time accounting (context::begin_call / end_call): ends the call
// when it goes out of scope, on every return path.
class call_scope {
 public:
  explicit call_scope(context& c);
  ~call_scope();
  call_scope(const call_scope&) = delete;
  call_scope& operator=(const call_scope&) = delete;

 private:
  context& c_;
};
}  // namespace detail
void DLB_init(context& DLB, int P, int K, const loop_spec& loop,
              std::initializer_list<DLB_array*> arrays);
void DLB_init(context& DLB, core::strategy s, int P, int K, const loop_spec& loop,
              std::vector<DLB_array*> arrays);
void DLB_scatter_data(context& DLB);
void DLB_master_sync(context& DLB);
bool DLB_slave_sync(context& DLB);
void DLB_send_interrupt(context& DLB);
void DLB_profile_send_move_work(context& DLB);
void DLB_gather_data(context& DLB);

// The paper's DLB structure: one per balanced loop. The strategy defaults to the run's.
class context {
 public:
  explicit context(runtime& rt);
  bool master() const { return rt_.master(); }
  bool more_work() const { return more_work_; }
  std::int64_t start() const { return remaining_.empty() ? 0 : remaining_.front().begin; }
  std::int64_t end() const { return remaining_.empty() ? 0 : remaining_.front().end; }
  bool interrupt() const { return interrupt_; }
  // Master, after DLB_gather_data.
  const run_stats& stats() const { return stats_; }
  // Slave: the iterations it executed.
  const core::range_list& done() const { return done_; }

 private:
  friend void DLB_init(context&, int, int, const loop_spec&, std::initializer_list<DLB_array*>);
  friend void DLB_init(context&, core::strategy, int, int, const loop_spec&,
                       std::vector<DLB_array*>);
  friend void DLB_scatter_data(context&);
  friend void DLB_master_sync(context&);
  friend bool DLB_slave_sync(context&);
  friend void DLB_send_interrupt(context&);
  friend void DLB_profile_send_move_work(context&);
  friend void DLB_gather_data(context&);
  friend class detail::central_balancer;
  friend void detail::run_self_scheduler(context&);

  // Both balancers (dlb.cpp): the decision on a group's profiles, by core::decide_balance.
  protocol::decision decide(const std::vector<protocol::member_profile>& profiles) const;
  // What an iteration costs in the balancer's unit (--balance-by): the loop's work function
  // under `work`, empty (every iteration one) under `iterations` or for a loop without one.
  core::iteration_cost work_cost() const;
  // The model's prediction for this loop, with the slaves' effective speeds in the balancer's
  // unit per second (work_cost).
  // With the run's --model-load, or with the given assumption about the load.
  strategy_prediction predict(const std::vector<double>& speeds) const;
  strategy_prediction predict(const std::vector<double>& speeds, core::model_load load) const;
  // What every prediction shares: the network, the program (w: each iteration's base seconds,
  // their mean, whether they are all equal), K and the groups; no start, machine or load.
  core::model_input model_base(std::vector<double>& w, double& mean, bool& uniform) const;
  // Customized mode, after the first synchronization (AUTO) or a re-selection (ADAPTIVE): take
  // up strategy c, in its group `group`; `members`: the members of that group that took part
  // (ADAPTIVE; AUTO: those active before).
  void adopt(core::strategy c, int group, const std::vector<bool>& active_before,
             const std::optional<std::vector<std::size_t>>& members);
  // ADAPTIVE (adaptive.cpp): after the committed strategy's synchronization, back to the
  // re-selection protocol (global, centralized, the master chooses again).
  bool adaptive() const { return strategy_ == core::strategy::adaptive; }
  void return_to_reselection();
  // ADAPTIVE, on the master: the model's predicted time from `now` to the loop's end under each
  // balancing strategy, each starting from starts[k] (every slave's work after this
  // synchronization's decision under that strategy); speeds and window: what the profiles
  // showed (for --model-load estimated and the native clock). Nothing if the model cannot run.
  std::optional<std::array<double, 4>> predict_remaining(
      const std::array<std::vector<core::range_list>, 4>& starts, double now,
      const std::vector<double>& speeds, double window) const;
  // Every slave's initial ranges (chi_i(0)), known to all tasks by the same formula.
  std::vector<core::range_list> initial_distribution() const;
  // How many iterations each slave starts with (what a slave needs of the start: O(P)).
  std::vector<std::int64_t> initial_counts() const;
  // The groups of group size K (K >= P: one group of all slaves), known to all tasks by the
  // same formula: K-block, or of equal total power under --groups power.
  std::vector<std::vector<std::size_t>> groups_for(int K) const;

  // Self-scheduling (self_scheduling.cpp; beyond the paper): a master-worker loop in which the
  // master hands out chunks by the run's chunk rule (core::chunk_dispenser) to workers that ask.
  bool self_scheduled() const { return strategy_ == core::strategy::self_scheduling; }
  // Master, at the scatter: the dispenser, and each slave's first chunk (chunks 0..P-1).
  std::vector<core::range_list> first_chunks();
  // Worker, its chunk done: REQUEST the next, and take the CHUNK that answers (none: done).
  void request_chunk();
  std::optional<core::chunk_dispenser> dispenser_;
  std::int64_t next_chunk_begin_ = 0;  // master: where the next chunk starts
  std::vector<std::int64_t> chunks_;   // master: the chunk sizes handed out, in order
  std::uint64_t chunk_bytes_ = 0;      // master: input slices shipped with chunks on request

  // The slave's synchronizations (slave_sync.cpp).
  protocol::sync_header current_sync() const;
  bool others_active() const;
  std::vector<int> active_other_ranks() const;
  bool poll_interrupt();
  void send_interrupts();
  // One synchronization of this slave's group, under the protocol in force (proto_).
  void run_sync();
  // This slave's profile now (and its speed remembered for the next one).
  protocol::member_profile measure(double now);
  // A centralized protocol: the master's DECISION (and customized mode's commitment).
  protocol::decision await_decision(const std::string& where);
  // A distributed protocol (distributed_balancer.cpp): the other active members' profiles, and
  // the decision every member computes from the same profiles.
  protocol::decision decide_in_group(const protocol::member_profile& mine,
                                     const std::string& where);
  // Ship and receive the work the decision of synchronization `at` moves; update who is
  // active.
  void apply(const protocol::decision& d, const protocol::sync_header& at);
  // --on-loss recover (slave_sync.cpp). A wait of a synchronization that also ends on the
  // master's LOST: then the synchronization is abandoned (sync_abandoned) and balancing in this
  // loop ends for this slave.
  delivered wait_in_sync(const messenger::match& m, const std::string& what);
  void take_lost(const delivered& d);
  // This slave has nothing left: under abort, it leaves the loop; under recover, it hands in at
  // its next DLB_send_interrupt.
  void out_of_work();
  // Hands in the results not handed in yet, then waits for the master: more iterations (nobody
  // handed them in) or the loop's end.
  void hand_in();
  // The statistics as they stand now, inside a DLB call (its own time so far is sync).
  slave_stats stats_now();
  // The centralized strategies as the paper has them (slave_sync.cpp): after its profile a
  // member with work goes on computing; the master instructs the senders only, receivers learn
  // from the data, a requester that gets nothing is told so and goes idle. Which protocols do is
  // the `told` column of proto_ (resolve_protocol: not the master's own synchronization, whose
  // commitment every slave must learn, nor the variants under which every member must learn the
  // outcome).
  bool central_async() const { return proto_.told == decision_audience::tell_senders; }
  // Between iterations and while waiting: the master's instructions (ship) and incoming work.
  void take_instructions_and_work();
  void ship(const protocol::instruction_msg& m);
  // Removes the last n iterations of the remaining work (fewer if it holds fewer) and returns
  // them in work order; the current range keeps its begin.
  core::range_list take_from_end(std::int64_t n);
  void receive_work(const delivered& d);
  // A requester (no work left) after its profile: until its work has come or it is told none
  // comes.
  void await_outcome(int epoch, const std::string& where);

  runtime& rt_;
  messenger& net_;
  int loop_id_ = 0;
  core::strategy strategy_;
  // The protocol in force (dlb/runtime/strategy_table.hpp), the one place the synchronization
  // routines read who talks to whom: the strategy's row resolved under the options (popts_), or
  // the master's own synchronization (customized mode until its commitment, ADAPTIVE's
  // re-selections, a loop's first synchronization under --first-sync master-*). Resolved at
  // DLB_init and again at a commitment, never re-read from the strategy.
  sync_protocol proto_;
  protocol_options popts_;
  int local_group_size_ = 0;  // K for local strategies (customized mode may choose one)
  std::vector<std::vector<std::size_t>> groups_;  // the groups in force (groups_for)
  int procs_ = 0;
  int group_size_ = 0;
  loop_spec loop_;
  std::vector<DLB_array*> arrays_;
  core::balance_params balance_;
  bool initialized_ = false;

  // Slave state.
  std::size_t me_ = 0;  // 0-based slave index
  int group_ = 0;
  std::vector<std::size_t> members_;
  std::vector<bool> active_;  // per member position
  // ADAPTIVE: per slave, active as far as this slave knows (exact for its own group's members;
  // others may have finished since: an interrupt to them is ignored).
  std::vector<bool> known_active_;
  bool closed_ = false;              // balancing in this group has ended (a decision not to move)
  std::int64_t works_received_ = 0;  // WORK messages received in this loop
  std::map<int, int> work_got_, work_due_;  // per epoch: WORK received, and announced
  std::set<int> moved_epochs_;  // synchronizations in which this slave shipped or got work
  int epoch_ = 0;               // synchronizations completed in this group
  core::range_list remaining_;  // element 0 is the range being worked through
  core::range_list done_;
  std::int64_t done_since_sync_ = 0;
  double work_since_sync_ = 0.0;  // in the balancer's unit (work_cost)
  double sync_start_ = 0.0;
  // Time accounting of a slave (slave_stats: busy, sync, idle). body_from_: when the
  // application's code last got control back from a DLB call (its time since then is busy:
  // without a work function, an iteration's cost is the clock's advance from here to
  // DLB_slave_sync). call_from_, call_busy_, call_idle_: the current call's start and what it
  // had charged to busy and idle when it started.
  friend class detail::call_scope;
  void begin_call();
  void end_call();
  double body_from_ = 0.0;
  double call_from_ = 0.0;
  double call_busy_ = 0.0;
  double call_idle_ = 0.0;
  double last_speed_ = 0.0;
  bool more_work_ = false;
  bool interrupt_ = false;
  bool sync_pending_ = false;
  bool finishing_ = false;     // recover: nothing left; hand in at the next DLB_send_interrupt
  bool handed_in_ = false;     // recover: has handed in once; takes no more WORK in this loop
  core::range_list unhanded_;  // recover: iterations done and not handed in yet
  slave_stats st_;

  // Master state.
  std::vector<delivered> gathered_;
  // --on-loss recover: what each slave handed in (its results are unpacked on arrival), its
  // latest statistics, and whether a loss at the scatter closed this loop's balancing.
  std::vector<core::range_list> handed_in_ranges_;
  std::vector<slave_stats> handed_in_stats_;
  bool closed_at_scatter_ = false;
  double recovery_from_ = -1.0;  // when the first reassignment went out (-1: none)
  // Handles a slave's exit notice on the master: marks it lost, records the loss and tells the
  // survivors (LOST). Returns false if it was known already.
  bool note_loss(int rank);
  // The centralized balancer's count per group (synchronizations, those that moved work), exact
  // where the slaves do not all see every decision.
  std::map<int, std::pair<std::int64_t, std::int64_t>> master_tally_;
  run_stats stats_;
};

// One array handed to parallel_for: the paper's DLB_array, or a typed dlb::array<T>
// (dlb/array.hpp) by its description. Both convert implicitly, so `{&X, &Y}` takes either kind.
class array_ref {
 public:
  array_ref(DLB_array* a) : a_(a) {}  // NOLINT(google-explicit-constructor): {&X, &Y}
  template <class A, class = decltype(std::declval<A&>().description())>
  array_ref(A* a) : a_(&a->description()) {}  // NOLINT(google-explicit-constructor)
  DLB_array* get() const { return a_; }

 private:
  DLB_array* a_;
};

// Figure 1.4 as one call: runs `body(i)` for every iteration on the slaves under the run's
// strategy, with data scattered, moved and gathered; returns the statistics on the master
// (empty on slaves).
run_stats parallel_for(runtime& rt, const loop_spec& loop, const std::vector<array_ref>& arrays,
                       const std::function<void(std::int64_t)>& body);

}  // namespace dlb
