// dlb.cpp: the DLB calls around the balanced loop: DLB_init, DLB_scatter_data, DLB_gather_data
// and parallel_for, and what both balancers share: the decision (core::decide_balance), the cost
// model's prediction, and customized mode's switch to the chosen strategy.
//
// The rest of the runtime, by the paper's concepts:
//  - protocol.cpp: every message's byte format (dlb/runtime/protocol.hpp);
//  - arrays.cpp: the DLB_arrays' slices, scattered, moved and gathered;
//  - slave_sync.cpp: DLB_slave_sync, DLB_send_interrupt, DLB_profile_send_move_work: one
//    synchronization as a slave sees it, driven by the strategy's row of strategy_table;
//  - central_balancer.cpp: DLB_master_sync (the loop's policy runner, policy_runner.hpp), the
//    master's balancer (GCDLB, LCDLB, and the master's own synchronizations);
//  - customized_runner.cpp: AUTO, ADAPTIVE and AUTO-ALL: choosing, committing, re-selecting;
//  - distributed_balancer.cpp: the profile exchange and identical decision on every member
//    (GDDLB, LDDLB).
#include "dlb/dlb.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "arrays.hpp"
#include "dlb/core/bitonic.hpp"
#include "dlb/core/groups.hpp"
#include "dlb/core/heterogeneous.hpp"
#include "dlb/core/profile.hpp"
#include "dlb/runtime/protocol.hpp"
#include "dlb/runtime/runtime_internals.hpp"
#include "dlb/runtime/strategy_table.hpp"
#include "loop_session.hpp"

