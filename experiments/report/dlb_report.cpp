// dlb_report: Markdown report setting our summary beside the paper's tables and claims.
#include <algorithm>
#include <iostream>

#include "report/paper.hpp"
#include "report/report.hpp"
#include "report/summary.hpp"
#include "sweep/cli.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/results_store.hpp"

namespace fs = std::filesystem;
using namespace dlb;

namespace {

const char* kUsage =
    "usage: dlb_report --summary SUMMARY.csv --results RESULTS.csv [--results MORE.csv ...]\n"
    "                  --out REPORT.md [--paper-dir DIR] [--figures DIR] [--command CMD ...]\n"
    "                  [--lag-flag-pct PCT] [--crosscheck SUMMARY.csv [--crosscheck-base "
    "SUMMARY.csv]]\n"
    "                  [--sensitivity CLAIMS.csv [--sensitivity-md SENSITIVITY.md]]\n"
    "                  [--bootstrap N] [--halves K] [--diagnosis-out FILE.md]\n"
    "Writes Markdown: our no-DLB times beside Tables 1.1-1.3, normalized times (Figures 1.7,\n"
    "1.9, 1.10), best strategies beside Table 1.4, each claim of claims.md marked holds / does\n"
    "not hold / not measured, the emulation lag, the figures, provenance and commands.\n"
    "  --paper-dir DIR    the paper's CSVs (default: experiments/paper of the source tree)\n"
    "  --figures DIR      link every .png and .svg in DIR\n"
    "  --command CMD      a further command that produced the inputs (e.g. a plot), listed as is\n"
    "  --lag-flag-pct P   flag runs whose lag_pct exceeds P (default 1)\n"
    "  --crosscheck S     a summary of some of the configurations on another backend: a section\n"
    "                     sets its normalized times beside the main summary's (as dlb_agreement)\n"
    "  --crosscheck-base S  the same configurations and seeds on the main summary's backend: the\n"
    "                     cross-check is set beside these instead (paired seed for seed)\n"
    "  --sensitivity C    the sensitivity study's claims.csv (dlb_sensitivity): each claim's "
    "share\n"
    "                     of the region beside its verdict; --sensitivity-md links its summary\n"
    "  --bootstrap N      each claim diagnosed with N paired bootstrap replicates over the\n"
    "                     results' seeds (default 400; 0: no diagnosis); one line per claim is\n"
    "                     printed on stdout\n"
    "  --halves K         the verdicts' stability: the same rule on each half of K random splits\n"
    "                     of the seeds into two disjoint halves (default 0: none)\n"
    "  --diagnosis-out F  also write the diagnosis section alone to F (Markdown)\n";

// The summary (--summary) and the optional further ones (--crosscheck, --crosscheck-base) into
// `in`: unreadable or not a summary is bad input, reported naming the option and the file
// (false).
bool read_summaries(const sweep::cli_args& args, report::report_inputs& in) {
  const auto read_summary = [&args](const std::string& option, std::string& path,
                                    sweep::csv_table& table) {
    const auto given = args.value(option);
    if (!given) return true;
    path = *given;
    try {
      table = sweep::read_csv_table(path);
      report::load_summary(table);
    } catch (const std::exception& e) {
      std::cerr << "dlb_report: --" << option << " " << path << ": " << e.what() << "\n";
      return false;
    }
    return true;
  };
  return read_summary("summary", in.summary_path, in.summary_table) &&
         read_summary("crosscheck", in.crosscheck_path, in.crosscheck_table) &&
         read_summary("crosscheck-base", in.crosscheck_base_path, in.crosscheck_base_table);
}

// The figures to link (--figures): every .png and .svg of the directory, relative to the
// report's, sorted. A directory that does not exist is reported (false).
bool read_figures(const sweep::cli_args& args, const fs::path& out, report::report_inputs& in) {
  const auto dir = args.value("figures");
  if (!dir) return true;
  if (!fs::is_directory(*dir)) {
    std::cerr << "dlb_report: figures directory " << *dir << " not found\n";
    return false;
  }
  const fs::path base = fs::absolute(out).parent_path();
  for (const auto& e : fs::directory_iterator(*dir)) {
    const auto ext = e.path().extension();
    if (ext == ".png" || ext == ".svg") {
      in.figures.push_back(fs::relative(fs::absolute(e.path()), base).string());
    }
  }
  std::sort(in.figures.begin(), in.figures.end());
  return true;
}

// The sensitivity study's claims.csv (--sensitivity) and the link to its summary
// (--sensitivity-md, relative to the report). A file unreadable or not a claims.csv is reported
// (false).
bool read_sensitivity(const sweep::cli_args& args, const fs::path& out, report::report_inputs& in) {
  if (const auto claims = args.value("sensitivity")) {
    try {
      in.sensitivity_claims = sweep::read_csv_table(*claims);
    } catch (const std::exception& e) {
      std::cerr << "dlb_report: --sensitivity " << *claims << ": " << e.what() << "\n";
      return false;
    }
    for (const char* c : {"claim", "defaults_verdict", "share", "points_measured"}) {
      if (!in.sensitivity_claims.column(c)) {
        std::cerr << "dlb_report: --sensitivity " << *claims
                  << " is not dlb_sensitivity's claims.csv (no column '" << c << "')\n";
        return false;
      }
    }
  }
  if (const auto link = args.value("sensitivity-md")) {
    in.sensitivity_link =
        fs::relative(fs::absolute(*link), fs::absolute(out).parent_path()).string();
  }
  return true;
}

// The report never replaces what it reads (the summaries, the results, the paper's tables), nor
// writes its two pages over each other.
void refuse_output_over_inputs(const sweep::cli_args& args, const std::string& paper_dir,
                               const std::vector<std::string>& results, const fs::path& out) {
  std::vector<std::pair<std::string, std::string>> inputs;
  for (const std::string o : {"summary", "crosscheck", "crosscheck-base", "sensitivity"}) {
    for (const auto& v : args.values(o)) inputs.emplace_back("--" + o, v);
  }
  for (const auto& r : results) inputs.emplace_back("--results", r);
  for (const char* f : {"table1_1_mxm_nodlb.csv", "table1_2_trfd_nodlb.csv",
                        "table1_3_ac_nodlb.csv", "table1_4_best.csv", "claims.md"}) {
    inputs.emplace_back("--paper-dir", (fs::path(paper_dir) / f).string());
  }
  std::vector<std::pair<std::string, std::string>> outputs{{"--out", out.string()}};
  if (const auto d = args.value("diagnosis-out")) outputs.emplace_back("--diagnosis-out", *d);
  sweep::refuse_output_over_inputs(args, outputs, inputs);
}

// The claims diagnosed over the seeds (--bootstrap replicates, 0: none): one verdict line per
// claim on stdout, and the page of --diagnosis-out.
void diagnose_claims(const sweep::cli_args& args, report::report_inputs& in) {
  const auto bootstrap = args.value("bootstrap");
  const int replicates = bootstrap && *bootstrap == "0" ? 0 : args.positive_int("bootstrap", 400);
  if (replicates == 0) return;
  const auto halves_given = args.value("halves");
  const int halves = halves_given && *halves_given == "0" ? 0 : args.positive_int("halves", 0);
  std::vector<sweep::csv_table> tables;
  for (const auto& r : in.results) tables.push_back(r.second);
  // A fixed seed: the same results give the same intervals.
  in.claim_diagnosis = report::diagnose(tables, in.paper_best, replicates, 46, halves);
  std::cout << report::verdict_lines(*in.claim_diagnosis);
  if (const auto f = args.value("diagnosis-out")) {
    sweep::write_atomically(
        *f,
        "# The paper's claims judged by a symmetric rule, and Table 1.4 within noise\n\n"
        "Generated by `" +
            args.command_line() + "`. Regenerate it; do not edit it.\n\n" +
            report::render_diagnosis(*in.claim_diagnosis));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const sweep::cli_args args(
      argc, argv, "dlb_report", kUsage,
      {"summary", "results", "out", "paper-dir", "figures", "command", "lag-flag-pct", "crosscheck",
       "crosscheck-base", "sensitivity", "sensitivity-md", "bootstrap", "halves", "diagnosis-out"},
      {});
  report::report_inputs in;
  in.summary_path = args.required("summary");
  const auto results = args.values("results");
  if (results.empty())
    args.usage_error("--results is required (the raw results the summary came from)");
  const fs::path out = args.required("out");
  in.paper_dir = args.value("paper-dir").value_or(report::default_paper_dir);
  in.commands = args.values("command");
  in.report_command = args.command_line();
  in.lag_flag_pct = args.positive_double("lag-flag-pct", 1.0);
  refuse_output_over_inputs(args, in.paper_dir, results, out);
  try {
    if (!fs::is_directory(in.paper_dir)) {
      std::cerr << "dlb_report: paper directory " << in.paper_dir
                << " not found (pass --paper-dir DIR holding table1_1_mxm_nodlb.csv ...)\n";
      return 2;
    }
    if (!read_summaries(args, in)) return 2;
    for (const auto& r : results) in.results.emplace_back(r, sweep::read_results_table(r));
    in.paper_nodlb = report::read_paper_nodlb(in.paper_dir);
    in.paper_best = report::read_paper_best(in.paper_dir);
    // The implied DLB times need text_times.csv too; a paper directory without it goes without.
    if (fs::exists(fs::path(in.paper_dir) / "text_times.csv"))
      in.paper_implied = report::derive_implied(in.paper_best, in.paper_nodlb,
                                                report::read_paper_text_times(in.paper_dir));
    if (!read_figures(args, out, in) || !read_sensitivity(args, out, in)) return 2;
    diagnose_claims(args, in);
    const std::string md = report::render_report(in);
    if (out.has_parent_path()) fs::create_directories(out.parent_path());
    sweep::write_atomically(out, md);
    std::cerr << "dlb_report: wrote " << out.string() << "\n";
    return 0;
  } catch (const sweep::csv_error& e) {  // an input unreadable or not what it should be
    std::cerr << "dlb_report: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "dlb_report: " << e.what() << "\n";
    return 1;
  }
}
