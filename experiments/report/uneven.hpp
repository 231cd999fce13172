// The analysis of `make uneven` (the synthetic loop with iterations of different costs): raw
// sweep results of experiments/configs/uneven.conf -> the three tables of results/uneven/uneven.md.
// Pure functions of a results table, unit-tested (tests/unit/sweep_uneven_test.cpp); dlb_beyond
// uneven prints them as Markdown.
//
// A run's cell is (shape, start, unit, ml, seed, policy), read from its extra arguments
// (--shape, --distribution, --balance-by) and columns. Only runs with status ok and verified = 1
// count. Ratios pair runs by load seed; a ratio summary is the median and range over the seeds.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "report/runs.hpp"
#include "report/stats.hpp"
#include "sweep/csv_table.hpp"

namespace dlb::report::uneven {

struct run {
  std::string shape;  // linear, heavy, ...
  std::string start;  // block, cyclic
  std::string unit;   // work, iterations
  int ml = 0;
  std::string seed;
  std::string policy;
  double time = 0;                  // total_s
  double syncs = 0;                 // syncs
  std::optional<double> predicted;  // predicted_run_s (the model's time for the run's strategy)
};

// The verified runs of a results table. Throws std::runtime_error naming a missing column, or
// a run whose extra arguments lack --shape, --distribution or --balance-by.
std::vector<run> verified_runs(const sweep::csv_table& table);

// Every run indexed by its cell.
class cells {
 public:
  explicit cells(const std::vector<run>& runs);
  const run* find(const std::string& shape, const std::string& start, const std::string& unit,
                  int ml, const std::string& seed, const std::string& policy) const;
  // The times of one cell's runs by seed.
  by_seed times(const std::string& shape, const std::string& start, const std::string& unit, int ml,
                const std::string& policy) const;
  // Values in order of first appearance.
  const std::vector<std::string>& shapes() const { return shapes_; }
  const std::vector<std::string>& seeds() const { return seeds_; }
  const std::vector<std::string>& policies() const { return policies_; }

 private:
  std::map<std::string, run> by_key_;
  std::vector<std::string> shapes_, seeds_, policies_;
};

// Block start, balancing in work against in iterations, for one shape and policy: the median
// synchronizations without load under each unit; with load (ml = 5) the per-seed ratio of the
// time under work to the time under iterations; for AUTO, the predicted over the measured time
// under each unit.
struct unit_row {
  std::optional<double> syncs_work, syncs_iterations;
  std::optional<spread> time_work_over_iterations;
  std::optional<spread> predicted_over_measured_work, predicted_over_measured_iterations;
};
unit_row compare_units(const cells& c, const std::string& shape, const std::string& policy);

// The per-seed ratio of (shape, start, unit, ml, policy)'s time to (shape, base_start, unit, ml,
// NONE)'s.
std::optional<spread> over_none(const cells& c, const std::string& shape, int ml,
                                const std::string& start, const std::string& unit,
                                const std::string& policy, const std::string& base_start);

}  // namespace dlb::report::uneven
