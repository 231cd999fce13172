// dlb_plot_network: our Figure 1.6, the cost of the all-to-all (AA), all-to-one (AO) and
// one-to-all (OA) exchanges of profile-sized messages against the number of processes:
// measured points (exp) and the polynomial fits (polyfit) the cost model uses; beside it the
// ping-pong one-way times against message size with the fitted line L + bytes / B.
// Reads the *_fit.csv that dlb_netchar writes.
#include <iostream>
#include <map>

#include "figure.hpp"
#include "sweep/cli.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/text.hpp"

namespace fs = std::filesystem;
using namespace dlb;

namespace {

const char* kUsage =
    "usage: dlb_plot_network --fit NAME_fit.csv --out-dir DIR [--name NAME] [--title TEXT] "
    "[--formats png,svg]\n"
    "Draws the network characterization written by dlb_netchar (our Figure 1.6) as NAME.png / "
    "NAME.svg\n"
    "(default name fig1_6_network).\n";

struct series {
  std::string points;  // "x measured fit" lines
};

// The fit file's series, by pattern (gnuplot data lines, times in ms).
std::map<std::string, series> read_series(const std::string& fit, const sweep::csv_table& t) {
  for (const char* c : {"pattern", "p", "measured_s", "fit_s"}) {
    if (!t.column(c)) throw sweep::csv_error(fit + ": no column '" + c + "'");
  }
  std::map<std::string, series> by;
  for (const auto& row : t.rows) {
    const auto x = sweep::parse_double(t.field(row, "p"));
    const auto m = sweep::parse_double(t.field(row, "measured_s"));
    const auto f = sweep::parse_double(t.field(row, "fit_s"));
    if (!x || !m || !f) throw sweep::csv_error(fit + ": bad row");
    // Collectives in milliseconds, ping-pong in milliseconds too.
    by[std::string(t.field(row, "pattern"))].points += sweep::format_number(*x) + " " +
                                                       sweep::format_number(*m * 1e3) + " " +
                                                       sweep::format_number(*f * 1e3) + "\n";
  }
  for (const char* k : {"all_to_all", "all_to_one", "one_to_all", "ping_pong_bytes"}) {
    if (!by.count(k)) throw sweep::csv_error(fit + ": no rows for " + k);
  }
  return by;
}

}  // namespace

int main(int argc, char** argv) {
  const sweep::cli_args args(argc, argv, "dlb_plot_network", kUsage,
                             {"fit", "out-dir", "name", "title", "formats"}, {});
  const std::string fit = args.required("fit");
  const fs::path out_dir = args.required("out-dir");
  const std::vector<std::string> formats = plots::formats_option(args);
  try {
    const sweep::csv_table t = sweep::read_csv_table(fit);
    const std::map<std::string, series> by = read_series(fit, t);
    std::string data;
    for (const auto& [k, s] : by) data += "$" + k + " << EOD\n" + s.points + "EOD\n";
    const std::string title = args.value("title").value_or(
        "Communication cost (" + t.meta("dlb_netchar").value_or(fs::path(fit).stem().string()) +
        ")");
    plots::figure fig;
    fig.name = args.value("name").value_or("fig1_6_network");
    fig.width = 1100;
    fig.height = 440;
    fig.script =
        data + "set multiplot layout 1,2 title " + plots::gp_quote(plots::gp_plain(title)) +
        " font ',11'\n"
        "set xlabel 'processes p'\nset ylabel 'time (ms)'\nset key top left\nset grid lc rgb "
        "'#dddddd'\n"
        "plot $all_to_all using 1:2 with points pt 7 lc rgb '#e15759' title 'AA (exp)', "
        "$all_to_all using 1:3 with lines lw 2 lc rgb '#e15759' title 'AA (polyfit)', "
        "$all_to_one using 1:2 with points pt 5 lc rgb '#4e79a7' title 'AO (exp)', "
        "$all_to_one using 1:3 with lines lw 2 lc rgb '#4e79a7' title 'AO (polyfit)', "
        "$one_to_all using 1:2 with points pt 9 lc rgb '#59a14f' title 'OA (exp)', "
        "$one_to_all using 1:3 with lines lw 2 dt 2 lc rgb '#59a14f' title 'OA (polyfit)'\n"
        "set logscale xy\nset xlabel 'message size (bytes)'\nset ylabel 'one-way time (ms)'\n"
        "plot $ping_pong_bytes using 1:2 with points pt 7 lc rgb '#333333' title 'ping-pong "
        "(exp)', "
        "$ping_pong_bytes using 1:3 with lines lw 2 lc rgb '#f28e2b' title 'L + bytes/B (fit)'\n"
        "unset multiplot\n";
    for (const auto& f : plots::render(fig, out_dir, formats))
      std::cerr << "dlb_plot_network: wrote " << f.string() << "\n";
    return 0;
  } catch (const sweep::csv_error& e) {  // an input unreadable or not what it should be
    std::cerr << "dlb_plot_network: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "dlb_plot_network: " << e.what() << "\n";
    return 1;
  }
}
