// The analysis of the experiments beyond the paper (`make beyond`): raw sweep results
// -> per configuration, each policy's time against the oracle bound and against the others,
// paired by load seed. Pure functions of tables, unit-tested (tests/unit/beyond_test.cpp);
// dlb_beyond turns them into the Markdown of experiments/BEYOND.md.
//
// A configuration is everything that identifies a run except the policy and the repetition:
// app, P, K, size, ml, tl, network, backend and extra arguments (the load seed pairs the runs of
// different policies). Only runs with status ok and verified = 1 count.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "report/stats.hpp"
#include "sweep/csv_table.hpp"

namespace dlb::report::beyond {

struct run {
  std::string config;  // "mxm P=16 K=8 n=1600 r=400 m=400 ml=5 tl=5" (+ network, args)
  std::string app;
  int procs = 0;
  std::string size;
  std::string args;  // extra_args
  int ml = 0;
  std::string network;
  std::string policy;  // strategy column: NONE, GCDLB, ..., AUTO, ADAPTIVE, SS, CSS:16, ...
  std::string status;  // ok, or for unfinished_runs: timeout, failed or unverified
  std::string seed;
  double time = 0;    // total_s
  double oracle = 0;  // oracle_s (0: none)
  double bound = 0;   // comm_bound_s, the communication-aware bound (0: none, an older run)
  double wall = 0;    // run_wall_s: the run's wall time, measured by the driver
  double rss_mb = 0;  // max_rss_mb (0: not reported)
  double loadavg = -1;  // loadavg_1m: the machine's load average as the run started (-1: none)
  // What a customized run chose: the column `choices` (ADAPTIVE's sequence) if the run has one,
  // else `chosen` (AUTO's commitment); "" or "-" for the others. For a program of two balanced
  // loops (TRFD: loop1_choices, loop2_choices), "loop 1's / loop 2's".
  std::string chose;
};

// The verified runs of a results table (dlb_sweep's format), in file order. Throws
// std::runtime_error naming the column if a needed one is missing.
std::vector<run> verified_runs(const sweep::csv_table& table);
// The runs recorded as timeout (stopped by the sweep after its time bound), failed or
// unverified, in file order: their identity, `status` and `wall`, the wall seconds after which
// they ended (no times: they ended with no result).
std::vector<run> unfinished_runs(const sweep::csv_table& table);

// The runs of one configuration: time per policy and seed, oracle per seed.
struct config_runs {
  std::string config;
  std::string app;
  int procs = 0;
  std::string size;
  std::string args;
  int ml = 0;
  std::string network;
  std::map<std::string, std::map<std::string, double>> time;  // policy -> seed -> seconds
  std::map<std::string, double> oracle;                       // seed -> seconds
  std::map<std::string, double> bound;  // seed -> seconds: the communication-aware bound
  // Runs faster than their communication-aware bound (none if the bound is one), and all runs
  // that had one.
  int below_bound = 0;
  int with_bound = 0;
  std::map<std::string, double> wall;                               // policy -> the largest run's
  std::map<std::string, double> rss_mb;                             // policy -> the largest run's
  std::vector<double> loadavg;  // the runs' load averages where recorded (the native study)
  std::map<std::string, std::map<std::string, std::string>> chose;  // policy -> seed -> run.chose
  std::vector<std::string> policies;                                // in order of first appearance
  // Policies whose run was stopped at the sweep's time bound (add_unfinished): the longest wall
  // seconds after which one was stopped; and those whose run failed or was not verified: the
  // status.
  std::map<std::string, double> timed_out;
  std::map<std::string, std::string> failed;
};
// Grouped by configuration, in order of first appearance.
std::vector<config_runs> by_config(const std::vector<run>& runs);
// Adds the unfinished runs (unfinished_runs) to their configurations (a configuration with none
// verified is added after the others); their policies join the configuration's policies.
void add_unfinished(std::vector<config_runs>& configs, const std::vector<run>& unfinished);

// Median over the seeds of a policy's time, of time / oracle, or of time / the
// communication-aware bound; nullopt if not measured.
std::optional<double> median_time(const config_runs& c, const std::string& policy);
std::optional<double> median_over_oracle(const config_runs& c, const std::string& policy);
std::optional<double> median_over_bound(const config_runs& c, const std::string& policy);
// Median over the seeds of the communication-aware bound over the oracle: what the network
// alone adds to the ideal balancer; nullopt without both.
std::optional<double> bound_over_oracle(const config_runs& c);

// The policy of `candidates` with the smallest median time (ties: the first listed); nullopt if
// none was measured.
std::optional<std::string> best_of(const config_runs& c,
                                   const std::vector<std::string>& candidates);

// The paired ratio a / b over the seeds both were run with (report::ratio_of).
std::optional<ratio_estimate> paired_ratio(const config_runs& c, const std::string& a,
                                           const std::string& b);
// The per-seed ratio of the best of `a_set` to the best of `b_set`, each chosen by median over
// the configuration's seeds (the pairing kept): e.g. the paper's best strategy against the best
// self-scheduling baseline.
std::optional<ratio_estimate> best_against_best(const config_runs& c,
                                                const std::vector<std::string>& a_set,
                                                const std::vector<std::string>& b_set);

// The workload of each configuration of a scale study, by configuration: configurations that
// differ only in P and in the first size parameter (n, iterations) belong to one workload; it
// is strong scaling where that parameter is the same for several P ("mxm r=128 m=128, n=3072
// (strong)"), weak otherwise, labelled by the parameter per slave ("... n = 32 P (weak)").
// Where the configurations hold more than one network, each network is a workload of its own
// ("synthetic ... ml=5 on switched, iterations = 20 P (weak)").
std::map<std::string, std::string> workload_labels(const std::vector<config_runs>& configs);

// The distinct workloads of `labels` (workload_labels), in order of first appearance.
std::vector<std::string> workloads_in_order(const std::vector<config_runs>& configs,
                                            const std::map<std::string, std::string>& labels);

// Every policy measured in `configs`, in the driver's order (report::strategy_rank).
std::vector<std::string> policies_of(const std::vector<config_runs>& configs);

// The simulation's own cost per P, over every policy and configuration: the runs' wall
// seconds (median, and the slowest with its workload and policy) and the largest peak memory.
struct simulation_cost {
  int procs = 0;
  std::size_t runs = 0;
  double median_wall = 0;
  double slowest_wall = 0;
  std::string slowest;  // "workload, policy"
  double peak_rss_mb = 0;
};
std::vector<simulation_cost> simulation_costs(const std::vector<config_runs>& configs);

// A target of the simulation's cost: `policy` at P = `procs` on the synthetic loop, every
// synthetic workload of the results, within `wall_s` of wall time and `rss_mb` of peak memory per
// run. A workload without that run leaves the target not shown (not met).
struct scale_target {
  std::string policy;
  int procs = 0;
  double wall_s = 60, rss_mb = 4096;
};
struct scale_target_result {
  scale_target target;
  int workloads = 0;  // synthetic workloads run at that P under that policy
  int within = 0;     // of them, within both limits
  int missing = 0;    // synthetic workloads without that run
  double worst_wall = 0, worst_rss = 0;
  bool met() const { return missing == 0 && workloads > 0 && within == workloads; }
};
scale_target_result judge(const std::vector<config_runs>& configs, const scale_target& t);

// The smallest P of `c`'s workload (workload_labels) below c.procs at which `policy` was
// stopped at the time bound, and so not run at c's P (dlb_sweep --skip-after-timeout); nullopt
// if there is none, or if `policy` has a result or a timeout of its own at c.
std::optional<int> skipped_after_timeout(const std::vector<config_runs>& configs,
                                         const std::map<std::string, std::string>& labels,
                                         const config_runs& c, const std::string& policy);

// AUTO-ALL (docs/design/policies.md, "AUTO-ALL") against every fixed policy of a configuration: each
// policy measured there but NONE and AUTO-ALL itself (the paper's four, ADAPTIVE, the
// self-scheduling baselines, AUTO), in the driver's order.
std::vector<std::string> fixed_policies(const config_runs& c);
struct auto_all_row {
  std::string config;
  std::string best;                              // the fixed policy of least median time
  std::optional<ratio_estimate> vs_best;         // AUTO-ALL / best, paired by seed
  std::map<std::string, ratio_estimate> vs;      // AUTO-ALL / each fixed policy, paired by seed
  std::map<std::string, std::string> committed;  // seed -> what AUTO-ALL committed to
};
// Nothing if AUTO-ALL or every fixed policy is missing.
std::optional<auto_all_row> compare_auto_all(const config_runs& c);
// Over the rows: how many have AUTO-ALL / best <= 1.03 (the target: >= 90% of them), and per
// fixed policy the geometric mean over configurations of the per-configuration ratio (the
// target: < 1 against every one) with its 95% interval over configurations.
struct auto_all_summary {
  std::size_t within = 0;
  std::size_t configs = 0;  // rows with a ratio to the best
  // The regret table's shares: rows with AUTO-ALL / best <= 1.01, 1.03 and 1.05.
  static constexpr std::array<double, 3> kPercents = {1.0, 3.0, 5.0};
  std::array<std::size_t, 3> within_pct{};
  bool met() const { return configs > 0 && within * 10 >= configs * 9; }
  std::map<std::string, ratio_estimate> vs;
  // How often each policy was committed to, over the rows' seeds (TRFD: each loop's).
  std::map<std::string, std::size_t> commitments;
};
auto_all_summary summarize_auto_all(const std::vector<auto_all_row>& rows);

// The four strategies of the paper and the self-scheduling baselines present in a configuration.
const std::vector<std::string>& paper_strategies();
bool is_self_scheduling(const std::string& policy);

}  // namespace dlb::report::beyond
