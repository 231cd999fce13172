// private_vm.cpp: start, watch and halt a private pvmd.
#include "pvm/private_vm.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <pvm3.h>
#include <signal.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "pvm/error.hpp"

namespace pvm {

void private_vm_options::stderr_notice(const std::string& line) { std::cerr << line << std::endl; }

namespace {

std::string tmp_dir() {
  const char* t = std::getenv("PVM_TMP");
  return (t && *t) ? t : "/tmp";
}

bool pid_alive(pid_t pid) { return pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM); }

std::optional<std::string> get_env(const char* name) {
  const char* v = std::getenv(name);
  if (!v) return std::nullopt;
  return std::string(v);
}

// Alive and not a zombie (a killed pvmd waits as a zombie until someone reaps it).
bool pid_running(pid_t pid) {
  if (!pid_alive(pid)) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string s;
  std::getline(stat, s);
  const auto close = s.rfind(')');
  return close == std::string::npos || close + 2 >= s.size() || s[close + 2] != 'Z';
}

// Waits for pid to exit for up to `grace`; reaps it if it is our child.
bool wait_exit(pid_t pid, std::chrono::milliseconds grace) {
  auto deadline = std::chrono::steady_clock::now() + grace;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno == ECHILD && !pid_alive(pid))) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

// The last `max` bytes of a file, for an error message; empty if it cannot be read.
std::string tail_of(const std::string& path, std::size_t max) {
  std::ifstream in(path, std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return all.size() > max ? all.substr(all.size() - max) : all;
}

}  // namespace

std::string fresh_vmid() {
  std::random_device rd;
  std::ostringstream os;
  os << "dlb-" << ::getpid() << "-" << std::hex << rd() << rd();
  return os.str();
}

std::optional<pid_t> pvmd_pid_from_address_file(const std::string& path) {
  std::ifstream in(path);
  std::string content;
  if (!in || !std::getline(in, content)) return std::nullopt;
  auto pos = content.find("pvmtmp");
  if (pos == std::string::npos) return std::nullopt;
  pid_t pid = static_cast<pid_t>(std::strtol(content.c_str() + pos + 6, nullptr, 10));
  if (pid <= 0) return std::nullopt;
  return pid;
}

std::vector<pid_t> processes_of_vm(const std::string& vmid) {
  std::vector<pid_t> found;
  const std::string needle = "PVM_VMID=" + vmid;
  DIR* proc = ::opendir("/proc");
  if (!proc) return found;
  while (dirent* e = ::readdir(proc)) {
    char* end = nullptr;
    long pid = std::strtol(e->d_name, &end, 10);
    if (pid <= 0 || *end != '\0' || pid == ::getpid()) continue;
    std::ifstream env("/proc/" + std::string(e->d_name) + "/environ", std::ios::binary);
    std::string var;
    while (std::getline(env, var, '\0')) {
      if (var == needle) {
        // A zombie has exited already; only count processes that still run.
        std::ifstream stat("/proc/" + std::string(e->d_name) + "/stat");
        std::string s;
        std::getline(stat, s);
        auto close = s.rfind(')');
        if (close != std::string::npos && close + 2 < s.size() && s[close + 2] == 'Z') break;
        found.push_back(static_cast<pid_t>(pid));
        break;
      }
    }
  }
  ::closedir(proc);
  return found;
}

