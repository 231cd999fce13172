// dlb_plot_normalized: our Figures 1.7 (MXM), 1.9 (TRFD) and 1.10 (AC) from a summary CSV.
//
// One figure per app, one panel per processor count: for each data size, grouped bars of the
// median normalized execution time (time / no-DLB time of the same load seed) of GCDLB, GDDLB,
// LCDLB, LDDLB (and AUTO when measured), with error bars from min to max over repetitions, and
// the no-DLB line at 1. Only configurations under external load (ml > 0) are drawn.
#include <algorithm>
#include <iostream>
#include <map>
#include <set>

#include "figure.hpp"
#include "report/claims.hpp"
#include "report/summary.hpp"
#include "sweep/cli.hpp"
#include "sweep/config.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/text.hpp"

namespace fs = std::filesystem;
using namespace dlb;

namespace {

const char* kUsage =
    "usage: dlb_plot_normalized --summary SUMMARY.csv --out-dir DIR [--apps mxm,trfd,ac]\n"
    "                           [--formats png,svg] [--measure total|loop1|loop2]\n"
    "Draws the normalized execution time per strategy and data size, one figure per app\n"
    "(fig1_7_mxm, fig1_9_trfd, fig1_10_ac; a _loop1/_loop2 suffix for --measure loop1/loop2),\n"
    "one panel per processor count, bars = median, error bars = min..max over repetitions.\n";

const std::vector<std::pair<std::string, std::string>>& strategy_colors() {
  static const std::vector<std::pair<std::string, std::string>> c{{"GCDLB", "#4e79a7"},
                                                                  {"GDDLB", "#f28e2b"},
                                                                  {"LCDLB", "#59a14f"},
                                                                  {"LDDLB", "#e15759"},
                                                                  {"AUTO", "#9c755f"}};
  return c;
}

std::string figure_name(const std::string& app) {
  if (app == "mxm") return "fig1_7_mxm";
  if (app == "trfd") return "fig1_9_trfd";
  if (app == "ac") return "fig1_10_ac";
  return "normalized_" + app;
}

// Splits the sizes of a panel into parameters common to all (for the title) and the rest (for
// the tick labels, one parameter per line), e.g. m=400 is common to every MXM size.
std::pair<std::string, std::vector<std::vector<std::string>>> size_labels(
    const std::vector<std::string>& sizes) {
  std::vector<sweep::size_spec> specs;
  for (const auto& s : sizes) specs.push_back(sweep::parse_size(s));
  std::set<std::string> common;
  if (sizes.size() > 1) {
    for (const auto& [k, v] : specs.front().params) {
      bool same = true;
      for (const auto& sp : specs) {
        const auto it = std::find_if(sp.params.begin(), sp.params.end(),
                                     [&key = k](const auto& p) { return p.first == key; });
        same = same && it != sp.params.end() && it->second == v;
      }
      if (same) common.insert(k);
    }
  }
  std::string title;
  std::vector<std::vector<std::string>> ticks;
  for (const auto& [k, v] : specs.front().params) {
    if (common.count(k)) title += (title.empty() ? "" : " ") + k + "=" + std::to_string(v);
  }
  for (const auto& sp : specs) {
    std::vector<std::string> t;
    for (const auto& [k, v] : sp.params) {
      if (!common.count(k)) t.push_back(k + "=" + std::to_string(v));
    }
    if (t.empty()) t.push_back(sp.label());
    ticks.push_back(t);
  }
  return {title, ticks};
}

using panel_map = std::map<int, std::vector<const report::config_view*>>;

// Panels by P of one app's configurations under external load; within a panel, one
// configuration per size (the first, if several differ in other parameters such as scale).
panel_map panels_of(const std::vector<report::config_view>& configs, const std::string& app) {
  panel_map panels;
  for (const auto& c : configs) {
    if (c.app != app || c.ml <= 0) continue;
    auto& v = panels[c.procs];
    if (std::any_of(v.begin(), v.end(), [&](auto* d) { return d->size == c.size; })) {
      std::cerr << "dlb_plot_normalized: " << app << " P=" << c.procs << " " << c.size
                << " appears in several configurations; drawing the first\n";
      continue;
    }
    v.push_back(&c);
  }
  return panels;
}

// The strategies (with their colours) measured in at least one configuration of the panels.
std::vector<std::pair<std::string, std::string>> shown_strategies(const panel_map& panels) {
  std::vector<std::pair<std::string, std::string>> shown;
  for (const auto& sc : strategy_colors()) {
    for (const auto& [p, cs] : panels) {
      if (std::any_of(cs.begin(), cs.end(), [&](auto* c) { return c->row(sc.first); })) {
        shown.push_back(sc);
        break;
      }
    }
  }
  return shown;
}

// The panel of one processor count: its data block and its plot command. Raises ymax to the
// highest error bar drawn.
std::string panel_script(int p, const std::vector<const report::config_view*>& cs,
                         const std::vector<std::pair<std::string, std::string>>& shown,
                         const std::string& prefix, double& ymax) {
  std::vector<std::string> sizes;
  for (const auto* c : cs) sizes.push_back(c->size);
  const auto [common, ticks] = size_labels(sizes);
  const std::string block = "$P" + std::to_string(p);
  // Tick labels: first parameter in column 1, the others in column 2 (a second line, so
  // that "n=1600 r=400" labels do not run into each other); values from column 3.
  const bool two_lines = ticks.front().size() > 1;
  std::string body = block + " << EOD\n";
  for (std::size_t i = 0; i < cs.size(); ++i) {
    body += plots::gp_quote(ticks[i][0]);
    if (two_lines) {
      std::string rest;
      for (std::size_t j = 1; j < ticks[i].size(); ++j) rest += (j > 1 ? " " : "") + ticks[i][j];
      body += " " + plots::gp_quote(rest);
    }
    for (const auto& [s, color] : shown) {
      const report::summary_row* r = cs[i]->row(s);
      const auto med = r ? r->number(prefix + "_median") : std::nullopt;
      const auto lo = r ? r->number(prefix + "_min") : std::nullopt;
      const auto hi = r ? r->number(prefix + "_max") : std::nullopt;
      if (med && lo && hi) {
        body += " " + sweep::format_number(*med) + " " + sweep::format_number(*lo) + " " +
                sweep::format_number(*hi);
        ymax = std::max(ymax, *hi);
      } else {
        body += " NaN NaN NaN";  // not measured: no bar
      }
    }
    body += "\n";
  }
  body += "EOD\n";
  std::string title = "P=" + std::to_string(p) + ", K=" + std::to_string(cs.front()->group);
  if (!common.empty()) title += ", " + common;
  body += "set title " + plots::gp_quote(title) + "\n";
  // Two-line tick labels need room below the axis, or the axis label covers them.
  body += two_lines ? "set bmargin 5\nset xlabel 'data size' offset 0,-0.9\n"
                    : "set bmargin\nset xlabel 'data size' offset 0,0\n";
  // Histogram slots sit at x = 0, 1, ...: frame them without gnuplot's empty margins.
  body += "set xrange [-0.6:" + sweep::format_number(static_cast<double>(cs.size()) - 0.4) + "]\n";
  body +=
      "set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb "
      "'black' front\n";
  body += "set label 1 'no DLB = 1' at graph 0.02, first 1 offset 0,0.7 front\n";
  body += "plot ";
  for (std::size_t k = 0; k < shown.size(); ++k) {
    const int col = (two_lines ? 3 : 2) + 3 * static_cast<int>(k);
    const std::string xtic = two_lines ? ":xtic(strcol(1).\"\\n\".strcol(2))" : ":xtic(1)";
    body += (k ? ", '' " : block + " ") + std::string("using ") + std::to_string(col) + ":" +
            std::to_string(col + 1) + ":" + std::to_string(col + 2) + (k == 0 ? xtic : "") +
            " title " + plots::gp_quote(shown[k].first) + " lc rgb " +
            plots::gp_quote(shown[k].second);
  }
  return body + "\n";
}

// One app's figure: a multiplot of its panels, one per processor count.
plots::figure app_figure(const std::string& app, const std::string& measure,
                         const panel_map& panels) {
  const std::string prefix = measure == "total" ? "norm" : "norm_" + measure;
  const auto shown = shown_strategies(panels);
  double ymax = 1.0;
  std::string body;
  for (const auto& [p, cs] : panels) body += panel_script(p, cs, shown, prefix, ymax);
  const std::string what = measure == "total" ? "" : measure == "loop1" ? " (loop 1)" : " (loop 2)";
  plots::figure fig;
  fig.name = figure_name(app) + (measure == "total" ? "" : "_" + measure);
  fig.width = 80 + 520 * static_cast<int>(panels.size());
  fig.height = 460;
  fig.script =
      "set multiplot layout 1," + std::to_string(panels.size()) + " title " +
      plots::gp_quote(dlb::sweep::upper(app) + ": execution time normalized to no DLB" + what) +
      " font ',13'\n"
      "set style data histogram\n"
      "set style histogram errorbars gap 1.5 lw 1\n"
      "set style fill solid 0.85 border -1\n"
      "set boxwidth 0.9\n"
      "set grid ytics lc rgb '#dddddd'\n"
      "set key top center horizontal reverse Left samplen 1.5 width 1\n"
      "set xlabel 'data size'\n"
      "set ylabel 'time / time without DLB'\n"
      "set yrange [0:" +
      sweep::format_sig(ymax * 1.25, 3) +
      "]\n"
      "set xtics nomirror\n" +
      body + "unset multiplot\n";
  return fig;
}

// The summary's rows; a file that is no summary is bad input, named.
std::vector<report::summary_row> read_summary(const std::string& path) {
  const sweep::csv_table table = sweep::read_csv_table(path);
  try {
    return report::load_summary(table);
  } catch (const sweep::csv_error& e) {
    throw sweep::csv_error(path + ": " + e.what());
  }
}

}  // namespace

