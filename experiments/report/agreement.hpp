// Agreement of two summaries of the same configurations, typically one per backend (sim and
// pvm): per (configuration, DLB strategy), the median normalized time (time / no-DLB time of
// the same seed) of each, and their difference. Configurations are matched on everything but
// the backend and the echoed-only clock and scale: (app, P, K, size, ml, tl, network,
// extra_args, strategy).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/stats.hpp"
#include "report/summary.hpp"

namespace dlb::report {

struct agreement_row {
  std::string app, size, strategy;
  int procs = 0, group = 0, ml = 0;
  std::string measure;  // "total", or "loop1" / "loop2" for TRFD's loops
  double norm_a = 0, norm_b = 0;
  int runs_a = 0, runs_b = 0;
  double diff_pct() const { return 100.0 * (norm_a - norm_b); }  // percent of the no-DLB time
};

struct agreement_result {
  std::string backend_a, backend_b;      // as found in the summaries ("sim", "pvm", or mixed)
  std::vector<agreement_row> rows;       // total times; NONE (always 1) left out
  std::vector<agreement_row> loop_rows;  // TRFD's loops (norm_loop1 / norm_loop2)
  std::size_t only_a = 0, only_b = 0;    // (configuration, strategy) pairs without a partner
  std::optional<spread> abs_diff_pct;    // |diff_pct| over rows
  std::optional<double> mean_diff_pct;   // signed mean over rows: > 0 when A is slower
};

agreement_result compare_summaries(const std::vector<summary_row>& a,
                                   const std::vector<summary_row>& b);

// Markdown: the stats line and a table of every pair (configuration, strategy). `median_target`
// and `max_target` (percent) are stated next to the numbers.
std::string render_agreement(const agreement_result& r, double median_target = 2.0,
                             double max_target = 5.0);

}  // namespace dlb::report
