// sim_speed_bench: how fast the simulated backend runs the paper's heaviest configurations and
// the scale study's (make bench-sim; docs/design/scale.md, "Where the wall time goes").
//
// Whole-process timings: each run is the application program itself (--backend sim), started
// as a child with DLB_SIM_STATS set (lib/backends/sim/sim.hpp), so that the table gives, per
// run, the median wall and CPU seconds over --reps repetitions, the peak memory, and the
// simulated messages and synchronizations per wall second. Given two or more application
// folders (--apps LABEL=DIR, e.g. a build of the base revision and this one), the repetitions
// alternate between them (A B, then B A, ...) so that a change of the machine's load falls on
// both alike, and the table says whether their RESULT lines (wall-clock fields aside) agree.
// The load average is printed at the start and the end: wall times mean little without it.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;

struct run_kind {
  std::string set;   // paper, scale or targets
  std::string name;  // the table's row
  std::string app;
  std::vector<std::string> args;
};

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

// The paper's heaviest runs (paper.conf, seed 1: make reproduce's sweep) and the scale study's
// (scale.conf's synthetic loop, 20 iterations per slave; the targets at P = 1024, 4096).
std::vector<run_kind> all_runs() {
  const std::string paper = "--seed 1 --ml 5 --clock emulated --scale 10 --network ethernet1996 ";
  const std::string syn = "--shape uniform --work-ms 250 --ml 5 --tl 5 --seed 1 ";
  const auto synthetic = [&](const std::string& set, const std::string& s, int p) {
    return run_kind{set, "synthetic " + s + " P=" + std::to_string(p), "synthetic",
                    words(syn + "--strategy " + s + " --procs " + std::to_string(p) + " --group " +
                          std::to_string(p / 2) + " --iterations " + std::to_string(20 * p))};
  };
  return {
      {"paper", "mxm P=16 n=3200 r=800 NONE", "mxm",
       words(paper + "--strategy NONE --procs 16 --group 8 --tl 80.9 --n 3200 --r 800 --m 400")},
      {"paper", "mxm P=16 n=3200 r=800 GDDLB", "mxm",
       words(paper + "--strategy GDDLB --procs 16 --group 8 --tl 80.9 --n 3200 --r 800 --m 400")},
      {"paper", "ac P=4 n=250 GDDLB", "ac",
       words(paper + "--strategy GDDLB --procs 4 --group 2 --tl 210 --n 250")},
      {"paper", "ac P=16 n=250 LCDLB", "ac",
       words(paper + "--strategy LCDLB --procs 16 --group 8 --tl 52.6 --n 250")},
      {"paper", "trfd P=16 n=50 GDDLB", "trfd",
       words(paper + "--strategy GDDLB --procs 16 --group 8 --tl 4.81 --n 50")},
      synthetic("scale", "GDDLB", 256),
      synthetic("scale", "LDDLB", 512),
      synthetic("scale", "LCDLB", 1024),
      synthetic("targets", "GDDLB", 1024),
      synthetic("targets", "GCDLB", 4096),
      synthetic("targets", "LCDLB", 4096),
      synthetic("targets", "LDDLB", 4096),
  };
}

struct sample {
  double wall_s = 0, cpu_s = 0, peak_mb = 0;
  double messages = 0, syncs = 0;
  bool ok = false;
  std::string result;  // the RESULT line without its wall-clock fields
};

// The value of `key=` in a line of key=value words, or "".
std::string field(const std::string& line, const std::string& key) {
  for (const auto& w : words(line))
    if (w.rfind(key + "=", 0) == 0) return w.substr(key.size() + 1);
  return "";
}

std::string without_wall_fields(const std::string& line) {
  std::string out;
  for (const auto& w : words(line))
    if (w.rfind("wall_s=", 0) != 0 && w.rfind("max_rss_mb=", 0) != 0) out += w + " ";
  return out;
}

