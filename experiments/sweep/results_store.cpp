// Recording finished runs in a results file, durably and without duplicates.
#include "sweep/results_store.hpp"

#include <algorithm>

#include "sweep/text.hpp"

namespace dlb::sweep {

const std::vector<std::string>& outcome_columns() {
  static const std::vector<std::string> c{"status",     "exit", "started_utc",
                                          "run_wall_s", "note", "log"};
  return c;
}

const std::vector<std::string>& result_columns() {
  static const std::vector<std::string> c{
      "verified",         "total_s",     "loop1_s", "loop2_s", "syncs",          "redistributions",
      "iterations_moved", "bytes_moved", "lag_s",   "lag_pct", "predicted_best", "wall_s"};
  return c;
}

std::vector<std::string> standard_results_columns() {
  std::vector<std::string> c = run_spec::key_columns();
  c.insert(c.end(), outcome_columns().begin(), outcome_columns().end());
  c.insert(c.end(), result_columns().begin(), result_columns().end());
  return c;
}

std::string key_field(const csv_table& table, const std::vector<std::string>& row,
                      std::string_view column) {
  const std::string_view v = table.field(row, column);
  if (v.empty() && column == "backend") return "pvm";
  return std::string(v);
}

std::string row_key(const csv_table& table, const std::vector<std::string>& row) {
  std::string k;
  for (const auto& c : run_spec::key_columns()) {
    k += key_field(table, row, c);
    k += '\x1f';
  }
  return k;
}

void check_results_rows(const csv_table& table, std::string_view source) {
  struct rule {
    const char* column;
    enum { integer, positive_integer, number, status } kind;
  };
  static const rule rules[] = {{"P", rule::positive_integer},
                               {"K", rule::positive_integer},
                               {"rep", rule::integer},
                               {"seed", rule::integer},
                               {"ml", rule::integer},
                               {"tl", rule::number},
                               {"scale", rule::number},
                               {"status", rule::status},
                               {"run_wall_s", rule::number},
                               {"total_s", rule::number},
                               {"loop1_s", rule::number},
                               {"loop2_s", rule::number},
                               {"syncs", rule::number},
                               {"redistributions", rule::number},
                               {"iterations_moved", rule::number},
                               {"bytes_moved", rule::number},
                               {"lag_s", rule::number},
                               {"lag_pct", rule::number},
                               {"wall_s", rule::number}};
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const auto& row = table.rows[i];
    const std::size_t line = i < table.row_lines.size() ? table.row_lines[i] : 0;
    for (const auto& r : rules) {
      const auto col = table.column(r.column);
      if (!col || *col >= row.size()) continue;
      const std::string& v = row[*col];
      // The outcome and the results of a run may be empty (a failed run has no times; the
      // summary counts a row without a status apart); its parameters may not.
      const bool key = r.kind == rule::integer || r.kind == rule::positive_integer;
      if (v.empty() && !key) continue;
      std::string want;
      if (r.kind == rule::positive_integer) {
        const auto n = parse_int(v);
        if (!n || *n < 1) want = "a positive integer";
      } else if (r.kind == rule::integer) {
        const auto n = parse_int(v);
        if (!n || *n < 0) want = "an integer >= 0";
      } else if (r.kind == rule::number) {
        if (!parse_double(v)) want = "a number";
      } else if (v != "ok" && v != "failed" && v != "unverified" && v != "timeout") {
        want = "ok, failed, unverified or timeout";
      }
      if (!want.empty()) {
        throw csv_error(std::string(source) + ":" + std::to_string(line) + ":" +
                        std::to_string(*col + 1) + ": column " + r.column + " must be " + want +
                        ", got '" + v + "'");
      }
    }
  }
}

csv_table read_results_table(const std::filesystem::path& path, csv_read_info* info) {
  csv_table t = read_csv_table(path, info);
  check_results_rows(t, path.string());
  return t;
}

