// app_common.cpp: the RESULT line and option helpers of the application programs.
#include "app_common.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <new>
#include <sstream>
#include <stdexcept>

namespace apps::common {

dlb::option_spec t_op_option(const std::string& calibrated) {
  return {"t-op", calibrated,
          "emulated seconds per basic operation on the base 1996 workstation (calibrated, "
          "apps/README.md)"};
}

dlb::option_spec t_op_factor_option() {
  return {"t-op-factor", "1",
          "multiplies --t-op: the sensitivity study's t_op within the range Tables 1.1-1.3 allow "
          "(experiments/README.md)"};
}

double t_op(const dlb::options& o) {
  return o.real("t-op", 0.0, 1.0) * o.real("t-op-factor", 0.0, 1000.0);
}

void validate_t_op(const dlb::options& o) {
  if (!(o.real("t-op", 0.0, 1.0) > 0.0)) {
    throw dlb::usage_error("option --t-op must be positive, got " + o.str("t-op"));
  }
  if (!(o.real("t-op-factor", 0.0, 1000.0) > 0.0)) {
    throw dlb::usage_error("option --t-op-factor must be positive, got " + o.str("t-op-factor"));
  }
  if (o.str("backend") != "sim") return;
  const auto p = dlb::read_params(o);
  const double slowest = *std::min_element(p.speeds.begin(), p.speeds.end());
  if (t_op(o) / (slowest * p.load.persistence) > kMaxTOpPerSpeedTl) {
    std::ostringstream got;
    got << t_op(o) << " / (" << slowest << " x " << p.load.persistence << ")";
    throw dlb::usage_error(
        "options --t-op, --speeds and --tl: under --backend sim, t_op / (slowest speed x tl) must "
        "be at most 0.04, got " +
        got.str());
  }
}

int requested_group(const dlb::runtime& rt) {
  // The runtime has checked --group (at most --procs); this reads it back.
  const auto k = static_cast<int>(rt.opts().integer("group", 0, rt.slaves()));
  return k > 0 ? k : std::max(1, rt.slaves() / 2);
}

bool report_verification(const dlb::runtime& rt, const std::string& what, const verification& v) {
  if (!rt.params().quiet) {
    std::printf(
        "verify %s: %zu elements, %zu beyond tolerance, max relative error %.3g (tolerance %.3g)\n",
        what.c_str(), v.compared, v.failures, v.max_rel_error, v.tolerance);
  }
  std::printf("Verification = %s\n", v.passed ? "SUCCESSFUL" : "FAILED");
  return v.passed;
}

std::string predicted_best(const dlb::run_stats& st) {
  return st.prediction.valid ? std::string(dlb::core::to_string(st.prediction.best)) : "-";
}

std::string predicted_best(const dlb::run_stats& st, dlb::core::model_load m) {
  const auto& p = st.prediction_with(m);
  return p.valid ? std::string(dlb::core::to_string(p.best)) : "-";
}

std::string estimated_ml(const dlb::run_stats& st) {
  const auto& p = st.prediction_with(dlb::core::model_load::estimated);
  return p.valid ? std::to_string(p.max_load) : "-";
}

std::string estimated_tl(const dlb::run_stats& st) {
  const auto& p = st.prediction_with(dlb::core::model_load::estimated);
  if (!p.valid) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", p.persistence);
  return buf;
}

void set_predictions(outcome& o, const dlb::runtime& rt, const dlb::run_stats& st) {
  o.predicted_best = predicted_best(st);
  o.model_load = std::string(dlb::core::to_string(rt.params().model_load));
  o.predicted_best_run = predicted_best(st, dlb::core::model_load::run);
  o.predicted_best_estimated = predicted_best(st, dlb::core::model_load::estimated);
  o.est_ml = estimated_ml(st);
  o.est_tl = estimated_tl(st);
}

std::string chosen_strategy(const dlb::run_stats& st) {
  if (!st.committed.empty()) return st.committed;  // AUTO-ALL: the policy, "GSS" or "GDDLB"
  if (!st.policy.is_customized()) return "-";
  return st.chosen ? dlb::core::to_string(*st.chosen) : "NONE";  // NONE: it never synchronized
}

loop_totals totals(const std::vector<const dlb::run_stats*>& loops) {
  loop_totals t;
  for (const dlb::run_stats* s : loops) {
    t.syncs += s->syncs;
    t.redistributions += s->redistributions;
    t.iterations_moved += s->iterations_moved;
    t.bytes_moved += s->bytes_moved;
    t.lag = std::max(t.lag, s->lag);
    t.oracle_s += s->oracle_time;
    t.comm_bound_s += s->comm_bound_time;
    t.recover = t.recover || s->recover;
    for (const auto& l : s->lost) {
      char at[64];
      std::snprintf(at, sizeof at, "%zu@%.6f", l.slave + 1, l.time);
      t.lost += (t.lost.empty() ? "" : "/") + std::string(at);
      ++t.lost_slaves;
    }
    t.recovered_iters += s->recovered_iterations;
    t.recovery_s += s->recovery_time;
  }
  return t;
}

result_line& result_line::add(const std::string& key, const std::string& value) {
  fields_.emplace_back(key, value.empty() ? "-" : value);
  return *this;
}

result_line& result_line::add(const std::string& key, std::int64_t value) {
  return add(key, std::to_string(value));
}

result_line& result_line::add(const std::string& key, double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return add(key, std::string(buf));
}

std::string result_line::text() const {
  std::string s = "RESULT";
  for (const auto& [k, v] : fields_) s += " " + k + "=" + v;
  return s;
}

result_line parameters(const dlb::runtime& rt, const std::string& app, const std::string& size) {
  const auto& o = rt.opts();
  const auto& p = rt.params();
  result_line line;
  // tl and scale are echoed as given, so the driver's numeric comparison sees its own value.
  line.add("app", app)
      .add("strategy", dlb::core::to_string(p.policy))
      .add("P", std::int64_t{p.procs})
      .add("K", std::int64_t{requested_group(rt)})
      .add("size", size)
      .add("seed", static_cast<std::int64_t>(p.load.seed))
      .add("ml", std::int64_t{p.load.max_load})
      .add("tl", o.str("tl"))
      .add("clock", o.str("clock"))
      .add("scale", o.str("scale"))
      .add("network", o.str("network"))
      .add("backend", o.str("backend"));
  return line;
}

double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

void add_outcome(result_line& line, const outcome& o) {
  line.add("verified", std::string(o.verified ? "1" : "0"))
      .add("total_s", o.total_s)
      .add("loop1_s", o.loop1_s)
      .add("loop2_s", o.loop2_s)
      .add("syncs", o.stats.syncs)
      .add("redistributions", o.stats.redistributions)
      .add("iterations_moved", o.stats.iterations_moved)
      .add("bytes_moved", static_cast<std::int64_t>(o.stats.bytes_moved))
      .add("lag_s", o.stats.lag)
      .add("lag_pct", o.total_s > 0 ? 100.0 * o.stats.lag / o.total_s : 0.0, 4)
      .add("predicted_best", o.predicted_best)
      .add("wall_s", o.wall_s, 3)
      .add("oracle_s", o.stats.oracle_s)
      .add("model_load", o.model_load)
      .add("predicted_best_run", o.predicted_best_run)
      .add("predicted_best_estimated", o.predicted_best_estimated)
      .add("est_ml", o.est_ml)
      .add("est_tl", o.est_tl)
      .add("comm_bound_s", o.stats.comm_bound_s)
      .add("max_rss_mb", peak_rss_mb(), 1);
  if (o.stats.recover)
    line.add("lost_slaves", o.stats.lost_slaves)
        .add("lost", o.stats.lost)
        .add("recovered_iters", o.stats.recovered_iters)
        .add("recovery_s", o.stats.recovery_s);
}

task_array::task_array(std::vector<double> values)
    : values_(std::move(values)), size_(values_.size()), data_(values_.data()) {}

task_array::task_array(std::size_t size)
    : zeros_(size), slave_(true), size_(size), data_(zeros_.data()) {}

const std::vector<double>& task_array::values() const {
  if (slave_) throw std::logic_error("task_array::values: a slave's array has no data");
  return values_;
}

std::size_t task_array::resident_bytes() const {
  return slave_ ? zeros_.resident_bytes() : values_.size() * sizeof(double);
}

task_array master_or_zeros(bool master, std::size_t size,
                           const std::function<std::vector<double>()>& values) {
  if (master) return task_array(values());
  return task_array(size);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int report_single_loop(const dlb::runtime& rt, const std::string& app, const std::string& size,
                       const dlb::run_stats& st, const std::string& what, const verification& v,
                       std::chrono::steady_clock::time_point started,
                       const std::string& reference) {
  outcome out;
  out.verified = report_verification(rt, what, v);
  out.total_s = st.total_time();
  out.loop1_s = st.total_time();  // one loop: the whole program
  out.stats = totals({&st});
  set_predictions(out, rt, st);
  out.wall_s = seconds_since(started);
  auto line = parameters(rt, app, size);
  add_outcome(line, out);
  if (st.policy.is_customized()) line.add("chosen", chosen_strategy(st));
  if (st.policy.is(dlb::core::customized_mode::adaptive) || !st.choices.empty())
    line.add("choices", dlb::choice_sequence(st));
  for (const auto& [k, v] : dlb::auto_all_fields(st)) line.add(k, v);
  if (!reference.empty()) line.add("reference", reference);
  std::printf("%s\n", line.text().c_str());
  return out.verified ? 0 : 1;
}

}  // namespace apps::common
