// The results file of a sweep: its columns, and recording runs so that none is lost or repeated.
//
// Columns: the run's identity (run_spec::key_columns), the outcome (status, exit, started_utc,
// run_wall_s, note, log), the RESULT keys of the contract in a fixed order, then any other
// RESULT key in order of first appearance. Each finished run is appended as one line and
// fsync'ed before the next run starts. A new RESULT key rewrites the file atomically with the
// wider header (temporary file + rename), so the file is always either the old or the new one.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "sweep/app_output.hpp"
#include "sweep/config.hpp"
#include "sweep/csv_table.hpp"

namespace dlb::sweep {

const std::vector<std::string>& outcome_columns();
// The RESULT keys of the contract that are not parameters, in column order.
const std::vector<std::string>& result_columns();
// key_columns + outcome_columns + result_columns.
std::vector<std::string> standard_results_columns();

// The field of a key column in a results row. Results files written before the `backend`
// column existed hold only runs on PVM: an absent or empty backend reads as "pvm".
std::string key_field(const csv_table& table, const std::vector<std::string>& row,
                      std::string_view column);

// The run identity of a results row (same string as run_spec::key()); the table must have the
// key columns (backend may be absent: see key_field).
std::string row_key(const csv_table& table, const std::vector<std::string>& row);

// Checks every row of a results table where it is read: the run's numeric parameters (P, K,
// rep, seed, ml: integers; tl, scale: numbers), the status (ok, failed, unverified, timeout) and
// the numeric result columns (empty or a number). Throws csv_error naming source:line:column and
// the column ("results.csv:3:2: column P must be an integer, got 'four'").
void check_results_rows(const csv_table& table, std::string_view source);
// read_csv_table + check_results_rows.
csv_table read_results_table(const std::filesystem::path& path, csv_read_info* info = nullptr);

// Everything recorded about one finished run.
struct run_record {
  run_verdict verdict;
  child_end end;
  app_output output;
  std::string started_utc;
  double run_wall_s = 0;
  std::string log;  // log file path as written in the row
};

class results_store {
 public:
  // Opens `path`. If it does not exist or holds no header row yet, it is created with
  // `header_comments` and the standard columns. Otherwise its cut-short last line, if any, is
  // removed (dropped_partial_line() tells), and `resume_comment` is appended as a '#' line. A
  // file from before the backend column gets it (value pvm for every row; upgraded() tells).
  // Throws csv_error / std::runtime_error if the file is not a results file.
  results_store(std::filesystem::path path, const std::vector<std::string>& header_comments,
                const std::string& resume_comment);

  bool dropped_partial_line() const { return dropped_partial_; }
  bool resumed() const { return resumed_; }
  bool upgraded() const { return upgraded_; }
  // Status of the last row recorded for a run key, or empty if none.
  std::string status_of(const std::string& key) const;
  std::size_t row_count() const { return table_.rows.size(); }

  // Appends the run's row durably (or rewrites the file if the run brought new RESULT keys).
  void record(const run_spec& run, const run_record& rec);

  const csv_table& table() const { return table_; }

 private:
  std::filesystem::path path_;
  csv_table table_;
  std::map<std::string, std::string> status_;  // key -> status of its last row
  bool dropped_partial_ = false;
  bool resumed_ = false;
  bool upgraded_ = false;
};

}  // namespace dlb::sweep
