// Integration tests of what a run leaves behind: nothing, in the temporary directory (PVM_TMP,
// here a private one per test) or in the process table, whether the run ends normally or its
// master is killed with SIGKILL (issue 16: the private pvmd's log /tmp/pvml.<uid>.dlb-* stayed
// behind forever after a kill -9 of the master).
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "run_process.hpp"

namespace {

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
  EXPECT_TRUE(left_after(std::chrono::milliseconds(2000)).empty()) << joined(entries());
  EXPECT_TRUE(processes_with_marker(r.marker).empty());
}

// The master (the process that started the private pvmd) killed with SIGKILL mid-run: the pvmd
// goes with it (parent-death signal) and takes the slaves; its address file and socket go with
// it, and its log was unlinked when it started. Nothing is left, within a few seconds.
TEST_F(PrivateTmp, KillingTheMasterLeavesNothing) {
  std::vector<std::string> during;
  pid_t master = -1;
  int slaves = 0;
  auto killer = [&](const std::string& marker) {
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
  auto r = run_process({kApp, "--procs", "4", "--iterations", "4000", "--work-ms", "100", "--scale",
                        "20", "--quiet"},
                       60, killer, 1.5);
  ASSERT_GT(master, 0) << "no master found to kill";
  EXPECT_EQ(r.exit_code, 128 + SIGKILL) << r.err;
  // The run was under way in this PVM_TMP when it was killed (so the test can fail): the pvmd's
  // address file was there, and its four slaves ran.
  bool had_address_file = false;
  for (const auto& n : during) had_address_file |= n.rfind("pvmd.", 0) == 0;
  EXPECT_TRUE(had_address_file) << "PVM_TMP during the run: " << joined(during);
  EXPECT_EQ(slaves, 4);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!processes_with_marker(r.marker).empty() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(processes_with_marker(r.marker).empty()) << "a process of the run is still alive";
  EXPECT_TRUE(left_after(std::chrono::milliseconds(3000)).empty())
      << "left in PVM_TMP after the master was killed: " << joined(entries());
}

}  // namespace
