// dlb_plot_sensitivity: heat maps of the sensitivity study. One panel per claim, over
// the two most influential parameters (x and y: their levels); a cell's colour is the share of
// the study's points in that cell where the claim holds (red 0, green 1; blank: no point there),
// and its label "holds/points". Reads the heatmap.csv that `dlb_sensitivity analyze` writes.
#include <iostream>
#include <map>
#include <vector>

#include "figure.hpp"
#include "sweep/cli.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/text.hpp"

namespace fs = std::filesystem;
using namespace dlb;

namespace {

const char* kUsage =
    "usage: dlb_plot_sensitivity --heatmap heatmap.csv --out-dir DIR [--name NAME] "
    "[--formats png,svg]\n"
    "Draws one heat map per claim over the study's two most influential parameters, as NAME.png /\n"
    "NAME.svg (default sensitivity_heatmap).\n";

// Levels in order of first appearance.
void add_level(std::vector<std::string>& v, const std::string& l) {
  for (const auto& x : v)
    if (x == l) return;
  v.push_back(l);
}

std::size_t index_of(const std::vector<std::string>& v, const std::string& l) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] == l) return i;
  return 0;
}

std::string tics(const std::vector<std::string>& levels) {
  std::string s = "(";
  for (std::size_t i = 0; i < levels.size(); ++i) {
    s += (i ? ", " : "") + plots::gp_quote(levels[i]) + " " + std::to_string(i);
  }
  return s + ")";
}

// The heat map file's levels and, per claim, its cells as gnuplot data lines.
struct heatmap {
  std::vector<std::string> claims, xs, ys;
  std::string xp, yp;                       // the x and y parameters
  std::map<std::string, std::string> data;  // claim -> "x y share label" lines
};

heatmap read_heatmap(const std::string& file) {
  const sweep::csv_table t = sweep::read_csv_table(file);
  for (const char* c :
       {"claim", "x_parameter", "x_level", "y_parameter", "y_level", "points", "hold", "share"}) {
    if (!t.column(c)) throw sweep::csv_error(file + ": no column '" + c + "'");
  }
  if (t.rows.empty()) throw sweep::csv_error(file + ": no rows");
  heatmap h;
  for (const auto& r : t.rows) {
    add_level(h.claims, std::string(t.field(r, "claim")));
    add_level(h.xs, std::string(t.field(r, "x_level")));
    add_level(h.ys, std::string(t.field(r, "y_level")));
  }
  h.xp = std::string(t.field(t.rows.front(), "x_parameter"));
  h.yp = std::string(t.field(t.rows.front(), "y_parameter"));
  for (const auto& r : t.rows) {
    const std::string c(t.field(r, "claim"));
    const auto n = sweep::parse_int(t.field(r, "points")).value_or(0);
    const auto held = sweep::parse_int(t.field(r, "hold")).value_or(0);
    const auto share = sweep::parse_double(t.field(r, "share"));
    h.data[c] += std::to_string(index_of(h.xs, std::string(t.field(r, "x_level")))) + " " +
                 std::to_string(index_of(h.ys, std::string(t.field(r, "y_level")))) + " " +
                 (n > 0 && share ? sweep::format_number(*share) : std::string("NaN")) + " \"" +
                 (n > 0 ? std::to_string(held) + "/" + std::to_string(n) : std::string()) + "\"\n";
  }
  return h;
}

// One panel per claim, `rows` x `cols` of them.
std::string heatmap_script(heatmap& h, int rows, int cols) {
  std::string script;
  for (std::size_t i = 0; i < h.claims.size(); ++i) {
    script += "$c" + std::to_string(i) + " << EOD\n" + h.data[h.claims[i]] + "EOD\n";
  }
  script += "set multiplot layout " + std::to_string(rows) + "," + std::to_string(cols) +
            " title " +
            plots::gp_quote(plots::gp_plain("Share of the study's points where each claim holds, "
                                            "over " +
                                            h.xp + " (x) and " + h.yp + " (y)")) +
            " font ',12'\n"
            "set palette defined (0 '#d73027', 0.5 '#fee08b', 1 '#1a9850')\n"
            "set cbrange [0:1]\nunset colorbox\nset xrange [-0.5:" +
            std::to_string(h.xs.size()) + "-0.5]\nset yrange [-0.5:" + std::to_string(h.ys.size()) +
            "-0.5]\nset xtics " + tics(h.xs) + " font ',8'\nset ytics " + tics(h.ys) +
            " font ',8'\nset xlabel " + plots::gp_quote(plots::gp_plain(h.xp)) +
            " font ',9' offset 0,0.5\nset ylabel " + plots::gp_quote(plots::gp_plain(h.yp)) +
            " font ',9' offset 1,0\nunset key\n";
  for (std::size_t i = 0; i < h.claims.size(); ++i) {
    const std::string d = "$c" + std::to_string(i);
    script += "set title " + plots::gp_quote(h.claims[i]) + " font ',10'\nplot " + d +
              " using 1:2:3 with image, " + d + " using 1:2:4 with labels font ',8'\n";
  }
  return script + "unset multiplot\n";
}

}  // namespace

int main(int argc, char** argv) {
  const sweep::cli_args args(argc, argv, "dlb_plot_sensitivity", kUsage,
                             {"heatmap", "out-dir", "name", "formats"}, {});
  const std::string file = args.required("heatmap");
  const fs::path out_dir = args.required("out-dir");
  const std::vector<std::string> formats = plots::formats_option(args);
  try {
    heatmap h = read_heatmap(file);
    const int cols = 4;
    const int rows = static_cast<int>((h.claims.size() + cols - 1) / cols);
    plots::figure fig;
    fig.name = args.value("name").value_or("sensitivity_heatmap");
    fig.width = 1200;
    fig.height = 260 * rows + 60;
    fig.script = heatmap_script(h, rows, cols);
    for (const auto& f : plots::render(fig, out_dir, formats))
      std::cerr << "dlb_plot_sensitivity: wrote " << f.string() << "\n";
    return 0;
  } catch (const sweep::csv_error& e) {
    std::cerr << "dlb_plot_sensitivity: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "dlb_plot_sensitivity: " << e.what() << "\n";
    return 1;
  }
}
