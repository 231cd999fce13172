// From raw results to a summary: per configuration and strategy, the median, min and max over
// repetitions of the times, and of the time normalized by the no-DLB run of the same load seed
// (paired), as in the paper's Figures 1.7, 1.9 and 1.10.
//
// A configuration is (app, P, K, size, ml, tl, clock, scale, network, backend, extra_args). Only
// rows with status ok are used; when a run appears in several rows (e.g. re-run with
// --retry-failed, or given twice), its last row counts.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/runs.hpp"
#include "sweep/csv_table.hpp"

namespace dlb::report {

// Every summary column, in order.
const std::vector<std::string>& summary_columns();
// The per-loop and per-assumption predictions: (key in a results row, i.e. the programs' RESULT
// key, summary column holding the most frequent value). TRFD prints loop1_predicted_best...;
// every balanced run prints predicted_best_run and predicted_best_estimated (--model-load).
const std::vector<std::pair<std::string, std::string>>& prediction_columns();
// The summary column of the predicted best for a loop ("", "loop1", "loop2") under one
// assumption about the load ("": the one the runs used, "run", "estimated").
std::string prediction_column(std::string_view loop, std::string_view load);
// The order in which apps and strategies are listed.
int app_rank(std::string_view app);
int strategy_rank(std::string_view strategy);
// Natural order of size labels ("n=400 r=400" before "n=1600 r=400"); true if a < b.
bool size_less(std::string_view a, std::string_view b);

struct summary_counts {
  std::size_t used = 0;                         // ok rows that went into the summary
  std::map<std::string, std::size_t> excluded;  // by status (failed, unverified, timeout, ...)
  std::size_t superseded = 0;                   // earlier rows of a run recorded again later
  std::size_t no_total = 0;                     // ok rows without a number in total_s
};

struct summary_result {
  sweep::csv_table table;  // columns = summary_columns(); comments left to the caller
  summary_counts counts;
};

// Summarizes the rows of one or more results tables (later tables win for repeated runs).
summary_result summarize(const std::vector<sweep::csv_table>& results);

// One summary row, with typed access by column name.
struct summary_row {
  std::map<std::string, std::string> fields;

  std::string_view text(const std::string& column) const;
  std::optional<double> number(const std::string& column) const;
  std::string app() const { return std::string(text("app")); }
  std::string strategy() const { return std::string(text("strategy")); }
  int procs() const;
  int ml() const;
  // "pvm" or "sim"; summaries from before the backend column read as pvm.
  std::string backend() const;
  // Everything that identifies the configuration (all config columns joined).
  std::string config_key() const;
};
std::vector<summary_row> load_summary(const sweep::csv_table& table);
// The distinct backends of some rows in order, joined by `separator` ("pvm+sim"), or `none`
// when there are no rows.
std::string backends_joined(const std::vector<summary_row>& rows, std::string_view separator,
                            std::string_view none);

}  // namespace dlb::report
