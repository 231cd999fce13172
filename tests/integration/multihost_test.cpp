// multihost_test.cpp: real PVM virtual machines of several hosts on one machine.
//
// Each test builds its own hosts with scripts/nshosts (network namespaces joined by veth pairs
// to a bridge; root and iproute2 needed, the test skips with a clear message otherwise), runs
// the applications with --hostfile (remote pvmds started through PVM_RSH), and removes
// everything at the end: the ns_hosts fixture's destructor, and a signal handler if the test
// is interrupted. Every test then checks that nothing of its run is left: no namespace, no
// veth, no process in the namespaces, no pvmd of the run, no files.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app_test_support.hpp"
#include "run_process.hpp"
#ifdef DLB_MPIRUN
#include "mpi_support.hpp"
#endif

namespace {

namespace fs = std::filesystem;
using testing_support::process_result;
using testing_support::run_process;

const std::string kNsHosts = std::string(DLB_SOURCE_DIR) + "/scripts/nshosts";
const std::string kBinDir = fs::path(MXM_BIN).parent_path().string();

// Runs of this process that are up, for the signal handler (a test interrupted with ^C or by
// ctest's timeout removes its namespaces before it dies).
char g_live_id[16] = {0};

void remove_on_signal(int sig) {
  if (g_live_id[0]) {
    pid_t p = fork();
    if (p == 0) {
      const char* argv[] = {"/bin/bash", kNsHosts.c_str(), "down", g_live_id, nullptr};
      execv(argv[0], const_cast<char* const*>(argv));
      _exit(127);
    }
    if (p > 0) waitpid(p, nullptr, 0);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// Lines of a command's output (for `ip` queries).
std::string output_of(const std::vector<std::string>& argv) { return run_process(argv, 30).out; }

// What is left of run `id` on the machine: namespaces, veths named after it, processes in its
// namespaces, its files. Empty when nothing is.
std::string leftovers(const std::string& id) {
  std::string left;
  std::istringstream ns(output_of({"/usr/sbin/ip", "netns", "list"}));
  for (std::string line; std::getline(ns, line);) {
    if (line.find("dlbnh-" + id) != std::string::npos) left += "namespace " + line + "; ";
  }
  std::istringstream links(output_of({"/usr/sbin/ip", "-o", "link", "show", "type", "veth"}));
  for (std::string line; std::getline(links, line);) {
    if (line.find(id) != std::string::npos) left += "veth " + line + "; ";
  }
  if (fs::exists("/tmp/dlbnh-" + id)) left += "directory /tmp/dlbnh-" + id + "; ";
  return left;
}

// A run of scripts/nshosts: N hosts in network namespaces, removed when destroyed.
class ns_hosts {
 public:
  explicit ns_hosts(int hosts, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{"/bin/bash", kNsHosts, "up", "--hosts", std::to_string(hosts)};
    argv.insert(argv.end(), extra.begin(), extra.end());
    auto r = run_process(argv, 60);
    if (r.exit_code != 0) {
      error_ = "scripts/nshosts up failed (exit " + std::to_string(r.exit_code) + "): " + r.err;
      return;
    }
    id_ = trim(r.out);
    std::snprintf(g_live_id, sizeof g_live_id, "%s", id_.c_str());
    for (int s : {SIGINT, SIGTERM, SIGHUP}) signal(s, remove_on_signal);
  }
  ~ns_hosts() { down(); }
  ns_hosts(const ns_hosts&) = delete;
  ns_hosts& operator=(const ns_hosts&) = delete;

  // Removes everything; returns what `down` printed on failure.
  std::string down() {
    if (id_.empty()) return {};
    auto r = run_process({"/bin/bash", kNsHosts, "down", id_}, 60);
    g_live_id[0] = 0;
    done_id_ = id_;
    id_.clear();
    return r.exit_code == 0 ? std::string() : r.err;
  }

  bool up() const { return !id_.empty(); }
  const std::string& error() const { return error_; }
  const std::string& id() const { return id_.empty() ? done_id_ : id_; }
  std::string dir() const { return "/tmp/dlbnh-" + id(); }
  std::string host(int i) const { return "dlbnh-" + id() + "-h" + std::to_string(i); }
  std::string hostfile() const { return dir() + "/hostfile"; }

  // Runs argv on host 0 (PVM_RSH and the hosts file in place).
  process_result exec(const std::vector<std::string>& argv, double timeout_s = 90) const {
    std::vector<std::string> a{"/bin/bash", kNsHosts, "exec", id_, "--"};
    a.insert(a.end(), argv.begin(), argv.end());
    return run_process(a, timeout_s);
  }

  // Processes still running in the run's namespaces (pvmds, tasks), once they had up to 30 s to
  // end: a remote pvmd ends after the master's has told it to, later on a loaded machine, so
  // the check waits for the condition (every caller expects none) instead of looking once.
  std::string processes() const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    std::string pids = processes_now();
    while (!pids.empty() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      pids = processes_now();
    }
    return pids;
  }
  std::string processes_now() const {
    std::string pids;
    std::istringstream ns(output_of({"/usr/sbin/ip", "netns", "list"}));
    for (std::string line; std::getline(ns, line);) {
      const std::string name = line.substr(0, line.find(' '));
      if (name.rfind("dlbnh-" + id() + "-", 0) != 0) continue;
      pids += trim(output_of({"/usr/sbin/ip", "netns", "pids", name}));
    }
    return pids;
  }

  // Writes a hostfile in the run's directory.
  std::string write_hostfile(const std::string& name, const std::string& text) const {
    const std::string path = dir() + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

 private:
  std::string id_, done_id_, error_;
};

// Skips the test (with the reason) where namespaces cannot be made.
#define REQUIRE_NAMESPACES(hosts)                                                            \
  if (geteuid() != 0)                                                                        \
    GTEST_SKIP() << "needs root to create network namespaces (run the tests as root, as CI " \
                    "does)";                                                                 \
  if (!fs::exists("/usr/sbin/ip") && !fs::exists("/sbin/ip"))                                \
    GTEST_SKIP() << "needs iproute2 ('ip'): run scripts/install-deps";                       \
  if (!(hosts).up()) GTEST_SKIP() << "network namespaces unavailable: " << (hosts).error()

void expect_nothing_left(ns_hosts& h) {
  EXPECT_EQ(h.down(), "");
  EXPECT_EQ(leftovers(h.id()), "") << "left behind by run " << h.id();
}

std::string header(const ns_hosts& h);

// --- Applications under every strategy, slaves on every host --------------------------------

std::vector<std::string> small_size(const std::string& app) {
  if (app == "mxm") return {"--n", "160", "--r", "80", "--m", "80"};
  if (app == "trfd") return {"--n", "12"};
  return {"--n", "48"};
}

std::string bin_of(const std::string& app) { return kBinDir + "/" + app; }

using app_strategy = std::tuple<std::string, std::string>;
class MultiHostApps : public ::testing::TestWithParam<app_strategy> {};

TEST_P(MultiHostApps, VerifiedWithSlavesOnEveryHost) {
  const auto& [app, strategy] = GetParam();
  ns_hosts hosts(4);
  REQUIRE_NAMESPACES(hosts);
  std::vector<std::string> argv{bin_of(app), "--hostfile", hosts.hostfile(), "--clock", "native",
                                "--procs",   "8",          "--strategy",     strategy,  "--tl",
                                "0.05",      "--quiet"};
  const auto size = small_size(app);
  argv.insert(argv.end(), size.begin(), size.end());
  auto r = hosts.exec(argv);
  auto res = app_testing::expect_verified_run(r, {{"app", app}, {"P", "8"}, {"clock", "native"}});
  // Where the tasks ran: 4 hosts, 2 slaves on each, the master on host 0 (named after this
  // machine, as PVM names the master's host).
  auto placed = testing_support::fields_of(r.out, "HOSTS ");
  EXPECT_EQ(placed["hosts"], "4") << r.out;
  std::map<std::string, int> per_host;
  for (int s = 1; s <= 8; ++s) ++per_host[placed["slave" + std::to_string(s)]];
  for (int i = 1; i < 4; ++i)
    EXPECT_EQ(per_host[hosts.host(i)], 2) << hosts.host(i) << ": " << r.out;
  EXPECT_EQ(per_host[placed["master"]], 2) << r.out;
  EXPECT_EQ(hosts.processes(), "") << "processes of the run still in its namespaces";
  expect_nothing_left(hosts);
}

#ifdef DLB_MPIRUN
// The MPI backend over the same hosts: mpirun starts its daemons through the namespace wrapper
// (the run's rsh, through mpi_rsh) and the ranks talk over the hosts' own network; 3 ranks on host 0 (the master
// and 2 slaves), 2 slaves on each other host.
// Open MPI's remote shell on these hosts: the run's rsh, each host's daemon with a session
// directory of its own (the namespaces share /tmp and the machine's host name, and daemons
// starting together on "one host" race to create the same directories).
std::string mpi_rsh(const ns_hosts& h) {
  const std::string path = h.write_hostfile(
      "mpirsh",
      "#!/bin/sh\n"
      "d=$(dirname \"$0\"); host=$1; shift\n"
      "exec \"$d/rsh\" \"$host\" \"mkdir -p $d/mpitmp/$host && "
      "export OMPI_MCA_orte_tmpdir_base=$d/mpitmp/$host && $*\"\n");
  fs::permissions(path, fs::perms::owner_all, fs::perm_options::add);
  return path;
}

std::vector<std::string> mpirun_on(const ns_hosts& h, std::vector<std::string> program) {
  mpi_testing::allow_root_once();
  std::vector<std::string> argv{
      DLB_MPIRUN,
      "--mca",
      "plm_rsh_agent",
      mpi_rsh(h),
      "--mca",
      "btl",
      "tcp,self",
      "--mca",
      "btl_tcp_if_include",
      "eth0",
      "--mca",
      "oob_tcp_if_include",
      "eth0",
      "--host",
      h.host(0) + ":3," + h.host(1) + ":2," + h.host(2) + ":2," + h.host(3) + ":2",
      "-np",
      "9"};
  argv.insert(argv.end(), program.begin(), program.end());
  return argv;
}

TEST(MultiHostMpi, VerifiedWithSlavesOnEveryHost) {
  ns_hosts hosts(4);
  REQUIRE_NAMESPACES(hosts);
  auto r = hosts.exec(mpirun_on(
      hosts, {bin_of("mxm"), "--backend", "mpi", "--clock", "native", "--strategy", "GDDLB", "--tl",
              "0.05", "--quiet", "--n", "160", "--r", "80", "--m", "80"}));
  app_testing::expect_verified_run(r, {{"app", "mxm"}, {"P", "8"}, {"backend", "mpi"}});
  // HOSTS names each rank by its processor name and, the namespaces sharing one name, by the
  // address its connection came from: 10.77.0.10 + i on host i.
  auto placed = testing_support::fields_of(r.out, "HOSTS ");
  EXPECT_EQ(placed["hosts"], "4") << r.out;
  std::map<std::string, int> per_host;
  for (int s = 1; s <= 8; ++s) ++per_host[placed["slave" + std::to_string(s)]];
  for (const auto& [host, n] : per_host) EXPECT_EQ(n, 2) << host << ": " << r.out;
  EXPECT_EQ(per_host.size(), 4u) << r.out;
  EXPECT_EQ(hosts.processes(), "") << "processes of the run still in its namespaces";
  expect_nothing_left(hosts);
}

// A slave on another host lost at a point of its progress: the run ends naming it and its host,
// and nothing is left on any host. The point is its first iteration boundary, which every slave
// reaches: under the native clock a slave can hand its block away before a later one (a run
// with --kill-after-iters 5 once finished verified, slave 3 never reaching its 5th iteration).
TEST(MultiHostMpi, ALostRemoteRankEndsTheRunNamingIt) {
  ns_hosts hosts(4);
  REQUIRE_NAMESPACES(hosts);
  auto r = hosts.exec(mpirun_on(hosts, {bin_of("mxm"),
                                        "--backend",
                                        "mpi",
                                        "--clock",
                                        "native",
                                        "--strategy",
                                        "GDDLB",
                                        "--tl",
                                        "0.05",
                                        "--quiet",
                                        "--n",
                                        "160",
                                        "--r",
                                        "80",
                                        "--m",
                                        "80",
                                        "--kill-slave",
                                        "3",
                                        "--kill-after-iters",
                                        "1"}));
  EXPECT_FALSE(r.timed_out) << r.err;
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("slave 3 (MPI rank 3 on "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("exited during the run"), std::string::npos) << r.err;
  EXPECT_EQ(hosts.processes(), "") << "processes of the run still in its namespaces";
  expect_nothing_left(hosts);
}
#endif

INSTANTIATE_TEST_SUITE_P(AllStrategies, MultiHostApps,
                         ::testing::Combine(::testing::Values("mxm", "trfd", "ac"),
                                            ::testing::Values("NONE", "GCDLB", "GDDLB", "LCDLB",
                                                              "LDDLB", "AUTO")),
                         [](const ::testing::TestParamInfo<app_strategy>& i) {
                           return std::get<0>(i.param) + "_" + std::get<1>(i.param);
                         });

TEST(MultiHostEp, ExecutableAtAnotherPathIsFoundThroughEp) {
  // Host 2 has no build directory, but a copy of mxm elsewhere, named by ep= in the hostfile.
  ns_hosts hosts(3, {"--hide-on", "2:" + kBinDir});
  REQUIRE_NAMESPACES(hosts);
  const std::string bin = hosts.dir() + "/bin";
  fs::create_directories(bin);
  fs::copy_file(MXM_BIN, bin + "/mxm");
  auto f = hosts.write_hostfile("ep", "* dx=" + hosts.dir() + "/pvmd\n" + hosts.host(1) + "\n" +
                                          hosts.host(2) + " ep=" + bin + "\n");
  auto r =
      hosts.exec({bin_of("mxm"), "--hostfile", f, "--clock", "native", "--procs", "3", "--strategy",
                  "GDDLB", "--n", "60", "--r", "30", "--m", "30", "--tl", "0.05", "--quiet"});
  app_testing::expect_verified_run(r, {{"P", "3"}});
  EXPECT_EQ(testing_support::fields_of(r.out, "HOSTS ")["slave3"], hosts.host(2)) << r.out;
  EXPECT_EQ(hosts.processes(), "");
  expect_nothing_left(hosts);
}

TEST(MultiHostEp, TheMastersOwnHostMayBeListed) {
  // "The master host may appear on any line of the host file": by its namespace name (another
  // name of the same address) it is not added twice.
  ns_hosts hosts(2);
  REQUIRE_NAMESPACES(hosts);
  auto f = hosts.write_hostfile("with-master",
                                header(hosts) + hosts.host(0) + "\n" + hosts.host(1) + "\n");
  auto r = hosts.exec({bin_of("mxm"), "--hostfile", f, "--clock", "native", "--procs", "2", "--n",
                       "40", "--r", "20", "--m", "20", "--tl", "0.05", "--quiet"});
  app_testing::expect_verified_run(r, {{"P", "2"}});
  EXPECT_EQ(testing_support::fields_of(r.out, "HOSTS ")["hosts"], "2") << r.out;
  expect_nothing_left(hosts);
}

TEST(MultiHostSweep, HostfileIsPassedToEveryRun) {
  ns_hosts hosts(4);
  REQUIRE_NAMESPACES(hosts);
  const std::string conf = hosts.write_hostfile(
      "sweep.conf",
      "procs = 8\nstrategies = NONE LDDLB\nrepetitions = 1\nseeds = 1\ntl = 0.05\nclock = "
      "native\ntimeout = 60\n[app ac]\nsizes = n=48\n");
  const std::string out = hosts.dir() + "/sweep/results.csv";
  auto r = hosts.exec({DLB_SWEEP_BIN, "--config", conf, "--out", out, "--bin-dir", kBinDir,
                       "--hostfile", hosts.hostfile()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  std::ifstream results(out);
  std::string text((std::istreambuf_iterator<char>(results)), {});
  EXPECT_NE(text.find("# hostfile: " + hosts.hostfile()), std::string::npos) << text;
  int ok = 0, on_every_host = 0;
  for (auto at = text.find(",ok,"); at != std::string::npos; at = text.find(",ok,", at + 1)) ++ok;
  EXPECT_EQ(ok, 2) << text;
  for (const auto& e : fs::directory_iterator(out + ".logs")) {
    std::ifstream log(e.path());
    std::string l((std::istreambuf_iterator<char>(log)), {});
    auto placed = testing_support::fields_of(l, "HOSTS ");
    on_every_host += placed["hosts"] == "4" && placed["slave4"] == hosts.host(3);
  }
  EXPECT_EQ(on_every_host, 2);
  expect_nothing_left(hosts);
}

// --- Bad hostfiles: exit 2, the line and host named, nothing left running --------------------

// Runs mxm with `hostfile` on host 0 of `hosts` and checks a usage error naming every string
// of `names`, with no process of the run left in its namespaces.
void expect_bad_hostfile(const ns_hosts& hosts, const std::string& hostfile,
                         const std::vector<std::string>& names) {
  auto r = hosts.exec({bin_of("mxm"), "--hostfile", hostfile, "--clock", "native", "--procs", "4",
                       "--n", "40", "--r", "20", "--m", "20", "--quiet"},
                      60);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--hostfile"), std::string::npos) << r.err;
  for (const auto& n : names) EXPECT_NE(r.err.find(n), std::string::npos) << n << " in: " << r.err;
  EXPECT_EQ(r.out.find("RESULT "), std::string::npos) << r.out;
  EXPECT_TRUE(testing_support::none_left(r.marker));
  EXPECT_EQ(hosts.processes(), "") << "pvmds or tasks of the failed run still running";
}

std::string header(const ns_hosts& h) { return "# test\n* dx=" + h.dir() + "/pvmd\n"; }

TEST(MultiHostBadInput, UnreachableHostIsNamedWithItsLine) {
  ns_hosts hosts(3);
  REQUIRE_NAMESPACES(hosts);
  // Line 4: a name that resolves but whose machine does not answer (rsh fails).
  auto f = hosts.write_hostfile("unreachable", header(hosts) + hosts.host(1) + "\n" + "dlbnh-" +
                                                   hosts.id() + "-off\n" + hosts.host(2) + "\n");
  expect_bad_hostfile(hosts, f, {"line 4", "dlbnh-" + hosts.id() + "-off", "unreachable"});
  expect_nothing_left(hosts);
}

TEST(MultiHostBadInput, UnknownHostIsNamedWithItsLine) {
  ns_hosts hosts(2);
  REQUIRE_NAMESPACES(hosts);
  auto f = hosts.write_hostfile(
      "unknown", header(hosts) + hosts.host(1) + "\nno-such-host-" + hosts.id() + "\n");
  expect_bad_hostfile(hosts, f, {"line 4", "no-such-host-" + hosts.id(), "does not resolve"});
  expect_nothing_left(hosts);
}

TEST(MultiHostBadInput, HostWithoutTheExecutableIsNamedWithItsLine) {
  // Host 2 sees an empty directory where the build's apps are: the same path, no binary.
  ns_hosts hosts(3, {"--hide-on", "2:" + kBinDir});
  REQUIRE_NAMESPACES(hosts);
  expect_bad_hostfile(hosts, hosts.hostfile(),
                      {hosts.host(2), "line 4", "slave", "No such file", "same path"});
  expect_nothing_left(hosts);
}

TEST(MultiHostBadInput, HostWhoseEpLacksTheExecutableIsNamed) {
  ns_hosts hosts(3);
  REQUIRE_NAMESPACES(hosts);
  auto f = hosts.write_hostfile("ep", header(hosts) + hosts.host(1) + "\n" + hosts.host(2) +
                                          " ep=" + hosts.dir() + "/empty\n");
  expect_bad_hostfile(hosts, f, {hosts.host(2), "line 4", "ep=" + hosts.dir() + "/empty"});
  expect_nothing_left(hosts);
}

TEST(MultiHostBadInput, DuplicateHostIsNamedWithBothLines) {
  ns_hosts hosts(2);
  REQUIRE_NAMESPACES(hosts);
  auto f = hosts.write_hostfile(
      "duplicate", header(hosts) + hosts.host(1) + "\n\n" + hosts.host(1) + " sp=2000\n");
  expect_bad_hostfile(hosts, f, {"line 5", hosts.host(1), "first at line 3"});
  expect_nothing_left(hosts);
}

// Parsing happens before any pvmd starts: these need no root and no namespaces.
TEST(HostfileBadInput, SyntaxErrorsNameTheLine) {
  const fs::path dir =
      fs::temp_directory_path() / ("dlb-hostfile-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  struct bad_case {
    std::string text, names;
  } cases[] = {
      {"alpha\nbeta fast=yes\n", "line 2, host beta: unknown option 'fast='"},
      {"# ok\n\nalpha ep\n", "line 3, host alpha: expected option=value, got 'ep'"},
      {"alpha sp=0\n", "line 1, host alpha: sp= needs an integer"},
      {"* lo=me so=pw\nalpha\n", "line 1: so=pw"},
      {"10.0.0.1\n", "line 1, host 10.0.0.1: a numeric address"},
      {"alpha id=other\n", "line 1, host alpha: id="},
      {"&\n", "line 1: '&' without a host name"},
      {"alpha\nbeta\nALPHA\n", "line 3, host ALPHA: named twice (first at line 1)"},
  };
  for (const auto& c : cases) {
    const auto f = dir / "hosts";
    std::ofstream(f) << c.text;
    app_testing::expect_usage_error(MXM_BIN, {"--hostfile", f.string(), "--clock", "native"},
                                    c.names);
  }
  app_testing::expect_usage_error(MXM_BIN,
                                  {"--hostfile", (dir / "missing").string(), "--clock", "native"},
                                  "missing: cannot read it");
  // The emulated clock needs one host; the simulator has none to add; one VM or the other.
  std::ofstream(dir / "ok") << "alpha\n";
  app_testing::expect_usage_error(MXM_BIN, {"--hostfile", (dir / "ok").string()}, "--clock native");
  app_testing::expect_usage_error(
      MXM_BIN, {"--hostfile", (dir / "ok").string(), "--backend", "sim"}, "--backend pvm");
  app_testing::expect_usage_error(
      MXM_BIN, {"--hostfile", (dir / "ok").string(), "--clock", "native", "--join-vm"},
      "--join-vm");
  fs::remove_all(dir);
}

// --- Joining a virtual machine: the run never halts it ---------------------------------------

// A script run inside a virtual machine the test started (pvm-private): runs that succeed, fail
// at spawn and fail on bad input, each followed by the machine's host count (`conf`).
std::string join_script(const std::string& app_args, const std::string& more = "") {
  const std::string conf = "echo conf | pvm 2>/dev/null | grep -c LINUX64; ";
  const std::string run = bin_of("mxm") + " --join-vm " + app_args + " --quiet ";
  return "set +e; " + conf + run + ">/dev/null; echo rc=$?; " + conf + run +
         "--strategy NOPE 2>/dev/null; echo rc=$?; " + conf + run +
         "--hostfile /dev/null 2>/dev/null; echo rc=$?; " + conf + more;
}

TEST(JoinVm, ASingleHostMachineOutlivesEveryRun) {
  const std::string pvm_private = fs::path(MXM_BIN).parent_path().parent_path() / "pvm/pvm-private";
  auto r = run_process(
      {pvm_private, "--quiet", "--", "/bin/sh", "-c",
       join_script("--clock native --procs 3 --n 40 --r 20 --m 20 --tl 0.05") +
           "kill -0 $(cat ${PVM_TMP:-/tmp}/pvmd.$(id -u).$PVM_VMID | sed 's/.*pvmtmp0*//; "
           "s/\\..*//') && echo pvmd-alive"},
      90);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "1\nrc=0\n1\nrc=2\n1\nrc=2\n1\npvmd-alive\n") << r.err;
  EXPECT_TRUE(testing_support::none_left(r.marker));
}

TEST(JoinVm, AMultiHostMachineOutlivesAFailedSpawn) {
  // Host 2 lacks the executable: the joined run fails (exit 2) after starting slaves elsewhere;
  // they are stopped, and the user's machine keeps its 3 hosts and pvmds.
  ns_hosts hosts(3, {"--hide-on", "2:" + kBinDir});
  REQUIRE_NAMESPACES(hosts);
  const std::string pvm_private = fs::path(MXM_BIN).parent_path().parent_path() / "pvm/pvm-private";
  const std::string args = "--clock native --n 40 --r 20 --m 20 --tl 0.05";
  // Two slaves go to hosts 0 and 1 (succeeds); three need host 2 (fails at spawn, exit 2).
  auto r =
      hosts.exec({pvm_private, "--quiet", "--hostfile", hosts.hostfile(), "--", "/bin/sh", "-c",
                  join_script(args + " --procs 2", bin_of("mxm") + " --join-vm " + args +
                                                       " --procs 3 --quiet 2>/dev/null; "
                                                       "echo rc=$?; echo conf | pvm "
                                                       "2>/dev/null | grep -c LINUX64")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "3\nrc=0\n3\nrc=2\n3\nrc=2\n3\nrc=2\n3\n") << r.err;
  EXPECT_EQ(hosts.processes(), "");
  expect_nothing_left(hosts);
}

// --- Cleanup on interrupt --------------------------------------------------------------------

TEST(MultiHostCleanup, InterruptedRunLeavesNothing) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to create network namespaces";
  // `nshosts run` with a virtual machine of 4 hosts (4 pvmds), interrupted once the virtual
  // machine is up and runs its command (`sleep 30`: the run cannot end first).
  const std::string pvm_private = fs::path(MXM_BIN).parent_path().parent_path() / "pvm/pvm-private";
  std::string id;
  bool was_up = false;
  // The command's process: its command line is "sleep\030\0".
  const std::string command_line = std::string("sleep") + '\0' + "30" + '\0';
  const auto command_runs = [&command_line](const std::string& marker) {
    for (pid_t p : testing_support::processes_with_marker(marker)) {
      std::ifstream cmd("/proc/" + std::to_string(p) + "/cmdline");
      if (std::string((std::istreambuf_iterator<char>(cmd)), {}) == command_line) return true;
    }
    return false;
  };
  const auto interrupt = [&](const std::string& marker) {
    // Bounded: the hosts and their pvmds start in a second or two on a loaded machine.
    for (int i = 0; i < 3000 && !(was_up = command_runs(marker)); ++i) usleep(20'000);
    // SIGINT to the script only (not its process group): its trap must clean up.
    for (pid_t p : testing_support::processes_with_marker(marker)) {
      std::ifstream cmd("/proc/" + std::to_string(p) + "/cmdline");
      std::string c((std::istreambuf_iterator<char>(cmd)), {});
      if (c.find("nshosts") != std::string::npos && c.find("run") != std::string::npos &&
          c.find("exec") == std::string::npos) {
        kill(p, SIGINT);
        break;
      }
    }
  };
  auto r = run_process({"/bin/bash", kNsHosts, "run", "--hosts", "4", "--", "/bin/sh", "-c",
                        pvm_private + " --hostfile \"$NSHOSTS_HOSTFILE\" -- sleep 30"},
                       90, interrupt);
  EXPECT_TRUE(was_up) << "the virtual machine never ran its command: " << r.err;
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 130) << r.err;
  const auto at = r.err.find("nshosts: run ");
  ASSERT_NE(at, std::string::npos) << r.err;
  id = r.err.substr(at + 13, 8);
  EXPECT_EQ(leftovers(id), "");
  EXPECT_TRUE(testing_support::none_left(r.marker));
  // The files of its virtual machine (pvm-private prints its PVM_VMID) are gone too.
  const auto v = r.err.find("PVM_VMID=");
  ASSERT_NE(v, std::string::npos) << r.err;
  const std::string vmid = r.err.substr(v + 9, r.err.find(' ', v) - v - 9);
  const std::string uid = std::to_string(geteuid());
  for (const std::string f : {"pvmd.", "pvml.", "dlb-hostfile."})
    EXPECT_FALSE(fs::exists("/tmp/" + f + uid + "." + vmid)) << f << uid << "." << vmid;
}

// --- A workstation lost mid-run -------------------------------------------------------------

// The PVM_VMID of the run's master pvmd (on host 0), read from its environment; empty if none
// runs yet.
std::string master_vmid(const ns_hosts& h) {
  std::istringstream pids(output_of({"/usr/sbin/ip", "netns", "pids", h.host(0)}));
  for (std::string pid; pids >> pid;) {
    std::ifstream cmd("/proc/" + pid + "/cmdline");
    const std::string c((std::istreambuf_iterator<char>(cmd)), std::istreambuf_iterator<char>());
    if (c.find("pvmd") == std::string::npos) continue;
    std::ifstream env("/proc/" + pid + "/environ", std::ios::binary);
    for (std::string var; std::getline(env, var, '\0');)
      if (var.rfind("PVM_VMID=dlb-", 0) == 0) return var.substr(9);
  }
  return {};
}

using loss_case = std::tuple<std::string, std::string>;  // strategy, how
class MultiHostLoss : public ::testing::TestWithParam<loss_case> {};

// MXM P = 8 over 4 hosts with --on-loss recover, the fault at a point of the run's progress,
// never at a wall time (a run on a fast machine ends in about half a second). "delete": slave 3
// (on host 2) stops after its 5th iteration (--fault-mark: it says so in a file and waits), and
// the test then deletes host 2 from the running virtual machine (PVM's console `delete`,
// pvm_delhosts: its pvmd and both its slaves end, and the master's pvmd sends their task-exit
// notices); the run cannot end before that, slave 3 holding its work. "kill": slave 2 (on
// host 1) SIGKILLs itself after its 5th iteration. The run completes verified with the losses
// reported, and nothing is left.
TEST_P(MultiHostLoss, CompletesVerified) {
  const auto& [strategy, how] = GetParam();
  ns_hosts hosts(4);
  REQUIRE_NAMESPACES(hosts);
  const std::string mark = hosts.dir() + "/fault-mark";
  std::vector<std::string> argv{"/bin/bash",  kNsHosts,      "exec",       hosts.id(),
                                "--",         bin_of("mxm"), "--hostfile", hosts.hostfile(),
                                "--clock",    "native",      "--procs",    "8",
                                "--strategy", strategy,      "--ml",       "0",
                                "--n",        "4000",        "--r",        "400",
                                "--m",        "400",         "--on-loss",  "recover",
                                "--timeout",  "60",          "--quiet"};
  if (how == "kill") argv.insert(argv.end(), {"--kill-slave", "2", "--kill-after-iters", "5"});
  if (how == "delete")
    argv.insert(argv.end(), {"--kill-slave", "3", "--kill-after-iters", "5", "--fault-mark", mark});
  std::string deleted;
  std::map<std::string, std::string> held;
  const auto del = [&hosts, &deleted, &held, &mark](const std::string&) {
    // Bounded: slave 3 waits at its fault point for up to --timeout; this waits as long.
    held = testing_support::wait_for_mark(mark, 60);
    const std::string vmid = master_vmid(hosts);
    if (held.empty() || vmid.empty()) return;
    deleted = run_process({"/bin/bash", "-c",
                           "printf 'delete " + hosts.host(2) + "\\nquit\\n' | /bin/bash " +
                               kNsHosts + " exec " + hosts.id() + " -- env PVM_VMID=" + vmid +
                               " PVM_ROOT=/usr/lib/pvm3 PVM_ALLOW_ROOT=1 /usr/bin/pvm"},
                          30)
                  .out;
  };
  const auto r = how == "delete" ? run_process(argv, 120, del) : run_process(argv, 120);
  auto res = app_testing::expect_verified_run(r, {{"app", "mxm"}, {"P", "8"}});
  if (how == "delete") {
    EXPECT_EQ(held["rank"], "3");
    EXPECT_EQ(held["iterations"], "5");
    EXPECT_NE(deleted.find("deleted"), std::string::npos) << deleted;
    EXPECT_EQ(res["lost_slaves"], "2") << r.out;
    // Slaves 3 and 7 ran on host 2 (slaves go to the hosts in turn).
    EXPECT_NE(res["lost"].find("3@"), std::string::npos) << r.out;
    EXPECT_NE(res["lost"].find("7@"), std::string::npos) << r.out;
  } else {
    EXPECT_EQ(res["lost_slaves"], "1") << r.out;
    EXPECT_EQ(res["lost"].substr(0, 2), "2@") << r.out;
  }
  EXPECT_GT(std::stoll(res["recovered_iters"]), 0) << r.out;
  EXPECT_EQ(hosts.processes(), "") << "processes of the run still in its namespaces";
  expect_nothing_left(hosts);
}

INSTANTIATE_TEST_SUITE_P(Strategies, MultiHostLoss,
                         ::testing::Combine(::testing::Values("GCDLB", "LDDLB"),
                                            ::testing::Values("delete", "kill")),
                         [](const ::testing::TestParamInfo<loss_case>& i) {
                           return std::get<0>(i.param) + "_" + std::get<1>(i.param);
                         });

}  // namespace
