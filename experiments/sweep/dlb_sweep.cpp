// dlb_sweep: runs every run of a sweep config as a child process and records one row per run in
// a self-describing results file. Interrupt it (Ctrl-C) at any time and run the same command
// again: finished runs are kept and skipped, the rest run. See experiments/README.md.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "sweep/app_output.hpp"
#include "sweep/child.hpp"
#include "sweep/cli.hpp"
#include "sweep/config.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/progress.hpp"
#include "sweep/provenance.hpp"
#include "sweep/results_store.hpp"
#include "sweep/text.hpp"

namespace fs = std::filesystem;
using namespace dlb::sweep;

namespace {

const char* kUsage =
    "usage: dlb_sweep --config FILE --out RESULTS.csv --bin-dir DIR [--log-dir DIR] [--jobs N]\n"
    "                 [--grace SECONDS] [--backend pvm|sim] [--hostfile FILE] [--dry-run]\n"
    "                 [--retry-failed] [--skip-after-timeout] [--shuffle SEED]\n"
    "Runs every run of the config (apps from DIR) and appends one row per run to RESULTS.csv.\n"
    "Re-running the same command resumes: runs already recorded are skipped.\n"
    "  --log-dir DIR     each run's output (default: RESULTS.csv.logs)\n"
    "  --jobs N          runs at a time (default 1). Simulated runs (backend sim) and "
    "native-clock\n"
    "                    runs share the machine; a run on PVM with the emulated clock always runs\n"
    "                    alone (its times would be inflated by the others)\n"
    "  --grace SECONDS   after SIGTERM to a run's process group, wait this long before SIGKILL "
    "(default 3)\n"
    "  --backend B       run every run of the config on backend B (pvm, sim or mpi), whatever the\n"
    "                    config's backend key says\n"
    "  --hostfile FILE   a PVM hostfile passed to every run on pvm (--hostfile FILE): each run\n"
    "                    starts its private virtual machine on those hosts (native clock only)\n"
    "  --dry-run         print the plan and the commands; run nothing, write nothing\n"
    "  --retry-failed    run again the runs recorded as failed, unverified or timeout\n"
    "  --skip-after-timeout\n"
    "                    do not make a run whose policy ran out of time at a smaller P (same app,\n"
    "                    arguments, network, backend, clock and ml; recorded or in this call):\n"
    "                    said on the progress line, nothing recorded\n"
    "  --shuffle SEED    run repetition by repetition (every run of repetition 0, then of 1, "
    "...),\n"
    "                    each repetition's runs in an order drawn from SEED (the native study: no\n"
    "                    policy or configuration always runs at the same time of the sweep)\n";

using steady = std::chrono::steady_clock;

double seconds_since(steady::time_point t) {
  return std::chrono::duration<double>(steady::now() - t).count();
}

// "k1 k2" if all runs share one value of a parameter, else "a, b (per row: column c)".
std::string plan_values(const sweep_plan& plan, std::size_t key_index, const std::string& column) {
  std::set<std::string> vals;
  for (const auto& r : plan.runs) vals.insert(r.key_values()[key_index]);
  std::string s;
  for (const auto& v : vals) s += (s.empty() ? "" : ", ") + (v.empty() ? std::string("(none)") : v);
  if (vals.size() > 1) s += " (per row: column " + column + ")";
  return s;
}

std::size_t key_index(const std::string& column) {
  const auto& cols = run_spec::key_columns();
  for (std::size_t i = 0; i < cols.size(); ++i) {
    if (cols[i] == column) return i;
  }
  return 0;
}

// A path as the header records it: relative to the directory the sweep runs in when it lies
// inside it (a results file committed to a repository then names no path outside it), else
// absolute.
std::string recorded_path(const fs::path& p) {
  std::error_code ec;
  const fs::path here = fs::current_path(ec);
  const fs::path rel = ec ? fs::path() : p.lexically_relative(here);
  if (rel.empty() || *rel.begin() == "..") return p.string();
  return rel.string();
}

std::vector<std::string> header_comments(const sweep_plan& plan, const cli_args& args,
                                         const fs::path& config, const fs::path& bin_dir,
                                         const std::string& revision) {
  std::vector<std::string> c{
      "dlb_sweep results: one row per run (raw data; never edit by hand)",
      "format: CSV; '#' lines are metadata; the first other line names the columns; "  // NOLINT
      "fields with commas are double-quoted",
      "revision: " + revision,
      "compiler: " + compiler_description() + " (the build of dlb_sweep; apps from bin_dir)",
      "pvm_version: " + pvm_version(),
      "host: " + host_description(),
      "date: " + utc_now(),
      "command: " + args.command_line(),
      "config_file: " + recorded_path(config),
      "bin_dir: " + recorded_path(bin_dir),
  };
  if (const auto h = args.value("hostfile"))
    c.push_back("hostfile: " + fs::absolute(*h).string() + " (passed to every run on pvm)");
  for (const std::string col : {"backend", "clock", "scale", "network", "ml", "tl"}) {
    c.push_back(col + ": " + plan_values(plan, key_index(col), col));
  }
  c.push_back(
      "units: total_s loop1_s loop2_s lag_s = seconds of the run's clock (emulated 1996 "
      "seconds when clock=emulated or backend=sim, wall seconds when native on pvm); run_wall_s "
      "wall_s = wall-clock "
      "seconds; tl = seconds; scale = emulated seconds per wall second; bytes_moved = bytes; "
      "lag_pct = percent of total_s");
  c.push_back(
      "columns: app P K size strategy rep seed ml tl clock scale network backend extra_args = the "
      "run's parameters and identity (backend: pvm = real PVM tasks, sim = SimGrid in virtual "
      "time, where clock and scale are echoed but meaningless) (rep is 0-based; seed is the "
      "external-load seed, shared by all "
      "strategies of one repetition: paired runs); status = ok|failed|unverified|timeout; exit "
      "= exit status, signal or timeout; started_utc; run_wall_s = wall time measured by the "
      "driver; note = why a run is not ok; log = the run's output; the other columns are the "
      "app's RESULT keys (empty when absent)");
  for (std::string_view rest = plan.text; !rest.empty();) {
    const auto nl = rest.find('\n');
    c.push_back("config| " + std::string(rest.substr(0, nl)));
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
  }
  return c;
}

fs::path log_path_for(const fs::path& log_dir, const run_spec& run) {
  std::string size;
  for (const auto& [k, v] : run.size.params) size += "_" + k + std::to_string(v);
  // FNV-1a of the full identity keeps runs that differ only in tl, scale, ... apart.
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char ch : run.key()) h = (h ^ ch) * 1099511628211ULL;
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(h & 0xffffffffu));
  return log_dir / (run.app + "_P" + std::to_string(run.procs) + "_K" + std::to_string(run.group) +
                    size + "_" + run.strategy + "_rep" + std::to_string(run.rep) + "_s" +
                    std::to_string(run.seed) + "_" + hex + ".log");
}