std::vector<std::string> remove_stale_private_vms() {
  std::vector<std::string> removed;
  const std::string dir = tmp_dir();
  const std::string uid = std::to_string(::getuid());
  // The vmids of fresh_vmid ("dlb-<creator pid>-<random>") that have a file here.
  std::vector<std::string> vmids;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      for (const char* kind : {"pvmd.", "pvml."}) {
        const std::string prefix = kind + uid + ".dlb-";
        if (name.rfind(prefix, 0) == 0) vmids.push_back(name.substr(prefix.size() - 4));
      }
    }
    ::closedir(d);
  }
  std::sort(vmids.begin(), vmids.end());
  vmids.erase(std::unique(vmids.begin(), vmids.end()), vmids.end());
  for (const auto& vmid : vmids) {
    char* end = nullptr;
    const long creator = std::strtol(vmid.c_str() + 4, &end, 10);
    if (creator <= 0 || *end != '-' || pid_running(static_cast<pid_t>(creator))) continue;
    const std::string addr = dir + "/pvmd." + uid + "." + vmid;
    std::ifstream in(addr);
    std::string socket;
    if (in && std::getline(in, socket)) {
      const auto pvmd = pvmd_pid_from_address_file(addr);
      if (pvmd && pid_running(*pvmd)) continue;  // its pvmd still runs: not ours to judge
      if (socket.rfind(dir + "/pvmtmp", 0) == 0 && ::unlink(socket.c_str()) == 0)
        removed.push_back(socket);
    }
    for (const std::string& file : {addr, dir + "/pvml." + uid + "." + vmid}) {
      if (::unlink(file.c_str()) == 0) removed.push_back(file);
    }
  }
  return removed;
}

namespace {

// The child's side of starting the pvmd: stdout to the pipe, the rest to /dev/null, signals as a
// fresh process has them; dies with the parent, so that no pvmd outlives a killed test.
[[noreturn]] void exec_pvmd(pid_t parent, int out_fd, char* const* argv) {
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != parent) ::_exit(127);
  // A blocked SIGCHLD survives exec: the pvmd would notice its tasks' exits only at its next
  // periodic wake-up (task-exit notices, and so every run's end, late by about 5 s; seen
  // under pvm-private, which blocks the signals it forwards).
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::signal(SIGCHLD, SIG_DFL);
  int devnull = ::open("/dev/null", O_RDWR);
  ::dup2(devnull, 0);
  ::dup2(out_fd, 1);
  ::dup2(devnull, 2);
  ::execv(argv[0], argv);
  ::_exit(127);
}

}  // namespace

private_vm::private_vm(const private_vm_options& opts)
    : vmid_(opts.vmid.empty() ? fresh_vmid() : opts.vmid) {
  try {
    remove_stale_private_vms();
  } catch (const std::exception&) {
    // Tidying up after others is best effort; it never stops a start.
  }
  // A bad hostfile is reported before anything is started.
  if (!opts.hostfile.empty()) hostfile_ = read_hostfile(opts.hostfile);
  clear_address_file();
  set_environment(opts);
  start_pvmd(opts);
  wait_ready(opts);
  unlink_log();
  if (!opts.hostfile.empty()) add_hosts(opts.add_hosts_timeout);
}

// Refuses a VMID whose pvmd is alive; removes the address file a pvmd killed with SIGKILL left
// behind (the next start would fail with PvmDupHost).
void private_vm::clear_address_file() const {
  const std::string addr = address_file();
  if (::access(addr.c_str(), F_OK) != 0) return;
  auto old = pvmd_pid_from_address_file(addr);
  if (old && pid_alive(*old)) {
    throw std::runtime_error("private_vm: a pvmd (pid " + std::to_string(*old) +
                             ") is already running for PVM_VMID=" + vmid_ + " (" + addr +
                             "); refusing to start a second one");
  }
  ::unlink(addr.c_str());
}

// PVM_VMID, PVM_ROOT and (as root) PVM_ALLOW_ROOT for this virtual machine, each variable's
// earlier value kept for the destructor.
void private_vm::set_environment(const private_vm_options& opts) {
  auto set = [this](const char* name, const std::string& value) {
    saved_env_.emplace_back(name, get_env(name));
    ::setenv(name, value.c_str(), 1);
  };
  set("PVM_VMID", vmid_);
  if (!get_env("PVM_ROOT")) set("PVM_ROOT", "/usr/lib/pvm3");
  if (::geteuid() == 0 && !get_env("PVM_ALLOW_ROOT")) {
    set("PVM_ALLOW_ROOT", "1");
    if (opts.notice)
      opts.notice("pvm: running as root: PVM_ALLOW_ROOT=1 set for this virtual machine");
  }
}

