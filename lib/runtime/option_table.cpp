// option_table.cpp: the options of a run as a table (one row per option: its spec and what it
// sets in the run's parameters), the combinations a run cannot have, and the parameters read
// from the options (read_params). The runtime class is runtime.cpp.
#include <algorithm>
#include <climits>
#include <cmath>
#include <initializer_list>
#include <span>
#include <sstream>
#include <stdexcept>

#include "backend_table.hpp"
#include "refusals.hpp"
#include "dlb/core/auto_all.hpp"
#include "dlb/core/heterogeneous.hpp"
#include "dlb/runtime/network.hpp"
#include "dlb/runtime/runtime.hpp"
#include "dlb/runtime/strategy_table.hpp"

namespace dlb {

namespace {

// A default value as --help prints it: 5, not 5.000000.
std::string decimal(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

std::vector<double> parse_speeds(const std::string& text, int procs) {
  if (auto mix = core::speed_mix(text, static_cast<std::size_t>(procs))) return *mix;
  std::vector<double> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto x = parse_number(item);
    if (!x || !(*x >= core::kMinSpeed && *x <= core::kMaxSpeed))
      throw usage_error("option --speeds needs numbers in [0.001, 1000] separated by commas or a " +
                        ("mix (" + std::string(core::known_speed_mixes()) + "), got '") + text +
                        "'");
    v.push_back(*x);
  }
  if (v.size() == 1) v.assign(static_cast<std::size_t>(procs), v[0]);
  if (v.size() != static_cast<std::size_t>(procs)) {
    throw usage_error("option --speeds needs 1 or P = " + std::to_string(procs) + " values, got " +
                      std::to_string(v.size()));
  }
  return v;
}

// A choice's value and what it means (empty: its name says it).
struct choice_value {
  const char* value;
  const char* meaning = "";
};

// A choice option's spec, its values written once: the help is `lead`, then the values with
// their meanings ("a (..), b (..) or c"), then `tail`; parse() refuses any other value.
option_spec choice(const char* name, const char* value, const char* lead,
                   std::initializer_list<choice_value> values, const char* tail = "") {
  option_spec spec{name, value, lead};
  std::vector<std::string> told;
  for (const auto& v : values) {
    spec.values.emplace_back(v.value);
    told.push_back(*v.meaning ? std::string(v.value) + " (" + v.meaning + ")" : v.value);
  }
  spec.help += list_values(told) + tail;
  return spec;
}

// A run's option: its spec (name, default, help, a choice's values) and what it sets in the
// run's parameters. read_params calls the setters in table order, so a setter may read what the
// rows before it set (--procs reads the backend, --speeds P, --load-after tl); a row whose
// setter is null is read by the row named in its help's first words ("read with --x"). Adding an
// option is one row (and the run_params field it sets).
struct run_option {
  option_spec spec;
  void (*set)(const options& o, run_params& p);
};

// AUTO-ALL's --candidates and --auto-force (checked whatever the strategy).
void set_candidates(const options& o, run_params& p) {
  try {
    auto candidates = core::parse_candidates(o.str("candidates"));
    // Kept by AUTO-ALL's policy, unless it came typed with its own (dlb::mpi::session_params).
    if (auto* c = std::get_if<core::customized>(&p.policy.value);
        c && c->mode == core::customized_mode::auto_all && c->candidates.empty())
      c->candidates = std::move(candidates);
  } catch (const std::invalid_argument& e) {
    throw usage_error("option --candidates: " + std::string(e.what()));
  }
}

void set_auto_force(const options& o, run_params& p) {
  if (o.str("auto-force").empty()) return;
  std::vector<core::policy> forced;
  try {
    forced = core::parse_candidates(o.str("auto-force"));
  } catch (const std::invalid_argument& e) {
    throw usage_error("option --auto-force: " + std::string(e.what()));
  }
  if (forced.size() != 1)
    throw usage_error("option --auto-force takes one policy, got '" + o.str("auto-force") + "'");
  auto* c = std::get_if<core::customized>(&p.policy.value);
  if (!c || c->mode != core::customized_mode::auto_all)
    throw usage_error("option --auto-force needs the policy AUTO-ALL, got " +
                      core::to_string(p.policy));
  c->forced = std::move(forced);
}

void set_strategy(const options& o, run_params& p) {
  try {
    p.policy = core::parse_policy(o.str("strategy"));
  } catch (const std::invalid_argument& e) {
    throw usage_error("option --strategy: " + std::string(e.what()));
  }
}

void set_procs(const options& o, run_params& p) {
  p.procs = static_cast<int>(o.integer("procs", 1, detail::max_slaves_of_any()));
  if (const int most = detail::caps_of(p.backend).max_slaves; p.procs > most)
    throw usage_error("option --procs: at most " + std::to_string(most) +
                      " slaves under --backend " + to_string(p.backend) +
                      " (use --backend sim for more), got " + std::to_string(p.procs));
}

void set_group(const options& o, run_params& p) {
  const auto k = static_cast<int>(o.integer("group", 0, detail::max_slaves_of_any()));
  if (k > p.procs)
    throw usage_error("option --group must not exceed --procs (" + std::to_string(p.procs) +
                      "), got " + std::to_string(k));
  // K for every strategy: the model predicts the local strategies with it (AUTO when it may pick
  // one, and every run's after-the-fact predictions); a global strategy's run still forms one
  // group of all slaves (group_size_under).
  p.group = k == 0 ? std::max(1, p.procs / paper::local_groups) : k;
}

void set_network(const options& o, run_params& p) {
  p.network = read_network_options(o);
  if (!p.emulated) p.network = default_network(network_kind::ideal);
  p.network.carried_by_transport = p.backend == backend_kind::sim;
}

void set_fault(const options& o, run_params& p) {
  // Empty: not given (the slaves see the values, not which were given).
  const auto some = [&o](const char* name) { return !o.str(name).empty(); };
  try {
    p.fault = core::make_fault_plan(
        p.procs, o.integer("kill-slave", INT64_MIN, INT64_MAX),
        some("kill-at") ? std::optional(o.real("kill-at", 0, 1e12)) : std::nullopt,
        some("kill-after-iters")
            ? std::optional(o.integer("kill-after-iters", INT64_MIN, INT64_MAX))
            : std::nullopt,
        some("kill-at-sync") ? std::optional(o.integer("kill-at-sync", INT64_MIN, INT64_MAX))
                             : std::nullopt);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
}

void set_fault_mark(const options& o, run_params& p) {
  p.fault_mark = o.str("fault-mark");
  if (!p.fault_mark.empty() && p.fault.slave == 0)
    throw usage_error("option --fault-mark needs --kill-slave N (the slave that waits there)");
}

// The policy, the slaves and their load.
const run_option kRunOptions[] = {
    {{"strategy", "GDDLB", core::described_policy_names() + "; docs/design/policies.md"},
     set_strategy},
    {{"candidates", std::string(core::default_candidates()),
      "AUTO-ALL: the policies it predicts at the first synchronization and chooses among "
      "(blank-separated: the paper's four, ADAPTIVE and the self-scheduling rules of --strategy)"},
     set_candidates},
    {{"auto-force", "",
      "AUTO-ALL, for testing and diagnosis: commit to this policy (one of --candidates' names) "
      "whatever the predictions, which are still made and printed; empty: the fastest"},
     set_auto_force},
    {{"prefetch", "0",
      "self-scheduling rules: a worker asks for its next chunk when this fraction of its "
      "current chunk remains, in [0, 1); 0: when it is done (the paper's experiments)"},
     [](const options& o, run_params& p) {
       p.prefetch = o.real("prefetch", 0, 1);
       if (!(p.prefetch < 1))
         throw usage_error("option --prefetch must be in [0, 1), got " + o.str("prefetch"));
     }},
    {choice("backend", "pvm", "",
            {{"pvm", "real PVM tasks"},
             {"sim", "simulated workstations in virtual time, one process"},
             {"mpi", "one MPI rank per task: mpirun -np P+1 PROGRAM --backend mpi ..."}}),
     [](const options& o, run_params& p) {
       const auto& b = o.str("backend");
       p.backend = b == "sim"   ? backend_kind::sim
                   : b == "mpi" ? backend_kind::mpi
                                : backend_kind::pvm;
     }},
    {choice("master-rank", "dedicated", "mpi: ",
            {{"dedicated",
              "the master's rank balances only: np ranks run np-1 slaves, the paper's layout"},
             {"computes",
              "every rank a worker: np slaves, rank 0 also the master, which answers between "
              "its own iterations; --clock native"}}),
     [](const options& o, run_params& p) {
       p.master_computes = o.str("master-rank") == "computes";
     }},
    {{"procs", "4",
      "P, the number of slaves (1..64 under pvm, 1..4096 under sim and mpi; under mpi, default: "
      "the job's ranks less one, or all of them with --master-rank computes)"},
     set_procs},
    {{"group", "0", "K, group size of the local strategies; 0: P/2 as in the paper"}, set_group},
    {{"seed", "1", "seed of the external load function"},
     [](const options& o, run_params& p) {
       p.load.seed = static_cast<std::uint64_t>(o.integer("seed", 0, INT64_MAX));
     }},
    {{"ml", std::to_string(paper::max_load),
      "maximum external load (load uniform in 0..ml); 0: no load"},
     [](const options& o, run_params& p) {
       p.load.max_load = static_cast<int>(o.integer("ml", 0, 1000));
     }},
    {{"tl", decimal(core::kDefaultPersistence), "duration of persistence of the load, seconds"},
     [](const options& o, run_params& p) { p.load.persistence = o.real("tl", 1e-6, 1e12); }},
    {{"load-after", "0",
      "the external load starts at this time of the run's clock, seconds, rounded down to a "
      "whole number of --tl (no load before it); 0: from the start"},
     [](const options& o, run_params& p) {
       const double after = o.real("load-after", 0, 1e12);
       if (after > 0 && std::isfinite(p.load.persistence))
         p.load.unloaded_blocks = core::load_block(after, p.load.persistence);
     }},
    {{"speeds", "1",
      "normalized processor speeds S_i, each in [0.001, 1000]: one value or P, comma-separated, "
      "or a mix: uniform, half2x (the second half at 2), quarter4x (the last quarter at 4), "
      "ramp (1 to 2)"},
     [](const options& o, run_params& p) { p.speeds = parse_speeds(o.str("speeds"), p.procs); }},
    {choice(
         "initial", "equal", "initial distribution of a BLOCK loop: ",
         {{"equal", "the paper's chi_i(0) = I/P"}, {"speed", "lambda_i(0) proportional to S_i"}}),
     [](const options& o, run_params& p) { p.initial_by_speed = o.str("initial") == "speed"; }},
    {choice("groups", "block", "groups of the local strategies: ",
            {{"block", "K-block, the paper's"},
             {"power", "groups of equal total power S_i, for heterogeneous --speeds"}}),
     [](const options& o, run_params& p) { p.power_groups = o.str("groups") == "power"; }},
};

// The clock and the emulated network.
const run_option kNetworkOptions[] = {
    {choice("clock", "emulated", "",
            {{"emulated", "1996 workstations, dilated time"}, {"native", "real time"}},
            "; native: pvm and mpi backends"),
     // Under the native clock the network is the real one: nothing is modelled (set_network).
     [](const options& o, run_params& p) { p.emulated = o.str("clock") == "emulated"; }},
    {{"scale", "10", "emulated seconds per wall second (emulated clock)"},
     [](const options& o, run_params& p) { p.scale = o.real("scale", 1e-3, 1e6); }},
    {choice("network", "ethernet1996",
            "emulated network: ", {{"ethernet1996", "shared medium"}, {"switched"}, {"ideal"}}),
     set_network},
    {{"latency-us", "",
      "read with --network: network latency L, microseconds: one-way time of a 1-byte message "
      "(default: the paper's 2414.5)"},
     nullptr},
    {{"bandwidth-mbps", "",
      "read with --network: network bandwidth B, MB/s (10^6 bytes/s; default: the paper's "
      "0.96)"},
     nullptr},
    {{"send-overhead", "",
      "read with --network: o_s, the sender's CPU per message, as a fraction of L (default 0.4; "
      "docs/design/clocks.md)"},
     nullptr},
    {{"recv-overhead", "",
      "read with --network: o_r, the receiver's CPU per message, as a fraction of L (default "
      "0.4; docs/design/clocks.md)"},
     nullptr},
    {{"header-bytes", "",
      "read with --network: h, bytes on the wire per message besides the payload (default 98)"},
     nullptr},
    {{"wire-share", "",
      "read with --network: the share of a byte's end-to-end time 1/B spent on the wire, the "
      "rest on the hosts' CPU (packing, unpacking, half each) (default 0.768 = 0.96/1.25: the "
      "paper's end-to-end B over 10 Mb/s Ethernet's 1.25 MB/s; 1: every byte on the wire; "
      "docs/design/protocol.md, \"Broadcasts\")"},
     nullptr},
    {{"bulk-mbps", "", "with --bulk-bytes: MB/s for the payload of larger messages"}, nullptr},
    {{"bulk-bytes", "", "with --bulk-mbps: payload bytes above which it applies"}, nullptr},
    {{"network-file", "",
      "read with --network: network description file (medium, latency_us, bandwidth_MBps, "
      "send_overhead_us, recv_overhead_us, header_bytes; optional wire_share) instead of "
      "--network and the options above"},
     nullptr},
};

// The balancer and the protocol's readings.
const run_option kBalancerOptions[] = {
    {{"delta-ms", "1", "time the balancer spends on one decision, ms"},
     [](const options& o, run_params& p) { p.delta = o.real("delta-ms", 0, 1e9) * 1e-3; }},
    {{"threshold", "-1", "move threshold in iterations; -1: --threshold-pct of the loop's"},
     [](const options& o, run_params& p) { p.threshold = o.integer("threshold", -1, INT64_MAX); }},
    {{"threshold-pct", "1",
      "move threshold in percent of the loop's iterations (at least 1 iteration), unless "
      "--threshold is given"},
     [](const options& o, run_params& p) {
       p.threshold_pct = o.real("threshold-pct", 0, 100);
       if (!(p.threshold_pct > 0))
         throw usage_error("option --threshold-pct must be in (0, 100], got " +
                           o.str("threshold-pct"));
     }},
    {{"improvement", decimal(paper::min_improvement),
      "minimum predicted improvement to move work (profitability)"},
     [](const options& o, run_params& p) { p.min_improvement = o.real("improvement", 0, 1); }},
    {choice("balancer", "master",
            "where the master task (the centralized balancer, scatter and gather) runs: ",
            {{"master", "on slave 1's workstation, taking its CPU, as in the paper"},
             {"dedicated", "a workstation of its own"}}),
     [](const options& o, run_params& p) { p.balancer_on_master = o.str("balancer") == "master"; }},
    {choice("instructions", "senders", "who hears the centralized balancer's decision: ",
            {{"senders",
              "the paper: instructions to the senders only, receivers learn from the data, the "
              "others go on computing"},
             {"all", "every member waits for the decision and is told it"}}),
     [](const options& o, run_params& p) {
       p.instructions_to_senders = o.str("instructions") == "senders";
     }},
    {choice("after-no-move", "idle", "after a decision not to move: ",
            {{"idle",
              "the requester idles, the others go on and the next to run out synchronizes "
              "again"},
             {"stop", "balancing in the group ends"}}),
     [](const options& o, run_params& p) {
       p.after_no_move = *core::parse_after_no_move(o.str("after-no-move"));
     }},
    {choice("first-sync", "master-group", "who owns a loop's first synchronization: ",
            {{"strategy", "the strategy's own protocol in its groups"},
             {"master-group",
              "every slave's profile to the master, which decides within the strategy's groups"},
             {"master-global", "the master decides over all P slaves"}},
            "; docs/design/protocol.md, \"The first synchronization\""),
     [](const options& o, run_params& p) {
       p.first_sync = *parse_first_sync(o.str("first-sync"));
     }},
    {choice("broadcast", "mcast", "how a message to several tasks is sent: ",
            {{"unicast", "one send per destination, each paying the send overhead"},
             {"mcast", "pvm_mcast: one send overhead, one copy per destination host on the wire"}}),
     [](const options& o, run_params& p) { p.broadcast = *parse_broadcast(o.str("broadcast")); }},
    {choice("balance-by", "work", "what the balancer splits in proportion to the speeds: ",
            {{"work",
              "the iterations' costs from the loop's work function, speeds in work per second"},
             {"iterations",
              "speeds in iterations per second: the earlier rule, wrong on loops whose "
              "iterations cost different amounts"}}),
     [](const options& o, run_params& p) {
       p.balance_unit = *core::parse_balance_unit(o.str("balance-by"));
     }},
    {choice("model-load", "run", "the external load the cost model assumes: ",
            {{"run", "the run's own load function: seed, ml, tl"},
             {"estimated",
              "ml and tl estimated from the speeds seen up to the first synchronization"}}),
     [](const options& o, run_params& p) {
       p.model_load = *core::parse_model_load(o.str("model-load"));
     }},
};

// Bounded waits, lost slaves and fault injection.
const run_option kFailureOptions[] = {
    {{"timeout", "120", "wall-clock bound on every wait, seconds"},
     // Wall time; the simulator detects deadlock itself.
     [](const options& o, run_params& p) { p.timeout_s = o.real("timeout", 0.1, 1e7); }},
    {choice("on-loss", "abort", "when a slave is lost: ",
            {{"abort", "the run fails naming it"},
             {"recover",
              "the survivors compute its unfinished iterations; docs/design/recovery.md, \"When a "
              "workstation is lost\""}}),
     [](const options& o, run_params& p) { p.recover = o.str("on-loss") == "recover"; }},
    {{"kill-slave", "0",
      "fault injection: this slave dies (sim: its actor is killed; pvm: it SIGKILLs itself) at "
      "the point one of the next three options gives (none: --kill-at 0); 0: none"},
     set_fault},
    {{"kill-at", "",
      "read with --kill-slave: at this time of the run's clock, seconds (the loop's start is "
      "0; sim: wherever the slave is then; pvm: at its first iteration boundary at or after "
      "it)"},
     nullptr},
    {{"kill-after-iters", "",
      "read with --kill-slave: once it has completed this many iterations (counted over the "
      "run's loops), at that iteration boundary: the same point on every backend and machine"},
     nullptr},
    {{"kill-at-sync", "",
      "read with --kill-slave: as it enters its Nth synchronization (1: the first), before it "
      "sends its profile"},
     nullptr},
    {{"fault-mark", "",
      "with --kill-slave, pvm: at the fault point the slave writes FILE (pid=, rank=, "
      "iterations=, syncs=) and waits there to be killed from outside (kill -9, its host "
      "deleted, the master's loss) instead of killing itself; it fails the run if that does "
      "not happen within --timeout"},
     set_fault_mark},
};

// The cost model's profile, the virtual machine, traces, output.
const run_option kOtherOptions[] = {
    {{"network-profile", "",
      "network profile for the cost model (default: <network>.profile from $DLB_NETWORK_DIR or "
      "<prefix>/share/dlb/network)"},
     [](const options& o, run_params& p) { p.network_profile = o.str("network-profile"); }},
    // Read by the launchers (pvm_launcher.cpp) and the runtime (trace_messages).
    {{"join-vm",
      "",
      "join the PVM virtual machine of the environment instead of a private one",
      {},
      true},
     nullptr},
    {{"hostfile", "",
      "PVM hostfile: a private virtual machine of those hosts, slaves spread over them "
      "(--clock native)"},
     nullptr},
    {{"trace-dir", "",
      "write every message each task sends to DIR/messages.<rank>.csv (time, from, to, type, "
      "bytes, loop, group, epoch), and each slave's compute, sync and idle intervals to "
      "DIR/states.<rank>.csv (start, end, state, loop, iterations) and its external load to "
      "DIR/load.<rank>.csv (time_start, time_end, load, loop); dlb_plot_timeline draws them"},
     nullptr},
    {{"quiet", "", "print only the result lines", {}, true},
     [](const options& o, run_params& p) { p.quiet = o.flag("quiet"); }},
};

constexpr std::span<const run_option> kOptionGroups[] = {
    kRunOptions, kNetworkOptions, kBalancerOptions, kFailureOptions, kOtherOptions};

}  // namespace

std::vector<option_spec> common_options() {
  std::vector<option_spec> all;
  for (const auto group : kOptionGroups)
    for (const auto& row : group) all.push_back(row.spec);
  return all;
}

run_params read_params(const options& o, const std::optional<core::policy>& policy) {
  run_params p;
  for (const auto group : kOptionGroups)
    for (const auto& row : group)
      if (policy && row.set == set_strategy)
        p.policy = *policy;  // a typed policy stands for --strategy, never as its text
      else if (row.set)
        row.set(o, p);
  detail::refuse_combinations(o, p,
                              policy ? "the policy " + core::to_string(p.policy)
                                     : "--strategy " + o.str("strategy"));
  return p;
}

protocol_options protocol_options_of(const run_params& p) {
  protocol_options o;
  o.after_no_move = p.after_no_move;
  o.instructions_to_senders = p.instructions_to_senders;
  o.first_sync = p.first_sync;
  o.broadcast = p.broadcast;
  return o;  // adaptive: the loop's policy's (loop_session)
}

}  // namespace dlb