// Statuses recorded in an existing results file, without modifying it (for --dry-run).
std::map<std::string, std::string> peek_statuses(const fs::path& out) {
  std::map<std::string, std::string> st;
  std::error_code ec;
  if (!fs::exists(out, ec)) return st;
  const csv_table t = read_results_table(out);
  if (t.columns.empty()) return st;
  for (const auto& row : t.rows) st[row_key(t, row)] = std::string(t.field(row, "status"));
  return st;
}

struct active_run {
  const run_spec* run = nullptr;
  std::size_t index = 0;  // 1-based position in the plan
  std::unique_ptr<child_process> child;
  steady::time_point start;
  std::string started_utc;
  fs::path log;
  fs::path private_dir;  // an MPI run's Open MPI files (make_mpi_run_dir), removed when it ends
};

// The command line, read and checked (usage errors exit 2 from cli_args).
struct sweep_options {
  fs::path config_path, out, bin_dir, log_dir;
  int jobs = 1;
  std::chrono::milliseconds grace{3000};
  bool dry_run = false, retry_failed = false, skip_after_timeout = false;
  std::string hostfile;                  // absolute; empty: none
  std::optional<std::uint64_t> shuffle;  // --shuffle SEED
};

sweep_options read_options(const cli_args& args) {
  sweep_options o;
  o.config_path = args.required("config");
  o.out = args.required("out");
  o.bin_dir = fs::absolute(args.required("bin-dir")).lexically_normal();
  o.jobs = args.positive_int("jobs", 1);
  o.grace =
      std::chrono::milliseconds(static_cast<long long>(args.positive_double("grace", 3.0) * 1000));
  o.dry_run = args.flag("dry-run");
  o.retry_failed = args.flag("retry-failed");
  o.skip_after_timeout = args.flag("skip-after-timeout");
  if (args.value("shuffle"))
    o.shuffle = static_cast<std::uint64_t>(args.positive_int("shuffle", 1));
  o.log_dir =
      args.value("log-dir") ? fs::path(*args.value("log-dir")) : fs::path(o.out.string() + ".logs");
  if (const auto h = args.value("hostfile")) {
    o.hostfile = fs::absolute(*h).string();
    if (::access(o.hostfile.c_str(), R_OK) != 0)
      args.usage_error("--hostfile: cannot read '" + *h + "'");
    try {
      read_input(o.hostfile, kConfigLimit);  // a regular text file, as every run will read it
    } catch (const std::exception& e) {
      args.usage_error(std::string("--hostfile: ") + e.what());
    }
  }
  return o;
}

