// Integration tests of what a run leaves behind: nothing, in the temporary directory (PVM_TMP,
// here a private one per test) or in the process table, whether the run ends normally or its
// master is killed with SIGKILL (the private pvmd's log /tmp/pvml.<uid>.dlb-* stayed
// behind forever after a kill -9 of the master).
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "pvm/private_vm.hpp"
#include "run_process.hpp"

namespace {

using testing_support::none_left;
using testing_support::processes_with_marker;
using testing_support::run_process;

const std::string kApp = DLB_SYNTHETIC_APP;

// A private PVM_TMP for this test process's runs, removed afterwards.
class PrivateTmp : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() / ("dlb-cleanup-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    ::setenv("PVM_TMP", dir_.c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("PVM_TMP");
    std::filesystem::remove_all(dir_);
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir_))
      names.push_back(e.path().filename().string());
    return names;
  }
  // Waits up to `bound` for the directory to be empty; returns what is left.
  // (Bounds of 30 s: a condition waited for, which a loaded machine only delays.)
  std::vector<std::string> left_after(std::chrono::milliseconds bound) const {
    const auto deadline = std::chrono::steady_clock::now() + bound;
    auto left = entries();
    while (!left.empty() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      left = entries();
    }
    return left;
  }
  std::filesystem::path dir_;
};

// The name of a running pvmd's socket: pvmtmp<6-digit pid>.0.
std::string pvmd_socket_of(const pvm::private_vm& vm) {
  char name[32];
  std::snprintf(name, sizeof name, "pvmtmp%06d.0", static_cast<int>(vm.pvmd_pid()));
  return name;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += n + " ";
  return s;
}

bool is_slave(pid_t p) {
  std::ifstream cmd("/proc/" + std::to_string(p) + "/cmdline");
  const std::string c((std::istreambuf_iterator<char>(cmd)), std::istreambuf_iterator<char>());
  return c.find("--dlb-slave") != std::string::npos;
}

TEST_F(PrivateTmp, ANormalRunLeavesNothing) {
  auto r =
      run_process({kApp, "--procs", "3", "--iterations", "60", "--work-ms", "10", "--quiet"}, 60);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(left_after(std::chrono::seconds(30)).empty()) << joined(entries());
  EXPECT_TRUE(none_left(r.marker));
}

// The master (the process that started the private pvmd) killed with SIGKILL mid-run: the pvmd
// goes with it (parent-death signal) and takes the slaves; its address file and socket go with
// it, and its log was unlinked when it started. Nothing is left, within a few seconds. Mid-run
// by the run's progress: slave 4, the last to get its data, waits at its fault point (after 20
// iterations: every slave has its data and computes) until the master is gone. (Not at slave 1's
// first iteration: the master may then still be scattering to the others, and a task killed
// while PVM sets up a direct connection leaves its socket, pvmtmp<pid>.<n>, in PVM_TMP, which
// nothing removes; seen under load. A known limit, not what this test is about.)
TEST_F(PrivateTmp, KillingTheMasterLeavesNothing) {
  std::vector<std::string> during;
  pid_t master = -1;
  int slaves = 0;
  const std::string mark = testing_support::fault_mark_path("cleanup-master");
  std::filesystem::remove(mark);
  auto killer = [&](const std::string& marker) {
    if (testing_support::wait_for_mark(mark, 60).empty()) return;
    during = entries();
    for (pid_t p : processes_with_marker(marker)) slaves += is_slave(p);
    // The process run_process started is the master; the pvmd and the slaves carry the marker
    // too, but the master is the only one of them whose parent is this test.
    for (pid_t p : processes_with_marker(marker)) {
      std::ifstream stat("/proc/" + std::to_string(p) + "/stat");
      std::string s;
      std::getline(stat, s);
      const auto close = s.rfind(')');
      if (close == std::string::npos) continue;
      int ppid = 0;
      char state = 0;
      std::istringstream(s.substr(close + 2)) >> state >> ppid;
      if (ppid == ::getpid()) master = p;
    }
    if (master > 0) ::kill(master, SIGKILL);
  };
  // (--network switched: the run's shared segment in /dev/shm, which a killed master leaves
  // behind, is removed by the next run: StaleSharedSegments below; this test is about PVM_TMP.)
  auto r = run_process({kApp, "--procs", "4", "--iterations", "4000", "--work-ms", "100", "--scale",
                        "20", "--network", "switched", "--quiet", "--kill-slave", "4",
                        "--kill-after-iters", "20", "--fault-mark", mark},
                       90, killer);
  std::filesystem::remove(mark);
  ASSERT_GT(master, 0) << "no master found to kill";
  EXPECT_EQ(r.exit_code, 128 + SIGKILL) << r.err;
  // The run was under way in this PVM_TMP when it was killed (so the test can fail): the pvmd's
  // address file was there, and its four slaves ran.
  bool had_address_file = false;
  for (const auto& n : during) had_address_file |= n.rfind("pvmd.", 0) == 0;
  EXPECT_TRUE(had_address_file) << "PVM_TMP during the run: " << joined(during);
  EXPECT_EQ(slaves, 4);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!processes_with_marker(r.marker).empty() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(none_left(r.marker)) << "a process of the run is still alive";
  EXPECT_TRUE(left_after(std::chrono::seconds(30)).empty())
      << "left in PVM_TMP after the master was killed: " << joined(entries());
}

