// Expected results with tolerances (dlb_expected, `make quick`): the quantities a run is judged
// by, the expected value of each with a band derived from the spread over load seeds, and the
// check of a new run against them.
//
// A quantity is a number (a median normalized time, a count of Table 1.4's rows, an agreement
// statistic) or a verdict (a claim's, in one reading). Derivation: a results file of n seeds is
// cut into every subset of k seeds (the seeds the checked run will have); each subset is
// summarized and measured as a run of k seeds would be. A number's expected value is the median
// over the subsets and its band their minimum to maximum, widened by a rounding slack; a
// verdict's allowed values are every verdict some subset gave (one when it is stable over the
// seeds). Runs without external load (ml = 0) are kept in every subset: their seed changes
// nothing.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "report/implied.hpp"
#include "report/paper.hpp"
#include "report/summary.hpp"
#include "sweep/csv_table.hpp"

namespace dlb::report {

// One measured quantity: a number, or a verdict ("holds", "does not hold").
struct measured {
  std::optional<double> number;
  std::string verdict;
  std::string paper;  // the paper's value beside it, as text ("" where the paper has none)
};
// Quantities by key, e.g. "paper norm mxm P=4 n=400 r=400 m=400 GCDLB".
using measurements = std::map<std::string, measured>;

// The paper's tables the paper-level quantities read (Table 1.4; Tables 1.1-1.3 and the text for
// the implied times).
struct paper_tables {
  std::vector<paper_nodlb_row> nodlb;
  std::vector<paper_best_row> best;
  std::vector<implied_time> implied;
};

// `name` + " norm ..." into `out`: every configuration and strategy but NONE, the median paired
// normalized time (TRFD's loops also as "norm_loop1"/"norm_loop2"); and NONE's median time.
void measure_norms(const std::vector<summary_row>& rows, std::string_view name, measurements& out);
// The paper-level quantities of a summary: each claim's verdict in both readings (measured
// ones only) and the counts of claims holding; our no-DLB time over each entry of Tables
// 1.1-1.3 and the count within 25%; Table 1.4's counts; the implied-time rows (ours beside each,
// and the two counts of the report's section).
void measure_paper(const std::vector<summary_row>& rows, const paper_tables& paper,
                   std::string_view name, measurements& out);
// The runs of a results table that are not ok (failed, unverified, timeout).
std::size_t runs_not_ok(const sweep::csv_table& results);
// Two summaries of the same configurations on two backends (a run and its reference): the median
// and the largest |difference| of normalized times in percent of the no-DLB time (as
// dlb_agreement), the pairs compared, and the largest |difference| of NONE's total time in percent.
void measure_agreement(const std::vector<summary_row>& a, const std::vector<summary_row>& b,
                       std::string_view name, measurements& out);

// The distinct load seeds of a results table's rows under load (ml > 0), ascending.
std::vector<int> seeds_of(const sweep::csv_table& results);
// The rows of the seeds in `keep`, and every row without load.
sweep::csv_table keep_seeds(const sweep::csv_table& results, const std::set<int>& keep);
// Every subset of k of the seeds, in lexicographic order. Throws std::invalid_argument when k is
// 0 or larger than the number of seeds.
std::vector<std::set<int>> seed_subsets(const std::vector<int>& seeds, int k);

// One expected quantity.
struct expected_row {
  std::string key;
  std::string kind;                     // "number" or "verdict"
  double expected = 0, lo = 0, hi = 0;  // numbers
  // The value (or verdict) of the first subset, seeds 1..k when the seeds are 1..n: what a run
  // of those seeds gives at the revision of the runs (simulated runs are deterministic).
  std::optional<double> ours;
  std::string ours_verdict;
  std::vector<std::string> verdicts;  // verdicts: the allowed ones, most frequent first
  std::string spread;  // how the band came about, e.g. "120 subsets of 3 of 10 seeds"
  std::string rule;    // the rule that made the band
  std::string paper;   // the paper's value beside it ("" where it has none)
};

// The expected rows from the measurements of each seed subset: numbers the median over the
// subsets, the band [min - slack, max + slack]; verdicts every value some subset gave.
// A key missing from some subsets is expected only where it was measured in all of them.
std::vector<expected_row> derive_expected(const std::vector<measurements>& subsets,
                                          const std::string& spread, double slack);
// A fixed band for quantities that are not about seeds (agreement of backends, runs not ok):
// expected the observed value, band [lo, hi], with its rule.
expected_row fixed_band(const std::string& key, double observed, double lo, double hi,
                        const std::string& rule);

// The expected file (columns key, kind, expected, lo, hi, verdicts, spread, rule, paper, ours)
// and back (a file without the column ours reads as without those values).
// read_expected throws sweep::csv_error naming the file, line and field of a malformed row.
sweep::csv_table expected_table(const std::vector<expected_row>& rows);
std::vector<expected_row> read_expected(const sweep::csv_table& table);

// An expected-values file ends with the line "# integrity: rows=N sha256=HEX": its number of
// rows and the SHA-256 of every byte above that line (what `head -n -1 FILE | sha256sum`
// prints), so a file cut short or edited is refused rather than read as fewer quantities.
// The text of a formatted expected table with that line appended.
std::string seal_expected(const std::string& text, std::size_t rows);
// The rows of a sealed expected file's text; throws sweep::csv_error naming `source` when the
// last line is missing or malformed, when the checksum or the row count disagrees with the
// text above it, and where read_expected would.
std::vector<expected_row> read_sealed_expected(std::string_view text, std::string_view source);

// One check: the key, whether it passed, whether it equals ours (the same seeds at the
// revision of the expected file; nullopt when the file has no such value), and the line.
struct check_line {
  std::string key;
  bool ok = false;
  std::optional<bool> same_as_ours;
  std::string text;
};
// Every expected row against the measurements: a number inside its band, a verdict among the
// allowed ones; a quantity not measured fails.
std::vector<check_line> check_expected(const std::vector<expected_row>& expected,
                                       const measurements& got);
// "expected results: N of M within tolerance"
std::string check_summary(const std::vector<check_line>& lines);
// "identical to ours (same seeds, relative 1e-6): N of M", or "" when no line has ours.
std::string same_as_ours_summary(const std::vector<check_line>& lines);

// The expected rows as Markdown: one table per kind of quantity (normalized times, no-DLB
// times, claims, Table 1.4, implied times, agreement, runs), each row the quantity, the paper's
// value, the expected value and its tolerance, and how the band came about.
std::string render_expected(const std::vector<expected_row>& rows);

}  // namespace dlb::report