// --shuffle SEED: repetition by repetition, each one's runs in an order drawn from SEED (a
// run's place is a hash of SEED and its identity: the same order on every resume).
void shuffle_by_repetition(std::vector<run_spec>& runs, std::uint64_t seed) {
  const auto place = [seed](const run_spec& r) {
    std::uint64_t h = 1469598103934665603ULL ^ seed;  // FNV-1a over the identity
    for (const unsigned char ch : r.key()) h = (h ^ ch) * 1099511628211ULL;
    return h;
  };
  std::stable_sort(runs.begin(), runs.end(), [&](const run_spec& a, const run_spec& b) {
    return a.rep != b.rep ? a.rep < b.rep : place(a) < place(b);
  });
}

// The plan of the config with --backend and --hostfile applied; a reason to stop (exit 2) is
// printed and returned as false.
bool prepare_plan(sweep_plan& plan, const sweep_options& o, const cli_args& args) {
  try {
    plan = read_config(o.config_path);
  } catch (const config_error& e) {
    std::cerr << "dlb_sweep: " << e.what() << "\n";
    return false;
  }
  if (const auto b = args.value("backend")) {
    if (*b != "pvm" && *b != "sim" && *b != "mpi")
      args.usage_error("--backend must be pvm, sim or mpi, got '" + *b + "'");
    std::set<std::string> keys;
    for (auto& r : plan.runs) {
      r.backend = *b;
      if (!keys.insert(r.key()).second) {
        std::cerr << "dlb_sweep: " << o.config_path.string() << ": with --backend " << *b
                  << " two runs become the same run: " << r.describe() << "\n";
        return false;
      }
    }
  }
  // --hostfile: every run on pvm gets it (not part of a run's identity, recorded in the header).
  for (const auto& r : plan.runs) {
    if (!o.hostfile.empty() && r.backend == "pvm" && r.clock != "native") {
      std::cerr << "dlb_sweep: --hostfile needs clock = native for every run on pvm (the "
                   "emulated clock runs on one host); "
                << o.config_path.string() << " plans " << r.describe() << "\n";
      return false;
    }
  }
  std::set<std::string> apps;
  for (const auto& r : plan.runs) apps.insert(r.app);
  for (const auto& app : apps) {
    const fs::path exe = o.bin_dir / app;
    if (::access(exe.c_str(), X_OK) != 0) {
      std::cerr << "dlb_sweep: " << exe.string() << " is not an executable file"
                << " (--bin-dir should hold the apps mxm, trfd, ac; build them first)\n";
      if (!o.dry_run) return false;
    }
  }
  if (o.shuffle) shuffle_by_repetition(plan.runs, *o.shuffle);
  return true;
}

std::vector<std::string> argv_of(const run_spec& r, const sweep_options& o) {
  auto a = r.argv(o.bin_dir);
  if (!o.hostfile.empty() && r.backend == "pvm") a.insert(a.end(), {"--hostfile", o.hostfile});
  return a;
}

