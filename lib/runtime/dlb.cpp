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
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>

#include "arrays.hpp"
#include "dlb/core/bitonic.hpp"
#include "dlb/core/comm_bound.hpp"
#include "dlb/core/groups.hpp"
#include "dlb/core/heterogeneous.hpp"
#include "dlb/core/load_estimate.hpp"
#include "dlb/core/oracle.hpp"
#include "dlb/core/profile.hpp"
#include "dlb/runtime/protocol.hpp"
#include "dlb/runtime/runtime_internals.hpp"
#include "dlb/runtime/strategy_table.hpp"
#include "loop_session.hpp"

namespace dlb {

std::string choice_sequence(const run_stats& st) {
  if (st.choices.empty()) return "-";
  std::string out;
  for (const auto& c : st.choices) {
    char at[32];
    std::snprintf(at, sizeof at, "@%.3f", c.time);
    out += (out.empty() ? "" : ",") + std::string(to_string(c.strategy)) + at;
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> auto_all_fields(const run_stats& st) {
  if (st.committed.empty()) return {};
  char wall[32], at[32], shift[32];
  std::snprintf(wall, sizeof wall, "%.6f", st.choice_wall_s);
  std::snprintf(at, sizeof at, "%.6f", st.choice_time_s);
  std::snprintf(shift, sizeof shift, "%.6f", st.first_phase_shift_s);
  return {{"committed", st.committed},
          {"candidates", core::format_candidate_times(st.candidates)},
          {"choice_wall_s", wall},
          {"choice_s", at},
          {"first_phase_shift_s", shift}};
}

std::string run_stats::summary() const {
  std::ostringstream os;
  os << to_string(strategy) << " P=" << procs << " K=" << group_size << ": total " << total_time()
     << " s, " << syncs << " synchronizations, " << redistributions << " redistributions, "
     << iterations_moved << " iterations and " << bytes_moved << " bytes moved, lag " << lag
     << " s, oracle bound " << oracle_time << " s";
  for (const auto& l : lost) os << "; slave " << l.slave + 1 << " lost at t = " << l.time << " s";
  if (!lost.empty())
    os << "; " << recovered_iterations << " iterations recovered in " << recovery_time << " s";
  return os.str();
}

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
bool context::more_work() const { return slave_ && slave_->slave_.more_work_; }
std::int64_t context::start() const {
  if (!slave_) return 0;
  const auto& remaining = slave_->slave_.remaining_;
  return remaining.empty() ? 0 : remaining.front().begin;
}
std::int64_t context::end() const {
  if (!slave_) return 0;
  const auto& remaining = slave_->slave_.remaining_;
  return remaining.empty() ? 0 : remaining.front().end;
}
bool context::interrupt() const { return slave_ && slave_->slave_.interrupt_; }
const run_stats& context::stats() const { return master_ ? master_->master_.stats_ : stats_; }
const core::range_list& context::done() const { return slave_ ? slave_->slave_.done_ : done_; }

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
      // The protocol of the first synchronization (strategy_table.hpp, first_protocol):
      // customized mode runs it as the master's own, global and centralized: the master sees
      // every profile, runs the model and commits (section 1.3.3); ADAPTIVE does so at every
      // re-selection (customized_runner.cpp).
      popts_(protocol_options_of(rt.params())),
      local_group_size_(K),
      procs_(P),
      loop_(loop),
      arrays_(std::move(arrays)) {
  popts_.adaptive = p.kind() == core::strategy::adaptive;
  proto_ = first_protocol(p.kind(), popts_).value_or(sync_protocol{});
  group_size_ = group_size_under(proto_, K, P);
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
  groups_ = groups_for(group_size_);
}

detail::master_session::master_session(runtime& rt, const core::policy& p, int P, int K,
                                       const loop_spec& loop, std::vector<DLB_array*> arrays)
    : loop_session(rt, p, P, K, loop, std::move(arrays)),
      recovery_(rt.params().recover, P),
      runner_(make_runner(policy_, *this)) {}

detail::slave_session::slave_session(runtime& rt, const core::policy& p, int P, int K,
                                     const loop_spec& loop, std::vector<DLB_array*> arrays)
    : loop_session(rt, p, P, K, loop, std::move(arrays)),
      recovery_(rt.params().recover),
      worker_(std::holds_alternative<core::self_scheduled>(p.value)) {
  slave_.me_ = static_cast<std::size_t>(rt_.rank() - 1);
  slave_.group_ = core::group_containing(groups_, slave_.me_);
  slave_.members_ = groups_[static_cast<std::size_t>(slave_.group_)];
  slave_.st_.group = slave_.group_;
  // NONE has no protocol: no synchronization, ever.
  slave_.closed_ = !first_protocol(p.kind(), popts_);
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
  auto& st = master_.stats_;
  st.strategy = policy_.kind();
  st.procs = procs_;
  // The strategy's group size (the first synchronization may be the master's, global).
  st.group_size = core::is_customized(st.strategy)
                      ? group_size_
                      : group_size_under(st.strategy, local_group_size_, procs_);
  st.iterations = loop_.iterations;
  st.recover = rt_.params().recover;
  // The loop's start: the master's set-up before it is neither emulated time nor lag.
  const std::int64_t epoch = net_.begin_loop();
  st.start_time = net_.clock().now();
  recovery_.at_scatter(*this);
  const auto first = runner_->first_shares(*this);
  for (int r = 1; r <= procs_; ++r) {
    if (rt_.lost(r)) continue;  // its share is missing at the end: recovered
    const auto& ranges = first[static_cast<std::size_t>(r - 1)];
    writer slices;
    detail::pack_inputs(slices, arrays_, ranges);
    net_.send(r, tag::scatter,
              protocol::encode(protocol::scatter_msg{loop_id_, epoch, ranges, slices.data()}));
  }
}

void detail::slave_session::receive_scatter() {
  auto d = net_.wait(protocol::in_loop(tag::scatter, loop_id_),
                     "the scatter of loop " + std::to_string(loop_id_) + " from the master");
  reader r = d.body();
  auto m = protocol::decode_scatter(r);
  net_.join_loop(m.epoch);
  slave_.remaining_ = std::move(m.ranges);
  reader slices(m.slices);
  detail::unpack_inputs(slices, arrays_, slave_.remaining_);
  recovery_.at_scatter(*this);
  // Who starts with work: every member's initial share is known to all (the same formula); a
  // lost slave is no member of any group's synchronizations.
  const auto initial = initial_counts();
  const auto& members = slave_.members_;
  slave_.active_.assign(members.size(), false);
  for (std::size_t p = 0; p < members.size(); ++p)
    slave_.active_[p] = initial[members[p]] > 0 && !rt_.lost(static_cast<int>(members[p]) + 1);
  slave_.known_active_.assign(initial.size(), false);
  for (std::size_t p = 0; p < members.size(); ++p)
    slave_.known_active_[members[p]] = slave_.active_[p];
  slave_.more_work_ = core::iteration_count(slave_.remaining_) > 0;
  if (!slave_.more_work_) out_of_work();
  slave_.st_.start = net_.clock().now();
  slave_.sync_start_ = slave_.st_.start;
  slave_.body_from_ = slave_.st_.start;
  slave_.paced_ = paced_polls();
  slave_.last_poll_ = slave_.st_.start;
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

void detail::slave_session::adopt(core::strategy c, int group,
                                  const std::vector<bool>& active_before,
                                  const std::optional<std::vector<std::size_t>>& members) {
  // Every slave was in the one global group of the first synchronization (of a re-selection);
  // it now joins its group of the chosen strategy, keeping who was active (who took part).
  std::vector<bool> was_active(static_cast<std::size_t>(procs_), false);
  if (members) {
    for (std::size_t m : *members)
      if (m < was_active.size()) was_active[m] = true;
  } else {
    for (std::size_t p = 0; p < slave_.members_.size(); ++p)
      was_active[slave_.members_[p]] = active_before[p];
  }
  proto_ = resolve_protocol(c, popts_).value();
  group_size_ = group_size_under(proto_, local_group_size_, procs_);
  slave_.group_ = group;
  groups_ = groups_for(group_size_);
  slave_.members_ = groups_.at(static_cast<std::size_t>(group));
  slave_.active_.assign(slave_.members_.size(), false);
  for (std::size_t p = 0; p < slave_.members_.size(); ++p)
    slave_.active_[p] = was_active[slave_.members_[p]];
  slave_.st_.group = group;
}

strategy_prediction detail::master_session::predict(const std::vector<double>& speeds) const {
  return predict(speeds, rt_.params().model_load);
}

// The model's input about the load (core/load_estimate.hpp). The paper plugs
// "the load function seen so far" and the load parameters ml and tl into the model at the first
// synchronization, and its recurrences need the load of every later block too. The prediction
// starts with the loop (equal blocks at the master's scatter time) on the processors' base speeds
// S_i, and:
// - model_load::run (default): under the run's own load function (seed, ml, tl). The paper's load
//   was generated inside its programs from ml and tl; the model is given that generator, so it
//   knows the past it saw exactly and the future as the generator will produce it.
// - model_load::estimated: the model is given neither the seed nor ml and tl. It estimates them
//   from the speeds observed up to the first synchronization (core::estimate_load: the effective
//   load each slave saw gives ml, the spread between slaves gives tl) and averages its prediction
//   over a few load functions with those parameters and seeds of its own (core::expected_choice).
// Under the native clock the work function is not an iteration's cost and the load is real, so
// both keep the observed effective speeds as constant speeds and no modelled load.
core::model_input detail::master_session::model_base(std::vector<double>& w, double& mean,
                                                     bool& uniform) const {
  const auto& prm = rt_.params();
  core::model_input in;
  in.network = rt_.model_network();
  const std::int64_t I = loop_.iterations;
  w.assign(static_cast<std::size_t>(I), 0.0);
  double sum = 0.0;
  uniform = true;
  for (std::int64_t i = 0; i < I; ++i) {
    w[static_cast<std::size_t>(i)] = loop_.work ? loop_.work(i) : 1.0;
    sum += w[static_cast<std::size_t>(i)];
    uniform = uniform && std::abs(w[static_cast<std::size_t>(i)] - w[0]) <= 1e-12 * std::abs(w[0]);
  }
  mean = I > 0 ? sum / static_cast<double>(I) : 0.0;
  in.program.iterations = I;
  in.program.time_per_iteration = mean;
  in.program.bytes_per_iteration = static_cast<double>(bytes_per_iteration(arrays_, I));
  in.program.distribution_cost = prm.delta;
  in.program.balance = balance_;
  in.group_size = static_cast<std::size_t>(local_group_size_);
  in.groups = groups_for(local_group_size_);
  return in;
}

namespace {

// A prediction's times under each balancing strategy, and the fastest.
void fill_prediction(strategy_prediction& out,
                     const std::array<double, core::kBalancingStrategies>& times) {
  out.valid = true;
  std::size_t best = 0;
  for (std::size_t k = 0; k < core::kBalancingStrategies; ++k) {
    out.total_time[k] = times[k];
    if (times[k] < times[best]) best = k;
  }
  out.best = core::balancing_strategies[best];
}

std::array<double, core::kBalancingStrategies> times_of(const core::strategy_choice& c) {
  std::array<double, core::kBalancingStrategies> t{};
  for (std::size_t k = 0; k < core::kBalancingStrategies; ++k) t[k] = c.predictions[k].total_time;
  return t;
}

// The observation window: the first synchronization came when the first slave finished its
// initial block, i.e. after min_i (work of block i) / (observed speed of i); w: each iteration's
// work.
double observation_window(const std::vector<core::range_list>& blocks, const std::vector<double>& w,
                          const std::vector<double>& observed) {
  double window = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < observed.size(); ++i) {
    double block_work = 0.0;
    for (const auto& r : blocks[i])
      for (std::int64_t k = r.begin; k < r.end; ++k) block_work += w[static_cast<std::size_t>(k)];
    if (observed[i] > 0 && block_work > 0) window = std::min(window, block_work / observed[i]);
  }
  return window;
}

}  // namespace

strategy_prediction detail::master_session::predict(const std::vector<double>& speeds,
                                                    core::model_load load) const {
  const auto& prm = rt_.params();
  std::vector<double> w;
  double mean = 0.0;
  bool uniform = true;
  core::model_input in = model_base(w, mean, uniform);
  const std::int64_t I = loop_.iterations;
  in.start = initial_distribution();  // the loop's start, cyclic or blocks of equal work
  strategy_prediction out;
  out.load = load;
  if (I == 0 || !(mean > 0) || speeds.size() != prm.speeds.size()) return out;
  // The observed effective speeds, in base seconds of work per second: the slaves measured them
  // so (work_cost), or in iterations per second (--balance-by iterations), which the loop's mean
  // iteration cost turns into work (exact only for a loop whose iterations cost the same).
  const double per_unit = work_cost() ? 1.0 : mean;
  std::vector<double> observed;
  for (double v : speeds) observed.push_back(std::max(v * per_unit, 0.0));
  auto fill = [&out](const auto& times) { fill_prediction(out, times); };
  if (!prm.emulated || !loop_.work) {
    for (double e : observed) in.machine.base_speeds.push_back(std::max(e, 1e-12));
    in.machine.load.max_load = 0;
    if (!uniform) in.program.iteration_times = std::move(w);
    fill(times_of(core::choose_strategy(in)));
    return out;
  }
  in.machine.base_speeds = prm.speeds;
  in.start_time = master_.stats_.start_time;
  if (load == core::model_load::run) {
    in.machine.load = prm.load;
    out.max_load = prm.load.max_load;
    out.persistence = prm.load.persistence;
    if (!uniform) in.program.iteration_times = std::move(w);
    fill(times_of(core::choose_strategy(in)));
    return out;
  }
  const double window = observation_window(initial_distribution(), w, observed);
  std::vector<double> relative;
  for (std::size_t i = 0; i < observed.size(); ++i) relative.push_back(observed[i] / prm.speeds[i]);
  if (!std::isfinite(window) || !(window > 0)) return out;
  const core::load_estimate est = core::estimate_load(relative, window);
  in.machine.load.max_load = est.max_load;
  in.machine.load.persistence = est.persistence;
  out.max_load = est.max_load;
  out.persistence = est.persistence;
  if (!uniform) in.program.iteration_times = std::move(w);
  fill(core::expected_choice(in).total_time);
  return out;
}

namespace {

// The run's totals from the slaves' statistics: the moves, the lag, and the synchronizations and
// redistributions per group (every member takes part in each one while it is active, so the most
// any member saw is the group's count; where the members did not all see every decision, the
// balancer's own count, `master_tally`, is exact).
void add_up_slaves(run_stats& st,
                   const std::map<int, std::pair<std::int64_t, std::int64_t>>& master_tally,
                   double master_lag) {
  std::map<int, std::pair<std::int64_t, std::int64_t>> per_group;
  st.lag = master_lag;
  for (const auto& s : st.slaves) {
    auto& g = per_group[s.group];
    g.first = std::max(g.first, s.syncs);
    g.second = std::max(g.second, s.redistributions);
    st.iterations_moved += s.iterations_sent;
    st.bytes_moved += s.bytes_sent;
    st.lag = std::max(st.lag, s.lag);
  }
  for (const auto& [g, c] : master_tally) per_group[g] = c;
  for (const auto& [g, c] : per_group) {
    st.syncs += c.first;
    st.redistributions += c.second;
  }
}

// The oracle bound from the loop's start, where the work function is the iterations' cost:
// emulated or simulated time (under the native clock iterations take what they really take: no
// bound, 0).
double oracle_time(const run_params& prm, const loop_spec& loop, double start) {
  if (!prm.emulated || !loop.work) return 0.0;
  double work = 0.0;
  for (std::int64_t i = 0; i < loop.iterations; ++i) work += loop.work(i);
  return core::oracle_makespan(prm.load, prm.speeds, start, work) - start;
}

// Bytes of the arrays the program must ship (comm_bound.hpp): the whole input arrays (in every
// scatter message), and all the distributed input slices and all the output slices (one
// iteration's: these over the iterations).
struct program_bytes {
  double whole = 0.0, in_all = 0.0, out_all = 0.0;
};

program_bytes bytes_of(const std::vector<DLB_array*>& arrays) {
  program_bytes b;
  for (const DLB_array* a : arrays) {
    const double all = static_cast<double>(a->slice_count() * a->slice_length() *
                                           static_cast<std::int64_t>(element_size(a->type)));
    if (a->input && a->distribution == data_distribution::whole) b.whole += all;
    if (a->moves()) b.in_all += all;
    if (a->output) b.out_all += all;
  }
  return b;
}

// The network's part of the communication-aware bound, every message costed by
// core::message_cost: the smallest scatter message that lets a slave start (the whole inputs and
// one iteration's slices), the smallest gather message (one iteration's outputs), and every
// transmission of the program on a shared medium (the master's port under `switched`: the
// scatter only).
core::comm_costs comm_costs_of(const core::message_costs& net, const program_bytes& b,
                               std::int64_t iterations, int procs) {
  core::comm_costs c;
  if (iterations <= 0) return c;
  const auto I = static_cast<double>(iterations), P = static_cast<double>(procs);
  const core::message_parts first = core::message_cost(net, b.whole + b.in_all / I);
  const core::message_parts last = core::message_cost(net, b.out_all / I);
  c.scatter_send = first.send;
  c.scatter_wire = first.wire;
  c.scatter_after = first.rest + first.receive;
  c.gather_last = last.send + last.wire + last.rest + last.receive;
  // P scatter messages (the whole inputs in each, the slices once) and P gather messages.
  const double scatter = P * core::message_cost(net, b.whole + b.in_all / P).wire;
  const double gather = P * core::message_cost(net, b.out_all / P).wire;
  c.medium_total = net.shared_medium ? scatter + gather : scatter;
  return c;
}

}  // namespace

// The communication-aware bound from the loop's start (0 where the oracle has none).
double detail::master_session::comm_bound_time(double start) const {
  const run_params& prm = rt_.params();
  if (!prm.emulated || !loop_.work) return 0.0;
  double work = 0.0;
  for (std::int64_t i = 0; i < loop_.iterations; ++i) work += loop_.work(i);
  // Emulated or simulated: the run's own network (the cost model's profile is not read).
  const auto costs = comm_costs_of(detail::message_costs_of(prm, core::network_profile{}),
                                   bytes_of(arrays_), loop_.iterations, procs_);
  return core::comm_bound(prm.load, prm.speeds, start, work, costs).end - start;
}

// The model's prediction from the speeds each slave saw up to its first synchronization
// (a slave that never synchronized: its speed over its whole span), for a run under one of
// the four strategies, with the load --model-load names. Customized runs keep the prediction
// they committed on. Every balanced run also gets the prediction under the other assumption
// about the load, from the same speeds.
void detail::master_session::predict_after_the_fact(run_stats& st) const {
  std::vector<double> speeds;
  for (const auto& s : st.slaves)
    speeds.push_back(s.first_speed >= 0
                         ? s.first_speed
                         : core::speed({s.iterations_done, s.finish - s.start, 0, s.work_done}));
  // A run that lost a slave has no speed for it: no prediction after the fact (under the native
  // clock the model would take its zero speed at its word). AUTO keeps the one it committed on.
  const bool whole = st.lost.empty();
  if (whole && find_strategy_row(policy_.kind())) st.prediction = predict(speeds);
  if (whole && st.prediction.valid) {
    const auto other = st.prediction.load == core::model_load::run ? core::model_load::estimated
                                                                   : core::model_load::run;
    st.other_prediction = predict(speeds, other);
  }
}

void detail::slave_session::finish_loop() {
  auto& me = slave_;
  me.st_.finish = net_.clock().now();
  me.st_.busy += me.st_.finish - me.body_from_;
  if (auto* tr = states_) {
    tr->record(me.body_from_, me.st_.finish, slave_activity::compute, loop_id_,
               me.st_.iterations_done);
    tr->load(rt_.params().load, me.me_, me.st_.start, me.st_.finish, loop_id_);
  }
}

void detail::slave_session::send_gathered() {
  if (!slave_.moved_epochs_.empty())
    slave_.st_.redistributions = std::max<std::int64_t>(
        slave_.st_.redistributions, static_cast<std::int64_t>(slave_.moved_epochs_.size()));
  finish_loop();
  // This slave takes part in no more synchronizations of this loop (or an earlier one): the
  // interrupts still coming for them are dropped as they arrive.
  net_.discard(messenger::match(tag::interrupt, [loop = loop_id_](const delivered& d) {
    return protocol::peek_loop(d) <= loop;
  }));
  slave_.st_.lag = std::max(net_.clock().lag(), net_.late_delivery());
  writer slices;
  detail::pack_arrays(slices, arrays_, slave_.done_, detail::output_array);
  net_.send(
      protocol::master_rank, tag::gather,
      protocol::encode(protocol::gather_msg{loop_id_, slave_.done_, slave_.st_, slices.data()}));
}

void detail::master_session::gather() {
  if (!recovery_.on() && master_.gathered_.size() != static_cast<std::size_t>(procs_)) {
    throw run_error("DLB_gather_data on the master before DLB_master_sync");
  }
  auto& st = master_.stats_;
  st.slaves.assign(static_cast<std::size_t>(procs_), {});
  core::distribution executed;
  executed.iterations = loop_.iterations;
  executed.slaves.resize(static_cast<std::size_t>(procs_));
  recovery_.at_gather(st, executed);
  for (auto& d : master_.gathered_) {
    reader r = d.body();
    auto m = protocol::decode_gather(r);
    reader slices(m.slices);
    detail::unpack_arrays(slices, arrays_, m.done, detail::output_array);
    const auto s = static_cast<std::size_t>(d.from - 1);
    st.slaves[s] = m.stats;
    executed.slaves[s] = std::move(m.done);
  }
  if (!core::owns_each_once(executed)) {
    throw run_error("the slaves' executed iterations do not cover loop " +
                    std::to_string(loop_id_) + " exactly once");
  }
  add_up_slaves(st, master_.tally_, net_.clock().lag());
  // Self-scheduling: no slave ships work; the master ships each chunk's input slices.
  st.bytes_moved += self_sched_.chunk_bytes_;
  st.chunks = self_sched_.chunks_;
  st.end_time = net_.clock().now();
  st.recovery_time = recovery_.time_to(st.end_time);
  st.oracle_time = oracle_time(rt_.params(), loop_, st.start_time);
  st.comm_bound_time = comm_bound_time(st.start_time);
  predict_after_the_fact(st);
}

// The loop ends: its session goes, its outcome stays in the context.
void DLB_gather_data(context& ctx) {
  using detail::context_access;
  if (!ctx.master()) {
    auto& me = detail::slave_of(ctx, "DLB_gather_data");
    if (!me.recovery_.handed_in_all()) me.send_gathered();
    context_access::done(ctx) = std::move(me.slave_.done_);
    context_access::slave(ctx).reset();
    return;
  }
  auto& m = detail::master_of(ctx, "DLB_gather_data");
  m.gather();
  context_access::stats(ctx) = std::move(m.master_.stats_);
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