// Forks and execs the pvmd (with the hostfile's deferred lines, if any), its stdout on a pipe.
void private_vm::start_pvmd(const private_vm_options& opts) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    halt();
    throw std::runtime_error(std::string("private_vm: pipe: ") + std::strerror(errno));
  }
  const pid_t parent = ::getpid();
  std::vector<std::string> args{opts.pvmd, "-d0"};
  if (!opts.hostfile.empty()) {
    deferred_file_ = tmp_dir() + "/dlb-hostfile." + std::to_string(::getuid()) + "." + vmid_;
    std::ofstream f(deferred_file_);
    f << hostfile_.deferred_text();
    if (!f.flush()) {
      ::close(fds[0]);
      ::close(fds[1]);
      halt();
      throw std::runtime_error("private_vm: cannot write " + deferred_file_);
    }
    args.push_back(deferred_file_);
  }
  // Made before the fork: the child only calls what is safe after a fork in a threaded process.
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    halt();
    throw std::runtime_error(std::string("private_vm: fork: ") + std::strerror(errno));
  }
  if (pid == 0) exec_pvmd(parent, fds[1], argv.data());
  ::close(fds[1]);
  pid_ = pid;
  out_fd_ = fds[0];
}

// Waits until the pvmd prints its socket address on stdout (it then accepts tasks); halts it and
// throws if it exits first or the start timeout passes.
void private_vm::wait_ready(const private_vm_options& opts) {
  auto deadline = std::chrono::steady_clock::now() + opts.start_timeout;
  std::string out;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      halt();
      throw std::runtime_error("private_vm: pvmd (" + opts.pvmd + ") not ready after " +
                               std::to_string(opts.start_timeout.count()) +
                               " ms for PVM_VMID=" + vmid_);
    }
    pollfd p{out_fd_, POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    char buf[256];
    ssize_t n = ::read(out_fd_, buf, sizeof buf);
    if (n > 0) out.append(buf, static_cast<std::size_t>(n));
    if (out.find('\n') != std::string::npos) {
      // The socket stays behind after SIGTERM; remember it so halt() can remove it.
      socket_path_ = out.substr(0, out.find('\n'));
      return;
    }
    if (n == 0) {
      const std::string log = tail_of(log_file(), 2000);
      halt();
      throw std::runtime_error("private_vm: pvmd (" + opts.pvmd +
                               ") exited before it was ready for PVM_VMID=" + vmid_ +
                               (log.empty() ? std::string() : "; its log:\n" + log));
    }
  }
}

namespace {

// What adding one host failed of, in words a user can act on.
std::string add_host_reason(int code) {
  const char* rsh = std::getenv("PVM_RSH");
  const std::string how =
      rsh && *rsh ? std::string("PVM_RSH=") + rsh : "rsh (set PVM_RSH, e.g. to ssh)";
  switch (code) {
    case PvmCantStart:
      return "could not start a pvmd there: host unreachable, or " + how +
             " failed, or no pvmd at dx= (check: " + (rsh && *rsh ? std::string(rsh) : "rsh") +
             " HOST true) (PvmCantStart)";
    case PvmNoHost:
      return "no such host: its name does not resolve here (PvmNoHost)";
    case PvmBadVersion:
      return "its pvmd is another PVM version (PvmBadVersion)";
    case PvmOutOfRes:
      return "the pvmd ran out of resources starting it (PvmOutOfRes)";
    default:
      return std::string(code_name(code)) + " (" + std::string(code_symbol(code)) + ", " +
             std::to_string(code) + ")";
  }
}

// Reads everything from fd until EOF or the deadline; false on timeout.
bool read_all(int fd, std::string& out, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    char buf[512];
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    out.append(buf, static_cast<std::size_t>(n));
  }
}

