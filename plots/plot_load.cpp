// dlb_plot_load: our Figure 1.3, the external load function of one slave over time: an integer
// load in 0..ml held for each duration of persistence tl, drawn as a step plot.
//
// The series comes either from a CSV (time_start,time_end,load[,slave]) written by the runtime,
// or straight from the DLB core's load function (dlb::core::load_in_block), the same pure
// function of (seed, slave, block) the runs use.
#include <algorithm>
#include <cmath>
#include <iostream>

#include "dlb/core/load.hpp"
#include "figure.hpp"
#include "sweep/cli.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/text.hpp"

namespace fs = std::filesystem;
using namespace dlb;

namespace {

const char* kUsage =
    "usage: dlb_plot_load --out-dir DIR --csv LOAD.csv [--slave I] [--name NAME] [--formats "
    "png,svg]\n"
    "       dlb_plot_load --out-dir DIR --seed S --slave I --tl T --ml M --duration D\n"
    "                     [--write-csv FILE] [--name NAME] [--formats png,svg]\n"
    "Draws the external load of one slave over time (our Figure 1.3) as NAME.png / NAME.svg\n"
    "(default name fig1_3_load). The CSV needs a header with time_start,time_end,load (and\n"
    "slave, if it holds several slaves). The second form computes the load with the DLB core's\n"
    "load function and can write it as such a CSV.\n";

struct segment {
  double start = 0;
  double end = 0;
  int load = 0;
};

[[noreturn]] void bad_csv(const std::string& path, const std::string& msg) {
  throw sweep::csv_error(path + ": " + msg);
}

std::vector<segment> read_segments(const std::string& path, std::optional<std::string> slave) {
  const sweep::csv_table t = sweep::read_csv_table(path);
  for (const char* c : {"time_start", "time_end", "load"}) {
    if (!t.column(c))
      bad_csv(path, std::string("no column '") + c + "' (header: time_start,time_end,load)");
  }
  const bool has_slave = t.column("slave").has_value();
  if (has_slave && !slave) {
    std::string first;
    for (const auto& row : t.rows) {
      if (first.empty()) first = std::string(t.field(row, "slave"));
      if (t.field(row, "slave") != first)
        bad_csv(path, "holds several slaves: choose one with --slave");
    }
  }
  std::vector<segment> out;
  for (const auto& row : t.rows) {
    if (has_slave && slave && t.field(row, "slave") != *slave) continue;
    const auto a = sweep::parse_double(t.field(row, "time_start"));
    const auto b = sweep::parse_double(t.field(row, "time_end"));
    const auto l = sweep::parse_int(t.field(row, "load"));
    if (!a || !b || !l || *b < *a || *l < 0) bad_csv(path, "bad row (time_start, time_end, load)");
    out.push_back({*a, *b, static_cast<int>(*l)});
  }
  if (out.empty()) bad_csv(path, "no load rows" + (slave ? " for slave " + *slave : std::string()));
  std::sort(out.begin(), out.end(),
            [](const segment& x, const segment& y) { return x.start < y.start; });
  return out;
}

// The series to draw, from --csv: its segments, the largest load and the title.
struct series {
  std::vector<segment> segs;
  int ml = 0;
  std::string title;
};

series from_csv(const sweep::cli_args& args, const std::string& csv) {
  for (const char* o : {"seed", "tl", "ml", "duration", "write-csv"}) {
    if (args.value(o)) args.usage_error(std::string("--") + o + " does not go with --csv");
  }
  series s;
  s.segs = read_segments(csv, args.value("slave"));
  for (const auto& seg : s.segs) s.ml = std::max(s.ml, seg.load);
  s.title = "External load" +
            (args.value("slave") ? " of slave " + *args.value("slave") : std::string()) +
            " (from " + fs::path(csv).filename().string() + ")";
  return s;
}

// The series from the DLB core's load function (--seed, --slave, --tl, --ml, --duration), and
// its CSV if --write-csv names one.
series from_load_function(const sweep::cli_args& args) {
  const auto seed = sweep::parse_uint(args.required("seed"));
  const auto slave = sweep::parse_uint(args.required("slave"));
  const auto ml_arg = sweep::parse_int(args.required("ml"));
  if (!seed) args.usage_error("--seed needs a non-negative integer");
  if (!slave) args.usage_error("--slave needs a non-negative integer");
  if (!ml_arg || *ml_arg < 0 || *ml_arg > 1000) args.usage_error("--ml needs an integer >= 0");
  if (!args.value("tl")) args.usage_error("--tl is required");
  if (!args.value("duration")) args.usage_error("--duration is required");
  const double tl = args.positive_double("tl", 1);
  const double duration = args.positive_double("duration", 1);
  if (duration / tl > 1e6) args.usage_error("--duration / --tl is over a million blocks");
  series s;
  s.ml = static_cast<int>(*ml_arg);
  const auto blocks = static_cast<std::int64_t>(std::ceil(duration / tl));
  for (std::int64_t k = 0; k < blocks; ++k) {
    s.segs.push_back({static_cast<double>(k) * tl,
                      std::min(static_cast<double>(k + 1) * tl, duration),
                      core::load_in_block(*seed, *slave, k, s.ml)});
  }
  s.title = "External load of slave " + std::to_string(*slave) + " (seed " + std::to_string(*seed) +
            ", ml = " + std::to_string(s.ml) + ", tl = " + sweep::format_number(tl) + " s)";
  if (const auto w = args.value("write-csv")) {
    std::string text = "# load function of slave " + std::to_string(*slave) +
                       ": dlb::core::load_in_block(seed=" + std::to_string(*seed) +
                       ", slave, block, ml=" + std::to_string(s.ml) +
                       "), tl=" + sweep::format_number(tl) +
                       " s; units: seconds, load in 0..ml\n"
                       "time_start,time_end,load\n";
    for (const auto& seg : s.segs) {
      text += sweep::format_number(seg.start) + "," + sweep::format_number(seg.end) + "," +
              std::to_string(seg.load) + "\n";
    }
    if (fs::path(*w).has_parent_path()) fs::create_directories(fs::path(*w).parent_path());
    sweep::write_atomically(*w, text);
    std::cerr << "dlb_plot_load: wrote " << *w << "\n";
  }
  return s;
}

// The step plot of the series as a gnuplot figure.
plots::figure step_figure(const series& s, const std::string& name) {
  const auto& segs = s.segs;
  // Step points: each change of load at its start, then the last segment's end (merging equal
  // neighbours avoids seams in the filled area).
  std::string data = "$L << EOD\n";
  for (std::size_t i = 0; i < segs.size(); ++i) {
    if (i > 0 && segs[i].load == segs[i - 1].load && segs[i].start == segs[i - 1].end) continue;
    data += sweep::format_number(segs[i].start) + " " + std::to_string(segs[i].load) + "\n";
  }
  data +=
      sweep::format_number(segs.back().end) + " " + std::to_string(segs.back().load) + "\nEOD\n";
  plots::figure fig;
  fig.name = name;
  fig.width = 900;
  fig.height = 360;
  fig.script = data + "set title " + plots::gp_quote(s.title) +
               "\nset xlabel 'time (s)'\nset ylabel 'load l_i(k)'\n"
               "set xrange [" +
               sweep::format_number(segs.front().start) + ":" +
               sweep::format_number(segs.back().end) +
               "]\n"
               "set yrange [-0.3:" +
               std::to_string(s.ml) +
               ".7]\nset ytics 0,1\n"
               "set grid ytics lc rgb '#dddddd'\nunset key\n"
               "plot $L using 1:2 with fillsteps fs solid 0.25 noborder lc rgb '#4e79a7', "
               "$L using 1:2 with steps lw 2 lc rgb '#4e79a7'\n";
  return fig;
}

}  // namespace