namespace dlb {

namespace detail {

void no_session(const char* call, bool master_call, bool on_master) {
  if (master_call != on_master)
    throw usage_error(std::string(call) + " is a " + (master_call ? "master's" : "slave's") +
                      " call, made on " + (on_master ? "the master" : "a slave"));
  throw usage_error(std::string(call) + " before DLB_init (or after DLB_gather_data)");
}

}  // namespace detail

context::context(runtime& rt) : rt_(rt) {}
context::~context() = default;
bool context::master() const { return rt_.master(); }
bool context::more_work() const { return slave_ && slave_->slave_.more_work(); }
std::int64_t context::start() const { return slave_ ? slave_->slave_.work().current().begin : 0; }
std::int64_t context::end() const { return slave_ ? slave_->slave_.work().current().end : 0; }
bool context::interrupt() const { return slave_ && slave_->slave_.interrupt(); }
const run_stats& context::stats() const { return master_ ? master_->master_.stats() : stats_; }
const core::range_list& context::done() const {
  return slave_ ? slave_->slave_.work().done() : done_;
}

void DLB_init(context& DLB, int P, int K, const loop_spec& loop,
              std::initializer_list<DLB_array*> arrays) {
  DLB_init(DLB, detail::context_access::rt(DLB).params().policy, P, K, loop,
           std::vector<DLB_array*>(arrays));
}

namespace {

// DLB_init's arguments against the run (P) and the loop (every array's slices); usage_error.
void check_init(int slaves, int P, int K, const loop_spec& loop,
                const std::vector<DLB_array*>& arrays) {
  if (P != slaves) {
    throw usage_error("DLB_init: P = " + std::to_string(P) + " but the run has " +
                      std::to_string(slaves) + " slaves");
  }
  if (K < 1 || K > P)
    throw usage_error("DLB_init: K must be in 1.." + std::to_string(P) + ", got " +
                      std::to_string(K));
  if (loop.iterations < 0) throw usage_error("DLB_init: the loop needs iterations >= 0");
  for (const DLB_array* a : arrays) {
    if (!a || !a->data || a->rows < 0 || a->cols < 0)
      throw usage_error("DLB_init: array without data or with negative size");
    if (a->distribution == data_distribution::whole && !a->output) continue;
    const std::int64_t need = a->map == iteration_map::bitonic
                                  ? core::bitonic_iterations(a->slice_count())
                                  : a->slice_count();
    if (need != loop.iterations) {
      throw usage_error("DLB_init: array " + a->name + " has " + std::to_string(a->slice_count()) +
                        " slices for a loop of " + std::to_string(loop.iterations) + " iterations");
    }
  }
}

// The loop as the arrays distribute it: a CYCLIC array makes the loop cyclic.
loop_spec resolve_loop(const loop_spec& loop, const std::vector<DLB_array*>& arrays) {
  // The arrays' distribution is the iterations' (the paper: arrays are "initially partitioned
  // equally based on the data distribution specification"): a CYCLIC array makes the loop cyclic.
  loop_spec resolved = loop;
  bool block = false, cyclic = false;
  for (const DLB_array* a : arrays) {
    block = block || a->distribution == data_distribution::block;
    cyclic = cyclic || a->distribution == data_distribution::cyclic;
  }
  if (block && cyclic) throw usage_error("DLB_init: BLOCK and CYCLIC arrays in one loop");
  if (cyclic) resolved.initial = data_distribution::cyclic;
  return resolved;
}

}  // namespace

void DLB_init(context& ctx, const core::policy& p, int P, int K, const loop_spec& loop,
              std::vector<DLB_array*> arrays) {
  runtime& rt = detail::context_access::rt(ctx);
  check_init(rt.slaves(), P, K, loop, arrays);
  const loop_spec resolved = resolve_loop(loop, arrays);
  // A new loop: the last one's sessions are gone (DLB_gather_data), or dropped unfinished here.
  detail::context_access::slave(ctx).reset();
  detail::context_access::master(ctx).reset();
  if (rt.master()) {
    detail::context_access::master(ctx) =
        std::make_unique<detail::master_session>(rt, p, P, K, resolved, std::move(arrays));
  } else {
    detail::context_access::slave(ctx) =
        std::make_unique<detail::slave_session>(rt, p, P, K, resolved, std::move(arrays));
  }
}

detail::loop_session::loop_session(runtime& rt, const core::policy& p, int P, int K,
                                   const loop_spec& loop, std::vector<DLB_array*> arrays)
    : rt_(rt),
      net_(detail::net(rt)),
      states_(rt.states()),
      loop_id_(rt.next_loop_id()),
      policy_(p),
      local_group_size_(K),
      procs_(P),
      loop_(loop),
      arrays_(std::move(arrays)),
      // The protocol of the first synchronization (strategy_table.hpp, first_protocol):
      // customized mode runs it as the master's own, global and centralized: the master sees
      // every profile, runs the model and commits (section 1.3.3); ADAPTIVE does so at every
      // re-selection (customized_runner.cpp).
      popts_(protocol_options_of(rt.params())),
      in_force_(p) {
  enter(first_protocol(p, popts_).value_or(sync_protocol{}));
  const auto& prm = rt_.params();
  balance_.threshold_iterations =
      prm.threshold >= 0
          ? prm.threshold
          // floor(I x pct / 100): for the default 1%, I / 100 as before.
          : std::max<std::int64_t>(
                1, static_cast<std::int64_t>(std::floor(static_cast<double>(loop.iterations) *
                                                        prm.threshold_pct / 100.0)));
  balance_.min_improvement = prm.min_improvement;
  balance_.no_move = prm.after_no_move;
  balance_.unit = prm.balance_unit;
}

void detail::loop_session::enter(const sync_protocol& p) {
  proto_ = p;
  group_size_ = group_size_under(p, local_group_size_, procs_);
  groups_ = groups_for(group_size_);
}

void detail::loop_session::enter(const sync_protocol& p,
                                 std::vector<std::vector<std::size_t>> groups) {
  proto_ = p;
  group_size_ = group_size_under(p, local_group_size_, procs_);
  groups_ = std::move(groups);
}

detail::master_session::master_session(runtime& rt, const core::policy& p, int P, int K,
                                       const loop_spec& loop, std::vector<DLB_array*> arrays)
    : loop_session(rt, p, P, K, loop, std::move(arrays)),
      recovery_(rt.params().recover, P),
      runner_(make_runner(policy_, *this)) {}

namespace {

// Slave `rank` in its group of the groups in force at DLB_init.
detail::slave_state in_first_group(int rank, const std::vector<std::vector<std::size_t>>& groups) {
  const auto me = static_cast<std::size_t>(rank - 1);
  const int g = core::group_containing(groups, me);
  return detail::slave_state(me, g, groups[static_cast<std::size_t>(g)]);
}

}  // namespace

detail::slave_session::slave_session(runtime& rt, const core::policy& p, int P, int K,
                                     const loop_spec& loop, std::vector<DLB_array*> arrays)
    : loop_session(rt, p, P, K, loop, std::move(arrays)),
      slave_(in_first_group(rt.rank(), groups())),
      recovery_(rt.params().recover) {
  // NONE has no protocol: no synchronization, ever.
  slave_.set_closed(!first_protocol(p, protocol_opts()));
}

std::vector<std::vector<std::size_t>> detail::loop_session::groups_for(int K) const {
  const auto P = static_cast<std::size_t>(procs_), k = static_cast<std::size_t>(K);
  const auto& prm = rt_.params();
  if (prm.power_groups && k < P && prm.speeds.size() == P) return core::power_groups(prm.speeds, k);
  std::vector<std::vector<std::size_t>> g(core::group_count(P, k));
  for (std::size_t i = 0; i < g.size(); ++i) g[i] = core::group_members(i, P, k);
  return g;
}

std::vector<std::int64_t> detail::loop_session::initial_counts() const {
  const auto P = static_cast<std::size_t>(procs_);
  if (loop_.initial == data_distribution::cyclic) {
    std::vector<std::int64_t> c(P, loop_.iterations / procs_);
    for (std::int64_t s = 0; s < loop_.iterations % procs_; ++s) ++c[static_cast<std::size_t>(s)];
    return c;
  }
  // Blocks of equal work where the balancer splits work (equal blocks for a uniform loop), or in
  // proportion to the workstations' speeds under --initial speed (lambda_i(0) proportional to
  // S_i).
  const auto& prm = rt_.params();
  const std::vector<double> weights =
      prm.initial_by_speed && prm.speeds.size() == P ? prm.speeds : std::vector<double>(P, 1.0);
  return core::proportional_work_counts(loop_.iterations, weights, work_cost());
}

std::vector<core::range_list> detail::loop_session::initial_distribution() const {
  if (loop_.initial == data_distribution::cyclic) {
    std::vector<core::range_list> d(static_cast<std::size_t>(procs_));
    for (std::int64_t i = 0; i < loop_.iterations; ++i)
      d[static_cast<std::size_t>(i % procs_)].push_back({i, i + 1});
    return d;
  }
  return core::blocks_of(initial_counts());
}

void detail::master_session::scatter() {
  // The strategy's group size (the first synchronization may be the master's, global).
  const auto row = policy_.row();
  const int size = row                       ? group_size_under(*row, local_group_size_, procs_)
                   : policy_.is_customized() ? group_size()
                                             : procs_;
  // The loop's start: the master's set-up before it is neither emulated time nor lag.
  const std::int64_t epoch = net_.begin_loop();
  master_.begin(policy_, procs_, size, loop_.iterations, rt_.params().recover, net_.clock().now());
  recovery_.at_scatter(*this);
  const auto first = runner_->first_shares(*this);
  // AUTO-ALL's scatter says whether it committed before it (core::choose_before_scatter).
  const bool auto_all = policy_.is(core::customized_mode::auto_all);
  for (int r = 1; r <= procs_; ++r) {
    if (rt_.lost(r)) continue;  // its share is missing at the end: recovered
    const auto& ranges = first[static_cast<std::size_t>(r - 1)];
    writer slices;
    detail::pack_inputs(slices, arrays_, ranges);
    net_.send(r, tag::scatter,
              protocol::encode(protocol::scatter_msg{loop_id_, epoch, ranges, slices.data(),
                                                     auto_all, scatter_commit_}));
  }
}

void detail::slave_session::receive_scatter() {
  auto d = net_.wait(protocol::in_loop(tag::scatter, loop_id_),
                     "the scatter of loop " + std::to_string(loop_id_) + " from the master");
  reader r = d.body();
  auto m = protocol::decode_scatter(r, policy_.is(core::customized_mode::auto_all));
  net_.join_loop(m.epoch);
  slave_.work().hold(std::move(m.ranges));
  // AUTO-ALL committed to a chunk rule before the scatter: this slave starts as its worker.
  if (m.commit && std::holds_alternative<core::self_scheduled>(m.commit->value)) {
    set_in_force(*m.commit);
    slave_.close();
  }
  chunk_size_ = slave_.work().left();
  reader slices(m.slices);
  detail::unpack_inputs(slices, arrays_, slave_.work().remaining());
  recovery_.at_scatter(*this);
  // Who starts with work: every member's initial share is known to all (the same formula); a
  // lost slave is no member of any group's synchronizations.
  const auto initial = initial_counts();
  std::vector<bool> active(initial.size());
  for (std::size_t s = 0; s < initial.size(); ++s)
    active[s] = initial[s] > 0 && !rt_.lost(static_cast<int>(s) + 1);
  slave_.start_activity(active);
  slave_.set_more_work(slave_.work().left() > 0);
  if (!slave_.more_work()) out_of_work();
  slave_.start_loop(net_.clock().now(), paced_polls());
}

void DLB_scatter_data(context& ctx) {
  if (ctx.master()) {
    detail::master_of(ctx, "DLB_scatter_data").scatter();
  } else {
    detail::slave_of(ctx, "DLB_scatter_data").receive_scatter();
  }
}

protocol::decision detail::loop_session::decide(
    const std::vector<protocol::member_profile>& profiles) const {
  std::vector<core::range_list> remaining;
  std::vector<double> speeds;
  for (const auto& p : profiles) {
    remaining.push_back(p.remaining);
    speeds.push_back(p.speed);
  }
  auto bd = core::decide_balance(remaining, speeds, balance_, work_cost());
  protocol::decision d;
  d.reason = bd.reason;
  d.counts_after =
      bd.reason == core::balance_reason::moved ? bd.proposed : core::iteration_counts(remaining);
  for (auto t : bd.plan.transfers) {
    t.from = profiles[t.from].slave;
    t.to = profiles[t.to].slave;
    d.transfers.push_back(std::move(t));
  }
  return d;
}

core::iteration_cost detail::loop_session::work_cost() const {
  if (balance_.unit == core::balance_unit::iterations || !loop_.work) return {};
  return loop_.work;
}

void detail::slave_session::adopt(core::scheme c, int group, const std::vector<bool>& active_before,
                                  const std::optional<std::vector<std::size_t>>& members) {
  // Every slave was in the one global group of the first synchronization (of a re-selection);
  // it now joins its group of the chosen strategy, keeping who was active (who took part).
  std::vector<bool> was_active(static_cast<std::size_t>(procs_), false);
  if (members) {
    for (std::size_t m : *members)
      if (m < was_active.size()) was_active[m] = true;
  } else {
    for (std::size_t p = 0; p < slave_.members().size(); ++p)
      was_active[slave_.members()[p]] = active_before[p];
  }
  enter(resolve_protocol(c, protocol_opts()));
  join_group(group, was_active);
}

void detail::slave_session::join_group(int group, const std::vector<bool>& was_active) {
  slave_.join(group, groups().at(static_cast<std::size_t>(group)), was_active);
}

void detail::slave_session::finish_loop() {
  const double body_from = slave_.body_from();
  slave_.finish_loop(net_.clock().now());
  if (auto* tr = states_) {
    const slave_stats& st = slave_.stats();
    tr->record(body_from, st.finish, slave_activity::compute, loop_id_, st.iterations_done);
    tr->load(rt_.params().load, slave_.me(), st.start, st.finish, loop_id_);
  }
}

void detail::slave_session::send_gathered() {
  finish_loop();
  // This slave takes part in no more synchronizations of this loop (or an earlier one): the
  // interrupts still coming for them are dropped as they arrive.
  net_.discard(messenger::match(tag::interrupt, [loop = loop_id_](const delivered& d) {
    return protocol::peek_loop(d) <= loop;
  }));
  const slave_stats& st = slave_.final_stats(std::max(net_.clock().lag(), net_.late_delivery()));
  const core::range_list& done = slave_.work().done();
  writer slices;
  detail::pack_arrays(slices, arrays_, done, detail::output_array);
  net_.send(protocol::master_rank, tag::gather,
            protocol::encode(protocol::gather_msg{loop_id_, done, st, slices.data()}));
}

void detail::master_session::gather() {
  if (!recovery_.on() && master_.results_in() != static_cast<std::size_t>(procs_)) {
    throw run_error("DLB_gather_data on the master before DLB_master_sync");
  }
  std::vector<slave_stats> slaves(static_cast<std::size_t>(procs_));
  core::distribution executed;
  executed.iterations = loop_.iterations;
  executed.slaves.resize(static_cast<std::size_t>(procs_));
  recovery_.at_gather(slaves, executed);
  for (const auto& d : master_.results()) {
    reader r = d.body();
    auto m = protocol::decode_gather(r);
    reader slices(m.slices);
    detail::unpack_arrays(slices, arrays_, m.done, detail::output_array);
    const auto s = static_cast<std::size_t>(d.from - 1);
    slaves[s] = m.stats;
    executed.slaves[s] = std::move(m.done);
  }
  if (!core::owns_each_once(executed)) {
    throw run_error("the slaves' executed iterations do not cover loop " +
                    std::to_string(loop_id_) + " exactly once");
  }
  const double lag = net_.clock().lag();
  const double end = net_.clock().now();
  master_.close(std::move(slaves), lag, self_sched_.chunks(), self_sched_.chunk_bytes(), end,
                recovery_.time_to(end));
  const double start = master_.start_time();
  master_.set_bounds(oracle_time(start), comm_bound_time(start));
  predict_after_the_fact(master_.predictions());
}

// The loop ends: its session goes, its outcome stays in the context.
void DLB_gather_data(context& ctx) {
  using detail::context_access;
  if (!ctx.master()) {
    auto& me = detail::slave_of(ctx, "DLB_gather_data");
    if (!me.recovery_.handed_in_all()) me.send_gathered();
    context_access::done(ctx) = me.slave_.work().take_done();
    context_access::slave(ctx).reset();
    return;
  }
  auto& m = detail::master_of(ctx, "DLB_gather_data");
  m.gather();
  context_access::stats(ctx) = m.master_.take_stats();
  context_access::master(ctx).reset();
}

run_stats parallel_for(runtime& rt, const loop_spec& loop, const std::vector<array_ref>& arrays,
                       const std::function<void(std::int64_t)>& body) {
  context DLB(rt);
  std::vector<DLB_array*> described;
  for (const array_ref& a : arrays) described.push_back(a.get());
  DLB_init(DLB, rt.params().policy, rt.slaves(), rt.params().group, loop, std::move(described));
  DLB_scatter_data(DLB);
  if (DLB.master()) {
    DLB_master_sync(DLB);
  } else {
    while (DLB.more_work()) {
      for (std::int64_t i = DLB.start(); i < DLB.end() && DLB.more_work(); i++) {
        body(i);
        if (DLB_slave_sync(DLB) && DLB.interrupt()) DLB_profile_send_move_work(DLB);
      }
      if (DLB.more_work()) DLB_send_interrupt(DLB);
      DLB_profile_send_move_work(DLB);
    }
  }
  DLB_gather_data(DLB);
  return DLB.master() ? DLB.stats() : run_stats{};
}

}  // namespace dlb
