// dlb_plot_scale: the scale study beyond the paper (experiments/configs/
// scale.conf). Two figures from the sweep's results:
//   NAME.png/svg       one panel per workload: median total time over the oracle bound against P
//                      (both axes logarithmic), one line per policy;
//   NAME_cost.png/svg  the simulation's own cost against P: the median and the slowest run's
//                      wall seconds, and the largest peak resident memory.
// Workloads and medians come from experiments/report/beyond.hpp (the tables of BEYOND.md).
#include <algorithm>
#include <iostream>
#include <map>
#include <vector>

#include "figure.hpp"
#include "report/beyond.hpp"
#include "sweep/cli.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/results_store.hpp"
#include "sweep/text.hpp"

namespace fs = std::filesystem;
using namespace dlb;
using namespace dlb::report::beyond;

namespace {

const char* kUsage =
    "usage: dlb_plot_scale --results RESULTS.csv --out-dir DIR [--name NAME] [--formats png,svg]\n"
    "Draws time / oracle against P per workload and policy (NAME, default scale), and the\n"
    "simulation's wall time and memory against P (NAME_cost).\n";

// Point types and dash types: the paper's strategies solid, the customized modes dashed, the
// self-scheduling baselines dotted.
std::string style_of(const std::string& policy, int index) {
  const int dt = is_self_scheduling(policy)                   ? 3
                 : (policy == "AUTO" || policy == "ADAPTIVE") ? 2
                                                              : 1;
  return "with linespoints lw 1.5 pt " + std::to_string(index % 13 + 1) + " ps 0.8 dt " +
         std::to_string(dt);
}

// Time over the oracle against P: one panel per workload, one line per policy.
plots::figure ratio_figure(const std::vector<config_runs>& configs, const std::string& name) {
  const auto labels = workload_labels(configs);
  const auto workloads = workloads_in_order(configs, labels);
  const auto policies = policies_of(configs);
  // Data blocks: one per (workload, policy): "P ratio" lines sorted by P.
  std::string script;
  for (std::size_t w = 0; w < workloads.size(); ++w) {
    for (std::size_t k = 0; k < policies.size(); ++k) {
      std::map<int, double> points;
      for (const auto& c : configs) {
        if (labels.at(c.config) != workloads[w]) continue;
        if (const auto r = median_over_oracle(c, policies[k])) points[c.procs] = *r;
      }
      script += "$w" + std::to_string(w) + "p" + std::to_string(k) + " << EOD\n";
      for (const auto& [P, r] : points)
        script += std::to_string(P) + " " + sweep::format_number(r) + "\n";
      script += "EOD\n";
    }
  }
  const int cols = 2;
  const int rows = static_cast<int>((workloads.size() + cols - 1) / cols);
  script += "set multiplot layout " + std::to_string(rows) + "," + std::to_string(cols) +
            " title " +
            plots::gp_quote("Scale study (simulated): median time / oracle bound against P") +
            " font ',12'\n"
            "set logscale x 2\nset logscale y\nset grid\nset xlabel 'P (slaves)'\n"
            "set ylabel 'time / oracle'\nset key outside right top font ',8'\n";
  for (std::size_t w = 0; w < workloads.size(); ++w) {
    script += "set title " + plots::gp_quote(plots::gp_plain(workloads[w])) + " font ',9'\nplot ";
    for (std::size_t k = 0; k < policies.size(); ++k) {
      script += (k ? ", " : "") + std::string("$w") + std::to_string(w) + "p" + std::to_string(k) +
                " using 1:2 " + style_of(policies[k], static_cast<int>(k)) + " title " +
                plots::gp_quote(plots::gp_plain(policies[k]));
    }
    script += "\n";
  }
  script += "unset multiplot\n";
  plots::figure fig;
  fig.name = name;
  fig.width = 1300;
  fig.height = 420 * rows + 60;
  fig.script = script;
  return fig;
}

// The simulation's own cost per P: a run's wall time and peak memory.
plots::figure cost_figure(const std::vector<config_runs>& configs, const std::string& name) {
  std::string data = "$cost << EOD\n";
  for (const auto& cost : simulation_costs(configs)) {
    data += std::to_string(cost.procs) + " " + sweep::format_number(cost.median_wall) + " " +
            sweep::format_number(cost.slowest_wall) + " " + sweep::format_number(cost.peak_rss_mb) +
            "\n";
  }
  data += "EOD\n";
  plots::figure cost;
  cost.name = name + "_cost";
  cost.width = 1100;
  cost.height = 420;
  cost.script = data +
                "set multiplot layout 1,2 title 'The simulation itself: one run, SimGrid, "
                "virtual time' font ',12'\n"
                "set logscale x 2\nset logscale y\nset grid\nset xlabel 'P (slaves)'\n"
                "set key left top\nset title 'wall time of a run'\nset ylabel 'seconds'\n"
                "plot $cost using 1:2 with linespoints pt 7 title 'median over policies and "
                "workloads', $cost using 1:3 with linespoints pt 5 title 'slowest run'\n"
                "set title 'peak resident memory of a run'\nset ylabel 'MB'\n"
                "plot $cost using 1:4 with linespoints pt 7 title 'largest'\n"
                "unset multiplot\n";
  return cost;
}

}  // namespace

int main(int argc, char** argv) {
  const sweep::cli_args args(argc, argv, "dlb_plot_scale", kUsage,
                             {"results", "out-dir", "name", "formats"}, {});
  const std::string file = args.required("results");
  const fs::path out_dir = args.required("out-dir");
  const std::string name = args.value("name").value_or("scale");
  const std::vector<std::string> formats = plots::formats_option(args);
  try {
    const auto configs = by_config(verified_runs(sweep::read_results_table(file)));
    if (configs.empty()) throw sweep::csv_error(file + ": no verified run");
    for (const auto& fig : {ratio_figure(configs, name), cost_figure(configs, name)}) {
      for (const auto& f : plots::render(fig, out_dir, formats))
        std::cerr << "dlb_plot_scale: wrote " << f.string() << "\n";
    }
    return 0;
  } catch (const sweep::csv_error& e) {
    std::cerr << "dlb_plot_scale: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "dlb_plot_scale: " << e.what() << "\n";
    return 1;
  }
}
