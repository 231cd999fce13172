// dlb_agreement: do two summaries of the same configurations (one per backend, e.g. sim and
// pvm) give the same normalized times? Per (configuration, DLB strategy): the median of time /
// no-DLB time on each, the difference in percent of the no-DLB time, and the median and max of
// its absolute value, against a target. `make agreement` runs quick.conf on both backends and
// this program.
#include <filesystem>
#include <iostream>
#include <optional>

#include "report/agreement.hpp"
#include "report/summary.hpp"
#include "sweep/cli.hpp"
#include "sweep/csv_table.hpp"

using namespace dlb;

namespace {

const char* kUsage =
    "usage: dlb_agreement --a SUMMARY.csv --b SUMMARY.csv [--out AGREEMENT.md]\n"
    "                     [--median-target PCT] [--max-target PCT]\n"
    "Compares the median normalized times (time / no-DLB time, paired by seed) of two dlb_summary\n"
    "files per (app, P, K, size, ml, tl, network, extra_args, strategy), ignoring backend, clock\n"
    "and scale. Prints Markdown (the difference A - B in percent of the no-DLB time, its median\n"
    "and max in absolute value, and every pair) and writes it to --out if given.\n"
    "  --median-target PCT  target for the median |difference| (default 2)\n"
    "  --max-target PCT     target for the max |difference| (default 5)\n"
    "Exit status: 0 (whether or not the target is met), 2 on bad input.\n";

}  // namespace

int main(int argc, char** argv) {
  const sweep::cli_args args(argc, argv, "dlb_agreement", kUsage,
                             {"a", "b", "out", "median-target", "max-target"}, {});
  const std::string a = args.required("a");
  const std::string b = args.required("b");
  const double median_target = args.positive_double("median-target", 2.0);
  const double max_target = args.positive_double("max-target", 5.0);
  if (const auto out = args.value("out"))
    sweep::refuse_output_over_inputs(args, {{"--out", *out}}, {{"--a", a}, {"--b", b}});
  // Reads a summary; an unreadable or foreign file is bad input (exit 2, naming it).
  auto load = [](const std::string& path) -> std::optional<std::vector<report::summary_row>> {
    try {
      const sweep::csv_table table = sweep::read_csv_table(path);
      if (!table.column("norm_median") || !table.column("strategy"))
        throw sweep::csv_error("not a dlb_summary file (no columns strategy, norm_median)");
      return report::load_summary(table);
    } catch (const std::exception& e) {
      std::string what = e.what();
      if (what.find(path) == std::string::npos) what = path + ": " + what;
      std::cerr << "dlb_agreement: " << what << "\n";
      return std::nullopt;
    }
  };
  const auto rows_a = load(a);
  const auto rows_b = load(b);
  if (!rows_a || !rows_b) return 2;
  const auto result = report::compare_summaries(*rows_a, *rows_b);
  std::string md = "# Agreement of " + result.backend_a + " (`" + a + "`) and " + result.backend_b +
                   " (`" + b + "`)\n\n" +
                   report::render_agreement(result, median_target, max_target) + "Command: `" +
                   args.command_line() + "`\n";
  std::cout << md;
  if (const auto out = args.value("out")) {
    try {
      const std::filesystem::path p(*out);
      if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
      sweep::write_atomically(p, md);
    } catch (const std::exception& e) {
      std::cerr << "dlb_agreement: " << e.what() << "\n";
      return 1;
    }
  }
  return 0;
}
