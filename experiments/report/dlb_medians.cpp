// dlb_medians: medians of `key=value` lines, for the drivers that time whole runs
// (scripts/multihost-bench, scripts/multihost-loss-bench). Reads lines such as
//   hosts=4 rep=2 wall_s=3.1 total_s=2.8
// from standard input (other lines are ignored), groups them by the value of --by, and prints per
// group, in order of first appearance:
//   hosts=4 median (min-max) wall_s=3.100 (2.900-3.300) total_s=...
// for each --field. A group line without one of the fields, or with a value that is not a number,
// is a usage error naming the line (exit 2).
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "stats.hpp"
#include "sweep/cli.hpp"
#include "sweep/text.hpp"

namespace {

const char* kUsage =
    "usage: dlb_medians --by KEY --field NAME [--field NAME ...] < LINES\n"
    "Groups the input's `key=value` lines by KEY's value and prints each field's median (min-max)\n"
    "per group. Lines without KEY are ignored.\n";

std::string three(double v) { return dlb::sweep::format_fixed(v, 3); }

}  // namespace

int main(int argc, char** argv) {
  dlb::sweep::cli_args args(argc, argv, "dlb_medians", kUsage, {"by", "field"}, {});
  const std::string by = args.required("by");
  const auto fields = args.values("field");
  if (fields.empty()) args.usage_error("name at least one --field");
  std::vector<std::string> order;
  std::map<std::string, std::map<std::string, std::vector<double>>> samples;
  std::string line;
  for (int n = 1; std::getline(std::cin, line); ++n) {
    std::map<std::string, std::string> p;  // a key given twice: the last value
    for (auto& [k, v] : dlb::sweep::key_values(line)) p[k] = std::move(v);
    const auto group = p.find(by);
    if (group == p.end()) continue;
    if (!samples.count(group->second)) order.push_back(group->second);
    for (const auto& f : fields) {
      const auto v = p.count(f) ? dlb::sweep::parse_double(p.at(f)) : std::nullopt;
      if (!v) {
        std::cerr << "dlb_medians: input line " << n << " has no number for '" << f << "': " << line
                  << "\n";
        return 2;
      }
      samples[group->second][f].push_back(*v);
    }
  }
  for (const auto& g : order) {
    std::cout << by << "=" << g << " median (min-max)";
    for (const auto& f : fields) {
      const auto s = dlb::report::describe(samples[g][f]);
      std::cout << " " << f << "=" << three(s->median) << " (" << three(s->min) << "-"
                << three(s->max) << ")";
    }
    std::cout << "\n";
  }
  return 0;
}
