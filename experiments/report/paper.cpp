// Reading the paper's transcribed tables.
#include "report/paper.hpp"

#include <algorithm>

#include "sweep/config.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/text.hpp"

namespace dlb::report {
namespace {

using sweep::csv_error;
using sweep::csv_table;

// A transcribed table is read whole or refused: a last line cut short (no newline at its end)
// is an error here, not the end of the table (results files drop such a line: a crash there is
// a run to redo; a paper table has no run behind it).
csv_table read_required(const std::filesystem::path& p, const std::vector<std::string>& cols) {
  sweep::csv_read_info info;
  const std::string text = sweep::read_file(p);
  csv_table t = sweep::parse_csv_table(text, p.string(), &info);
  if (info.dropped_partial_line) {
    const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    throw csv_error(p.string() + ":" + std::to_string(lines + 1) +
                    ": the table ends in a line cut short (no newline at its end); the table "
                    "is incomplete");
  }
  for (const auto& c : cols) {
    if (!t.column(c)) throw csv_error(p.string() + ": no column '" + c + "'");
  }
  return t;
}

// "file:line:column: column C ..." for the field of row `i` in column `col`.
std::string where(const csv_table& t, std::size_t i, const char* col,
                  const std::filesystem::path& p) {
  const std::size_t line = i < t.row_lines.size() ? t.row_lines[i] : 0;
  return p.string() + ":" + std::to_string(line) + ":" + std::to_string(*t.column(col) + 1) +
         ": column " + col;
}

std::int64_t int_field(const csv_table& t, std::size_t i, const char* col,
                       const std::filesystem::path& p) {
  const auto v = sweep::parse_int(t.field(t.rows[i], col));
  if (!v)
    throw csv_error(where(t, i, col, p) + " must be an integer, got '" +
                    std::string(t.field(t.rows[i], col)) + "'");
  return *v;
}

}  // namespace

std::vector<paper_nodlb_row> read_paper_nodlb(const std::filesystem::path& dir) {
  struct source {
    const char* file;
    const char* app;
    const char* table;
    std::vector<std::string> size_cols;
  };
  const std::vector<source> sources{
      {"table1_1_mxm_nodlb.csv", "mxm", "Table 1.1", {"n", "r", "m"}},
      {"table1_2_trfd_nodlb.csv", "trfd", "Table 1.2", {"n"}},
      {"table1_3_ac_nodlb.csv", "ac", "Table 1.3", {"n"}},
  };
  std::vector<paper_nodlb_row> out;
  for (const auto& s : sources) {
    const auto path = dir / s.file;
    std::vector<std::string> cols = s.size_cols;
    cols.insert(cols.end(), {"P", "time_s"});
    const csv_table t = read_required(path, cols);
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
      const auto& row = t.rows[i];
      paper_nodlb_row r;
      r.app = s.app;
      r.table = s.table;
      r.procs = static_cast<int>(int_field(t, i, "P", path));
      for (const auto& c : s.size_cols) r.size[c] = int_field(t, i, c.c_str(), path);
      const auto time = sweep::parse_double(t.field(row, "time_s"));
      if (!time)
        throw csv_error(where(t, i, "time_s", path) + " must be a number, got '" +
                        std::string(t.field(row, "time_s")) + "'");
      r.time_s = *time;
      out.push_back(r);
    }
  }
  return out;
}

std::vector<paper_best_row> read_paper_best(const std::filesystem::path& dir) {
  const auto path = dir / "table1_4_best.csv";
  const csv_table t = read_required(
      path, {"app", "P", "size", "loop", "actual_best", "predicted_best", "diff_s", "diff_pct"});
  std::vector<paper_best_row> out;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const auto& row = t.rows[i];
    paper_best_row r;
    r.app = sweep::lower(std::string(t.field(row, "app")));
    r.procs = static_cast<int>(int_field(t, i, "P", path));
    r.size_text = std::string(t.field(row, "size"));
    try {
      for (const auto& [k, v] : sweep::parse_size(r.size_text).params) r.size[k] = v;
    } catch (const sweep::config_error& e) {
      throw csv_error(where(t, i, "size", path) + ": " + e.what());
    }
    if (r.app == "mxm" && !r.size.count("m")) r.size["m"] = 400;  // "MXM always has m=400"
    r.loop = std::string(t.field(row, "loop"));
    r.actual_best = std::string(t.field(row, "actual_best"));
    r.predicted_best = std::string(t.field(row, "predicted_best"));
    r.diff_s = std::string(t.field(row, "diff_s"));
    r.diff_pct = std::string(t.field(row, "diff_pct"));
    out.push_back(r);
  }
  return out;
}

bool size_matches(const size_params& paper, std::string_view our_label) {
  size_params ours;
  try {
    for (const auto& [k, v] : sweep::parse_size(our_label).params) ours[k] = v;
  } catch (const sweep::config_error&) {
    return false;
  }
  for (const auto& [k, v] : paper) {
    const auto it = ours.find(k);
    if (it == ours.end() || it->second != v) return false;
  }
  return true;
}

std::string size_text(const size_params& s, const std::vector<std::string>& order) {
  std::string out;
  for (const auto& k : order) {
    if (const auto it = s.find(k); it != s.end()) {
      out += (out.empty() ? "" : " ") + k + "=" + std::to_string(it->second);
    }
  }
  for (const auto& [k, v] : s) {
    if (std::find(order.begin(), order.end(), k) == order.end()) {
      out += (out.empty() ? "" : " ") + k + "=" + std::to_string(v);
    }
  }
  return out;
}

}  // namespace dlb::report