// Runs one app to its end (killed after timeout_s): wall, CPU (rusage of the child), peak RSS.
sample run_once(const fs::path& dir, const run_kind& k, const fs::path& tmp, double timeout_s) {
  const fs::path out = tmp / "out.txt", stats = tmp / "stats.txt";
  fs::remove(stats);
  std::vector<std::string> argv{(dir / k.app).string(), "--backend", "sim", "--quiet"};
  argv.insert(argv.end(), k.args.begin(), k.args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  // The environment of make reproduce's sweep (huge pages, scripts/common.sh), and the stats file.
  std::vector<std::string> env{"DLB_SIM_STATS=" + stats.string(),
                               "GLIBC_TUNABLES=glibc.malloc.hugetlb=1"};
  for (char** e = environ; *e; ++e)
    if (std::string(*e).rfind("DLB_SIM_STATS=", 0) && std::string(*e).rfind("GLIBC_TUNABLES=", 0))
      env.emplace_back(*e);
  std::vector<char*> cenv;
  for (auto& e : env) cenv.push_back(e.data());
  cenv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid = -1;
  const auto start = std::chrono::steady_clock::now();
  const int rc = posix_spawn(&pid, cargv[0], &fa, nullptr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&fa);
  sample s;
  if (rc != 0) return s;
  int status = 0;
  rusage ru{};
  while (wait4(pid, &status, WNOHANG, &ru) == 0) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout_s)
      kill(pid, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  s.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.cpu_s = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
            static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
  s.peak_mb = static_cast<double>(ru.ru_maxrss) / 1024.0;
  s.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::ifstream o(out);
  for (std::string line; std::getline(o, line);)
    if (line.rfind("RESULT ", 0) == 0) {
      s.result = without_wall_fields(line);
      s.syncs = std::atof(field(line, "syncs").c_str());
    }
  std::ifstream st(stats);
  for (std::string line; std::getline(st, line);)
    s.messages += std::atof(field(line, "messages").c_str());
  return s;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string load_average() {
  double l[3] = {0, 0, 0};
  if (getloadavg(l, 3) != 3) return "unknown";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f %.2f %.2f", l[0], l[1], l[2]);
  return buf;
}

struct options {
  std::vector<std::pair<std::string, fs::path>> apps;  // label, folder
  std::vector<std::string> sets{"paper"};
  std::string filter;
  int reps = 3;
  double timeout_s = 600;
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "sim_speed_bench: " << why
            << "\nusage: sim_speed_bench --apps LABEL=DIR [--apps LABEL=DIR ...] [--reps N]\n"
               "         [--sets paper,scale,targets] [--filter TEXT] [--timeout SECONDS]\n";
  std::exit(2);
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) usage("option " + a + " needs a value");
    const std::string v = argv[++i];
    if (a == "--apps") {
      const auto eq = v.find('=');
      if (eq == std::string::npos) usage("--apps " + v + ": expected LABEL=DIR");
      o.apps.emplace_back(v.substr(0, eq), v.substr(eq + 1));
      if (!fs::is_directory(o.apps.back().second)) usage("--apps " + v + ": not a folder");
    } else if (a == "--reps") {
      o.reps = std::atoi(v.c_str());
      if (o.reps < 1) usage("--reps " + v + ": expected a positive integer");
    } else if (a == "--sets") {
      std::string list = v;
      std::replace(list.begin(), list.end(), ',', ' ');
      o.sets = words(list);
    } else if (a == "--filter") {
      o.filter = v;
    } else if (a == "--timeout") {
      o.timeout_s = std::atof(v.c_str());
      if (o.timeout_s <= 0) usage("--timeout " + v + ": expected a positive number");
    } else {
      usage("unknown option " + a);
    }
  }
  if (o.apps.empty()) usage("give at least one --apps LABEL=DIR");
  return o;
}

// `msgs`: the run's simulated messages (the same simulation in every folder; a build before
// DLB_SIM_STATS counts none, so the largest count of the folders is given).
void print_row(const run_kind& k, const std::string& label, const std::vector<sample>& v,
               double msgs, const std::string& same) {
  std::vector<double> wall, cpu, mem;
  bool ok = true;
  for (const auto& s : v) {
    wall.push_back(s.wall_s);
    cpu.push_back(s.cpu_s);
    mem.push_back(s.peak_mb);
    ok = ok && s.ok;
  }
  const double w = median(wall);
  const double syncs = v.empty() ? 0 : v.front().syncs;
  std::printf("| %s | %s | %.2f | %.2f | %.0f | %.0f | %.0f | %.0f | %.2f | %s%s |\n",
              k.name.c_str(), label.c_str(), w, median(cpu), median(mem), msgs, syncs,
              w > 0 ? msgs / w : 0, w > 0 ? syncs / w : 0, ok ? "" : "FAILED ", same.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  const fs::path tmp = fs::temp_directory_path() / ("sim_speed_bench." + std::to_string(getpid()));
  fs::create_directories(tmp);
  std::printf(
      "sim_speed_bench: %d repetitions, alternated over %zu folders; load average at the "
      "start %s\n\n",
      o.reps, o.apps.size(), load_average().c_str());
  std::printf(
      "| run | apps | wall s | CPU s | peak MB | messages | syncs | messages / wall s | "
      "syncs / wall s | RESULT |\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& k : all_runs()) {
    if (std::find(o.sets.begin(), o.sets.end(), k.set) == o.sets.end()) continue;
    if (!o.filter.empty() && k.name.find(o.filter) == std::string::npos) continue;
    std::vector<std::vector<sample>> by_apps(o.apps.size());
    for (int r = 0; r < o.reps; ++r)
      for (std::size_t i = 0; i < o.apps.size(); ++i) {
        // A B, then B A: neither folder always runs first.
        const std::size_t a = r % 2 ? o.apps.size() - 1 - i : i;
        by_apps[a].push_back(run_once(o.apps[a].second, k, tmp, o.timeout_s));
      }
    double msgs = 0;
    for (const auto& v : by_apps) msgs = std::max(msgs, v.front().messages);
    for (std::size_t a = 0; a < o.apps.size(); ++a) {
      const std::string same =
          a == 0 ? ""
                 : (by_apps[a].front().result == by_apps[0].front().result ? "same" : "DIFFERS");
      print_row(k, o.apps[a].first, by_apps[a], msgs, same);
    }
    std::fflush(stdout);
  }
  std::printf("\nload average at the end: %s\n", load_average().c_str());
  fs::remove_all(tmp);
  return 0;
}
