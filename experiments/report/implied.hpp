// The paper's DLB times implied by Table 1.4 and the text (issue 34), and the report's section
// that sets them beside ours.
//
// Where Table 1.4's predicted scheme differs from the actual best it prints the difference in
// seconds (diff_s) and in percent of the actual best's time (diff_pct), so diff_s / diff_pct is
// the actual best's time, and that time plus diff_s the predicted scheme's. The text confirms
// the reading (section 1.5.5: TRFD P=4 n=40 L2, "24.2s and 25.7s", 1.5 s, 6.2 %). Half a unit of
// each printed digit gives an interval. Rows of a whole program (MXM, AC) divide by the no-DLB
// time of Tables 1.1-1.3 (the paper's only measurements of what DLB gained); TRFD's rows are
// loop times, which have no no-DLB counterpart in the paper, so they stay in seconds.
#pragma once

#include <filesystem>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "report/paper.hpp"
#include "sweep/csv_table.hpp"

namespace dlb::report {

// A time the text states directly (experiments/paper/text_times.csv).
struct paper_text_time {
  std::string app;  // mxm, trfd, ac
  int procs = 0;
  size_params size;
  std::string size_text;
  std::string loop;  // "", "L1", "L2"
  std::string scheme;
  std::string time_s;  // as printed
  std::string source;  // e.g. "section 1.5.5 text"
};

struct implied_time {
  std::string source;  // where the number comes from, and how it was derived
  std::string app;
  int procs = 0;
  size_params size;
  std::string size_text;
  std::string loop;
  std::string row;     // "MXM P=16 n=1600 r=400" (+ " L2")
  std::string scheme;  // the scheme whose time this is
  std::string role;    // "actual best", "predicted best" or "stated"
  std::string diff_s, diff_pct;  // as printed ("" for a stated time)
  double time_s = 0, time_lo = 0, time_hi = 0;
  // The no-DLB time of Tables 1.1-1.3 (0 when the row is a loop's time: TRFD) and the time
  // over it, with the interval its rounding and the no-DLB time's allow (NaN when not normalized).
  double nodlb_s = 0;
  double norm = std::numeric_limits<double>::quiet_NaN();
  double norm_lo = std::numeric_limits<double>::quiet_NaN();
  double norm_hi = std::numeric_limits<double>::quiet_NaN();
  // A normalized row whose interval is narrow enough to judge with (norm_hi / norm_lo <=
  // kUsableSpread); the others (AC P=4 n=200, n=250: 0.1 %, 0.03 %) are shown but not judged.
  bool usable = false;
};

inline constexpr double kUsableSpread = 1.3;
// Every entry of Tables 1.1-1.3 is printed with one decimal.
inline constexpr double kNodlbHalfUnit = 0.05;

// Half a unit of the last printed digit: "1.43" -> 0.005, "24" -> 0.5. Throws
// std::invalid_argument on a non-number.
double half_unit(const std::string& printed);

// Reads text_times.csv (app,P,size,loop,scheme,time_s,source). Throws sweep::csv_error naming a
// missing or malformed file.
std::vector<paper_text_time> read_paper_text_times(const std::filesystem::path& dir);

// Every implied time: for each row of Table 1.4 with a difference, the actual best's and the
// predicted scheme's; then every stated time of the text. Throws std::invalid_argument on a
// row whose difference is not a number or not positive.
std::vector<implied_time> derive_implied(const std::vector<paper_best_row>& best,
                                         const std::vector<paper_nodlb_row>& nodlb,
                                         const std::vector<paper_text_time>& text);

// The derived times as the CSV committed in experiments/paper/implied_times.csv.
sweep::csv_table implied_table(const std::vector<implied_time>& rows);

struct config_view;

// Each implied time judged against a summary's configurations: ours (the same scheme's median:
// normalized, or the loop's time for TRFD), our best, our oracle bound over no-DLB, and the
// counts over the usable rows of an actual best (what the report's section states).
struct implied_judged_row {
  const implied_time* time = nullptr;
  bool normalized = false;
  double lo = 0, hi = 0;  // the paper's interval (normalized, or seconds)
  std::optional<double> ours, best, oracle;
  std::string best_name = "-";
  bool in = false;     // ours inside the paper's interval
  bool below = false;  // the paper's time below our oracle bound
};
struct implied_judgement {
  std::vector<implied_judged_row> rows;
  std::size_t usable = 0, measured = 0, contained = 0, beaten = 0;
  std::vector<std::string> beaten_rows;
};
implied_judgement judge_implied(const std::vector<implied_time>& rows,
                                const std::vector<config_view>& configs);

// The report's section: each implied time beside ours (the same scheme's normalized time, our
// best's, our oracle bound over no-DLB) and the strategy-free consistency line (rows where the
// paper's time beat our oracle bound). Nothing when `rows` is empty.
void section_implied(std::ostringstream& md, const std::vector<implied_time>& rows,
                     const std::vector<config_view>& configs);

}  // namespace dlb::report