// The helper process of add_hosts: enrolls in the virtual machine, adds the wanted hosts but the
// master's own, and writes "master NAME" and one "INDEX CODE" line per host to fd.
[[noreturn]] void add_hosts_in_helper(const std::vector<const hostfile_entry*>& wanted, int fd) {
  pvm_setopt(PvmAutoErr, 0);
  std::string out;
  if (pvm_mytid() < 0) ::_exit(3);
  int nhost = 0, narch = 0;
  pvmhostinfo* hi = nullptr;
  std::string master;
  if (pvm_config(&nhost, &narch, &hi) >= 0 && nhost > 0) master = hi[0].hi_name;
  out += "master " + master + "\n";
  std::vector<std::string> names;
  std::vector<std::size_t> index;
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    // "The master host may appear on any line of the host file" (pvmd3(1PVM)).
    if (::strcasecmp(wanted[i]->name.c_str(), master.c_str()) == 0) {
      out += std::to_string(i) + " master\n";
      continue;
    }
    names.push_back(wanted[i]->name);
    index.push_back(i);
  }
  if (!names.empty()) {
    std::vector<char*> argv;
    for (auto& n : names) argv.push_back(n.data());
    std::vector<int> infos(names.size(), 0);
    int rc = pvm_addhosts(argv.data(), static_cast<int>(argv.size()), infos.data());
    for (std::size_t k = 0; k < names.size(); ++k) {
      const int code = rc < 0 ? rc : infos[k];
      out += std::to_string(index[k]) + " " + std::to_string(code) + "\n";
    }
  }
  pvm_exit();
  const char* p = out.data();
  std::size_t left = out.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n <= 0) break;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  ::_exit(0);
}

}  // namespace

// Adds the hostfile's hosts (all but deferred ones and the master's own line) in a helper
// process, so that this process's libpvm state stays untouched (it enrolls later, or never).
// The helper writes "master NAME" and one "INDEX CODE" line per host it tried.
void private_vm::add_hosts(std::chrono::milliseconds bound) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    halt();
    throw std::runtime_error(std::string("private_vm: pipe: ") + std::strerror(errno));
  }
  std::vector<const hostfile_entry*> wanted;
  for (const auto& h : hostfile_.hosts) {
    if (!h.deferred) wanted.push_back(&h);
  }
  const pid_t helper = ::fork();
  if (helper < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    halt();
    throw std::runtime_error(std::string("private_vm: fork: ") + std::strerror(errno));
  }
  if (helper == 0) {
    ::close(fds[0]);
    add_hosts_in_helper(wanted, fds[1]);
  }
  ::close(fds[1]);
  std::string out;
  const bool done = read_all(fds[0], out, std::chrono::steady_clock::now() + bound);
  ::close(fds[0]);
  if (!done) ::kill(helper, SIGKILL);
  ::waitpid(helper, nullptr, 0);
  if (!done) {
    halt();
    throw hostfile_error(hostfile_.source, 0, "",
                         "adding the hosts did not finish within " +
                             std::to_string(bound.count() / 1000) +
                             " s (an rsh/ssh that hangs?); every pvmd started for it was halted");
  }
  apply_add_hosts_report(out, wanted);
}

// The helper's report: the master's name, the hosts added; a host that could not be added halts
// the virtual machine and throws hostfile_error naming its line (and every other failure).
void private_vm::apply_add_hosts_report(const std::string& report,
                                        const std::vector<const hostfile_entry*>& wanted) {
  std::istringstream in(report);
  std::string word;
  std::vector<std::string> failures;
  const hostfile_entry* first_failed = nullptr;
  std::string first_reason;
  in >> word >> std::ws;
  if (word == "master") std::getline(in, master_host_);
  std::size_t i = 0;
  std::string code;
  while (in >> i >> code) {
    if (i >= wanted.size()) continue;
    if (code == "master") continue;
    const int c = std::stoi(code);
    // PvmDupHost: the host is in the virtual machine already, i.e. it is this machine under
    // another name (the master may appear on any line).
    if (c >= 0 || c == PvmDupHost) {
      if (c >= 0) added_.push_back(*wanted[i]);
      continue;
    }
    const std::string why = add_host_reason(c);
    if (!first_failed) {
      first_failed = wanted[i];
      first_reason = why;
    } else {
      failures.push_back("line " + std::to_string(wanted[i]->line) + ", host " + wanted[i]->name +
                         ": " + why);
    }
  }
  if (master_host_.empty() && !wanted.empty()) {
    halt();
    throw std::runtime_error(
        "private_vm: could not add the hostfile's hosts (the helper that "
        "enrolls in PVM_VMID=" +
        vmid_ + " failed)");
  }
  if (first_failed) {
    const hostfile_entry failed = *first_failed;
    halt();
    std::string reason = first_reason;
    for (const auto& f : failures) reason += "; also " + f;
    throw hostfile_error(hostfile_.source, failed.line, failed.name,
                         reason + "; every pvmd started for the run was halted");
  }
}

