// dlb_expected: expected results with tolerances from the spread over load seeds, and the check
// of a run against them (`make quick`; experiments/report/expected.hpp has the rules).
//
// Derive (--out): the results of n seeds, cut into every subset of --subset K seeds, give each
// quantity's expected value and band. Check (--expected): a run's quantities against that file,
// one line per check and the summary line "expected results: N of M within tolerance".
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "report/expected.hpp"
#include "report/implied.hpp"
#include "report/paper.hpp"
#include "report/summary.hpp"
#include "sweep/cli.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/results_store.hpp"
#include "sweep/safe_files.hpp"
#include "sweep/text.hpp"

namespace fs = std::filesystem;
using namespace dlb;

namespace {

const char* kUsage =
    "usage: dlb_expected INPUTS... --subset K --out EXPECTED.csv [--markdown EXPECTED.md] [--slack "
    "X]\n"
    "                    [--median-target PCT] [--max-target PCT] [--paper-dir DIR]\n"
    "       dlb_expected INPUTS... --expected EXPECTED.csv [--out CHECK.txt] [--paper-dir DIR]\n"
    "INPUTS (each NAME prefixes its quantities' keys; every file a dlb_sweep results.csv):\n"
    "  --paper NAME=RESULTS.csv    median normalized times of every (configuration, strategy),\n"
    "                              the claims' verdicts (both readings), Table 1.4's counts and\n"
    "                              the implied-time rows; and the runs not ok\n"
    "  --sweep NAME=RESULTS.csv    median normalized times, and the runs not ok\n"
    "  --agreement NAME=A.csv,B.csv  the same configurations on two backends (B the reference):\n"
    "                              median and max |difference| of normalized times, NONE's time\n"
    "Derive (--out): each --paper/--sweep file's load seeds are cut into every subset of K; a\n"
    "number's expected value is the median over the subsets, its band their min to max +-\n"
    "--slack (default 0.0005); a verdict's allowed values are those the subsets gave. Agreement\n"
    "quantities get the band of make agreement's target (--median-target 2, --max-target 5, in\n"
    "percent); runs not ok the band [0, 0]. --markdown: the same as tables, the paper's value\n"
    "beside each quantity.\n"
    "Check (--expected): one line per expected quantity (ok / OUTSIDE), how many equal ours (the\n"
    "derivation's first subset: the same seeds at its revision), then\n"
    "'expected results: N of M within tolerance'.\n"
    "EXPECTED.csv ends with '# integrity: rows=N sha256=HEX' (its rows, and the SHA-256 of every\n"
    "byte above that line): a file cut short or edited is refused.\n"
    "Exit status: 0 (derived, or every check within tolerance), 1 when a check is outside or on\n"
    "I/O errors, 2 on bad input (a cut or edited EXPECTED.csv, two outputs naming one file).\n";

struct named_input {
  std::string option, name, a, b;
};

std::vector<named_input> parse_inputs(const sweep::cli_args& args) {
  std::vector<named_input> out;
  for (const std::string opt : {"paper", "sweep", "agreement"}) {
    for (const auto& v : args.values(opt)) {
      const auto eq = v.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
        args.usage_error("--" + opt + " must be NAME=FILE, got '" + v + "'");
      named_input in{opt, v.substr(0, eq), v.substr(eq + 1), ""};
      if (opt == "agreement") {
        const auto comma = in.a.find(',');
        if (comma == std::string::npos || comma == 0 || comma + 1 == in.a.size())
          args.usage_error("--agreement must be NAME=A.csv,B.csv, got '" + v + "'");
        in.b = in.a.substr(comma + 1);
        in.a = in.a.substr(0, comma);
      }
      out.push_back(in);
    }
  }
  if (out.empty()) args.usage_error("give at least one --paper, --sweep or --agreement");
  return out;
}

std::vector<report::summary_row> summary_of(const sweep::csv_table& results) {
  return report::load_summary(report::summarize({results}).table);
}

// The command line, checked (usage errors exit 2 from cli_args).
struct options {
  std::vector<named_input> inputs;
  std::optional<std::string> expected_path, out, markdown;
  int k = 1;
  double slack = 0.0005, median_target = 2.0, max_target = 5.0;
  std::string paper_dir;
};

options read_options(const sweep::cli_args& args) {
  options o;
  o.inputs = parse_inputs(args);
  o.expected_path = args.value("expected");
  o.out = args.value("out");
  o.markdown = args.value("markdown");
  const bool derive = !o.expected_path;
  if (derive && !o.out)
    args.usage_error("give --out EXPECTED.csv (derive) or --expected FILE (check)");
  if (derive && !args.value("subset")) args.usage_error("deriving needs --subset K");
  if (!derive && args.value("subset"))
    args.usage_error("--subset is for deriving, not with --expected");
  if (!derive && o.markdown) args.usage_error("--markdown is for deriving, not with --expected");
  o.k = args.positive_int("subset", 1);
  o.slack = args.value("slack") ? args.positive_double("slack", 0.0005) : 0.0005;
  o.median_target = args.positive_double("median-target", 2.0);
  o.max_target = args.positive_double("max-target", 5.0);
  o.paper_dir = args.value("paper-dir").value_or(report::default_paper_dir);
  std::vector<std::pair<std::string, std::string>> ins, outs;
  for (const auto& in : o.inputs) {
    ins.emplace_back("--" + in.option, in.a);
    if (!in.b.empty()) ins.emplace_back("--" + in.option, in.b);
  }
  if (o.expected_path) ins.emplace_back("--expected", *o.expected_path);
  if (o.out) outs.emplace_back("--out", *o.out);
  if (o.markdown) outs.emplace_back("--markdown", *o.markdown);
  if (!outs.empty()) sweep::refuse_output_over_inputs(args, outs, ins);
  return o;
}

// The paper's tables, where a --paper input needs them; a missing directory is bad input.
report::paper_tables read_paper(const options& o) {
  report::paper_tables paper;
  bool any_paper = false;
  for (const auto& in : o.inputs) any_paper = any_paper || in.option == "paper";
  if (!any_paper) return paper;
  if (!fs::is_directory(o.paper_dir))
    throw sweep::csv_error("paper directory " + o.paper_dir + " not found (--paper-dir)");
  paper.best = report::read_paper_best(o.paper_dir);
  paper.nodlb = report::read_paper_nodlb(o.paper_dir);
  if (fs::exists(fs::path(o.paper_dir) / "text_times.csv"))
    paper.implied =
        report::derive_implied(paper.best, paper.nodlb, report::read_paper_text_times(o.paper_dir));
  return paper;
}

// One results file; a missing or malformed one is bad input naming it.
sweep::csv_table read_results(const std::string& option, const std::string& path) {
  try {
    return sweep::read_results_table(path);
  } catch (const std::exception& e) {
    std::string what = e.what();
    if (what.find(path) == std::string::npos) what = path + ": " + what;
    throw sweep::csv_error("--" + option + " " + what);
  }
}

// The quantities of one --paper or --sweep input over the rows given.
void measure(const named_input& in, const report::paper_tables& paper,
             const sweep::csv_table& results, report::measurements& m) {
  const auto rows = summary_of(results);
  report::measure_norms(rows, in.name, m);
  if (in.option == "paper") report::measure_paper(rows, paper, in.name, m);
}

// An --agreement input's expected rows: the bands of make agreement's target.
void derive_agreement(const named_input& in, const options& o, const sweep::csv_table& a,
                      std::vector<report::expected_row>& expected, std::ostringstream& header) {
  report::measurements m;
  report::measure_agreement(summary_of(a), summary_of(read_results(in.option, in.b)), in.name, m);
  const std::string target =
      "make agreement's target (median <= " + sweep::format_sig(o.median_target, 3) +
      "%, max <= " + sweep::format_sig(o.max_target, 3) + "%)";
  for (const auto& [key, v] : m) {
    if (!v.number) continue;
    if (key.find("pairs compared") != std::string::npos)
      expected.push_back(report::fixed_band(key, *v.number, *v.number, *v.number,
                                            "every pair of the reference compared"));
    else if (key.find("median |") != std::string::npos)
      expected.push_back(report::fixed_band(key, *v.number, 0, o.median_target, target));
    else
      expected.push_back(report::fixed_band(key, *v.number, 0, o.max_target, target));
  }
  header << "input: --agreement " << in.name << " " << in.a << " against " << in.b << "\n";
}

// A --paper or --sweep input's expected rows: the spread over every subset of k of its seeds.
void derive_seeds(const named_input& in, const options& o, const report::paper_tables& paper,
                  const sweep::csv_table& a, std::vector<report::expected_row>& expected,
                  std::ostringstream& header) {
  const auto seeds = report::seeds_of(a);
  const auto subsets = report::seed_subsets(seeds, o.k);
  std::vector<report::measurements> per;
  for (const auto& s : subsets) {
    report::measurements m;
    measure(in, paper, report::keep_seeds(a, s), m);
    per.push_back(std::move(m));
  }
  const std::string spread = std::to_string(subsets.size()) + " subsets of " + std::to_string(o.k) +
                             " of " + std::to_string(seeds.size()) + " seeds";
  for (auto& e : report::derive_expected(per, spread, o.slack)) expected.push_back(e);
  header << "input: --" << in.option << " " << in.name << " " << in.a << " (seeds";
  for (int s : seeds) header << " " << s;
  header << "; revision " << a.meta("revision").value_or("?") << ")\n";
}

// Writes `text` to `path`, its folder made first.
void write_output(const fs::path& path, const std::string& text) {
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  sweep::write_atomically(path, text);
}

// --markdown: the expected rows as tables, headed by the inputs.
void write_markdown(const sweep::cli_args& args, const options& o, const sweep::csv_table& table,
                    const std::vector<report::expected_row>& expected) {
  const std::string name = fs::path(*o.out).filename().string();
  std::string text = "<!-- Generated by dlb_expected from " + name +
                     "; do not edit. Command: " + args.command_line() +
                     " -->\n\n# Expected values: " + name +
                     "\n\nEvery quantity with the paper's value, the "
                     "expected value, its tolerance and how it came about (the rules: "
                     "docs/expected-results.md). Inputs:\n\n";
  for (const auto& c : table.comments) {
    if (c.rfind("input: ", 0) == 0) text += "- " + c + "\n";
  }
  text += "\n" + report::render_expected(expected);
  write_output(*o.markdown, text);
}

// Derive (--out): the expected file, sealed, and its Markdown.
int derive(const sweep::cli_args& args, const options& o, const report::paper_tables& paper) {
  std::vector<report::expected_row> expected;
  std::ostringstream header;
  for (const auto& in : o.inputs) {
    const auto a = read_results(in.option, in.a);
    if (in.option == "agreement")
      derive_agreement(in, o, a, expected, header);
    else
      derive_seeds(in, o, paper, a, expected, header);
    expected.push_back(report::fixed_band(in.name + " runs not ok",
                                          static_cast<double>(report::runs_not_ok(a)), 0, 0,
                                          "every run ok and verified"));
  }
  auto table = report::expected_table(expected);
  table.comments = {
      "dlb_expected: expected values and tolerances (experiments/report/expected.hpp)",
      "command: " + args.command_line()};
  std::istringstream lines(header.str());
  for (std::string l; std::getline(lines, l);) table.comments.push_back(l);
  write_output(*o.out, report::seal_expected(sweep::format_csv_table(table), table.rows.size()));
  if (o.markdown) write_markdown(args, o, table, expected);
  std::cerr << "dlb_expected: wrote " << expected.size() << " expected quantities to " << *o.out
            << "\n";
  return 0;
}

// Check (--expected): one line per expected quantity, then the summary; 1 if any is outside.
int check(const options& o, const report::paper_tables& paper) {
  std::vector<report::expected_row> expected;
  try {
    expected = report::read_sealed_expected(sweep::read_input(*o.expected_path), *o.expected_path);
  } catch (const std::exception& e) {
    std::string what = e.what();
    if (what.find(*o.expected_path) == std::string::npos) what = *o.expected_path + ": " + what;
    throw sweep::csv_error("--expected " + what);
  }
  report::measurements got;
  for (const auto& in : o.inputs) {
    const auto a = read_results(in.option, in.a);
    if (in.option == "agreement")
      report::measure_agreement(summary_of(a), summary_of(read_results(in.option, in.b)), in.name,
                                got);
    else
      measure(in, paper, a, got);
    got[in.name + " runs not ok"].number = static_cast<double>(report::runs_not_ok(a));
  }
  const auto lines = report::check_expected(expected, got);
  std::ostringstream text;
  for (const auto& l : lines) text << l.text << "\n";
  if (const auto same = report::same_as_ours_summary(lines); !same.empty()) text << same << "\n";
  text << report::check_summary(lines) << "\n";
  std::cout << text.str();
  if (o.out) write_output(*o.out, text.str());
  for (const auto& l : lines) {
    if (!l.ok) return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const sweep::cli_args args(argc, argv, "dlb_expected", kUsage,
                             {"paper", "sweep", "agreement", "subset", "out", "markdown",
                              "expected", "slack", "median-target", "max-target", "paper-dir"},
                             {});
  const options o = read_options(args);
  try {
    const report::paper_tables paper = read_paper(o);
    return o.expected_path ? check(o, paper) : derive(args, o, paper);
  } catch (const std::exception& e) {
    return args.failed(e);
  }
}
