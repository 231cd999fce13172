// launch_sim.cpp: the simulated backend's launcher (--backend sim): one engine and one world per
// process, every task an actor; the run's outcome (a deadlock, a setup error, the exit codes) as
// the other backends report it.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include "backends/sim/sim.hpp"
#include "runtime/launchers.hpp"

namespace dlb::detail {

namespace {

// DLB_SIM_STATS=FILE: one line appended per run (sim.hpp). A file that cannot be written is
// said on the error stream; the run's result stands.
void append_sim_stats(const launch_spec& spec, const sim::world& w, double virtual_s,
                      double engine_wall_s) {
  const char* path = std::getenv("DLB_SIM_STATS");
  if (path == nullptr || *path == '\0') return;
  std::ofstream out(path, std::ios::app);
  out << "SIMSTATS app=" << spec.name << " messages=" << w.messages()
      << " message_bytes=" << w.message_bytes() << " virtual_s=" << virtual_s
      << " engine_wall_s=" << engine_wall_s << '\n';
  if (!out)
    report_of(spec)(report_kind::notice, "DLB_SIM_STATS: cannot append to " + std::string(path));
}

}  // namespace

int launch_sim(const launch_spec& spec, options opts, run_params params, const app_body& body) {
  sim::engine e;
  sim::world w(e, spec.name, params);
  // A usage error while a task sets up (an unwritable --trace-dir file) must not escape its
  // actor, where SimGrid would abort the process: it ends that task, and the run reports it as
  // the other backends do (exit 2 naming the input), whatever the others then wait for.
  std::optional<usage_error> setup_error;
  w.start([&spec, &opts, &params, &body, &setup_error, seg = w.segment()](int rank, transport& t,
                                                                          dlb::clock& c) {
    runtime_setup setup{spec.name, opts, params, rank, &t, &c, seg, std::string(), spec.report};
    std::optional<runtime> rt;
    try {
      rt.emplace(std::move(setup));
    } catch (const usage_error& err) {
      if (!setup_error) setup_error.emplace(err);
      return 2;
    }
    return run_task(*rt, spec, body);
  });
  const auto engine_start = std::chrono::steady_clock::now();
  const double end = e.run();
  append_sim_stats(
      spec, w, end,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - engine_start).count());
  if (setup_error) throw *setup_error;
  if (w.deadlocked()) {
    std::ostringstream os;
    os << spec.name << ": error: the simulated run deadlocked at t = " << end
       << " s (every remaining task waits for a message that will never come):"
       << w.deadlock_report();
    report_of(spec)(report_kind::error, os.str());
    return 1;
  }
  const int rc = w.exit_codes()[0];
  if (rc != 0) return rc;
  for (std::size_t r = 1; r < w.exit_codes().size(); ++r)
    if (w.exit_codes()[r] != 0 && !w.killed(static_cast<int>(r))) return 1;
  return 0;
}

// The simulated backend registers itself.
const backend_registrar sim_backend{{"sim", launch_sim, {}}};

}  // namespace dlb::detail