int main(int argc, char** argv) {
  const sweep::cli_args args(argc, argv, "dlb_plot_normalized", kUsage,
                             {"summary", "out-dir", "apps", "formats", "measure"}, {});
  const std::string summary_path = args.required("summary");
  const fs::path out_dir = args.required("out-dir");
  const std::vector<std::string> formats = plots::formats_option(args);
  const std::string measure = args.value("measure").value_or("total");
  if (measure != "total" && measure != "loop1" && measure != "loop2") {
    args.usage_error("--measure must be total, loop1 or loop2, got '" + measure + "'");
  }
  std::vector<std::string> apps;
  if (const auto a = args.value("apps")) {
    for (const auto& x : sweep::split_on(*a, ',')) {
      if (std::find(sweep::known_apps().begin(), sweep::known_apps().end(), x) ==
          sweep::known_apps().end()) {
        args.usage_error("unknown app '" + x + "' (known: mxm, trfd, ac)");
      }
      apps.push_back(x);
    }
  }
  try {
    const auto rows = read_summary(summary_path);
    const auto configs = report::group_configs(rows);
    if (apps.empty()) {
      for (const auto& c : configs) {
        if (c.ml > 0 && std::find(apps.begin(), apps.end(), c.app) == apps.end())
          apps.push_back(c.app);
      }
    }
    int written = 0;
    for (const auto& app : apps) {
      const panel_map panels = panels_of(configs, app);
      if (panels.empty()) {
        std::cerr << "dlb_plot_normalized: no " << app << " runs under external load in "
                  << summary_path << "; no figure\n";
        continue;
      }
      for (const auto& f : plots::render(app_figure(app, measure, panels), out_dir, formats)) {
        std::cerr << "dlb_plot_normalized: wrote " << f.string() << "\n";
        ++written;
      }
    }
    if (written == 0) {
      std::cerr << "dlb_plot_normalized: nothing to draw in " << summary_path << "\n";
      return 1;
    }
    return 0;
  } catch (const sweep::csv_error& e) {  // an input unreadable or not what it should be
    std::cerr << "dlb_plot_normalized: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "dlb_plot_normalized: " << e.what() << "\n";
    return 1;
  }
}