// Opens (or resumes) the results file; returns it with the statuses of the plan's runs it holds.
std::unique_ptr<results_store> open_store(const sweep_plan& plan, const sweep_options& o,
                                          const cli_args& args,
                                          std::map<std::string, std::string>& recorded) {
  if (o.out.has_parent_path()) fs::create_directories(o.out.parent_path());
  const std::string revision = source_revision();
  auto store = std::make_unique<results_store>(
      o.out, header_comments(plan, args, fs::absolute(o.config_path), o.bin_dir, revision),
      "resumed: " + utc_now() + "; revision " + revision + "; command " + args.command_line());
  // After the results file is read and found sound: a refused one leaves the folder as it was.
  fs::create_directories(o.log_dir);
  if (store->upgraded()) {
    std::cerr << "dlb_sweep: " << o.out.string()
              << ": added the backend column (its earlier rows ran on PVM: backend=pvm)\n";
  }
  if (store->dropped_partial_line()) {
    std::cerr << "dlb_sweep: " << o.out.string()
              << ": dropped a cut-short last line (a run being recorded when the driver "
                 "died; it runs again)\n";
  }
  for (const auto& r : plan.runs) {
    if (auto s = store->status_of(r.key()); !s.empty()) recorded[r.key()] = s;
  }
  return store;
}

// Runs still to do, with their 1-based position in the plan.
using todo_list = std::vector<std::pair<std::size_t, const run_spec*>>;
todo_list runs_to_do(const sweep_plan& plan, const std::map<std::string, std::string>& recorded,
                     bool retry_failed) {
  todo_list todo;
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    const auto it = recorded.find(plan.runs[i].key());
    const bool done = it != recorded.end() && (!retry_failed || it->second == "ok");
    if (!done) todo.emplace_back(i + 1, &plan.runs[i]);
  }
  return todo;
}

void print_plan(const sweep_plan& plan, const sweep_options& o,
                const std::map<std::string, std::string>& recorded) {
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    const auto it = recorded.find(plan.runs[i].key());
    const std::string state = it == recorded.end() ? "to run" : "recorded " + it->second;
    std::cout << "run " << i + 1 << " of " << plan.runs.size() << " [" << state << ", timeout "
              << format_number(plan.runs[i].timeout_s) << " s] "
              << shell_join(argv_of(plan.runs[i], o)) << "\n";
  }
}

// The runs of the plan still to do, `jobs` at a time, each recorded as it ends; SIGINT, SIGTERM
// and SIGHUP end the current runs (not recorded) and stop.
class sweep_runner {
 public:
  sweep_runner(const sweep_plan& plan, const sweep_options& o, todo_list todo, results_store& store,
               run_guard& guard, const std::map<std::string, std::string>& recorded)
      : plan_(plan), o_(o), todo_(std::move(todo)), store_(store), guard_(guard) {
    for (const auto& r : plan_.runs) {
      const auto it = recorded.find(r.key());
      if (it != recorded.end() && it->second == "timeout") timed_out_.push_back(&r);
    }
  }

  // The exit status: 0, or 128 + the signal that stopped the sweep.
  int run() {
    while ((next_ < todo_.size() && stop_signal_ == 0) || !active_.empty()) {
      start_ready();
      const int s = signals_.wait(std::chrono::milliseconds(50));
      if (s == SIGINT || s == SIGTERM || s == SIGHUP) {
        stop(s);
        break;
      }
      reap();
    }
    return report_end();
  }

 private:
  // A run that needs the machine alone starts only when nothing runs, and nothing starts
  // beside it; the plan's order is kept.
  bool may_start(const run_spec& r) const {
    if (active_.size() >= static_cast<std::size_t>(o_.jobs)) return false;
    if (active_.empty()) return true;
    if (r.needs_machine_alone()) return false;
    for (const auto& a : active_) {
      if (a.run->needs_machine_alone()) return false;
    }
    return true;
  }

  // --skip-after-timeout: the run that `r` grows from and that ran out of time, if any.
  const run_spec* timed_out_before(const run_spec& r) const {
    if (!o_.skip_after_timeout) return nullptr;
    for (const auto* t : timed_out_)
      if (grows_from(r, *t)) return t;
    return nullptr;
  }

