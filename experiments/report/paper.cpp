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

csv_table read_required(const std::filesystem::path& p, const std::vector<std::string>& cols) {
  csv_table t = sweep::read_csv_table(p);
  for (const auto& c : cols) {
    if (!t.column(c)) throw csv_error(p.string() + ": no column '" + c + "'");
  }
  return t;
}

std::int64_t int_field(const csv_table& t, const std::vector<std::string>& row, const char* col,
                       const std::filesystem::path& p) {
  const auto v = sweep::parse_int(t.field(row, col));
  if (!v)
    throw csv_error(p.string() + ": column " + col + " is not an integer: '" +
                    std::string(t.field(row, col)) + "'");
  return *v;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
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
    for (const auto& row : t.rows) {
      paper_nodlb_row r;
      r.app = s.app;
      r.table = s.table;
      r.procs = static_cast<int>(int_field(t, row, "P", path));
      for (const auto& c : s.size_cols) r.size[c] = int_field(t, row, c.c_str(), path);
      const auto time = sweep::parse_double(t.field(row, "time_s"));
      if (!time) throw csv_error(path.string() + ": time_s is not a number");
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
  for (const auto& row : t.rows) {
    paper_best_row r;
    r.app = lower(std::string(t.field(row, "app")));
    r.procs = static_cast<int>(int_field(t, row, "P", path));
    r.size_text = std::string(t.field(row, "size"));
    try {
      for (const auto& [k, v] : sweep::parse_size(r.size_text).params) r.size[k] = v;
    } catch (const sweep::config_error& e) {
      throw csv_error(path.string() + ": " + e.what());
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
