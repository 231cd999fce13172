// Running one app run as a child process in its own process group, with a timeout.
//
// Signals: the driver blocks SIGINT, SIGTERM, SIGHUP and SIGCHLD (signal_block) and waits for them
// with sigtimedwait, so no signal handler and no global flag is needed; children get the original
// mask back before exec. Each child leads a new process group, so a terminal's Ctrl-C reaches
// only the driver, which then ends the whole group of the current run (the app and whatever it
// started in its group, e.g. a private pvmd): SIGTERM first, so a pvmd can clean up, SIGKILL
// after a grace period. Should the driver itself die (kill -9), each run dies with it
// (PR_SET_PDEATHSIG) and run_guard ends what is left of its group.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sweep/app_output.hpp"

namespace dlb::sweep {

class signal_block {
 public:
  signal_block();
  ~signal_block();
  signal_block(const signal_block&) = delete;
  signal_block& operator=(const signal_block&) = delete;

  const sigset_t& original_mask() const { return old_; }
  // Waits up to `timeout` for SIGINT, SIGTERM, SIGHUP or SIGCHLD; returns the signal, or 0 on
  // timeout.
  int wait(std::chrono::milliseconds timeout) const;

 private:
  sigset_t set_;
  sigset_t old_;
};

class child_process {
 public:
  // Starts argv (argv[0] a path) with stdin from /dev/null and stdout+stderr to `log`
  // (truncated). Throws std::runtime_error if the process cannot be created; a failed exec is
  // reported by the child as exit status 127 with the reason in `exec_error()`.
  // `env`: "NAME=VALUE" entries added to (or replacing those of) the driver's environment.
  child_process(const std::vector<std::string>& argv, const std::filesystem::path& log,
                const sigset_t& child_mask, const std::vector<std::string>& env = {});
  ~child_process();
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  pid_t pid() const { return pid_; }
  const std::string& exec_error() const { return exec_error_; }

  // Non-blocking check; once it returns a value the child is reaped and its group cleaned up.
  std::optional<child_end> poll();
  // Ends the child's process group: SIGTERM, then SIGKILL after `grace` (or at once if
  // `sig.wait` sees another SIGINT/SIGTERM/SIGHUP meanwhile). Returns how the child ended.
  child_end terminate(std::chrono::milliseconds grace, const signal_block& sig);

 private:
  // After the leader is reaped: give the rest of its group `grace` to leave, then kill it.
  void clean_group(std::chrono::milliseconds grace);

  pid_t pid_ = -1;
  bool reaped_ = false;
  std::string exec_error_;
};

// A process that outlives the driver to end its runs: the driver tells it each run's process
// group as it starts and ends; when the driver dies (kill -9 included) the guard reads the end
// of its socket and ends the groups still alive (SIGTERM, SIGKILL after `grace`), then exits. A
// forked copy of the driver, it shares the driver's open files: with the folder's lock open, it
// holds the lock until the runs are gone, so that no resume competes with them. Each run also
// dies with the driver by itself (PR_SET_PDEATHSIG); the guard ends what that leaves, such as
// an MPI job's ranks, and removes each such run's private folder (an MPI job's session
// directory and shared-memory segments, mpi_run_env).
class run_guard {
 public:
  explicit run_guard(std::chrono::milliseconds grace);
  ~run_guard();
  run_guard(const run_guard&) = delete;
  run_guard& operator=(const run_guard&) = delete;

  // A run started; `private_dir` (if not empty) is removed by the guard once the run's group
  // is ended, should the driver die first.
  void started(pid_t pgid, const std::filesystem::path& private_dir = {});
  void ended(pid_t pgid);

 private:
  void tell(char what, pid_t pgid, const std::string& dir = {});
  [[noreturn]] static void guard(int fd, std::chrono::milliseconds grace);

  pid_t pid_ = -1;
  int fd_ = -1;
};

}  // namespace dlb::sweep

namespace dlb::sweep {

// A private folder for one MPI run (under /dev/shm where it exists, else the temporary folder),
// created, named by the driver's pid and `run`; and the environment that puts the run's Open MPI
// files in it: its session directory (orte_tmpdir_base, with PMIx's files) and its shared-memory
// segments (btl_vader_backing_directory), so that removing the folder after the run, or after
// the driver's death (run_guard), leaves nothing in /dev/shm or /tmp. As root, Open MPI refuses to
// start without OMPI_ALLOW_RUN_AS_ROOT and its confirmation: `as_root` adds them.
std::filesystem::path make_mpi_run_dir(std::size_t run);
std::vector<std::string> mpi_run_env(const std::filesystem::path& dir, bool as_root);

}  // namespace dlb::sweep
