// backend_table.cpp: the backends' capability columns and the refusals derived from them
// (backend_table.hpp).
#include "backend_table.hpp"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "dlb/core/heterogeneous.hpp"
#include "dlb/runtime/errors.hpp"

namespace dlb::detail {

namespace {

std::string decimal(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

const char* const kVirtualTime = "the simulator's time is virtual";
const char* const kNotATask =
    "on the other backends the master is a task of its own; --balancer says whose workstation "
    "it shares";

constexpr backend_caps kBackends[] = {
    {backend_kind::pvm, 64, nullptr, nullptr, nullptr, nullptr, kNotATask},
    {backend_kind::sim, 4096, kVirtualTime, "the simulator has no hosts to add",
     "nothing outside a simulation can end its slave (the simulator ends it itself: leave "
     "--fault-mark out)",
     nullptr, kNotATask},
    {backend_kind::mpi, 4096, nullptr,
     "under --backend mpi the hosts are mpirun's (mpirun --hostfile FILE -np P+1 PROGRAM "
     "--backend mpi ...)",
     nullptr,
     "surviving a lost MPI rank needs ULFM (MPI's User-Level Failure Mitigation), which Debian "
     "12's Open MPI 4.1 does not have; under --backend mpi a lost rank ends the run "
     "(docs/several-hosts.md)",
     nullptr},
};

// One refusal: the option as its message names it, the column that allows it, whether the run
// asks for it.
struct backend_refusal {
  const char* option;
  const char* backend_caps::*column;
  bool (*asked)(const options& o, const run_params& p);
};

constexpr backend_refusal kRefusals[] = {
    {"--clock native", &backend_caps::no_native_clock,
     [](const options&, const run_params& p) { return !p.emulated; }},
    {"--hostfile", &backend_caps::no_hosts,
     [](const options& o, const run_params&) { return !o.str("hostfile").empty(); }},
    {"--join-vm", &backend_caps::no_hosts,
     [](const options& o, const run_params&) { return o.flag("join-vm"); }},
    {"--fault-mark", &backend_caps::no_outside_kill,
     [](const options&, const run_params& p) { return !p.fault_mark.empty(); }},
    {"--on-loss recover", &backend_caps::no_recovery,
     [](const options&, const run_params& p) { return p.recover; }},
    {"--master-rank computes", &backend_caps::no_shared_rank,
     [](const options&, const run_params& p) { return p.master_computes; }},
};

}  // namespace

const backend_caps& caps_of(backend_kind b) {
  for (const auto& row : kBackends)
    if (row.kind == b) return row;
  throw usage_error("no backend " + to_string(b));
}

int max_slaves_of_any() {
  int m = 0;
  for (const auto& row : kBackends) m = std::max(m, row.max_slaves);
  return m;
}

void refuse_for_backend(const options& o, const run_params& p) {
  const backend_caps& mine = caps_of(p.backend);
  for (const auto& r : kRefusals) {
    const char* why = mine.*r.column;
    if (!why || !r.asked(o, p)) continue;
    std::vector<std::string> can;
    for (const auto& row : kBackends)
      if (!(row.*r.column)) can.push_back(to_string(row.kind));
    throw usage_error("option " + std::string(r.option) + " needs --backend " + list_values(can) +
                      ": " + why);
  }
  // The simulator visits every change of a slave's load (core::kMinSpeedTimesPersistence).
  if (p.backend != backend_kind::sim || p.speeds.empty()) return;
  const double slowest = *std::min_element(p.speeds.begin(), p.speeds.end());
  if (slowest * p.load.persistence < core::kMinSpeedTimesPersistence)
    throw usage_error(
        "options --speeds and --tl: under --backend sim the slowest speed times --tl must "
        "be at least 1e-4 s, got " +
        decimal(slowest) + " x " + decimal(p.load.persistence));
}

}  // namespace dlb::detail
