// mpi_launcher.cpp: starting a DLB run on the ranks of an MPI job (--backend mpi).
//
// mpirun (or srun) starts P+1 copies of the program: MPI rank 0 is the master, ranks 1..P the
// slaves. Every rank has parsed the same command line (run_app), so all agree on the options
// without a configuration message; --procs, when given, must be the job's ranks less one. The
// master then sets up, and broadcasts, what the ranks share: the exit watch's address
// (exit_watch.hpp), the emulated medium's shared segment (the emulated clock: every rank on one
// host) and time 0 of the run. Each rank builds its MPI transport and its clock, hands them to a
// runtime and runs the application's body through run_task.
//
// The end: a run that succeeded everywhere settles (every send complete, a barrier) and calls
// MPI_Finalize. A failed run ends the whole job with MPI_Abort once its error is reported: the
// master at once; a slave after giving the master a bounded moment to report it (the master's
// MPI_Abort ends the slave first). Nothing of the job stays behind: mpirun ends every rank.
#include <dlfcn.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <iostream>

#include "../runtime/launchers.hpp"
#include "dlb/runtime/clocks.hpp"
#include "dlb/runtime/network.hpp"
#include "exit_watch.hpp"
#include "mpi_transport.hpp"

namespace dlb::detail {

namespace {

using namespace std::chrono_literals;
using mpi_detail::exit_watch;
using mpi_detail::mpi_transport;

// Where every rank runs (MPI_Get_processor_name), in rank order.
std::vector<std::string> gather_hosts(int size) {
  std::vector<char> mine(MPI_MAX_PROCESSOR_NAME, '\0');
  int len = 0;
  MPI_Get_processor_name(mine.data(), &len);
  std::vector<char> all(static_cast<std::size_t>(size) * MPI_MAX_PROCESSOR_NAME, '\0');
  MPI_Allgather(mine.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME,
                MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> hosts;
  for (int r = 0; r < size; ++r)
    hosts.emplace_back(all.data() + static_cast<std::ptrdiff_t>(r) * MPI_MAX_PROCESSOR_NAME);
  return hosts;
}

// The master's string, on every rank.
std::string broadcast(std::string s) {
  auto n = static_cast<std::uint64_t>(s.size());
  MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  s.resize(static_cast<std::size_t>(n));
  MPI_Bcast(s.data(), static_cast<int>(n), MPI_CHAR, 0, MPI_COMM_WORLD);
  return s;
}

// P is the job's ranks less one; --procs, when given, must say the same. The same on every
// rank (the same command line and job), so every rank throws the same usage_error.
void fit_to_job(const launch_spec& spec, options& opts, run_params& params,
                const std::vector<std::string>& hosts) {
  const int size = static_cast<int>(hosts.size());
  const std::string run = "mpirun -np P+1 " + spec.name + " --backend mpi ...";
  if (size < 2)
    throw usage_error(
        "option --backend mpi: the job has 1 MPI rank; it needs the master and at "
        "least one slave: " +
        run);
  if (opts.given("procs") && params.procs != size - 1)
    throw usage_error("option --procs " + std::to_string(params.procs) + " needs " +
                      std::to_string(params.procs + 1) + " MPI ranks (the master and " +
                      std::to_string(params.procs) + " slaves), this job has " +
                      std::to_string(size) + ": run mpirun -np " +
                      std::to_string(params.procs + 1) + " " + spec.name +
                      " --backend mpi ..., or leave --procs out");
  if (!opts.given("procs")) {
    opts.set("procs", std::to_string(size - 1));
    params = read_params(opts);
    if (spec.validate) spec.validate(opts);
  }
  for (const auto& h : hosts) {
    if (params.emulated && h != hosts.front())
      throw usage_error(
          "option --clock emulated needs every MPI rank on one host (the emulated "
          "clock and network are shared through its memory; this job runs on " +
          hosts.front() + " and " + h + "): use --clock native across hosts");
  }
}

// The master's segment of the emulated medium, when the run needs one ("" otherwise).
std::shared_ptr<shared_medium> make_medium(const run_params& p, std::string& name) {
  if (!p.emulated || !(p.network.kind == network_kind::ethernet1996 || p.balancer_on_master))
    return nullptr;
  remove_stale_segments();
  name = "dlb-medium-" + std::to_string(getpid()) + "-mpi";
  return std::make_shared<shared_medium>(name, true);
}

// Where each rank runs, as the master sees it: the processor name, and when two ranks share one
// (network namespaces of one machine) the address their exit-watch connection came from.
std::vector<std::string> host_labels(const std::vector<std::string>& names,
                                     const std::vector<std::string>& addresses) {
  std::vector<std::string> labels = names;
  std::vector<std::string> seen;
  for (std::size_t r = 0; r < names.size(); ++r) {
    if (r < addresses.size() && !addresses[r].empty() && addresses[r] != "127.0.0.1")
      labels[r] = names[r] + "/" + addresses[r];
  }
  for (std::size_t r = 0; r < labels.size(); ++r) {
    if (std::find(seen.begin(), seen.end(), labels[r]) == seen.end()) seen.push_back(labels[r]);
  }
  if (seen.size() < 2) return names;
  return labels;
}

// The one line (also under --quiet) naming where every task runs, when they run on several hosts.
void report_hosts(const launch_spec& spec, const std::vector<std::string>& labels) {
  std::vector<std::string> distinct;
  for (const auto& l : labels)
    if (std::find(distinct.begin(), distinct.end(), l) == distinct.end()) distinct.push_back(l);
  if (distinct.size() < 2) return;
  std::string line = "HOSTS hosts=" + std::to_string(distinct.size()) + " master=" + labels[0];
  for (std::size_t r = 1; r < labels.size(); ++r)
    line += " slave" + std::to_string(r) + "=" + labels[r];
  report_of(spec)(report_kind::output, line);
}

// A slave whose run failed: a bounded moment for the master to report it and end the job.
void linger(mpi_transport& t, exit_watch& w) {
  const auto until = std::chrono::steady_clock::now() + 5s;
  while (std::chrono::steady_clock::now() < until && !mpi_detail::terminated() && !w.exited()) {
    t.probe();  // progresses the abort message to the master
    usleep(10'000);
  }
}

// Set-up, the body and the end of the run on this rank; its exit code.
int run_rank(const launch_spec& spec, options opts, run_params params,
             std::vector<std::string> hosts, int rank, const app_body& body) {
  exit_watch watch;
  std::string medium_name, where;
  std::shared_ptr<shared_medium> medium;
  if (rank == 0) {
    where = watch.listen();
    medium = make_medium(params, medium_name);
  }
  where = broadcast(where);
  medium_name = broadcast(medium_name);
  const auto bound =
      std::chrono::milliseconds(static_cast<std::int64_t>(std::min(params.timeout_s, 60.0) * 1000));
  if (rank > 0) {
    watch.connect(where, rank, bound);
    if (!medium_name.empty()) medium = std::make_shared<shared_medium>(medium_name, false);
  } else {
    watch.accept_slaves(params.procs, bound);
    hosts = host_labels(hosts, watch.peer_addresses());
    report_hosts(spec, hosts);
  }
  // Time 0 of the run: far enough ahead for every rank to have it.
  std::int64_t epoch_ns = monotonic_ns() + 50'000'000 + 5'000'000LL * params.procs;
  MPI_Bcast(&epoch_ns, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  mpi_transport t(rank, std::move(hosts), watch);
  auto clk = make_clock(params, rank, epoch_ns);
  const double timeout_s = params.timeout_s;
  runtime_setup setup{spec.name, std::move(opts),   std::move(params), rank,       &t,
                      clk.get(), std::move(medium), std::string(),     spec.report};
  runtime rt(std::move(setup));
  const int rc = run_task(rt, spec, body);
  if (rc != 0) {
    if (rank > 0) linger(t, watch);
    return rc;
  }
  const auto settle_bound =
      std::chrono::milliseconds(static_cast<std::int64_t>(std::min(timeout_s, 60.0) * 1000));
  if (!t.settle(settle_bound))
    throw run_error(t.describe(rank) + ": the ranks did not all reach the end of the run within " +
                    std::to_string(settle_bound.count()) + " ms");
  watch.close_all();
  return 0;
}

// libsimgrid defines the MPI functions too (SMPI): a program that links it before libmpi would
// call SimGrid's MPI_Init, which aborts. Say so instead (lib/CMakeLists.txt links libmpi first).
void check_mpi_binding() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&MPI_Init), &info) != 0 && info.dli_fname &&
      std::string(info.dli_fname).find("simgrid") != std::string::npos)
    throw run_error(std::string("MPI_Init binds to ") + info.dli_fname +
                    " (SimGrid's MPI emulation), not to MPI's library: link libmpi before "
                    "libsimgrid");
}

}  // namespace

