// dlb_loadgen: a real external load for the native study (make native;
// experiments/native/README.md). A separate process that pins itself to one core and competes there
// with whatever else runs on it (the rank pinned to that core), so that the slowdown comes from the
// operating system's scheduler, not from the library (whose own simulated load is off: --ml 0).
//
//   dlb_loadgen --core C --ml M --tl T --seed S [--slave I]     the paper's load function
//   dlb_loadgen --core C --duty D [--period SECONDS] [--threads N]   a steady duty cycle
//
// Under the paper's load function, in block k (seconds [k T, (k+1) T) since the start) the
// generator runs L = dlb::core::load_in_block(S, I, k, M) spinning threads on core C: L
// competing processes, the paper's load L (a process alone on the core then gets 1/(L+1) of
// it, as the library's simulated load assumes). Under a duty cycle N threads (--threads, default
// 1) spin for D of every period: a load of N while on. Every change of its level is a row
// `time_start,time_end,load` of --out (the format dlb_plot_load --csv reads), written as it
// happens.
//
// It ends on SIGTERM or SIGINT (the last row written, exit 0), after --duration seconds, and
// with its parent (PR_SET_PDEATHSIG): nothing outlives the run that started it. A core that
// does not exist or an affinity the kernel refuses is an error naming the core, exit 2, before
// any load starts.
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "dlb/core/load.hpp"
#include "sweep/safe_files.hpp"

namespace {

constexpr const char* kUsage =
    "usage: dlb_loadgen --core C (--ml M --tl SECONDS --seed S [--slave I] | --duty D "
    "[--period SECONDS] [--threads N]) [--out FILE.csv] [--duration SECONDS]\n";

[[noreturn]] void bad_input(const std::string& what) {
  std::cerr << "dlb_loadgen: " << what << "\n" << kUsage;
  std::exit(2);
}

struct settings {
  int core = -1;
  int ml = -1;  // the paper's load function when >= 0
  double tl = 0;
  std::uint64_t seed = 1;
  std::size_t slave = 0;
  double duty = -1;  // a duty cycle when >= 0
  double period = 0.1;
  int threads = 1;  // spinning threads of a duty cycle's busy part
  std::string out;
  double duration = 0;  // 0: until told to stop
};

double number(const std::string& name, const std::string& text, double lo, double hi) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(v) || v < lo || v > hi)
    bad_input("option --" + name + " needs a number in [" + std::to_string(lo) + ", " +
              std::to_string(hi) + "], got '" + text + "'");
  return v;
}

settings parse(int argc, char** argv) {
  settings s;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help") {
      std::cout << kUsage;
      std::exit(0);
    }
    if (a.rfind("--", 0) != 0 || i + 1 >= argc) bad_input("unexpected argument '" + a + "'");
    const std::string name = a.substr(2), v = argv[++i];
    if (name == "core")
      s.core = static_cast<int>(number(name, v, 0, 1 << 20));
    else if (name == "ml")
      s.ml = static_cast<int>(number(name, v, 0, 64));
    else if (name == "tl")
      s.tl = number(name, v, 1e-3, 1e9);
    else if (name == "seed")
      s.seed = static_cast<std::uint64_t>(number(name, v, 0, 1e15));
    else if (name == "slave")
      s.slave = static_cast<std::size_t>(number(name, v, 0, 1 << 20));
    else if (name == "duty")
      s.duty = number(name, v, 0, 1);
    else if (name == "period")
      s.period = number(name, v, 1e-3, 1e6);
    else if (name == "threads")
      s.threads = static_cast<int>(number(name, v, 1, 64));
    else if (name == "out")
      s.out = v;
    else if (name == "duration")
      s.duration = number(name, v, 0, 1e9);
    else
      bad_input("unknown option '" + a + "'");
  }
  if (s.core < 0) bad_input("option --core is required");
  if ((s.ml >= 0) == (s.duty >= 0)) bad_input("give either --ml (with --tl) or --duty");
  if (s.ml >= 0 && !(s.tl > 0)) bad_input("option --ml needs --tl");
  // The pattern is written as it goes (the launcher waits for its header), so not through
  // write_atomically; but like every tool's output it replaces only a regular file.
  if (!s.out.empty())
    if (const auto why = dlb::sweep::unreplaceable_output(s.out); !why.empty())
      bad_input("option --out " + s.out + " is " + why);
  return s;
}

