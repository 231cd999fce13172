// loop_session.hpp (internal): one balanced loop's state, made at DLB_init and gone at
// DLB_gather_data, and the routines of the DLB calls that work on it. A dlb::context holds the
// session of its loop in progress (the master's or a slave's) and, after DLB_gather_data, only
// the loop's outcome (the master's run_stats, a slave's executed iterations).
//
//  - the run-wide part is not here: the runtime (rank, params, lost slaves, transport, clock)
//    and its messenger, which a session only refers to;
//  - loop_session: the loop as DLB_init resolved it, on every task: the policy, the protocol in
//    force, the groups, the arrays, and what both balancers share (the decision);
//  - slave_session: a slave's work, its synchronizations, its time accounting and its part of
//    --on-loss recover (slave_sync.cpp, distributed_balancer.cpp, adaptive.cpp);
//  - master_session: what the master gathers and counts and its self-scheduling state
//    (master_state.hpp, behind their methods), its balancer's model, its part of --on-loss
//    recover (central_balancer.cpp, self_scheduling.cpp, auto_all.cpp, dlb.cpp), and the runner
//    of the loop's policy (policy_runner.hpp), which DLB_master_sync runs.
// A new loop gets new sessions: nothing is reset by hand.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "chooser.hpp"
#include "dlb/core/auto_all.hpp"
#include "dlb/core/chunks.hpp"
#include "dlb/core/cost_model.hpp"
#include "dlb/core/distribution.hpp"
#include "dlb/core/policy.hpp"
#include "dlb/core/poll_pacing.hpp"
#include "dlb/core/redistribution.hpp"
#include "dlb/core/self_scheduling_model.hpp"
#include "dlb/core/strategy.hpp"
#include "dlb/dlb.hpp"
#include "dlb/runtime/messenger.hpp"
#include "dlb/runtime/protocol.hpp"
#include "dlb/runtime/state_trace.hpp"
#include "dlb/runtime/strategy_table.hpp"
#include "master_state.hpp"
#include "policy_runner.hpp"
#include "recovery.hpp"
#include "slave_state.hpp"

namespace dlb::detail {

// What a message costs in the models (core::message_cost), from the run's network as the
// messenger charges it (auto_all.cpp): the emulated or simulated network; under the native clock
// the cost model's L and B (`model`); nothing on the ideal network.
core::message_costs message_costs_of(const run_params& prm, const core::network_profile& model);

// One balanced loop as DLB_init resolved it, on every task.
class loop_session {
 public:
  // DLB_init: the loop's id, its policy's protocol of the first synchronization, its groups
  // and its balancing parameters, from the run's parameters (arguments checked by DLB_init).
  loop_session(runtime& rt, const core::policy& p, int P, int K, const loop_spec& loop,
               std::vector<DLB_array*> arrays);
  loop_session(const loop_session&) = delete;
  loop_session& operator=(const loop_session&) = delete;

  bool master() const { return rt_.master(); }

  // Both balancers (dlb.cpp): the decision on a group's profiles, by core::decide_balance.
  protocol::decision decide(const std::vector<protocol::member_profile>& profiles) const;
  // What an iteration costs in the balancer's unit (--balance-by): the loop's work function
  // under `work`, empty (every iteration one) under `iterations` or for a loop without one.
  core::iteration_cost work_cost() const;
  // Every slave's initial ranges (chi_i(0)), known to all tasks by the same formula.
  std::vector<core::range_list> initial_distribution() const;
  // How many iterations each slave starts with (what a slave needs of the start: O(P)).
  std::vector<std::int64_t> initial_counts() const;
  // The groups of group size K (K >= P: one group of all slaves), known to all tasks by the
  // same formula: K-block, or of equal total power under --groups power.
  std::vector<std::vector<std::size_t>> groups_for(int K) const;

  // The policy in force: the loop's at DLB_init, then what a commitment names (a balancing
  // row, a chunk rule, or ADAPTIVE when ADAPTIVE is in force, whichever row it committed to),
  // changed by set_in_force only (a slave taking up a commitment, the master switching to
  // ADAPTIVE). What the task runs follows from it, kept nowhere else.
  const core::policy& in_force() const { return in_force_; }
  void set_in_force(core::policy p) { in_force_ = std::move(p); }
  // ADAPTIVE is in force (adaptive.cpp): after the committed strategy's synchronization, back
  // to the re-selection protocol (global, centralized, the master chooses again).
  bool adaptive() const { return in_force_.is(core::customized_mode::adaptive); }
  // The run's protocol options (protocol_options_of), which resolve a strategy's row into the
  // protocol in force, with whether ADAPTIVE is in force (adaptive()).
  protocol_options protocol_opts() const {
    protocol_options o = popts_;
    o.adaptive = adaptive();
    return o;
  }

