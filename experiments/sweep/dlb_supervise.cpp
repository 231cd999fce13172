// dlb_supervise: runs a driver under scripts/ so that nothing it starts outlives it, whatever
// ends it (scripts/common.sh's supervise execs into it; experiments/README.md, "What the tools
// refuse").
//
//   dlb_supervise [--grace SECONDS] -- COMMAND [ARGS...]
//
// Two processes watch each other, both subreapers (PR_SET_CHILD_SUBREAPER: an orphan of their
// tree is reparented to them, not to init, however deep it was started, whatever process group
// or session it made for itself):
//  - the front: this process, the driver's own pid (what a user or a test signals or kills). It
//    forwards SIGINT, SIGTERM and SIGHUP to the supervisor and exits with the driver's status (or
//    128 + the signal). Should the supervisor die (kill -9), the front ends what is left of the
//    tree, which the kernel has reparented to it.
//  - the supervisor: the front's child, the parent of the driver (COMMAND, in a process group of
//    its own). It dies with the front (PR_SET_PDEATHSIG) only after ending the tree: the front's
//    death is a signal it waits for. When the driver ends (by itself or killed, kill -9
//    included), or a signal is forwarded, it signals the driver's group (so that a dlb_sweep ends
//    its runs, their pvmds and MPI jobs, in order), waits for that group, then ends every process
//    still in its tree (jobs that made groups of their own, such as `timeout`'s): SIGTERM, then
//    SIGKILL after the grace period.
// Exit status: the driver's, or 128 + N after the signal N (a signal forwarded, or the driver
// killed by it).
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

constexpr auto kPoll = std::chrono::milliseconds(50);
// How long the driver's own group may take to end after it was signalled (a sweep ending its
// runs: each gets its own grace, 3 s by default) before SIGTERM (a SIGINT may be ignored, as by
// a script's background jobs), then SIGKILL.
constexpr auto kGroupTerm = std::chrono::seconds(10);
constexpr auto kGroupLimit = std::chrono::seconds(30);

struct proc_info {
  pid_t ppid = 0;
  pid_t pgid = 0;
  bool zombie = false;
};

// Every process of the machine: its parent, group and whether it is a zombie (/proc/PID/stat).
std::map<pid_t, proc_info> process_table() {
  std::map<pid_t, proc_info> table;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "stat");
    std::string text;
    if (!std::getline(in, text)) continue;
    const auto paren = text.rfind(')');
    if (paren == std::string::npos || paren + 2 >= text.size()) continue;
    char state = 0;
    long ppid = 0, pgid = 0;
    if (std::sscanf(text.c_str() + paren + 2, "%c %ld %ld", &state, &ppid, &pgid) != 3) continue;
    table[static_cast<pid_t>(std::atol(name.c_str()))] = {static_cast<pid_t>(ppid),
                                                          static_cast<pid_t>(pgid), state == 'Z'};
  }
  return table;
}

// The live (not zombie) descendants of `root`, by /proc's parent links.
std::set<pid_t> descendants(pid_t root) {
  const auto table = process_table();
  std::multimap<pid_t, pid_t> children;
  for (const auto& [pid, info] : table) children.emplace(info.ppid, pid);
  std::set<pid_t> found;
  std::vector<pid_t> todo{root};
  while (!todo.empty()) {
    const pid_t p = todo.back();
    todo.pop_back();
    const auto [from, to] = children.equal_range(p);
    for (auto it = from; it != to; ++it) {
      if (!table.at(it->second).zombie) found.insert(it->second);
      todo.push_back(it->second);
    }
  }
  return found;
}

bool group_alive(pid_t pgid) {
  for (const auto& [pid, info] : process_table()) {
    if (info.pgid == pgid && !info.zombie) return true;
  }
  return false;
}

// Reaps every child that has ended (orphans of the tree included); returns the status of
// `watched` if it was among them.
std::optional<int> reap(pid_t watched) {
  std::optional<int> status;
  int st = 0;
  for (pid_t p; (p = ::waitpid(-1, &st, WNOHANG)) > 0;) {
    if (p == watched) status = st;
  }
  return status;
}

