// run_process.hpp: runs a program for a test, with a timeout, capturing its output, and tells
// whether any process it started is still alive afterwards (every process it starts, PVM tasks
// included, inherits a unique marker in its environment).
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace testing_support {

struct process_result {
  int exit_code = -1;  // 128+N when killed by signal N, -1 on timeout
  bool timed_out = false;
  std::string out, err;
  double wall_s = 0.0;
  std::string marker;
};

// Pids of live processes whose environment holds DLB_TEST_MARKER=<marker>.
inline std::vector<pid_t> processes_with_marker(const std::string& marker) {
  std::vector<pid_t> found;
  const std::string needle = "DLB_TEST_MARKER=" + marker;
  DIR* proc = opendir("/proc");
  if (!proc) return found;
  while (dirent* e = readdir(proc)) {
    char* end = nullptr;
    long pid = std::strtol(e->d_name, &end, 10);
    if (pid <= 0 || *end != '\0' || pid == getpid()) continue;
    std::ifstream env("/proc/" + std::string(e->d_name) + "/environ", std::ios::binary);
    std::string var;
    bool match = false;
    while (std::getline(env, var, '\0')) {
      if (var == needle) match = true;
    }
    if (!match) continue;
    std::ifstream stat("/proc/" + std::string(e->d_name) + "/stat");
    std::string s;
    std::getline(stat, s);
    auto close = s.rfind(')');
    if (close != std::string::npos && close + 2 < s.size() && s[close + 2] == 'Z') continue;
    found.push_back(static_cast<pid_t>(pid));
  }
  closedir(proc);
  return found;
}

// True once no process of the run (DLB_TEST_MARKER=<marker>) is alive, waiting up to bound_s for
// it: a run's tasks and its private pvmd or MPI daemons end just after the run's main process,
// later on a loaded machine. A process still there after the bound is one left behind.
inline bool none_left(const std::string& marker, double bound_s = 30.0) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<long long>(bound_s * 1000));
  while (!processes_with_marker(marker).empty()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

// Runs argv with a timeout. `during` (if set) is called once, `during_after_s` seconds after the
// start, with the child's marker (e.g. to kill one of its tasks).
inline process_result run_process(const std::vector<std::string>& argv, double timeout_s,
                                  const std::function<void(const std::string&)>& during = {},
                                  double during_after_s = 0.0) {
  process_result res;
  std::random_device rd;
  res.marker = std::to_string(getpid()) + "-" + std::to_string(rd()) + std::to_string(rd());
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) return res;
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    setenv("DLB_TEST_MARKER", res.marker.c_str(), 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  bool called = false;
  int open_fds = 2;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  while (open_fds > 0) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!called && during && elapsed >= during_after_s) {
      called = true;
      during(res.marker);
    }
    if (elapsed > timeout_s) {
      res.timed_out = true;
      kill(-pid, SIGKILL);
      break;
    }
    if (poll(fds, 2, 20) <= 0) continue;
    for (auto& f : fds) {
      if (f.fd < 0 || !(f.revents & (POLLIN | POLLHUP))) continue;
      char buf[4096];
      ssize_t n = read(f.fd, buf, sizeof buf);
      if (n <= 0) {
        close(f.fd);
        f.fd = -1;
        --open_fds;
      } else {
        (f.fd == out_pipe[0] ? res.out : res.err).append(buf, static_cast<std::size_t>(n));
      }
    }
  }
  for (auto& f : fds) {
    if (f.fd >= 0) close(f.fd);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  res.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (res.timed_out) {
    res.exit_code = -1;
  } else if (WIFEXITED(status)) {
    res.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    res.exit_code = 128 + WTERMSIG(status);
  }
  return res;
}

// key=value pairs of the line starting with `prefix` (e.g. "RESULT ").
inline std::map<std::string, std::string> fields_of(const std::string& text,
                                                    const std::string& prefix, int nth = 0) {
  std::map<std::string, std::string> m;
  std::istringstream in(text);
  std::string line;
  int seen = 0;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    if (seen++ != nth) continue;
    std::istringstream ls(line.substr(prefix.size()));
    std::string kv;
    while (ls >> kv) {
      auto eq = kv.find('=');
      if (eq != std::string::npos) m[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    break;
  }
  return m;
}

inline int count_lines(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) n += line.rfind(prefix, 0) == 0;
  return n;
}

// Everything a run prints except what the machine decides: its wall-clock time (wall_s=...)
// and its peak memory (max_rss_mb=...): what must be byte-identical between two simulated runs
// of the same configuration.
inline std::string without_wall_time(const std::string& out) {
  std::string s = out;
  for (const std::string key : {"wall_s=", "max_rss_mb="}) {
    for (auto at = s.find(key); at != std::string::npos; at = s.find(key, at)) {
      const auto end = s.find_first_of(" \n", at);
      s.erase(at + key.size(), (end == std::string::npos ? s.size() : end) - at - key.size());
      at += key.size();
    }
  }
  return s;
}

// Fault injection at a point of a run's progress, from outside (--kill-slave K with
// --kill-after-iters J or --kill-at-sync N, and --fault-mark FILE): slave K, at that point, writes
// FILE ("pid=... rank=... iterations=... syncs=...") and waits there to be killed. A fresh path
// for FILE, unique to this test process and `what`.
inline std::string fault_mark_path(const std::string& what) {
  return "/tmp/dlb-fault-" + what + "-" + std::to_string(getpid()) + ".mark";
}

// The mark's fields once the file is there; empty if it is not within `limit_s` (a bound, not a
// guess at the run's speed: the run waits at its fault point for the test, up to its --timeout).
inline std::map<std::string, std::string> wait_for_mark(const std::string& path, double limit_s) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit_s);
  while (std::chrono::steady_clock::now() < end) {
    std::ifstream in(path);
    std::string line;
    if (in && std::getline(in, line)) return fields_of("mark " + line, "mark ");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return {};
}

}  // namespace testing_support
