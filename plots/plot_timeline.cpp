// dlb_plot_timeline: the time line of one run from its --trace-dir files (timeline.hpp): one lane
// per task, each slave's compute, sync and idle intervals as coloured bars over its external
// load level (as the slave's trace recorded it), and every message as an arrow from sender to
// receiver at its send time, the data-carrying ones (scatter, work, gather) marked by their
// bytes.
#include <iostream>

#include "figure.hpp"
#include "sweep/cli.hpp"
#include "timeline.hpp"

namespace fs = std::filesystem;
using namespace dlb;

namespace {

const char* kUsage =
    "usage: dlb_plot_timeline --trace-dir DIR --out-dir OUT --name NAME [--title TITLE]\n"
    "                         [--formats png,svg]\n"
    "Draws the time line of the run whose tasks wrote DIR (a program's --trace-dir: states,\n"
    "load and messages per rank) as OUT/NAME.png and OUT/NAME.svg. A missing directory, no\n"
    "states file or a malformed file is an error naming the file and line (exit 2).\n";

}  // namespace

int main(int argc, char** argv) {
  const sweep::cli_args args(argc, argv, "dlb_plot_timeline", kUsage,
                             {"trace-dir", "out-dir", "name", "title", "formats"}, {});
  const fs::path dir = args.required("trace-dir");
  const fs::path out_dir = args.required("out-dir");
  const std::string name = args.required("name");
  const std::vector<std::string> formats = plots::formats_option(args);
  try {
    const plots::run_trace t = plots::read_run_trace(dir);
    const std::string title = args.value("title").value_or("Timeline of " + name);
    for (const auto& f : plots::render(plots::timeline_figure(t, name, title), out_dir, formats))
      std::cerr << "dlb_plot_timeline: wrote " << f.string() << "\n";
    return 0;
  } catch (const plots::trace_error& e) {
    std::cerr << "dlb_plot_timeline: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "dlb_plot_timeline: " << e.what() << "\n";
    return 1;
  }
}
