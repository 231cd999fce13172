// launch.cpp: run_app, the programs' main: --help, option parsing and validation on the
// master, then the launcher of the chosen backend (launchers.hpp). Errors before any task runs
// (a bad option, a slave that cannot be spawned) end here with exit 2 or 1.
#include <algorithm>

#include "dlb/runtime/network_profile.hpp"
#include "launchers.hpp"

namespace dlb {

namespace detail {
std::vector<option_spec> all_options(const app_spec& spec) {
  auto specs = common_options();
  specs.insert(specs.end(), spec.options.begin(), spec.options.end());
  return specs;
}
}  // namespace detail

int run_app(int argc, char** argv, const app_spec& app, const app_body& body,
            const report_sink& report) {
  const detail::launch_spec spec{app, report ? report : report_sink(report_to_standard_streams)};
  std::vector<std::string> args(argv + 1, argv + argc);
  const auto has = [&args](const char* a) {
    return std::find(args.begin(), args.end(), a) != args.end();
  };
  const bool slave = has(detail::kSlaveFlag);
  const report_sink& say = spec.report;
  if (!slave && (has("--help") || has("-h"))) {
    std::string help = "usage: " + spec.name + " [options]\n" + spec.summary + "\n\nOptions:\n" +
                       options(detail::all_options(spec), {}).help_text();
    if (!help.empty() && help.back() == '\n') help.pop_back();
    say(report_kind::output, help);
    return 0;
  }
  try {
    if (slave) return detail::launch_pvm_slave(spec, body);
    options opts = options::parse(detail::all_options(spec), args);
    run_params params = read_params(opts);
    if (spec.validate) spec.validate(opts);
    // A profile file the cost model will read: missing or malformed is a usage error now, not a
    // failed run later.
    if (!params.network_profile.empty()) {
      try {
        read_network_profile(params.network_profile);
      } catch (const std::exception& e) {
        throw usage_error(std::string("option --network-profile: ") + e.what());
      }
    }
    if (params.backend == backend_kind::sim && !opts.str("hostfile").empty())
      throw usage_error(
          "option --hostfile needs --backend pvm (the simulator has no hosts to add)");
    if (params.backend == backend_kind::sim)
      return detail::launch_sim(spec, std::move(opts), std::move(params), body);
    return detail::launch_pvm_master(spec, std::move(opts), std::move(params), body);
  } catch (const usage_error& e) {
    say(report_kind::error, spec.name + ": " + e.what());
    if (!slave) say(report_kind::error, "see '" + spec.name + " --help'");
    return 2;
  } catch (const std::exception& e) {
    say(report_kind::error, spec.name + (slave ? " (slave)" : "") + ": error: " + e.what());
    return 1;
  }
}

}  // namespace dlb
