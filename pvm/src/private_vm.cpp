// private_vm.cpp: start, watch and halt a private pvmd.
#include "pvm/private_vm.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace pvm {
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

private_vm::private_vm(const private_vm_options& opts)
    : vmid_(opts.vmid.empty() ? fresh_vmid() : opts.vmid) {
  const std::string addr = address_file();
  if (::access(addr.c_str(), F_OK) == 0) {
    auto old = pvmd_pid_from_address_file(addr);
    if (old && pid_alive(*old)) {
      throw std::runtime_error("private_vm: a pvmd (pid " + std::to_string(*old) +
                               ") is already running for PVM_VMID=" + vmid_ + " (" + addr +
                               "); refusing to start a second one");
    }
    // A pvmd killed with SIGKILL leaves its file behind; the next start would fail with
    // PvmDupHost, so a file whose pid is dead is removed.
    ::unlink(addr.c_str());
  }

  auto set = [this](const char* name, const std::string& value) {
    saved_env_.emplace_back(name, get_env(name));
    ::setenv(name, value.c_str(), 1);
  };
  set("PVM_VMID", vmid_);
  if (!get_env("PVM_ROOT")) set("PVM_ROOT", "/usr/lib/pvm3");
  if (::geteuid() == 0 && !get_env("PVM_ALLOW_ROOT")) {
    set("PVM_ALLOW_ROOT", "1");
    if (opts.root_notice)
      std::cerr << "pvm: running as root: PVM_ALLOW_ROOT=1 set for this virtual machine\n";
  }

  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    halt();
    throw std::runtime_error(std::string("private_vm: pipe: ") + std::strerror(errno));
  }
  const pid_t parent = ::getpid();
  std::vector<std::string> args{opts.pvmd, "-d0"};
  if (!opts.hostfile.empty()) args.push_back(opts.hostfile);
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
  if (pid == 0) {
    // Child: die with the parent, so that no pvmd outlives a killed test.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(127);
    int devnull = ::open("/dev/null", O_RDWR);
    ::dup2(devnull, 0);
    ::dup2(fds[1], 1);
    ::dup2(devnull, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  pid_ = pid;
  out_fd_ = fds[0];

  // pvmd prints its socket address on stdout once it accepts tasks.
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
    if (r > 0) {
      char buf[256];
      ssize_t n = ::read(out_fd_, buf, sizeof buf);
      if (n > 0) out.append(buf, static_cast<std::size_t>(n));
      if (out.find('\n') != std::string::npos) {
        // The socket stays behind after SIGTERM; remember it so halt() can remove it.
        socket_path_ = out.substr(0, out.find('\n'));
        break;
      }
      if (n == 0) {
        halt();
        throw std::runtime_error("private_vm: pvmd (" + opts.pvmd +
                                 ") exited before it was ready for PVM_VMID=" + vmid_ + "; see " +
                                 tmp_dir() + "/pvml." + std::to_string(::getuid()) + "." + vmid_);
      }
    }
  }
}

private_vm::~private_vm() { halt(); }

std::string private_vm::address_file() const {
  return tmp_dir() + "/pvmd." + std::to_string(::getuid()) + "." + vmid_;
}

void private_vm::halt() noexcept {
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
    std::string log = tmp_dir() + "/pvml." + std::to_string(::getuid()) + "." + vmid_;
    ::unlink(log.c_str());
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