  // The protocol in force (strategy_table.hpp), the one place the synchronization routines read
  // who talks to whom: the strategy's row resolved under the options (popts_), or the master's
  // own synchronization (customized mode until its commitment, ADAPTIVE's re-selections, a
  // loop's first synchronization under --first-sync master-*). The groups in force and their
  // size follow from it.
  const sync_protocol& proto() const { return proto_; }
  int group_size() const { return group_size_; }
  const std::vector<std::vector<std::size_t>>& groups() const { return groups_; }
  // The one place the protocol in force changes (DLB_init, a commitment, ADAPTIVE's return to
  // re-selection): its group size (group_size_under) and its groups, groups_for that size or
  // `groups` when the caller has made them already (of that size).
  void enter(const sync_protocol& p);
  void enter(const sync_protocol& p, std::vector<std::vector<std::size_t>> groups);

  // What DLB_init resolved, fixed for the loop (const: nothing changes them after DLB_init).
  // The run-wide part, referred to: the runtime (rank, params, lost slaves) and its messenger.
  runtime& rt_;
  messenger& net_;
  // --trace-dir, on a slave: its intervals, recorded where slave_stats' busy, sync and idle are
  // accumulated (null: not traced).
  state_trace* const states_ = nullptr;
  const int loop_id_ = 0;
  // The loop's policy as DLB_init was given it (the master's runner is made from it; a slave
  // runs it until a commitment names the next).
  const core::policy policy_;
  const int local_group_size_ = 0;  // K for local strategies (customized mode may choose one)
  const int procs_ = 0;
  const loop_spec loop_;
  const std::vector<DLB_array*> arrays_;
  core::balance_params balance_;  // set by the constructor from the run's parameters

 private:
  const protocol_options popts_;  // the run's; protocol_opts() adds adaptive()
  core::policy in_force_;          // in_force(): changed by set_in_force() only
  // proto(), group_size(), groups(): changed by enter() only.
  sync_protocol proto_;
  int group_size_ = 0;
  std::vector<std::vector<std::size_t>> groups_;
};

// A slave's side of the loop (slave_sync.cpp, distributed_balancer.cpp, adaptive.cpp,
// self_scheduling.cpp).
class slave_session : public loop_session {
 public:
  slave_session(runtime& rt, const core::policy& p, int P, int K, const loop_spec& loop,
                std::vector<DLB_array*> arrays);

  // A worker of a chunk rule (self_scheduling.cpp; beyond the paper): the policy in force is
  // one (the loop's, or customized mode's commitment). It asks the master for its next chunk.
  bool self_scheduled() const { return in_force().is_self_scheduled(); }

  // DLB_slave_sync: the application's current iteration is done; whether it is interrupted.
  bool iteration_done();
  // DLB_send_interrupt: out of local work, it asks for a synchronization (or its next chunk).
  void ask_for_work();
  // DLB_profile_send_move_work: the synchronization it was asked to, if any.
  void take_part();

  // DLB_scatter_data: this slave's first share, and who starts with work.
  void receive_scatter();
  // DLB_gather_data: its statistics and its output slices to the master.
  void send_gathered();

  // Customized mode, after the first synchronization (AUTO) or a re-selection (ADAPTIVE): take
  // up strategy c, in its group `group`; `members`: the members of that group that took part
  // (ADAPTIVE; AUTO: those active before).
  void adopt(core::scheme c, int group, const std::vector<bool>& active_before,
             const std::optional<std::vector<std::size_t>>& members);
  void return_to_reselection();
  // Into group `group` of the groups in force, with who of all slaves was active
  // (was_active[s], for every slave s): the slave's members and their activity follow.
  void join_group(int group, const std::vector<bool>& was_active);
  // Worker, its chunk done: REQUEST the next (unless --prefetch sent it already), and take the
  // CHUNK that answers (none: done).
  void request_chunk();
  void send_request();
  // Its next chunk is held (none: the loop is all handed out): whether it has more work.
  void chunk_taken();
  // --prefetch: after an iteration, the request for the next chunk if the fraction is reached.
  void prefetch_if_due();
  // Told AUTO-ALL committed to a self-scheduling rule (in force already): drops what it has not
  // started and continues as a worker.
  void become_worker();

