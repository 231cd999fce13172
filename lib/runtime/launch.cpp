// launch.cpp: run_app, the programs' main: --help, option parsing and validation on the
// master, then the launcher of the chosen backend (launchers.hpp). Errors before any task runs
// (a bad option, a slave that cannot be spawned) end here with exit 2 or 1.
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "dlb/runtime/network_profile.hpp"
#include "launchers.hpp"

namespace dlb {

namespace detail {
std::vector<option_spec> all_options(const app_spec& spec) {
  auto specs = common_options();
  specs.insert(specs.end(), spec.options.begin(), spec.options.end());
  return specs;
}
int launched_rank() {
  // Open MPI's mpirun, PMIx launchers, MPICH's Hydra, Slurm's srun.
  for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    if (const char* s = std::getenv(v); s && *s) return std::atoi(s);
  }
  return -1;
}

void check_run_options(const options& opts, const run_params& params) {
  // A profile file the cost model will read: missing or malformed is a usage error now, not a
  // failed run later.
  if (!params.network_profile.empty()) {
    try {
      read_network_profile(params.network_profile);
    } catch (const std::exception& e) {
      throw usage_error(std::string("option --network-profile: ") + e.what());
    }
  }
  // The trace files go into an existing directory: a missing one is a usage error now, not
  // a task that cannot open its file later.
  if (const std::string dir = opts.str("trace-dir"); !dir.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
      throw usage_error("option --trace-dir: '" + dir + "' is not a directory (create it first)");
  }
}

std::unique_ptr<dlb::clock> make_clock(const run_params& p, int rank, std::int64_t epoch_ns) {
  workstation ws;
  if (rank > 0) {
    ws.slave = static_cast<std::size_t>(rank - 1);
    ws.speed = p.speeds[ws.slave];
    ws.load = p.load;
    ws.loaded = p.load.max_load > 0;
  }
  if (p.emulated) return std::make_unique<emulated_clock>(epoch_ns, p.scale, ws);
  return std::make_unique<native_clock>(epoch_ns, ws);
}

void remove_stale_segments() noexcept {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/dev/shm", ec)) {
    const std::string name = e.path().filename().string();
    const std::string prefix = "dlb-medium-";
    if (name.rfind(prefix, 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
      std::filesystem::remove(e.path(), ec);
  }
}

namespace {
// Function-local: the backends register during static initialization, in any order.
std::vector<backend>& registry() {
  static std::vector<backend> r;
  return r;
}

// The launcher of --backend NAME; a usage error when this build has none.
const backend& launcher_of(const std::string& name) {
  if (const backend* b = find_backend(name)) return *b;
  if (name == "mpi")
    throw usage_error(
        "option --backend mpi: this build of the DLB library has no MPI backend (CMake found no "
        "MPI when it was built, or DLB_MPI was OFF: install Open MPI, e.g. Debian's "
        "libopenmpi-dev and openmpi-bin, and build again)");
  throw usage_error("option --backend " + name + ": this build of the DLB library has no " + name +
                    " backend (built with DLB_" +
                    (name == "pvm" ? std::string("PVM") : std::string("SIM")) +
                    " OFF or without its dependency)");
}
}  // namespace

void register_backend(backend b) {
  for (const backend& have : registry())
    if (have.name == b.name) return;
  registry().push_back(std::move(b));
}

const backend* find_backend(const std::string& name) {
  for (const backend& b : registry())
    if (b.name == name) return &b;
  return nullptr;
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
  // In an MPI job every rank parses the same command line: rank 0 alone reports on it.
  const report_sink quiet = [](report_kind, const std::string&) {};
  const report_sink& say = detail::launched_rank() > 0 ? quiet : spec.report;
  if (!slave && (has("--help") || has("-h"))) {
    std::string help = "usage: " + spec.name + " [options]\n" + spec.summary + "\n\nOptions:\n" +
                       options(detail::all_options(spec), {}).help_text();
    if (!help.empty() && help.back() == '\n') help.pop_back();
    say(report_kind::output, help);
    return 0;
  }
  try {
    if (slave) {
      const detail::backend& pvm = detail::launcher_of("pvm");
      if (!pvm.started_task) throw usage_error("the pvm backend starts no task of its own");
      return pvm.started_task(spec, body);
    }
    options opts = options::parse(detail::all_options(spec), args);
    run_params params = read_params(opts);
    if (spec.validate) spec.validate(opts);
    detail::check_run_options(opts, params);
    const detail::backend& b = detail::launcher_of(to_string(params.backend));
    return b.launch(spec, std::move(opts), std::move(params), body);
  } catch (const usage_error& e) {
    say(report_kind::error, spec.name + ": " + e.what());
    if (!slave) say(report_kind::error, "see '" + spec.name + " --help'");
    // Another rank of an MPI job: rank 0 has the same error and reports it. Exiting first would
    // have mpirun end rank 0 before it prints; mpirun ends this rank when rank 0 exits 2.
    if (detail::launched_rank() > 0) std::this_thread::sleep_for(std::chrono::seconds(10));
    return 2;
  } catch (const std::exception& e) {
    say(report_kind::error, spec.name + (slave ? " (slave)" : "") + ": error: " + e.what());
    return 1;
  }
}

}  // namespace dlb