  void start_ready() {
    while (stop_signal_ == 0 && next_ < todo_.size()) {
      if (const auto* t = timed_out_before(*todo_[next_].second)) {
        std::cerr << "run " << todo_[next_].first << " of " << plan_.runs.size() << ": not run ("
                  << todo_[next_].second->describe() << "; " << t->strategy
                  << " at P = " << t->procs << " did not finish within its time bound)\n";
        ++next_, ++skipped_;
        continue;
      }
      if (!may_start(*todo_[next_].second)) break;
      active_run a;
      a.index = todo_[next_].first;
      a.run = todo_[next_].second;
      ++next_;
      a.log = log_path_for(o_.log_dir, *a.run);
      const auto eta = estimate_remaining(finished_wall_, finished_,
                                          todo_.size() - finished_ - skipped_, o_.jobs);
      std::cerr << progress_line(a.index, plan_.runs.size(), seconds_since(start_), eta,
                                 a.run->describe())
                << "\n";
      a.started_utc = utc_now();
      a.start = steady::now();
      std::vector<std::string> env;
      if (a.run->backend == "mpi") {
        a.private_dir = make_mpi_run_dir(a.index);
        env = mpi_run_env(a.private_dir, mpi_as_root());
      }
      a.child = std::make_unique<child_process>(argv_of(*a.run, o_), a.log,
                                                signals_.original_mask(), env);
      guard_.started(a.child->pid(), a.private_dir);
      active_.push_back(std::move(a));
    }
  }

  // As root, Open MPI starts only with its allow-root variables: set for the MPI runs where the
  // user has not set them, and said once.
  bool mpi_as_root() {
    if (::geteuid() != 0 || std::getenv("OMPI_ALLOW_RUN_AS_ROOT") != nullptr) return false;
    if (!root_notice_given_) {
      std::cerr << "dlb_sweep: running as root: OMPI_ALLOW_RUN_AS_ROOT=1 "
                   "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 set for the MPI runs (Open MPI refuses to "
                   "run as root without them)\n";
      root_notice_given_ = true;
    }
    return true;
  }

  // A run is over (ended or stopped): the guard forgets it, its private folder goes.
  void release(const active_run& a) {
    guard_.ended(a.child->pid());
    std::error_code ec;
    if (!a.private_dir.empty()) fs::remove_all(a.private_dir, ec);
  }

  void stop(int s) {
    stop_signal_ = s;
    std::cerr << "dlb_sweep: "
              << (s == SIGINT   ? "interrupted"
                  : s == SIGHUP ? "hung up"
                                : "terminated")
              << "; ending the current run" << (active_.size() > 1 ? "s" : "")
              << " (not recorded)\n";
    for (auto& a : active_) {
      a.child->terminate(o_.grace, signals_);
      release(a);
    }
    active_.clear();
  }