  // The slave's synchronizations (slave_sync.cpp).
  protocol::sync_header current_sync() const;
  bool poll_interrupt();
  // Whether this slave may poll by count between iterations (poll_pacer).
  bool paced_polls() const;
  void send_interrupts();
  // One synchronization of this slave's group, under the protocol in force (proto()).
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
  // A sender's part of it: the end of its remaining work shipped where the decision says.
  void ship_decided(const protocol::decision& d, const protocol::sync_header& at);
  // This slave has nothing left: under abort, it leaves the loop; under recover, it hands in at
  // its next DLB_send_interrupt.
  void out_of_work();
  // The statistics as they stand now, inside a DLB call (its own time so far is sync).
  slave_stats stats_now();
  // The centralized strategies as the paper has them (slave_sync.cpp): after its profile a
  // member with work goes on computing; the master instructs the senders only, receivers learn
  // from the data, a requester that gets nothing is told so and goes idle. Which protocols do is
  // the `told` column of proto() (resolve_protocol: not the master's own synchronization, whose
  // commitment every slave must learn, nor the variants under which every member must learn the
  // outcome).
  bool central_async() const { return proto().told == decision_audience::tell_senders; }
  // Between iterations and while waiting: the master's instructions (ship) and incoming work.
  void take_instructions_and_work();
  void ship(const protocol::instruction_msg& m);
  void receive_work(const delivered& d);
  // A requester (no work left) after its profile: until its work has come or it is told none
  // comes.
  void await_outcome(int epoch, const std::string& where);

  // Time accounting of a slave's DLB calls (call_scope).
  void begin_call();
  void end_call();
  // Records [start, end] as `what` inside the current DLB call (nothing when not traced).
  void trace_in_call(double start, double end, slave_activity what) {
    if (states_) states_->in_call(start, end, what, loop_id_, slave_.stats().iterations_done);
  }

  slave_state slave_;
  slave_recovery recovery_;  // --on-loss recover's hooks

 private:
  // --prefetch: the request for the next chunk is sent; the current chunk's iterations.
  bool requested_ = false;
  std::int64_t chunk_size_ = 0;
  // The application's time since its last DLB call is busy (and traced with the loop's load).
  void finish_loop();
};

// The master's side of the loop (central_balancer.cpp, customized_runner.cpp,
// self_scheduling.cpp, auto_all.cpp).
class master_session : public loop_session {
 public:
  master_session(runtime& rt, const core::policy& p, int P, int K, const loop_spec& loop,
                 std::vector<DLB_array*> arrays);

  // The runner of the loop's policy (policy_runner.hpp), made with the session.
  policy_runner& runner() { return *runner_; }

  // DLB_scatter_data: the loop's statistics begin, each slave's first share goes out.
  void scatter();
  // DLB_gather_data: every slave's results and statistics into the arrays and the run's
  // statistics.
  void gather();

  // The model's prediction for this loop, with the slaves' effective speeds in the balancer's
  // unit per second (work_cost).
  // With the run's --model-load, or with the given assumption about the load.
  strategy_prediction predict(const std::vector<double>& speeds) const;
  strategy_prediction predict(const std::vector<double>& speeds, core::model_load load) const;
  // What every prediction shares: the network, the program (w: each iteration's base seconds,
  // their mean, whether they are all equal), K and the groups; no start, machine or load.
  core::model_input model_base(std::vector<double>& w, double& mean, bool& uniform) const;
  // ADAPTIVE: the model's predicted time from `now` to the loop's end under each balancing
  // strategy, each starting from starts[k] (every slave's work after this synchronization's
  // decision under that strategy); speeds and window: what the profiles showed (for
  // --model-load estimated and the native clock). Nothing if the model cannot run.
  std::optional<std::array<double, core::kBalancingStrategies>> predict_remaining(
      const std::array<std::vector<core::range_list>, core::kBalancingStrategies>& starts,
      double now, const std::vector<double>& speeds, double window) const;

  // The dispenser of policy p's rule over `pool` (AWF: with those weights), from now
  // (self_scheduling_state::start, with chunk_params_for).
  void start_pool(const core::policy& p, core::range_list pool, std::vector<double> weights);
  // A chunk rule from the loop's start: its pool [0, I) and each slave's first chunk (chunks
  // 0..P-1 of the rule, in slave order), which go with the scatter.
  std::vector<core::range_list> first_chunks(const core::policy& p);
  // The rule's parameters for `iterations` (self_scheduling.cpp): WF's weights the run's
  // speeds, FSC's overhead and sigma from the network and the iterations' costs known at
  // DLB_init.
  core::chunk_params chunk_params_for(const core::policy& p, std::int64_t iterations) const;