int exit_code(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Ends every process left under this one: SIGTERM to each, then SIGKILL after `grace` to what
// is still there (and to whatever each forks meanwhile), reaping them as they go.
void end_tree(std::chrono::milliseconds grace) {
  const auto deadline = clock_type::now() + grace;
  std::set<pid_t> told;
  for (;;) {
    reap(0);
    const auto left = descendants(::getpid());
    if (left.empty()) return;
    const bool late = clock_type::now() >= deadline;
    for (const pid_t p : left) {
      if (late) {
        ::kill(p, SIGKILL);
      } else if (told.insert(p).second) {
        ::kill(p, SIGTERM);
      }
    }
    std::this_thread::sleep_for(kPoll);
  }
}

[[noreturn]] void start_driver(char** argv, const sigset_t& original) {
  ::setpgid(0, 0);
  ::sigprocmask(SIG_SETMASK, &original, nullptr);
  ::execvp(argv[0], argv);
  std::cerr << "dlb_supervise: cannot execute " << argv[0] << ": " << std::strerror(errno) << "\n";
  ::_exit(127);
}

// After the driver's group was signalled (or the driver ended): waits for the group to end
// (SIGTERM after kGroupTerm, SIGKILL after kGroupLimit), reaping, while the driver's status, if
// not known yet, comes in.
void wait_group(pid_t driver, std::optional<int>& status) {
  const auto start = clock_type::now();
  bool termed = false;
  while (!status || group_alive(driver)) {
    if (auto s = reap(driver)) status = s;
    const auto waited = clock_type::now() - start;
    if (!termed && waited >= kGroupTerm) {
      ::kill(-driver, SIGTERM);
      termed = true;
    }
    if (waited >= kGroupLimit) ::kill(-driver, SIGKILL);
    std::this_thread::sleep_for(kPoll);
  }
}

// The supervisor: starts the driver, waits for it or for a stop (a signal forwarded by the
// front, or the front's death: SIGUSR1, its parent-death signal), then ends the whole tree.
[[noreturn]] void supervise(pid_t front, char** argv, const sigset_t& waited,
                            const sigset_t& original, std::chrono::milliseconds grace) {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  ::prctl(PR_SET_PDEATHSIG, SIGUSR1);
  const pid_t driver = ::fork();
  if (driver == 0) start_driver(argv, original);
  if (driver > 0) ::setpgid(driver, driver);
  std::optional<int> status;
  int stop = 0;
  // The front gone before PR_SET_PDEATHSIG took effect is seen by getppid.
  if (driver < 0 || ::getppid() != front) stop = SIGTERM;
  while (!status && !stop) {
    const timespec step{0, 100'000'000};
    const int sig = ::sigtimedwait(&waited, nullptr, &step);
    if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) stop = sig;
    if (sig == SIGUSR1 || ::getppid() != front) stop = SIGTERM;
    status = reap(driver);
  }
  if (driver > 0) {
    // The driver's own group first, as a Ctrl-C would reach it: its sweep ends its runs.
    if (group_alive(driver)) ::kill(-driver, stop ? stop : SIGTERM);
    wait_group(driver, status);
  }
  end_tree(grace);
  ::_exit(stop ? 128 + stop : exit_code(status.value_or(0)));
}

}  // namespace

int main(int argc, char** argv) {
  std::chrono::milliseconds grace{3000};
  int first = 1;
  if (first + 1 < argc && std::string(argv[first]) == "--grace") {
    char* end = nullptr;
    const double s = std::strtod(argv[first + 1], &end);
    if (end == argv[first + 1] || *end || !(s >= 0 && s <= 3600)) {
      std::cerr << "dlb_supervise: --grace must be a number of seconds in [0, 3600], got '"
                << argv[first + 1] << "'\n";
      return 2;
    }
    grace = std::chrono::milliseconds(static_cast<long>(s * 1000));
    first += 2;
  }
  if (first < argc && std::string(argv[first]) == "--") ++first;
  if (first >= argc) {
    std::cerr << "usage: dlb_supervise [--grace SECONDS] -- COMMAND [ARGS...]\n";
    return 2;
  }
  // Children are waited for, not discarded (a caller may have left SIGCHLD ignored).
  ::signal(SIGCHLD, SIG_DFL);
  sigset_t waited, original;
  sigemptyset(&waited);
  for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGUSR1}) sigaddset(&waited, s);
  ::sigprocmask(SIG_BLOCK, &waited, &original);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  const pid_t front = ::getpid();
  const pid_t supervisor = ::fork();
  if (supervisor < 0) {
    std::cerr << "dlb_supervise: fork: " << std::strerror(errno) << "\n";
    return 1;
  }
  if (supervisor == 0) supervise(front, argv + first, waited, original, grace);
  // The front: forwards stops to the supervisor, and ends the tree should the supervisor die.
  std::optional<int> status;
  while (!status) {
    const timespec step{0, 100'000'000};
    const int sig = ::sigtimedwait(&waited, nullptr, &step);
    if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) ::kill(supervisor, sig);
    status = reap(supervisor);
  }
  end_tree(grace);
  return exit_code(*status);
}
