// The Markdown report: our numbers beside the paper's (Tables 1.1-1.4, Figures 1.7, 1.9, 1.10,
// the claims), the emulation lag, provenance and the commands that produced it.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/claims.hpp"
#include "report/diagnosis.hpp"
#include "report/implied.hpp"
#include "report/paper.hpp"
#include "report/summary.hpp"
#include "sweep/csv_table.hpp"

namespace dlb::report {

struct report_inputs {
  std::string summary_path;
  sweep::csv_table summary_table;
  std::vector<std::pair<std::string, sweep::csv_table>> results;  // path, raw results
  std::string paper_dir;
  std::vector<paper_nodlb_row> paper_nodlb;
  std::vector<paper_best_row> paper_best;
  std::vector<implied_time> paper_implied;  // Table 1.4's and the text's DLB times (implied.hpp)
  std::vector<std::string> figures;         // links, relative to the report's directory
  std::vector<std::string> commands;        // further commands that produced inputs (e.g. plots)
  std::string report_command;
  double lag_flag_pct = 1.0;  // a run lagging more than this percent is flagged
  // Optional cross-check: a summary of some of the same configurations on another backend
  // (e.g. real PVM tasks), set beside the main summary's normalized times.
  std::string crosscheck_path;
  sweep::csv_table crosscheck_table;
  // The same configurations and seeds as the cross-check, on this report's backend: what the
  // cross-check is compared with (empty: the main summary, whose seeds may differ).
  std::string crosscheck_base_path;
  sweep::csv_table crosscheck_base_table;
  // Optional: the sensitivity study's per-claim results (dlb_sensitivity's claims.csv) and a
  // link to its summary (SENSITIVITY.md, relative to the report's directory): the claims table
  // then shows each claim's share of the region beside its verdict at the defaults.
  sweep::csv_table sensitivity_claims;
  std::string sensitivity_link;
  // Optional: each claim diagnosed with a bootstrap over the results' seeds (diagnosis.hpp), shown
  // after the claims.
  std::optional<diagnosis> claim_diagnosis;
};

std::string render_report(const report_inputs& in);

// How often one prediction (the runs' own, or under one assumption about the load) picked the
// actual best, and by how much it missed (percent slower than the best, per miss).
struct prediction_tally {
  std::size_t rows = 0, right = 0, second = 0;
  std::vector<double> miss_pct;
  double mean_miss() const;  // 0 without a miss
  double max_miss() const;
};

// One row of Table 1.4 beside one measured configuration (several where our sizes match one row
// more than once), or beside nothing (config null: not measured).
struct table14_row {
  const paper_best_row* paper = nullptr;
  const config_view* config = nullptr;
  std::string label;                                // "MXM P=4 n=400 r=400 m=400" (+ " L1"/" L2")
  ranking rank;                                     // ours, best first
  std::string predicted, diff;                      // our model (the runs' load), and its miss
  std::string predicted_estimated, diff_estimated;  // the same with the estimated load
  std::string auto_over_best = "-";                 // AUTO's median time over the best's
};

// Table 1.4 against a summary: each row, our actual best against the paper's, our model's
// prediction against our actual best (two loads) and against the paper's predicted column.
struct table14_comparison {
  std::vector<table14_row> rows;
  std::size_t paper_rows = 0, measured = 0, same_actual = 0;
  prediction_tally as_run, estimated;
  std::size_t model_rows = 0, model_matches = 0;  // our model against the paper's predicted
  std::size_t model_same_global_local = 0, model_same_central_distributed = 0;
};
table14_comparison compare_table14(const std::vector<config_view>& configs,
                                   const std::vector<paper_best_row>& paper_best);

}  // namespace dlb::report
