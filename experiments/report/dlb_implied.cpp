// dlb_implied: writes the paper's DLB times implied by Table 1.4 and stated in the text
// (experiments/paper/implied_times.csv; report/implied.hpp).
#include <iostream>

#include "report/implied.hpp"
#include "sweep/cli.hpp"
#include "sweep/safe_files.hpp"

using namespace dlb;

int main(int argc, char** argv) {
  const sweep::cli_args args(argc, argv, "dlb_implied",
                             "usage: dlb_implied [--paper-dir DIR] --out IMPLIED.csv\n"
                             "Derives the paper's implied DLB times (Table 1.4's diff_s / "
                             "diff_pct, the text's loop times) with their rounding intervals.\n",
                             {"paper-dir", "out"}, {});
  const std::string dir = args.value("paper-dir").value_or(report::default_paper_dir);
  const std::string out = args.required("out");
  sweep::refuse_output_over_inputs(args, {{"--out", out}}, {});  // a regular file, before work
  try {
    const auto rows =
        report::derive_implied(report::read_paper_best(dir), report::read_paper_nodlb(dir),
                               report::read_paper_text_times(dir));
    sweep::write_atomically(out, sweep::format_csv_table(report::implied_table(rows)));
    std::cerr << "dlb_implied: wrote " << out << " (" << rows.size() << " rows)\n";
    return 0;
  } catch (const std::exception& e) {
    return args.failed(e);
  }
}
