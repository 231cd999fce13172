// Child processes in their own process group, with timeouts and clean termination.
#include "sweep/child.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace dlb::sweep {
namespace {

constexpr std::chrono::milliseconds kPollStep{20};

child_end end_from_status(int status) {
  if (WIFSIGNALED(status)) return {child_end::kind::signaled, WTERMSIG(status)};
  return {child_end::kind::exited, WEXITSTATUS(status)};
}

// Does process group pgid still have a live (non-zombie) member? kill(-pgid, 0) alone would
// count zombies, and orphaned zombies linger where PID 1 does not reap them (some containers).
bool group_alive(pid_t pgid) {
  if (::kill(-pgid, 0) != 0 && errno != EPERM) return false;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "stat");
    std::string stat;
    if (!std::getline(in, stat)) continue;
    // Fields after the command (which may contain spaces) : state ppid pgrp ...
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 1));
    char state = 0;
    long ppid = 0, pgrp = 0;
    if (!(rest >> state >> ppid >> pgrp)) continue;
    if (pgrp == pgid && state != 'Z' && state != 'X') return true;
  }
  return false;
}

}  // namespace

signal_block::signal_block() {
  sigemptyset(&set_);
  sigaddset(&set_, SIGINT);
  sigaddset(&set_, SIGTERM);
  sigaddset(&set_, SIGHUP);
  sigaddset(&set_, SIGCHLD);
  if (::sigprocmask(SIG_BLOCK, &set_, &old_) != 0) {
    throw std::runtime_error(std::string("sigprocmask: ") + std::strerror(errno));
  }
}

signal_block::~signal_block() {
  // Signals that arrived while blocked would be delivered on unblocking; drain them first so a
  // pending SIGINT that was already handled does not kill the process on the way out.
  const timespec zero{0, 0};
  while (::sigtimedwait(&set_, nullptr, &zero) > 0) {
  }
  ::sigprocmask(SIG_SETMASK, &old_, nullptr);
}

int signal_block::wait(std::chrono::milliseconds timeout) const {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  ts.tv_nsec = static_cast<long>((timeout.count() % 1000) * 1000000);
  const int s = ::sigtimedwait(&set_, nullptr, &ts);
  return s > 0 ? s : 0;
}

namespace {

// The driver's environment with `extra` added, an entry of `extra` replacing one of the same name.
std::vector<std::string> environment_with(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const auto name = entry.substr(0, entry.find('=') + 1);
    bool replaced = false;
    for (const auto& x : extra) replaced = replaced || x.rfind(name, 0) == 0;
    if (!replaced) env.emplace_back(entry);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

}  // namespace

child_process::child_process(const std::vector<std::string>& argv, const std::filesystem::path& log,
                             const sigset_t& child_mask, const std::vector<std::string>& env) {
  if (argv.empty()) throw std::runtime_error("child_process: empty command");
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::vector<std::string> env_text = environment_with(env);
  std::vector<char*> envp;
  for (const auto& e : env_text) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  const std::string log_path = log.string();
  // A close-on-exec pipe tells the parent whether exec succeeded (EOF) or why it failed.
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  }
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ < 0) {
    const int err = errno;
    ::close(report[0]);
    ::close(report[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(err));
  }
  if (pid_ == 0) {
    // Child: only async-signal-safe calls until exec.
    ::setpgid(0, 0);
    // The run dies with the driver, even by kill -9 (its private pvmd dies with the app in turn:
    // pvm/src/private_vm.cpp). A driver already gone before prctl took effect is seen by
    // getppid.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::sigprocmask(SIG_SETMASK, &child_mask, nullptr);
    // The tools ignore SIGXFSZ (to report a file-size limit as an error); a run gets the default.
    ::signal(SIGXFSZ, SIG_DFL);
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in >= 0) ::dup2(in, 0);
    if (out >= 0) {
      ::dup2(out, 1);
      ::dup2(out, 2);
    }
    ::execve(args[0], args.data(), envp.data());
    const int err = errno;
    [[maybe_unused]] auto n = ::write(report[1], &err, sizeof err);
    ::_exit(127);
  }
  // Parent: set the group here too, so a signal sent right after fork finds it.
  ::setpgid(pid_, pid_);
  ::close(report[1]);
  int err = 0;
  ssize_t n;
  do {
    n = ::read(report[0], &err, sizeof err);
  } while (n < 0 && errno == EINTR);
  ::close(report[0]);
  if (n == static_cast<ssize_t>(sizeof err)) {
    exec_error_ = "cannot execute " + argv[0] + ": " + std::strerror(err);
  }
}

