// pvm/private_vm.hpp: a private PVM virtual machine for tests and tools.
//
// Starts its own pvmd under a fresh PVM_VMID, so it never touches a user's virtual machine and
// several can run side by side; exports PVM_VMID and PVM_ROOT (and PVM_ALLOW_ROOT when running
// as root) so that this process and its children join it; halts the pvmd by pid when destroyed,
// also when a test fails or throws. The pvmd is started with a parent-death signal, so it goes
// away even if this process is killed outright; and its log file is unlinked as soon as the pvmd
// has opened it, so that nothing of it stays in /tmp (or PVM_TMP) then either.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "pvm/hostfile.hpp"

namespace pvm {

struct private_vm_options {
  // Empty: a fresh id made of this process's pid, a counter and the time.
  std::string vmid;
  std::string pvmd = "/usr/bin/pvmd";
  // Optional PVM hostfile (several hosts). It is read and checked first (hostfile_error naming
  // the line and host); then the pvmd starts with every host deferred and adds them one by one
  // (pvm_addhosts), so that a host that cannot be added is reported by name and line, and the
  // virtual machine (every pvmd started so far) is halted before the error is thrown.
  std::string hostfile;
  std::chrono::milliseconds start_timeout{5000};
  // Bound on adding the hostfile's hosts (rsh/ssh to a dead host can take minutes).
  std::chrono::milliseconds add_hosts_timeout{60000};
  // Where the one-line PVM_ALLOW_ROOT notice goes when running as root (default: stderr);
  // empty: nowhere. The wrapper never writes to a stream itself.
  std::function<void(const std::string&)> notice = stderr_notice;
  static void stderr_notice(const std::string& line);
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
  // The pvmd's log (/tmp/pvml.<uid>.<vmid>); unlinked once the pvmd is ready.
  std::string log_file() const;
  // The master pvmd's host name (as PVM calls it; empty without a hostfile) and the hostfile's
  // hosts that were added to the virtual machine (the master's own line excluded).
  const std::string& master_host() const noexcept { return master_host_; }
  const std::vector<hostfile_entry>& added_hosts() const noexcept { return added_; }
  // The parsed hostfile (empty source without one).
  const struct hostfile& hosts_file() const noexcept { return hostfile_; }

  // Stops the pvmd (SIGTERM, then SIGKILL after a grace period), reaps it, removes its files
  // and restores the environment. Idempotent; never throws.
  void halt() noexcept;

 private:
  void unlink_log() noexcept;

  std::string vmid_;
  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::string socket_path_;
  struct hostfile hostfile_;
  std::string deferred_file_;  // the generated hostfile the pvmd was started with
  std::string master_host_;
  std::vector<hostfile_entry> added_;

  // The steps of the constructor, in order.
  void clear_address_file() const;
  void set_environment(const private_vm_options& opts);
  void start_pvmd(const private_vm_options& opts);
  void wait_ready(const private_vm_options& opts);
  void add_hosts(std::chrono::milliseconds bound);
  void apply_add_hosts_report(const std::string& report,
                              const std::vector<const hostfile_entry*>& wanted);
  void halt_all_hosts() noexcept;
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_env_;
};

// A fresh VMID: "dlb-<pid of this process>-<random hex>" (remove_stale_private_vms reads the pid).
std::string fresh_vmid();

// Pids of processes (other than this one) whose environment carries PVM_VMID=<vmid>: the pvmd
// and every task it spawned. Used to assert that nothing was left behind.
std::vector<pid_t> processes_of_vm(const std::string& vmid);

// Removes what dead private virtual machines of this user left in the temporary directory
// (PVM_TMP or /tmp), as every private_vm does when it starts: for each vmid of fresh_vmid's form
// ("dlb-<pid>-...") whose creating process <pid> is gone and whose pvmd is gone too, its address
// file, its pvmd's socket and its log. That happens when the pvmd was killed with SIGKILL (with
// its whole process group, say) and could not remove them itself. Files of other virtual
// machines, and of any whose creator or pvmd still runs, are left alone. Returns the files
// removed.
std::vector<std::string> remove_stale_private_vms();

// Reads the pid out of a pvmd address file ("/tmp/pvmtmp<pid>.0"); nullopt if unreadable.
std::optional<pid_t> pvmd_pid_from_address_file(const std::string& path);

}  // namespace pvm