int launch_mpi(const launch_spec& spec, options opts, run_params params, const app_body& body) {
  if (launched_rank() < 0)
    throw usage_error(
        "option --backend mpi: this process was not started by mpirun or srun; "
        "run mpirun -np P+1 " +
        spec.name + " --backend mpi ... (the master and P slaves; srun -n P+1 under Slurm)");
  check_mpi_binding();
  MPI_Init(nullptr, nullptr);
  mpi_detail::install_term_handler();
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  auto hosts = gather_hosts(size);
  try {
    fit_to_job(spec, opts, params, hosts);
  } catch (const usage_error& e) {
    // Every rank is here with the same error: rank 0 reports it before the ranks finalize
    // together (a rank that exited first would have mpirun end rank 0 before it printed).
    if (rank == 0) {
      report_of(spec)(report_kind::error, spec.name + ": " + e.what());
      report_of(spec)(report_kind::error, "see '" + spec.name + " --help'");
    }
    MPI_Finalize();
    return 2;
  }
  int rc = 1;
  try {
    rc = run_rank(spec, std::move(opts), std::move(params), std::move(hosts), rank, body);
  } catch (const usage_error& e) {
    // A task's usage error while it sets up (an unwritable --trace-dir file): exit 2 naming it,
    // as on the other backends.
    report_of(spec)(report_kind::error, spec.name + ": " + e.what());
    rc = 2;
  } catch (const std::exception& e) {
    report_of(spec)(report_kind::error,
                    spec.name + (rank > 0 ? " (slave " + std::to_string(rank) + ")" : "") +
                        ": error: " + e.what());
  }
  if (rc == 0) {
    MPI_Finalize();
    return 0;
  }
  std::cout.flush();
  std::cerr.flush();
  MPI_Abort(MPI_COMM_WORLD, rc);
  return rc;
}

}  // namespace dlb::detail