child_process::~child_process() {
  if (!reaped_ && pid_ > 0) {
    // Never leave a run behind: the driver is going away (an exception unwinds past us).
    ::kill(-pid_, SIGKILL);
    int status;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

std::optional<child_end> child_process::poll() {
  if (reaped_) return std::nullopt;
  int status = 0;
  const pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r == 0) return std::nullopt;
  reaped_ = true;
  if (r < 0) return child_end{child_end::kind::exited, 127};
  // An app must not leave processes behind (a private pvmd, a stray slave): end its group.
  clean_group(std::chrono::milliseconds(2000));
  return end_from_status(status);
}

child_end child_process::terminate(std::chrono::milliseconds grace, const signal_block& sig) {
  ::kill(-pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + grace;
  int status = 0;
  bool escalate = false;
  while (!reaped_) {
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_ || r < 0) {
      reaped_ = true;
      break;
    }
    if (escalate || std::chrono::steady_clock::now() >= deadline) {
      ::kill(-pid_, SIGKILL);
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      reaped_ = true;
      break;
    }
    const int s = sig.wait(kPollStep);
    if (s == SIGINT || s == SIGTERM || s == SIGHUP)
      escalate = true;  // impatient user: stop waiting
  }
  clean_group(escalate ? std::chrono::milliseconds(0) : grace);
  return end_from_status(status);
}

void child_process::clean_group(std::chrono::milliseconds grace) {
  if (!group_alive(pid_)) return;
  ::kill(-pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + grace;
  while (group_alive(pid_) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(kPollStep);
  }
  if (group_alive(pid_)) ::kill(-pid_, SIGKILL);
}

run_guard::run_guard(std::chrono::milliseconds grace) {
  // A socket pair rather than a pipe: send(MSG_NOSIGNAL) to a guard that is gone fails with
  // EPIPE instead of killing the driver with SIGPIPE.
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    throw std::runtime_error(std::string("socketpair: ") + std::strerror(errno));
  pid_ = ::fork();
  if (pid_ < 0) {
    const int err = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(err));
  }
  if (pid_ == 0) {
    ::close(fds[1]);
    guard(fds[0], grace);
  }
  ::close(fds[0]);
  fd_ = fds[1];
}

run_guard::~run_guard() {
  if (fd_ >= 0) ::close(fd_);  // the guard sees the end of its socket, ends what is left, exits
  int status;
  while (pid_ > 0 && ::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
}

void run_guard::tell(char what, pid_t pgid, const std::string& dir) {
  const std::string line = what + std::to_string(pgid) + (dir.empty() ? "" : " " + dir) + "\n";
  ssize_t n;
  do {
    n = ::send(fd_, line.data(), line.size(), MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
}

void run_guard::started(pid_t pgid, const std::filesystem::path& private_dir) {
  tell('+', pgid, private_dir.string());
}
void run_guard::ended(pid_t pgid) { tell('-', pgid); }

[[noreturn]] void run_guard::guard(int fd, std::chrono::milliseconds grace) {
  // Ctrl-C, a quit, a hang-up and a SIGTERM to the driver's group are the driver's to handle:
  // it ends its runs and then closes the socket, or dies and so closes it. The guard lives until
  // then (it only reads the socket).
  for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::signal(s, SIG_IGN);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  std::set<pid_t> groups;
  std::map<pid_t, std::string> dirs;
  std::string pending;
  char buf[256];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    pending.append(buf, static_cast<std::size_t>(n));
    for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos;) {
      const std::string line = pending.substr(0, nl);
      pending.erase(0, nl + 1);
      if (line.size() < 2) continue;
      char* end = nullptr;
      const pid_t pgid = static_cast<pid_t>(std::strtol(line.c_str() + 1, &end, 10));
      if (pgid <= 0) continue;
      if (line[0] == '+') groups.insert(pgid);
      if (line[0] == '+' && *end == ' ') dirs[pgid] = end + 1;
      if (line[0] == '-') groups.erase(pgid);
      if (line[0] == '-') dirs.erase(pgid);
    }
  }
  // The driver is gone: whatever of its runs is still alive ends now (SIGTERM, so that a pvmd
  // can clean up, then SIGKILL after the grace period).
  for (const pid_t g : groups) ::kill(-g, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + grace;
  for (;;) {
    bool any = false;
    for (const pid_t g : groups) any = any || group_alive(g);
    if (!any) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      for (const pid_t g : groups) ::kill(-g, SIGKILL);
      break;
    }
    std::this_thread::sleep_for(kPollStep);
  }
  for (const auto& [g, dir] : dirs) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  ::_exit(0);
}

std::filesystem::path make_mpi_run_dir(std::size_t run) {
  std::error_code ec;
  const std::filesystem::path base = std::filesystem::is_directory("/dev/shm", ec)
                                         ? std::filesystem::path("/dev/shm")
                                         : std::filesystem::temp_directory_path();
  const auto dir =
      base / ("dlb-sweep-" + std::to_string(::getpid()) + "-run" + std::to_string(run));
  std::filesystem::create_directories(dir);
  return dir;
}

std::vector<std::string> mpi_run_env(const std::filesystem::path& dir, bool as_root) {
  std::vector<std::string> env{"OMPI_MCA_orte_tmpdir_base=" + dir.string(),
                               "OMPI_MCA_btl_vader_backing_directory=" + dir.string()};
  if (as_root) {
    env.emplace_back("OMPI_ALLOW_RUN_AS_ROOT=1");
    env.emplace_back("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1");
  }
  return env;
}

}  // namespace dlb::sweep