  // Has the run's process used more CPU time than its bound (cpu_timeout)? Read from
  // /proc/PID/stat (utime and stime); a process already gone has not.
  static bool over_cpu_bound(const active_run& a) {
    if (a.run->cpu_timeout_s <= 0) return false;
    std::ifstream in("/proc/" + std::to_string(a.child->pid()) + "/stat");
    std::string stat;
    if (!std::getline(in, stat)) return false;
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return false;
    std::istringstream fields(stat.substr(close + 2));
    std::string skip;
    for (int k = 3; k < 14; ++k) fields >> skip;  // state (field 3) ... cmajflt (13)
    double utime = 0, stime = 0;
    if (!(fields >> utime >> stime)) return false;
    return (utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK)) > a.run->cpu_timeout_s;
  }

  // Records the runs that ended (or ran out of time).
  void reap() {
    for (std::size_t i = 0; i < active_.size();) {
      auto& a = active_[i];
      std::optional<child_end> end = a.child->poll();
      if (!end && (seconds_since(a.start) > a.run->timeout_s || over_cpu_bound(a))) {
        a.child->terminate(o_.grace, signals_);
        end = child_end{child_end::kind::timed_out, 0};
      }
      if (end) {
        release(a);
        finish(a, *end);
        active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
  }

  void finish(active_run& a, child_end end) {
    const double wall = seconds_since(a.start);
    app_output output;
    try {
      output = parse_app_output(read_input(a.log, kTableLimit, /*binary_ok=*/true));
    } catch (const std::exception&) {
      // No log: the output is empty and the run is classified as failed below.
    }
    run_record rec;
    rec.end = end;
    rec.output = output;
    rec.verdict = classify_run(*a.run, output, end);
    if (!a.child->exec_error().empty()) rec.verdict = {run_status::failed, a.child->exec_error()};
    rec.started_utc = a.started_utc;
    rec.run_wall_s = wall;
    rec.log = fs::relative(a.log, o_.out.has_parent_path() ? o_.out.parent_path() : fs::path("."))
                  .string();
    store_.record(*a.run, rec);
    if (rec.verdict.status == run_status::timeout) timed_out_.push_back(a.run);
    ++finished_;
    finished_wall_ += wall;
    ++counts_[std::string(to_string(rec.verdict.status))];
    std::string what = std::string(to_string(rec.verdict.status));
    if (rec.verdict.status == run_status::ok) {
      for (const auto& [k, v] : output.result) {
        if (k == "total_s") what += " total_s=" + v;
      }
    } else {
      what = "NOT OK: " + what + " (" + rec.verdict.note + "; log " + a.log.string() + ")";
    }
    std::cerr << "run " << a.index << " of " << plan_.runs.size() << ": " << what << " ["
              << format_sig(wall, 3) << " s]\n";
  }

  int report_end() const {
    std::string tally;
    for (const auto& [k, v] : counts_)
      tally += (tally.empty() ? "" : ", ") + std::to_string(v) + " " + k;
    if (skipped_ > 0)
      tally +=
          (tally.empty() ? "" : ", ") + std::to_string(skipped_) + " not run (after a timeout)";
    if (tally.empty()) tally = "no runs";
    std::cerr << "dlb_sweep: " << (stop_signal_ ? "stopped" : "done") << " after "
              << format_hms(seconds_since(start_)) << ": " << tally << " this time; "
              << store_.row_count() << " rows in " << o_.out.string() << "\n";
    if (stop_signal_ == 0) return 0;
    std::cerr << "dlb_sweep: " << todo_.size() - finished_ - skipped_
              << " runs left; run the same command again to resume\n";
    return 128 + stop_signal_;
  }

  const sweep_plan& plan_;
  const sweep_options& o_;
  todo_list todo_;
  results_store& store_;
  run_guard& guard_;
  const signal_block signals_;
  const steady::time_point start_ = steady::now();
  std::vector<active_run> active_;
  std::size_t next_ = 0, finished_ = 0, skipped_ = 0;
  std::vector<const run_spec*> timed_out_;  // recorded or in this call as timeout
  double finished_wall_ = 0;
  std::map<std::string, int> counts_;
  int stop_signal_ = 0;
  bool root_notice_given_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  const cli_args args(
      argc, argv, "dlb_sweep", kUsage,
      {"config", "out", "bin-dir", "log-dir", "jobs", "grace", "backend", "hostfile", "shuffle"},
      {"dry-run", "retry-failed", "skip-after-timeout"});
  const sweep_options o = read_options(args);
  std::vector<std::pair<std::string, std::string>> inputs{{"--config", o.config_path.string()}};
  if (!o.hostfile.empty()) inputs.emplace_back("--hostfile", o.hostfile);
  refuse_output_over_inputs(args, {{"--out", o.out.string()}}, inputs);
  sweep_plan plan;
  if (!prepare_plan(plan, o, args)) return 2;
  try {
    std::map<std::string, std::string> recorded;
    std::unique_ptr<results_store> store;
    std::unique_ptr<folder_lock> lock;
    std::unique_ptr<run_guard> guard;
    if (o.dry_run) {
      recorded = peek_statuses(o.out);
    } else {
      // One sweep per results folder; a folder whose killed sweep still has runs ending waits
      // for them (the guard holds the lock until they are gone).
      const fs::path folder = fs::absolute(o.out).parent_path();
      fs::create_directories(folder);
      lock = std::make_unique<folder_lock>(folder);
      if (const pid_t gone = lock->taken_over_from())
        std::cerr << "dlb_sweep: " << folder.string() << ": taking over the lock of pid " << gone
                  << ", a sweep killed without releasing it (no process of it is left)\n";
      guard = std::make_unique<run_guard>(o.grace);
      store = open_store(plan, o, args, recorded);
    }
    todo_list todo = runs_to_do(plan, recorded, o.retry_failed);
    std::cerr << "dlb_sweep: " << plan.runs.size() << " runs planned, "
              << plan.runs.size() - todo.size() << " already recorded in " << o.out.string() << ", "
              << todo.size() << " to run"
              << (o.jobs > 1 ? " (" + std::to_string(o.jobs) + " at a time)" : std::string())
              << "\n";
    if (o.dry_run) {
      print_plan(plan, o, recorded);
      return 0;
    }
    return sweep_runner(plan, o, std::move(todo), *store, *guard, recorded).run();
  } catch (const csv_error& e) {  // an input unreadable, malformed, or a folder in use
    std::cerr << "dlb_sweep: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "dlb_sweep: " << e.what() << "\n";
    return 1;
  }
}