// Halts every pvmd of the virtual machine: pvm_halt from a helper process (it kills every task
// and the remote pvmds), bounded; the caller then makes sure of the local ones.
void private_vm::halt_all_hosts() noexcept {
  const pid_t helper = ::fork();
  if (helper < 0) return;
  if (helper == 0) {
    pvm_setopt(PvmAutoErr, 0);
    if (pvm_mytid() >= 0) pvm_halt();
    ::_exit(0);
  }
  // The master pvmd exits once every remote pvmd has been told.
  wait_exit(pid_, std::chrono::milliseconds(3000));
  if (!wait_exit(helper, std::chrono::milliseconds(500))) {
    ::kill(helper, SIGKILL);
    wait_exit(helper, std::chrono::milliseconds(500));
  }
}

private_vm::~private_vm() { halt(); }

std::string private_vm::log_file() const {
  return tmp_dir() + "/pvml." + std::to_string(::getuid()) + "." + vmid_;
}

// The pvmd removes its address file and socket when it gets SIGTERM (also the parent-death
// signal when this process is killed with SIGKILL), but never its log. So the log is unlinked as
// soon as the pvmd has it open: the pvmd keeps writing to the open file (readable as
// /proc/<pvmd>/fd/... while it runs), and nothing stays in the temporary directory however this
// process ends. The pvmd opens its log before it prints its address; the short wait only covers
// a pvmd that would do it the other way round.
void private_vm::unlink_log() noexcept {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  while (::unlink(log_file().c_str()) != 0 && errno == ENOENT &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

std::string private_vm::address_file() const {
  return tmp_dir() + "/pvmd." + std::to_string(::getuid()) + "." + vmid_;
}

void private_vm::halt() noexcept {
  if (pid_ > 0 && !hostfile_.hosts.empty()) halt_all_hosts();
  if (pid_ > 0) {
    // The pvmd's own SIGTERM shutdown also signals every task still in its table, and that can
    // include this process when its pvm_exit has not been processed yet. So the tasks are
    // stopped here first (SIGTERM, a grace period, then SIGKILL), the pvmd is killed outright,
    // and its files are removed below.
    auto others = [this] {
      auto all = processes_of_vm(vmid_);
      std::erase(all, pid_);
      return all;
    };
    auto left = others();
    const auto signalled = left;
    for (pid_t p : left) ::kill(p, SIGTERM);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(2000);
    while (!left.empty() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      left = others();
    }
    for (pid_t p : left) ::kill(p, SIGKILL);
    ::kill(pid_, SIGKILL);
    wait_exit(pid_, std::chrono::milliseconds(3000));
    pid_ = -1;
    // Tasks that did not get to pvm_exit leave their sockets (pvmtmp<pid>.*) behind.
    for (pid_t p : signalled) {
      char prefix[32];
      std::snprintf(prefix, sizeof prefix, "pvmtmp%06d.", static_cast<int>(p));
      if (DIR* d = ::opendir(tmp_dir().c_str())) {
        while (dirent* e = ::readdir(d)) {
          if (std::strncmp(e->d_name, prefix, std::strlen(prefix)) == 0)
            ::unlink((tmp_dir() + "/" + e->d_name).c_str());
        }
        ::closedir(d);
      }
    }
    ::unlink(address_file().c_str());
    if (socket_path_.rfind(tmp_dir() + "/pvmtmp", 0) == 0) ::unlink(socket_path_.c_str());
    ::unlink(log_file().c_str());
  }
  if (!deferred_file_.empty()) {
    ::unlink(deferred_file_.c_str());
    deferred_file_.clear();
  }
  if (out_fd_ >= 0) {
    ::close(out_fd_);
    out_fd_ = -1;
  }
  for (auto it = saved_env_.rbegin(); it != saved_env_.rend(); ++it) {
    if (it->second) {
      ::setenv(it->first.c_str(), it->second->c_str(), 1);
    } else {
      ::unsetenv(it->first.c_str());
    }
  }
  saved_env_.clear();
}

}  // namespace pvm
