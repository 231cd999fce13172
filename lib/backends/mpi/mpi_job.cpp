// mpi_job.cpp: one DLB run on the ranks of an MPI communicator (mpi_job.hpp).
#include "mpi_job.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>

#include "dlb/runtime/clocks.hpp"
#include "dlb/runtime/messenger.hpp"
#include "dlb/runtime/network.hpp"
#include "fiber.hpp"
#include "session_comm.hpp"

namespace dlb::mpi_detail {

namespace {

using namespace std::chrono_literals;
using detail::launch_spec;
using detail::report_of;

// Where every rank runs (MPI_Get_processor_name), in rank order.
std::vector<std::string> gather_hosts(MPI_Comm comm, int size, deadline by, double timeout_s) {
  struct names {
    std::vector<char> mine, all;
  };
  auto b = std::make_shared<names>();
  b->mine.assign(MPI_MAX_PROCESSOR_NAME, '\0');
  b->all.assign(static_cast<std::size_t>(size) * MPI_MAX_PROCESSOR_NAME, '\0');
  int len = 0;
  MPI_Get_processor_name(b->mine.data(), &len);
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Iallgather(b->mine.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, b->all.data(),
                 MPI_MAX_PROCESSOR_NAME, MPI_CHAR, comm, &request);
  wait_or_throw(request, by, timeout_s,
                "not every rank of the session reached its set-up (where it runs)", b);
  std::vector<std::string> hosts;
  for (int r = 0; r < size; ++r)
    hosts.emplace_back(b->all.data() + static_cast<std::ptrdiff_t>(r) * MPI_MAX_PROCESSOR_NAME);
  return hosts;
}

// The master's string, on every rank, within the deadline.
std::string broadcast(MPI_Comm comm, const std::string& s, deadline by, double timeout_s) {
  const std::string what =
      "not every rank of the session reached its set-up (the master's addresses)";
  auto n = std::make_shared<std::uint64_t>(s.size());
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibcast(n.get(), 1, MPI_UINT64_T, 0, comm, &request);
  wait_or_throw(request, by, timeout_s, what, n);
  auto text = std::make_shared<std::vector<char>>(s.begin(), s.end());
  text->resize(static_cast<std::size_t>(*n));
  MPI_Ibcast(text->data(), static_cast<int>(*n), MPI_CHAR, 0, comm, &request);
  wait_or_throw(request, by, timeout_s, what, text);
  return std::string(text->begin(), text->end());
}

// The master's segment of the emulated medium, when the run needs one ("" otherwise).
std::shared_ptr<shared_medium> make_medium(const run_params& p, std::string& name) {
  if (!p.emulated || !(p.network.kind == network_kind::ethernet1996 || p.balancer_on_master))
    return nullptr;
  detail::remove_stale_segments();
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

std::chrono::milliseconds bound_of(double timeout_s) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(std::min(timeout_s, 60.0) * 1000));
}

}  // namespace

void fit_to_job(const launch_spec& spec, options& opts, run_params& params,
                const std::vector<std::string>& hosts) {
  const int size = static_cast<int>(hosts.size());
  const rank_layout layout{size, params.master_computes};
  const std::string run = "mpirun -np P+1 " + spec.name + " --backend mpi ...";
  if (size < 2 && !params.master_computes)
    throw usage_error(
        "option --backend mpi: the job has 1 MPI rank; with a dedicated master it needs at "
        "least one slave besides: " +
        run);
  if (params.master_computes && params.emulated)
    throw usage_error(
        "option --master-rank computes needs --clock native (the emulated clock models a "
        "master of its own)");
  const int slaves = layout.slaves();
  if (opts.given("procs") && params.procs != slaves) {
    const int ranks = params.master_computes ? params.procs : params.procs + 1;
    throw usage_error(
        "option --procs " + std::to_string(params.procs) + " needs " + std::to_string(ranks) +
        " MPI ranks (" +
        (params.master_computes ? std::string("every one a worker, rank 0 also the master")
                                : "the master and " + std::to_string(params.procs) + " slaves") +
        "), this job has " + std::to_string(size) + ": run mpirun -np " + std::to_string(ranks) +
        " " + spec.name + " --backend mpi ..., or leave --procs out");
  }
  if (!opts.given("procs")) {
    opts.set("procs", std::to_string(slaves));
    params = read_params(opts, params.policy);  // the policy as read (perhaps typed), kept
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

void check_mpi_binding() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&MPI_Init), &info) != 0 && info.dli_fname &&
      std::string(info.dli_fname).find("simgrid") != std::string::npos)
    throw run_error(std::string("MPI_Init binds to ") + info.dli_fname +
                    " (SimGrid's MPI emulation), not to MPI's library: link libmpi before "
                    "libsimgrid");
}

namespace {

// What this rank is about to make: the session's parameters (agreement.hpp).
statement session_statement(const options& opts, const run_params& params) {
  statement st;
  st[field::what] = static_cast<std::int64_t>(step::session);
  st[field::master_computes] = params.master_computes ? 1 : 0;
  st[field::emulated] = params.emulated ? 1 : 0;
  st[field::group] = opts.given("group") ? params.group : 0;
  st[field::timeout_ms] = static_cast<std::int64_t>(params.timeout_s * 1000);
  st.set_policy(core::to_string(params.policy));
  return st;
}

}  // namespace

