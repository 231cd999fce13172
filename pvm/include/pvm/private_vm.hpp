// pvm/private_vm.hpp: a private PVM virtual machine for tests and tools.
//
// Starts its own pvmd under a fresh PVM_VMID, so it never touches a user's virtual machine and
// several can run side by side; exports PVM_VMID and PVM_ROOT (and PVM_ALLOW_ROOT when running
// as root) so that this process and its children join it; halts the pvmd by pid when destroyed,
// also when a test fails or throws. The pvmd is started with a parent-death signal, so it goes
// away even if this process is killed outright.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace pvm {

struct private_vm_options {
  // Empty: a fresh id made of this process's pid, a counter and the time.
  std::string vmid;
  std::string pvmd = "/usr/bin/pvmd";
  // Optional pvmd hostfile (for several hosts).
  std::string hostfile;
  std::chrono::milliseconds start_timeout{5000};
  // Print the one-line PVM_ALLOW_ROOT notice on stderr when running as root.
  bool root_notice = true;
};

class private_vm {
 public:
  explicit private_vm(const private_vm_options& opts = {});
  ~private_vm();
  private_vm(const private_vm&) = delete;
  private_vm& operator=(const private_vm&) = delete;

  const std::string& vmid() const noexcept { return vmid_; }
  pid_t pvmd_pid() const noexcept { return pid_; }
  bool running() const noexcept { return pid_ > 0; }
  // The pvmd's address file (/tmp/pvmd.<uid>.<vmid>, under PVM_TMP if set).
  std::string address_file() const;

  // Stops the pvmd (SIGTERM, then SIGKILL after a grace period), reaps it, removes its files
  // and restores the environment. Idempotent; never throws.
  void halt() noexcept;

 private:
  std::string vmid_;
  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::string socket_path_;
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_env_;
};

// A fresh VMID: "dlb-<pid>-<counter>-<microseconds>".
std::string fresh_vmid();

// Pids of processes (other than this one) whose environment carries PVM_VMID=<vmid>: the pvmd
// and every task it spawned. Used to assert that nothing was left behind.
std::vector<pid_t> processes_of_vm(const std::string& vmid);

// Reads the pid out of a pvmd address file ("/tmp/pvmtmp<pid>.0"); nullopt if unreadable.
std::optional<pid_t> pvmd_pid_from_address_file(const std::string& path);

}  // namespace pvm
