// The Markdown report: our numbers beside the paper's (Tables 1.1-1.4, Figures 1.7, 1.9, 1.10,
// the claims), the emulation lag, provenance and the commands that produced it.
#pragma once

#include <string>
#include <utility>
#include <vector>

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
  std::vector<std::string> figures;   // links, relative to the report's directory
  std::vector<std::string> commands;  // further commands that produced inputs (e.g. plots)
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
};

std::string render_report(const report_inputs& in);

}  // namespace dlb::report
