// dlb_expected: expected results with tolerances from the spread over load seeds, and the check
// of a run against them (`make quick`; experiments/report/expected.hpp has the rules).
//
// Derive (--out): the results of n seeds, cut into every subset of --subset K seeds, give each
// quantity's expected value and band. Check (--expected): a run's quantities against that file,
// one line per check and the summary line "expected results: N of M within tolerance".
#include <filesystem>
#include <iostream>
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

}  // namespace

int main(int argc, char** argv) {
  const sweep::cli_args args(argc, argv, "dlb_expected", kUsage,
                             {"paper", "sweep", "agreement", "subset", "out", "markdown",
                              "expected", "slack", "median-target", "max-target", "paper-dir"},
                             {});
  const auto inputs = parse_inputs(args);
  const auto expected_path = args.value("expected");
  const auto out = args.value("out");
  const bool derive = !expected_path;
  if (derive && !out)
    args.usage_error("give --out EXPECTED.csv (derive) or --expected FILE (check)");
  if (derive && !args.value("subset")) args.usage_error("deriving needs --subset K");
  if (!derive && args.value("subset"))
    args.usage_error("--subset is for deriving, not with --expected");
  if (!derive && args.value("markdown"))
    args.usage_error("--markdown is for deriving, not with --expected");
  const int k = args.positive_int("subset", 1);
  const double slack = args.value("slack") ? args.positive_double("slack", 0.0005) : 0.0005;
  const double median_target = args.positive_double("median-target", 2.0);
  const double max_target = args.positive_double("max-target", 5.0);
  const std::string paper_dir = args.value("paper-dir").value_or(report::default_paper_dir);
  {
    std::vector<std::pair<std::string, std::string>> ins;
    for (const auto& in : inputs) {
      ins.emplace_back("--" + in.option, in.a);
      if (!in.b.empty()) ins.emplace_back("--" + in.option, in.b);
    }
    if (expected_path) ins.emplace_back("--expected", *expected_path);
    std::vector<std::pair<std::string, std::string>> outs;
    if (out) outs.emplace_back("--out", *out);
    if (const auto md = args.value("markdown")) outs.emplace_back("--markdown", *md);
    if (!outs.empty()) sweep::refuse_output_over_inputs(args, outs, ins);
  }

  try {
    report::paper_tables paper;
    bool any_paper = false;
    for (const auto& in : inputs) any_paper = any_paper || in.option == "paper";
    if (any_paper) {
      if (!fs::is_directory(paper_dir)) {
        std::cerr << "dlb_expected: paper directory " << paper_dir << " not found (--paper-dir)\n";
        return 2;
      }
      paper.best = report::read_paper_best(paper_dir);
      paper.nodlb = report::read_paper_nodlb(paper_dir);
      if (fs::exists(fs::path(paper_dir) / "text_times.csv"))
        paper.implied = report::derive_implied(paper.best, paper.nodlb,
                                               report::read_paper_text_times(paper_dir));
    }
    // Reads one results file; a missing or malformed one is bad input naming it.
    const auto read = [](const std::string& option, const std::string& path) {
      try {
        return sweep::read_results_table(path);
      } catch (const std::exception& e) {
        std::string what = e.what();
        if (what.find(path) == std::string::npos) what = path + ": " + what;
        throw sweep::csv_error("--" + option + " " + what);
      }
    };
    // The quantities of one input over the rows given.
    const auto measure = [&paper](const named_input& in, const sweep::csv_table& results,
                                  report::measurements& m) {
      const auto rows = summary_of(results);
      report::measure_norms(rows, in.name, m);
      if (in.option == "paper") report::measure_paper(rows, paper, in.name, m);
    };

    if (derive) {
      std::vector<report::expected_row> expected;
      std::ostringstream header;
      for (const auto& in : inputs) {
        const auto a = read(in.option, in.a);
        if (in.option == "agreement") {
          const auto b = read(in.option, in.b);
          report::measurements m;
          report::measure_agreement(summary_of(a), summary_of(b), in.name, m);
          const std::string target =
              "make agreement's target (median <= " + sweep::format_sig(median_target, 3) +
              "%, max <= " + sweep::format_sig(max_target, 3) + "%)";
          for (const auto& [key, v] : m) {
            if (!v.number) continue;
            if (key.find("pairs compared") != std::string::npos)
              expected.push_back(report::fixed_band(key, *v.number, *v.number, *v.number,
                                                    "every pair of the reference compared"));
            else if (key.find("median |") != std::string::npos)
              expected.push_back(report::fixed_band(key, *v.number, 0, median_target, target));
            else
              expected.push_back(report::fixed_band(key, *v.number, 0, max_target, target));
          }
          header << "input: --agreement " << in.name << " " << in.a << " against " << in.b << "\n";
        } else {
          const auto seeds = report::seeds_of(a);
          const auto subsets = report::seed_subsets(seeds, k);
          std::vector<report::measurements> per;
          for (const auto& s : subsets) {
            report::measurements m;
            measure(in, report::keep_seeds(a, s), m);
            per.push_back(std::move(m));
          }
          const std::string spread = std::to_string(subsets.size()) + " subsets of " +
                                     std::to_string(k) + " of " + std::to_string(seeds.size()) +
                                     " seeds";
          for (auto& e : report::derive_expected(per, spread, slack)) expected.push_back(e);
          header << "input: --" << in.option << " " << in.name << " " << in.a << " (seeds";
          for (int s : seeds) header << " " << s;
          header << "; revision " << a.meta("revision").value_or("?") << ")\n";
        }
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
      const fs::path p(*out);
      if (p.has_parent_path()) fs::create_directories(p.parent_path());
      sweep::write_atomically(
          p, report::seal_expected(sweep::format_csv_table(table), table.rows.size()));
      if (const auto md = args.value("markdown")) {
        std::string text = "<!-- Generated by dlb_expected from " + p.filename().string() +
                           "; do not edit. Command: " + args.command_line() +
                           " -->\n\n# Expected values: " + p.filename().string() +
                           "\n\nEvery quantity with the paper's value, the "
                           "expected value, its tolerance and how it came about (the rules: "
                           "docs/expected-results.md). Inputs:\n\n";
        for (const auto& c : table.comments) {
          if (c.rfind("input: ", 0) == 0) text += "- " + c + "\n";
        }
        text += "\n" + report::render_expected(expected);
        const fs::path mp(*md);
        if (mp.has_parent_path()) fs::create_directories(mp.parent_path());
        sweep::write_atomically(mp, text);
      }
      std::cerr << "dlb_expected: wrote " << expected.size() << " expected quantities to " << *out
                << "\n";
      return 0;
    }

    std::vector<report::expected_row> expected;
    try {
      expected = report::read_sealed_expected(sweep::read_input(*expected_path), *expected_path);
    } catch (const std::exception& e) {
      std::string what = e.what();
      if (what.find(*expected_path) == std::string::npos) what = *expected_path + ": " + what;
      throw sweep::csv_error("--expected " + what);
    }
    report::measurements got;
    for (const auto& in : inputs) {
      const auto a = read(in.option, in.a);
      if (in.option == "agreement")
        report::measure_agreement(summary_of(a), summary_of(read(in.option, in.b)), in.name, got);
      else
        measure(in, a, got);
      got[in.name + " runs not ok"].number = static_cast<double>(report::runs_not_ok(a));
    }
    const auto lines = report::check_expected(expected, got);
    std::ostringstream text;
    for (const auto& l : lines) text << l.text << "\n";
    if (const auto same = report::same_as_ours_summary(lines); !same.empty()) text << same << "\n";
    text << report::check_summary(lines) << "\n";
    std::cout << text.str();
    if (out) {
      const fs::path p(*out);
      if (p.has_parent_path()) fs::create_directories(p.parent_path());
      sweep::write_atomically(p, text.str());
    }
    for (const auto& l : lines) {
      if (!l.ok) return 1;
    }
    return 0;
  } catch (const sweep::csv_error& e) {
    std::cerr << "dlb_expected: " << e.what() << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "dlb_expected: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "dlb_expected: " << e.what() << "\n";
    return 1;
  }
}