job::job(MPI_Comm comm, const launch_spec& spec, options opts, run_params params) {
  check_mpi_binding();
  dup_.comm = open_session_comm(comm, session_statement(opts, params), params.timeout_s);
  comm_ = dup_.comm;
  timeout_s_ = params.timeout_s;
  const deadline by = deadline_after(timeout_s_);
  int size = 0;
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size);
  auto hosts = gather_hosts(comm_, size, by, timeout_s_);
  fit_to_job(spec, opts, params, hosts);
  std::string medium_name, where;
  std::shared_ptr<shared_medium> medium;
  if (rank_ == 0) {
    where = watch_.listen();
    medium = make_medium(params, medium_name);
  }
  where = broadcast(comm_, where, by, timeout_s_);
  medium_name = broadcast(comm_, medium_name, by, timeout_s_);
  if (rank_ > 0) {
    watch_.connect(where, rank_, bound_of(timeout_s_));
    if (!medium_name.empty()) medium = std::make_shared<shared_medium>(medium_name, false);
  } else {
    watch_.accept_slaves(size - 1, bound_of(timeout_s_));
    hosts = host_labels(hosts, watch_.peer_addresses());
    report_hosts(spec, hosts);
  }
  // Every rank has mapped the medium: its name goes, so that a job that ends abnormally (a rank
  // killed, mpirun ending the others) leaves nothing in /dev/shm.
  const std::string met = "not every rank of the session reached its set-up";
  if (!medium_name.empty()) {
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ibarrier(comm_, &request);
    wait_or_throw(request, by, timeout_s_, met);
    if (rank_ == 0) medium->unlink_name();
  }
  // Time 0 of the run: far enough ahead for every rank to have it.
  auto epoch_ns =
      std::make_shared<std::int64_t>(monotonic_ns() + 50'000'000 + 5'000'000LL * params.procs);
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibcast(epoch_ns.get(), 1, MPI_INT64_T, 0, comm_, &request);
  wait_or_throw(request, by, timeout_s_, met, epoch_ns);
  make_tasks(spec, std::move(opts), std::move(params), hosts, std::move(medium), *epoch_ns);
}

void job::make_tasks(const launch_spec& spec, options opts, run_params params,
                     const std::vector<std::string>& hosts, std::shared_ptr<shared_medium> medium,
                     std::int64_t epoch_ns) {
  const rank_layout layout{static_cast<int>(hosts.size()), params.master_computes};
  std::vector<std::string> task_hosts;  // by task
  for (int t = 0; t <= layout.slaves(); ++t)
    task_hosts.push_back(hosts[static_cast<std::size_t>(layout.rank_of(t))]);
  port_ = std::make_unique<mpi_port>(comm_, rank_, layout, watch_);
  const std::vector<int> tasks = layout.tasks_on(rank_);
  const report_sink& report = spec.report;
  if (tasks.size() > 1) {
    run_params worker_params = params;
    worker_transport_ = std::make_unique<mpi_transport>(*port_, tasks[1], task_hosts);
    worker_clock_ = detail::make_clock(worker_params, tasks[1], epoch_ns);
    worker_rt_ = std::make_unique<dlb::runtime>(
        runtime_setup{spec.name, opts, std::move(worker_params), tasks[1], worker_transport_.get(),
                      worker_clock_.get(), nullptr, std::string(), report});
  }
  transport_ = std::make_unique<mpi_transport>(*port_, tasks[0], std::move(task_hosts));
  clock_ = detail::make_clock(params, tasks[0], epoch_ns);
  runtime_setup setup{spec.name,         std::move(opts),  std::move(params),
                      tasks[0],          transport_.get(), clock_.get(),
                      std::move(medium), std::string(),    report};
  rt_ = std::make_unique<dlb::runtime>(std::move(setup));
}

namespace {
std::string what_of(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}
}  // namespace

job::outcome job::run_colocated(const std::function<void(dlb::runtime&)>& master,
                                const std::function<void(dlb::runtime&)>& worker) {
  outcome out;
  fiber balancer([&] {
    try {
      master(*rt_);
    } catch (...) {
      out.master = std::current_exception();
      // The slaves, this rank's among them, may be waiting for the master: they learn why
      // (abort never throws).
      rt_->abort(what_of(out.master));
    }
  });
  port_->attach_master(&balancer);
  try {
    worker(*worker_rt_);
  } catch (...) {
    out.worker = std::current_exception();
    worker_rt_->abort(what_of(out.worker));  // the master, waiting for this slave, learns why
  }
  port_->serve_master();
  port_->attach_master(nullptr);
  return out;
}

job::own_comm::~own_comm() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (comm == MPI_COMM_NULL || finalized) return;
  if (settled) {
    MPI_Comm_free(&comm);
    return;
  }
  // A failed run's duplicate may still have messages in flight or unreceived, and sends that no
  // rank will receive: freed, its context could be reused by the next duplicate while those are
  // pending on some ranks and not on others (seen: a later MPI_Comm_dup on the same communicator
  // that never returned, and a new session that received the old one's aborts). So it is kept,
  // never reused, for the rest of the process: a handle per failed run.
  static auto* kept = new std::vector<MPI_Comm>();
  kept->push_back(comm);
}

job::~job() {
  worker_rt_.reset();
  rt_.reset();
  worker_transport_.reset();
  transport_.reset();
  port_.reset();
  watch_.close_all();
}

void job::settle() {
  const auto bound = bound_of(timeout_s_);
  if (!port_->settle(bound))
    throw run_error(transport_->describe(rank_) +
                    ": the ranks did not all reach the end of the run within " +
                    std::to_string(bound.count()) + " ms");
  watch_.close_all();
  dup_.settled = true;
}

bool job::failed_elsewhere() {
  return port_->holds(static_cast<int>(tag::abort)) || port_->exited().has_value();
}

void job::linger() {
  const auto until = std::chrono::steady_clock::now() + 5s;
  while (std::chrono::steady_clock::now() < until && !terminated() && !watch_.exited()) {
    transport_->probe();  // progresses the abort message to the master
    usleep(10'000);
  }
}

}  // namespace dlb::mpi_detail