// What dead virtual machines left (their pvmd killed with SIGKILL, so it could not tidy up) is
// removed by the next private_vm's start; files of a live creator, and of other virtual
// machines, are left alone.
TEST_F(PrivateTmp, ANewVirtualMachineRemovesWhatDeadOnesLeft) {
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  const std::string uid = std::to_string(::getuid()), d = dir_.string();
  const std::string gone = "dlb-" + std::to_string(dead) + "-5eed",
                    log_only = "dlb-" + std::to_string(dead) + "-10a",
                    live = "dlb-" + std::to_string(::getpid()) + "-11fe";
  const std::string socket = d + "/pvmtmp" + std::to_string(dead) + ".0";
  std::ofstream(d + "/pvmd." + uid + "." + gone) << socket;
  std::ofstream(socket) << "";
  for (const auto& vmid : {gone, log_only, live}) std::ofstream(d + "/pvml." + uid + "." + vmid);
  std::ofstream(d + "/pvml." + uid + ".exp1");  // not a private_vm's: a user's own
  std::vector<std::string> kept;
  {
    pvm::private_vm vm;
    kept = entries();
    std::erase_if(kept, [&](const std::string& n) {
      return n.find(vm.vmid()) != std::string::npos ||
             n == pvmd_socket_of(vm);  // the new one's own files
    });
  }
  std::sort(kept.begin(), kept.end());
  EXPECT_EQ(kept, (std::vector<std::string>{"pvml." + uid + "." + live, "pvml." + uid + ".exp1"}))
      << "while a new virtual machine ran, PVM_TMP had: " << joined(kept);
}

// The whole run killed at once (master, pvmd and slaves: SIGKILL to its process group): the pvmd
// cannot remove its address file and socket; the next private virtual machine does. Killed
// while slave 2, the last to get its data, waits at its fault point (after 20 iterations): the
// pvmd is up and the scatter done (see KillingTheMasterLeavesNothing).
TEST_F(PrivateTmp, AfterTheWholeRunIsKilledTheNextStartTidiesUp) {
  const std::string mark = testing_support::fault_mark_path("cleanup-all");
  std::filesystem::remove(mark);
  auto killer = [&mark](const std::string& marker) {
    if (testing_support::wait_for_mark(mark, 60).empty()) return;
    for (pid_t p : processes_with_marker(marker)) {
      if (::getpgid(p) == p) ::kill(-p, SIGKILL);  // the master leads the run's process group
    }
  };
  auto r = run_process({kApp, "--procs", "2", "--iterations", "4000", "--work-ms", "100", "--scale",
                        "20", "--network", "switched", "--quiet", "--kill-slave", "2",
                        "--kill-after-iters", "20", "--fault-mark", mark},
                       90, killer);
  std::filesystem::remove(mark);
  EXPECT_EQ(r.exit_code, 128 + SIGKILL) << r.err;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!processes_with_marker(r.marker).empty() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(none_left(r.marker)) << "a process of the run is still alive";
  const auto left = entries();
  bool address_file_left = false;
  for (const auto& n : left) address_file_left |= n.rfind("pvmd.", 0) == 0;
  ASSERT_TRUE(address_file_left) << "the killed pvmd left nothing, so nothing is tested: "
                                 << joined(left);
  {
    pvm::private_vm vm;
    std::vector<std::string> during = entries();
    std::erase_if(during, [&](const std::string& n) {
      return n.find(vm.vmid()) != std::string::npos ||
             n == pvmd_socket_of(vm);  // the new one's own files
    });
    EXPECT_TRUE(during.empty()) << "left by the killed run: " << joined(during);
  }
  EXPECT_TRUE(left_after(std::chrono::seconds(30)).empty()) << joined(entries());
}

// The run's shared segment (/dev/shm/dlb-medium-<master pid>-<tid>) cannot be unlinked by a
// master killed with SIGKILL: the next emulated PVM run removes those whose master is gone, and
// leaves a live master's alone.
TEST(StaleSharedSegments, TheNextRunRemovesThoseOfDeadMasters) {
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  const std::string gone = "/dev/shm/dlb-medium-" + std::to_string(dead) + "-262144",
                    live = "/dev/shm/dlb-medium-" + std::to_string(::getpid()) + "-262145";
  std::ofstream(gone) << "x";
  std::ofstream(live) << "x";
  // Removed however the test ends (and, were this process killed, by the next run: its pid).
  struct remover {
    std::string path;
    ~remover() { std::filesystem::remove(path); }
  } const cleanup{live};
  auto r = testing_support::run_process(
      {kApp, "--procs", "2", "--iterations", "20", "--work-ms", "5", "--quiet"}, 60);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(gone)) << "a dead master's segment was left";
  EXPECT_TRUE(std::filesystem::exists(live)) << "a live master's segment was removed";
}

}  // namespace