// Pins the whole process (threads made later inherit it) to `core`, or exits 2 naming it.
void pin_to(int core) {
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  if (core >= online)
    bad_input("core " + std::to_string(core) + " does not exist: this machine has " +
              std::to_string(online) + " online cores (0.." + std::to_string(online - 1) + ")");
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (::sched_getaffinity(0, sizeof allowed, &allowed) == 0 && !CPU_ISSET(core, &allowed))
    bad_input("core " + std::to_string(core) + " is not among the cores this process may use");
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(core, &one);
  if (::sched_setaffinity(0, sizeof one, &one) != 0)
    bad_input("cannot pin to core " + std::to_string(core) + ": " + std::strerror(errno));
}

// The spinning threads: thread k spins while the level is above k, else sleeps briefly.
class spinners {
 public:
  explicit spinners(int count) {
    for (int k = 0; k < count; ++k) threads_.emplace_back([this, k] { run(k); });
  }
  ~spinners() {
    stop_ = true;
    for (auto& t : threads_) t.join();
  }
  spinners(const spinners&) = delete;
  spinners& operator=(const spinners&) = delete;
  void set_level(int level) { level_.store(level, std::memory_order_relaxed); }

 private:
  void run(int k) {
    volatile std::uint64_t x = 0;
    while (!stop_.load(std::memory_order_relaxed)) {
      if (k < level_.load(std::memory_order_relaxed)) {
        for (int i = 0; i < 20000; ++i) x = x + 1;  // about 10-50 us, then look again
      } else {
        std::this_thread::sleep_for(std::chrono::microseconds(500));
      }
    }
  }
  std::atomic<int> level_{0};
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Waits until `until` seconds after t0, or a stop signal; true if a signal came.
bool wait_or_signal(const sigset_t& stop, std::chrono::steady_clock::time_point t0, double until) {
  for (;;) {
    const double left = until - since(t0);
    if (left <= 0) return false;
    timespec ts{};
    ts.tv_sec = static_cast<time_t>(left);
    ts.tv_nsec = static_cast<long>((left - static_cast<double>(ts.tv_sec)) * 1e9);
    const int sig = ::sigtimedwait(&stop, nullptr, &ts);
    if (sig > 0) return true;
    if (sig < 0 && errno != EAGAIN && errno != EINTR) return true;
  }
}

// The level in step k and the step's end, seconds since the start.
struct step {
  int level;
  double end;
};
step step_at(const settings& s, std::int64_t k) {
  if (s.ml >= 0)
    return {dlb::core::load_in_block(s.seed, s.slave, k, s.ml), dlb::core::block_end(k, s.tl)};
  const double start = static_cast<double>(k / 2) * s.period;
  const bool on = k % 2 == 0;
  return {on && s.duty > 0 ? s.threads : 0, start + (on ? s.duty : 1.0) * s.period};
}

int run(const settings& s, const sigset_t& stop) {
  std::unique_ptr<std::ofstream> out;
  if (!s.out.empty()) {
    out = std::make_unique<std::ofstream>(s.out);
    if (!*out) bad_input("cannot write --out '" + s.out + "'");
    *out << "time_start,time_end,load\n" << std::flush;  // the launcher waits for it: pinned
  }
  spinners threads(s.ml >= 0 ? s.ml : s.threads);
  const auto t0 = std::chrono::steady_clock::now();
  double busy = 0, start = 0;  // core-seconds of load, for the summary line
  double row_start = 0;        // the current row: since when the level has been row_level
  int row_level = -1;
  const auto row = [&](double end) {
    if (out && row_level >= 0 && end > row_start)
      *out << row_start << "," << end << "," << row_level << "\n" << std::flush;
  };
  for (std::int64_t k = 0;; ++k) {
    step st = step_at(s, k);
    if (st.end <= start) continue;  // a duty of 0 or 1: an empty half-period
    if (s.duration > 0) st.end = std::min(st.end, s.duration);
    threads.set_level(st.level);
    const bool signalled = wait_or_signal(stop, t0, st.end);
    const double end = signalled ? since(t0) : st.end;
    busy += st.level * (end - start);
    if (st.level != row_level) {  // one row per level, not per step
      row(start);
      row_start = start;
      row_level = st.level;
    }
    start = end;
    if (signalled || (s.duration > 0 && end >= s.duration)) break;
  }
  row(start);
  threads.set_level(0);
  std::cerr << "dlb_loadgen: core " << s.core << ", " << start << " s, mean load "
            << (start > 0 ? busy / start : 0.0) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const settings s = parse(argc, argv);
  // Dies with the process that started it; if that one is gone already, do not start.
  const pid_t parent = ::getppid();
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != parent) return 0;
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGHUP);
  ::pthread_sigmask(SIG_BLOCK, &stop, nullptr);  // before any thread: all inherit it
  pin_to(s.core);
  return run(s, stop);
}