results_store::results_store(std::filesystem::path path,
                             const std::vector<std::string>& header_comments,
                             const std::string& resume_comment)
    : path_(std::move(path)) {
  std::error_code ec;
  const bool exists = std::filesystem::exists(path_, ec);
  if (exists) {
    csv_read_info info;
    table_ = read_results_table(path_, &info);
    if (info.dropped_partial_line) {
      // Cut the incomplete record off, so the next append starts on a fresh line.
      std::filesystem::resize_file(path_, info.complete_length);
      dropped_partial_ = true;
    }
  }
  if (!exists || table_.columns.empty()) {
    // New file (or one that died before its header row was written): start it afresh.
    table_ = csv_table{};
    table_.comments = header_comments;
    table_.columns = standard_results_columns();
    write_atomically(path_, format_csv_table(table_), true);
    return;
  }
  if (!table_.column("backend") && table_.column("network") && table_.column("extra_args")) {
    // Written before the backend column existed: every run in it ran on PVM. Insert the column
    // where it belongs (after network) and rewrite the file atomically.
    const std::size_t at = *table_.column("network") + 1;
    table_.columns.insert(table_.columns.begin() + static_cast<std::ptrdiff_t>(at), "backend");
    for (auto& row : table_.rows) row.insert(row.begin() + static_cast<std::ptrdiff_t>(at), "pvm");
    table_.comments.push_back("upgraded: added the backend column (pvm for the " +
                              std::to_string(table_.rows.size()) +
                              " rows before: they ran on PVM tasks)");
    write_atomically(path_, format_csv_table(table_), true);
    upgraded_ = true;
  }
  for (const auto& c : standard_results_columns()) {
    if (!table_.column(c)) {
      throw csv_error(path_.string() + " is not a dlb_sweep results file (no column '" + c + "')");
    }
  }
  for (const auto& row : table_.rows) {
    status_[row_key(table_, row)] = std::string(table_.field(row, "status"));
  }
  resumed_ = true;
  table_.comments.push_back(resume_comment);
  append_durably(path_, "# " + resume_comment + "\n");
}

std::string results_store::status_of(const std::string& key) const {
  const auto it = status_.find(key);
  return it == status_.end() ? std::string() : it->second;
}

void results_store::record(const run_spec& run, const run_record& rec) {
  // Values by column name; parameters first, so a RESULT key can never overwrite them.
  std::map<std::string, std::string> values;
  const auto keys = run_spec::key_columns();
  const auto key_vals = run.key_values();
  for (std::size_t i = 0; i < keys.size(); ++i) values[keys[i]] = key_vals[i];
  values["status"] = std::string(to_string(rec.verdict.status));
  values["exit"] = exit_text(rec.end);
  values["started_utc"] = rec.started_utc;
  values["run_wall_s"] = format_sig(rec.run_wall_s, 6);
  values["note"] = rec.verdict.note;
  values["log"] = rec.log;
  bool widened = false;
  // The RESULT pairs, then the PREDICTION and RUNINFO pairs (a key already set keeps its value).
  for (const auto* pairs : {&rec.output.result, &rec.output.prediction, &rec.output.run_info}) {
    for (const auto& [k, v] : *pairs) {
      if (is_echoed_parameter(k) || values.count(k)) continue;
      values[k] = v;
      if (!table_.column(k)) {
        table_.columns.push_back(k);
        for (auto& row : table_.rows) row.emplace_back();
        widened = true;
      }
    }
  }
  std::vector<std::string> row;
  row.reserve(table_.columns.size());
  for (const auto& c : table_.columns) {
    const auto it = values.find(c);
    row.push_back(it == values.end() ? std::string() : it->second);
  }
  table_.rows.push_back(row);
  status_[run.key()] = values["status"];
  if (widened) {
    write_atomically(path_, format_csv_table(table_), true);
  } else {
    append_durably(path_, csv_line(row));
  }
}

}  // namespace dlb::sweep
