// dlb_summary: raw results CSV(s) -> summary CSV (per configuration and strategy: median, min and
// max over repetitions of the times and of the paired normalized time). Rows that are not ok
// are excluded and counted.
#include <iostream>

#include "report/summary.hpp"
#include "sweep/cli.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/provenance.hpp"
#include "sweep/results_store.hpp"

using namespace dlb;

namespace {

const char* kUsage =
    "usage: dlb_summary --results RESULTS.csv [--results MORE.csv ...] --out SUMMARY.csv\n"
    "Groups the ok runs by (app, P, K, size, ml, tl, clock, scale, network, backend, extra_args,\n"
    "strategy)"
    " and writes the median, min and max over repetitions of total_s, loop1_s, loop2_s and of the\n"
    "time normalized by the no-DLB run with the same seed. Failed, unverified and timed-out runs\n"
    "are excluded and counted.\n";

// "2 failed, 1 timeout, 3 ok without total_s", or "" when nothing was excluded.
std::string excluded_text(const report::summary_result& s) {
  std::string excluded;
  for (const auto& [status, n] : s.counts.excluded) {
    excluded += (excluded.empty() ? "" : ", ") + std::to_string(n) + " " + status;
  }
  if (s.counts.no_total) {
    excluded +=
        (excluded.empty() ? "" : ", ") + std::to_string(s.counts.no_total) + " ok without total_s";
  }
  return excluded;
}

// The summary's '#' header: what it is, the command, its inputs and theirs, what was used.
void add_comments(const sweep::cli_args& args, const std::vector<std::string>& inputs,
                  const std::vector<sweep::csv_table>& tables, report::summary_result& s) {
  auto& c = s.table.comments;
  c.push_back(
      "dlb_summary: per configuration and strategy, median/min/max over repetitions "
      "(derived file; regenerate, do not edit)");
  c.push_back("command: " + args.command_line());
  c.push_back("date: " + sweep::utc_now());
  c.push_back("revision: " + sweep::source_revision());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    c.push_back("input: " + inputs[i] + " (" + std::to_string(tables[i].rows.size()) + " rows)");
  }
  for (const std::string key : {"revision", "host", "pvm_version", "compiler", "backend", "clock",
                                "scale", "network", "command"}) {
    for (const auto& v : tables.front().meta_all(key)) c.push_back("source_" + key + ": " + v);
  }
  const std::string excluded = excluded_text(s);
  c.push_back("used: " + std::to_string(s.counts.used) + " ok runs");
  c.push_back("excluded: " + (excluded.empty() ? std::string("none") : excluded));
  c.push_back("superseded: " + std::to_string(s.counts.superseded) +
              " earlier rows of runs recorded again");
  c.push_back(
      "units: total_* loop1_* loop2_* = seconds of the runs' clock; norm_* = time / no-DLB "
      "time of the same seed (paired), then median/min/max over repetitions; paired = "
      "repetitions with a no-DLB partner; lag_pct = percent; wall = wall seconds");
}

}  // namespace

int main(int argc, char** argv) {
  const sweep::cli_args args(argc, argv, "dlb_summary", kUsage, {"results", "out"}, {});
  const auto inputs = args.values("results");
  if (inputs.empty()) args.usage_error("--results is required");
  const std::string out = args.required("out");
  std::vector<std::pair<std::string, std::string>> named_inputs;
  for (const auto& in : inputs) named_inputs.emplace_back("--results", in);
  sweep::refuse_output_over_inputs(args, {{"--out", out}}, named_inputs);
  try {
    std::vector<sweep::csv_table> tables;
    for (const auto& in : inputs) {
      sweep::csv_read_info info;
      tables.push_back(sweep::read_results_table(in, &info));
      if (info.dropped_partial_line) {
        std::cerr << "dlb_summary: " << in << ": ignoring a cut-short last line\n";
      }
      if (!tables.back().column("status") || !tables.back().column("total_s")) {
        std::cerr << "dlb_summary: " << in
                  << " is not a dlb_sweep results file (no status or total_s column)\n";
        return 2;
      }
    }
    report::summary_result s = report::summarize(tables);
    add_comments(args, inputs, tables, s);
    sweep::write_atomically(out, sweep::format_csv_table(s.table));
    const std::string excluded = excluded_text(s);
    std::cerr << "dlb_summary: " << s.table.rows.size() << " groups from " << s.counts.used
              << " ok runs; excluded " << (excluded.empty() ? std::string("none") : excluded)
              << "; wrote " << out << "\n";
    return 0;
  } catch (const std::exception& e) {
    return args.failed(e);
  }
}
