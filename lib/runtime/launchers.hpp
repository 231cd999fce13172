// launchers.hpp (internal): one launcher per backend, called by run_app (launch.cpp). Each
// creates the transport and clock of every task it runs, hands them to a runtime and ends in
// run_task; it returns the master's exit code.
#pragma once

#include <string>
#include <vector>

#include "dlb/runtime/clocks.hpp"
#include "dlb/runtime/messenger.hpp"
#include "dlb/runtime/network.hpp"
#include "dlb/runtime/runtime.hpp"
#include "dlb/runtime/seam.hpp"
#include "dlb/runtime/strategy_table.hpp"

namespace dlb::detail {

// The flag that marks a PVM task spawned by a master.
inline constexpr const char* kSlaveFlag = "--dlb-slave";

// What run_app hands a launcher: the program's description and where its lines go (never
// empty: the program's sink or report_to_standard_streams).
struct launch_spec : app_spec {
  report_sink report;
};
inline const report_sink& report_of(const launch_spec& spec) { return spec.report; }

// The common options and the application's own.
std::vector<option_spec> all_options(const app_spec& spec);

int launch_pvm_master(const launch_spec& spec, options opts, run_params params,
                      const app_body& body);
int launch_pvm_slave(const launch_spec& spec, const app_body& body);
int launch_sim(const launch_spec& spec, options opts, run_params params, const app_body& body);

}  // namespace dlb::detail