int main(int argc, char** argv) {
  const sweep::cli_args args(
      argc, argv, "dlb_plot_load", kUsage,
      {"out-dir", "csv", "slave", "seed", "tl", "ml", "duration", "write-csv", "name", "formats"},
      {});
  const fs::path out_dir = args.required("out-dir");
  const std::string name = args.value("name").value_or("fig1_3_load");
  const std::vector<std::string> formats = plots::formats_option(args);
  {
    std::vector<std::pair<std::string, std::string>> outs, ins;
    if (const auto w = args.value("write-csv")) outs.emplace_back("--write-csv", *w);
    for (const auto& f : formats)
      outs.emplace_back("--out-dir", (out_dir / (name + "." + f)).string());
    if (const auto c = args.value("csv")) ins.emplace_back("--csv", *c);
    sweep::refuse_output_over_inputs(args, outs, ins);
  }
  try {
    const auto csv = args.value("csv");
    const series s = csv ? from_csv(args, *csv) : from_load_function(args);
    for (const auto& f : plots::render(step_figure(s, name), out_dir, formats)) {
      std::cerr << "dlb_plot_load: wrote " << f.string() << "\n";
    }
    return 0;
  } catch (const sweep::csv_error& e) {  // an input unreadable or not what it should be
    std::cerr << "dlb_plot_load: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "dlb_plot_load: " << e.what() << "\n";
    return 1;
  }
}
