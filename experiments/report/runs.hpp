// The table of runs (experiments/README.md, "Where things are defined"): dlb_sweep's results
// files read once into runs, each a view of its row with typed access; a run's configuration key;
// the pairing of a run with the run of a reference policy (NONE, or any named one) of the same
// configuration and load seed; the seeds of some results and their resampling. Every report,
// summary and study is a query over these.
//
// A configuration is (app, P, K, size, ml, tl, clock, scale, network, backend, extra_args): the
// run's parameters but the policy (strategy) and the repetition; the load seed pairs the runs of
// different policies. When a run appears in several rows (re-run with --retry-failed, or its file
// given twice), its last row counts.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sweep/csv_table.hpp"

namespace dlb::report {

// The columns that identify a configuration, in summary column order.
const std::vector<std::string>& config_columns();

// One run: its row in its table.
struct run {
  const sweep::csv_table* table = nullptr;
  const std::vector<std::string>* row = nullptr;

  // The row's field ("" when the table has no such column).
  std::string_view text(std::string_view column) const { return table->field(*row, column); }
  // The field as a number; nullopt when absent or not a number.
  std::optional<double> number(std::string_view column) const;
  // The field as a number, 0 when absent or not a number.
  double value(std::string_view column) const { return number(column).value_or(0.0); }
  std::string status() const { return std::string(text("status")); }
  bool ok() const { return text("status") == "ok"; }
  // ok and verified = 1.
  bool verified() const { return ok() && text("verified") == "1"; }
  std::string policy() const { return std::string(text("strategy")); }
  std::string seed() const { return std::string(text("seed")); }
  // Everything that identifies the configuration: config_columns()' fields joined (a missing
  // backend reads as pvm, as in summaries from before that column).
  std::string config_key() const;
};

// Throws std::runtime_error "results table has no column 'C'" for the first of `columns` that
// `table` lacks.
void require_columns(const sweep::csv_table& table, const std::vector<std::string>& columns);

// Every row of `results`, the later of two rows of one run (sweep::row_key) counting in the place
// of the first; `superseded` (if given) counts the earlier rows left out.
std::vector<run> latest_runs(const std::vector<sweep::csv_table>& results,
                             std::size_t* superseded = nullptr);
// Every row of one table, in file order.
std::vector<run> rows_of(const sweep::csv_table& table);

// The runs of a reference policy indexed by configuration and load seed, to pair a run with
// the reference run of its configuration and seed (the last given wins).
class reference_runs {
 public:
  // `runs` that pass `use` (e.g. ok ones) and whose policy is `policy` (NONE, or any other).
  reference_runs(const std::vector<run>& runs, const std::string& policy, bool (*use)(const run&));
  // The reference run of r's configuration (`config`: r.config_key()) and seed; nullptr if none.
  const run* partner(const run& r, const std::string& config) const;

 private:
  std::map<std::string, run> by_seed_;
};

// Values by load seed: one policy's times in one configuration, their oracle bounds, ...
using by_seed = std::map<std::string, double>;
// a[seed] / b[seed] for every seed of both with b[seed] > 0 (and a[seed] > 0 if
// `positive_a`), in seed order: the pairing of two policies, or of a policy and a bound.
std::vector<double> paired_ratios(const by_seed& a, const by_seed& b, bool positive_a = false);

// The load seeds of the results in order of first appearance ("" where a table has no seed
// column: none).
std::vector<std::string> seeds_of(const std::vector<sweep::csv_table>& results);
// The rows of `table` whose seed was drawn, once per draw: the draw's slot becomes the row's rep
// and seed (1000000 + slot), so that a seed drawn twice counts as two seeds. A table without rep
// and seed columns is returned as it is.
sweep::csv_table resample_seeds(const sweep::csv_table& table,
                                const std::vector<std::string>& drawn);

}  // namespace dlb::report