  // AUTO-ALL (auto_all.cpp; beyond the paper), at the first synchronization: every candidate's
  // predicted time of the loop and the pick (the fastest, or --auto-force's), recorded in the
  // run's statistics.
  auto_all_pick choose_policy(std::span<const core::policy> candidates, const core::policy* forced,
                              const std::vector<protocol::member_profile>& profiles,
                              const std::vector<double>& speeds, double now);
  // AUTO-ALL before the scatter (auto_all.cpp): the chunk rule to run from the loop's start, if
  // the models predict it faster than every way to begin with the paper's blocks
  // (core::choose_before_scatter); nothing: the blocks, and the choice at the first
  // synchronization. Made only where the model knows the machine before measuring it (the
  // emulated clock, a loop with iteration costs, --model-load run, no --auto-force).
  std::optional<core::policy> choose_before_scatter(std::span<const core::policy> candidates,
                                                    const core::policy* forced);
  // The model's input from the first synchronization on, as predict has it (nothing if the
  // model cannot run).
  std::optional<core::model_input> model_for_choice(const strategy_prediction& four,
                                                    const std::vector<double>& speeds) const;
  // A self-scheduling rule's predicted time of the loop: `elapsed` so far, the commitment's
  // message, and core::predict_self_scheduling over the pool.
  double predict_self_scheduled(const core::policy& p, const core::model_input& in,
                                const core::range_list& pool, const std::vector<double>& speeds,
                                double elapsed) const;

  // Handles a slave's exit notice: marks it lost, records the loss and tells the survivors
  // (LOST). Returns false if it was known already.
  bool note_loss(int rank);

  master_state master_;
  self_scheduling_state self_sched_;
  master_recovery recovery_;  // --on-loss recover's hooks

 private:
  std::unique_ptr<policy_runner> runner_;
  // What scatter() tells AUTO-ALL's slaves: the rule choose_before_scatter committed to, if any.
  std::optional<core::policy> scatter_commit_;
  // The oracle bound, the communication-aware bound and the predictions after the fact (gather;
  // model_predictions.cpp).
  double oracle_time(double start) const;
  double comm_bound_time(double start) const;
  void predict_after_the_fact(run_stats& st) const;
  // choose_before_scatter's candidates: each way to begin with the blocks, each rule from the
  // start (both empty if the model cannot run).
  void scatter_candidates(std::span<const core::policy> candidates,
                          std::vector<core::candidate_time>& blocks,
                          std::vector<core::candidate_time>& chunks) const;
};

// A slave's DLB call, for its time accounting (begin_call / end_call): ends the call when it
// goes out of scope, on every return path.
class call_scope {
 public:
  explicit call_scope(slave_session& c);
  ~call_scope();
  call_scope(const call_scope&) = delete;
  call_scope& operator=(const call_scope&) = delete;

 private:
  slave_session& c_;
};

// What the DLB calls reach of a context: the runtime, the session of the loop in progress, the
// last loop's outcome.
struct context_access {
  static runtime& rt(context& c) { return c.rt_; }
  static std::unique_ptr<slave_session>& slave(context& c) { return c.slave_; }
  static std::unique_ptr<master_session>& master(context& c) { return c.master_; }
  static run_stats& stats(context& c) { return c.stats_; }
  static core::range_list& done(context& c) { return c.done_; }
};

// usage_error: `call` made on a task of the other role, or outside a loop.
[[noreturn]] void no_session(const char* call, bool master_call, bool on_master);

// The session of the context's loop in progress; usage_error naming `call` if there is none
// (before DLB_init, after DLB_gather_data) or the task has the other role.
inline slave_session& slave_of(context& DLB, const char* call) {
  auto& s = context_access::slave(DLB);
  if (!s) [[unlikely]]
    no_session(call, false, context_access::rt(DLB).master());
  return *s;
}
inline master_session& master_of(context& DLB, const char* call) {
  auto& m = context_access::master(DLB);
  if (!m) [[unlikely]]
    no_session(call, true, context_access::rt(DLB).master());
  return *m;
}

}  // namespace dlb::detail
