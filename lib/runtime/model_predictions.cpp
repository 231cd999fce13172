// model_predictions.cpp: the cost model's predictions on the master (section 1.3.3): AUTO's
// choice on the speeds seen so far, the model's input from the loop and the run, and the
// predictions after the fact (the oracle, the communication-aware bound, each strategy's
// predicted time) that DLB_gather_data records. The DLB_* calls are dlb.cpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>

#include "dlb/core/comm_bound.hpp"
#include "dlb/core/heterogeneous.hpp"
#include "dlb/core/load_estimate.hpp"
#include "dlb/core/oracle.hpp"
#include "dlb/core/profile.hpp"
#include "dlb/dlb.hpp"
#include "dlb/runtime/protocol.hpp"
#include "dlb/runtime/strategy_table.hpp"
#include "loop_session.hpp"

namespace dlb {

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
  in.start_time = master_.start_time();
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

// The oracle bound from the loop's start, where the work function is the iterations' cost:
// emulated or simulated time (under the native clock iterations take what they really take: no
// bound, 0).

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
// The oracle bound from the loop's start, where the work function is the iterations' cost:
// emulated or simulated time (under the native clock iterations take what they really take: no
// bound, 0).
double detail::master_session::oracle_time(double start) const {
  const auto& prm = rt_.params();
  if (!prm.emulated || !loop_.work) return 0.0;
  double work = 0.0;
  for (std::int64_t i = 0; i < loop_.iterations; ++i) work += loop_.work(i);
  return core::oracle_makespan(prm.load, prm.speeds, start, work) - start;
}

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
  if (whole && policy_.row()) st.prediction = predict(speeds);
  if (whole && st.prediction.valid) {
    const auto other = st.prediction.load == core::model_load::run ? core::model_load::estimated
                                                                   : core::model_load::run;
    st.other_prediction = predict(speeds, other);
  }
}

}  // namespace dlb
