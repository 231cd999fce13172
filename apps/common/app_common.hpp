// app_common.hpp: what the three application programs (mxm, trfd, ac) share around their
// kernels: the --t-op option, the verification lines and the one RESULT line that the
// experiment driver parses (experiments/README.md, "The apps' side of the contract").
// The balanced loops themselves are written out in each program, as Figure 1.4's compiler would.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "apps/verify.hpp"
#include "dlb/dlb.hpp"
#include "dlb/task_buffer.hpp"

namespace apps::common {

// A full-size array of one task, indexed globally as in the generated code. The master's holds
// the program's data (a std::vector, checked at the end); a slave's is zeros in a
// dlb::task_buffer (dlb/task_buffer.hpp), a mapping of its own whose pages are resident only
// once written or read: the pages of the slices a slave never holds cost nothing. Under
// --backend sim every slave lives in one process, so P slaves cost their own slices, not P
// copies (docs/design/scale.md, "Simulated runs at scale"). (It was calloc before, whose large blocks
// came from the heap under tune_malloc_for_messages' 64 MiB mmap threshold, zeroed, whenever
// freed memory was reused.)
class task_array {
 public:
  explicit task_array(std::vector<double> values);  // the master's data
  explicit task_array(std::size_t size);            // zeros, pages untouched

  double* data() { return data_; }
  const double* data() const { return data_; }
  double& operator[](std::size_t i) { return data_[i]; }
  const double& operator[](std::size_t i) const { return data_[i]; }
  std::size_t size() const { return size_; }
  // The master's data; throws std::logic_error on a slave's array.
  const std::vector<double>& values() const;
  // Bytes of this task's array in resident pages: a slave's touched pages, all of the master's.
  std::size_t resident_bytes() const;

 private:
  std::vector<double> values_;
  dlb::task_buffer<double> zeros_;
  bool slave_ = false;
  std::size_t size_ = 0;
  double* data_ = nullptr;
};

// The master's `values`, or a slave's zeros of the same size.
task_array master_or_zeros(bool master, std::size_t size,
                           const std::function<std::vector<double>()>& values);

// --t-op: emulated seconds per basic operation on the base (1996) workstation. The default is
// the program's calibrated value (apps/README.md, "Calibration").
dlb::option_spec t_op_option(const std::string& calibrated);
// --t-op-factor: multiplies --t-op (default 1), so that one option scales every app's t_op.
dlb::option_spec t_op_factor_option();
// --t-op times --t-op-factor.
double t_op(const dlb::options& o);
// Throws usage_error naming the option unless --t-op and --t-op-factor are positive numbers;
// and, under --backend sim, unless t_op / (S_min tl) is at most kMaxTOpPerSpeedTl (S_min the
// slowest --speeds, tl --tl): the simulator visits every load change of a slave, about
// (operations x t_op / S_min) / tl of them, so a run's load changes are at most P x 0.04 per
// operation of its loops (544 MB and growing at t_op 1e-3, S 0.001, tl 5 before).
void validate_t_op(const dlb::options& o);
inline constexpr double kMaxTOpPerSpeedTl = 0.04;

// The K that the run was asked for, as the driver passed it: --group, or P/2 when 0 (the
// paper's two groups). Global strategies ignore it, but the RESULT line echoes it.
int requested_group(const dlb::runtime& rt);

// "Verification = SUCCESSFUL" or "Verification = FAILED" (NPB style), after a line with the
// comparison's numbers unless --quiet. Returns whether it passed.
bool report_verification(const dlb::runtime& rt, const std::string& what, const verification& v);

// The cost model's predicted best strategy of a loop ("-" when the run made no prediction,
// e.g. under NONE).
std::string predicted_best(const dlb::run_stats& st);
// The same under one assumption about the load (--model-load run or estimated): every balanced
// run makes both predictions.
std::string predicted_best(const dlb::run_stats& st, dlb::core::model_load m);
// The load the estimated prediction assumed: its ml and tl ("-" without one).
std::string estimated_ml(const dlb::run_stats& st);
std::string estimated_tl(const dlb::run_stats& st);
// The strategy a customized (AUTO) loop committed to (ADAPTIVE: its first choice), or "-" for
// the other strategies.
std::string chosen_strategy(const dlb::run_stats& st);

// Statistics of one program's balanced loops: counts summed over the loops, the worst lag.
struct loop_totals {
  std::int64_t syncs = 0;
  std::int64_t redistributions = 0;
  std::int64_t iterations_moved = 0;
  std::uint64_t bytes_moved = 0;
  double lag = 0.0;
  double oracle_s = 0.0;  // the loops' oracle bounds, summed (dlb::run_stats::oracle_time)
  // The loops' communication-aware bounds, summed (dlb::run_stats::comm_bound_time).
  double comm_bound_s = 0.0;
  // --on-loss recover only (then the RESULT line ends with lost_slaves, lost, recovered_iters,
  // recovery_s): the slaves lost, "slave@t" of each (t from its loop's start, loops joined by
  // '/'), the iterations recomputed by the survivors and the recoveries' time, summed.
  bool recover = false;
  std::int64_t lost_slaves = 0;
  std::string lost;
  std::int64_t recovered_iters = 0;
  double recovery_s = 0.0;
};
loop_totals totals(const std::vector<const dlb::run_stats*>& loops);

// The RESULT line: ordered key=value pairs, values without blanks.
class result_line {
 public:
  result_line& add(const std::string& key, const std::string& value);
  result_line& add(const std::string& key, std::int64_t value);
  result_line& add(const std::string& key, double value, int decimals = 6);
  std::string text() const;  // "RESULT k=v k=v ..."

 private:
  std::vector<std::pair<std::string, std::string>> fields_;
};

// The echoed run parameters, in the contract's order: app strategy P K size seed ml tl clock
// scale network backend (under --backend sim, clock and scale are echoed but unused: time is
// virtual).
result_line parameters(const dlb::runtime& rt, const std::string& app, const std::string& size);

// The outcome, in the contract's order: verified total_s loop1_s loop2_s syncs redistributions
// iterations_moved bytes_moved lag_s lag_pct predicted_best wall_s oracle_s (the balanced loops
// oracle bounds, summed: what an ideal zero-overhead balancer would take; core/oracle.hpp).
struct outcome {
  bool verified = false;
  double total_s = 0.0;
  double loop1_s = 0.0;
  double loop2_s = 0.0;
  loop_totals stats;
  std::string predicted_best = "-";
  double wall_s = 0.0;
  // Appended after oracle_s: model_load (the assumption predicted_best used),
  // predicted_best_run, predicted_best_estimated (both assumptions), est_ml, est_tl (the load
  // parameters the estimated prediction assumed), comm_bound_s (the loops' communication-aware
  // bounds, summed: core/comm_bound.hpp), then max_rss_mb (peak_rss_mb()).
  std::string model_load = "run";
  std::string predicted_best_run = "-";
  std::string predicted_best_estimated = "-";
  std::string est_ml = "-";
  std::string est_tl = "-";
};
// Fills the prediction fields of an outcome from one loop's statistics.
void set_predictions(outcome& o, const dlb::runtime& rt, const dlb::run_stats& st);
void add_outcome(result_line& line, const outcome& o);

// This process's peak resident memory in MB (getrusage): under --backend sim, the whole
// simulation (every task is in it); under PVM, the master's process only.
double peak_rss_mb();

// Wall seconds since `start`.
double seconds_since(std::chrono::steady_clock::time_point start);

// The whole report of a program with one balanced loop (MXM, AC) on the master: the
// verification line, then the RESULT line. Returns the exit code (0 verified, 1 not).
// `reference`: where the verification's reference came from ("cached" or "computed", printed as
// the RESULT key reference=), or "" (no reference cache: no key).
int report_single_loop(const dlb::runtime& rt, const std::string& app, const std::string& size,
                       const dlb::run_stats& st, const std::string& what, const verification& v,
                       std::chrono::steady_clock::time_point started,
                       const std::string& reference = "");

}  // namespace apps::common
