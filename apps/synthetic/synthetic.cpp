// synthetic: the synthetic loop, for the DLB runtime's tests and the studies of scale and uneven
// work.
//
// Iteration i reads in[i] (a distributed input that moves with its iteration) and w[i % 16] (a
// replicated input) and writes out[i] = 2 in[i] + w[i % 16] + i (a distributed output gathered
// at the end). Its work per iteration has the mean work-ms base milliseconds and a shape: uniform,
// triangular (2 work-ms (I-i)/I: decreasing), linear (2 work-ms (i+1)/(I+1): increasing) or heavy
// (seeded by --shape-seed, heavy-tailed: a Pareto draw of index 1.1 capped at 50 times its
// minimum, so iterations differ up to 50x, scaled to the mean). Under the native clock the body
// spins for it (on the wall clock, or with --work-clock cpu on its thread's CPU clock). The master
// checks every out[i]
// against a sequential computation and that the statistics add up, then prints the statistics.
// --style figure runs the loop exactly as the paper's Figure 1.4; --style parallel_for through
// dlb::parallel_for. --deadlock-slave N makes slave N wait, before its loop, for a message that
// never comes (the deadlock tests: the simulator must report it, PVM must time out).
#include <signal.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "app_common.hpp"
#include "dlb/core/load.hpp"
#include "dlb/dlb.hpp"
#include "dlb/runtime/messenger.hpp"  // --deadlock-slave: a wait the runtime never satisfies
#include "dlb/runtime/runtime_internals.hpp"
#include "pvm/session.hpp"

namespace {

std::vector<dlb::option_spec> app_options() {
  return {
      {"iterations", "400", "I, iterations of the loop"},
      {"shape", "uniform", "work per iteration: uniform, triangular, linear or heavy"},
      {"shape-seed", "1", "seed of the heavy shape's iteration costs"},
      {"work-ms", "50", "mean base milliseconds of work per iteration"},
      {"style", "figure", "figure (Figure 1.4 written out) or parallel_for"},
      {"body-sleep-ms", "0", "real milliseconds each iteration's body sleeps (long iterations)"},
      {"work-clock", "wall",
       "native clock: an iteration spins until its base time has passed on the wall clock (wall), "
       "or on its thread's CPU clock (cpu: a process competing for the core slows it, as it "
       "slows MXM, TRFD and AC; the native study)"},
      {"distribution", "block", "distribution of the arrays in and out: block or cyclic"},
      {"kill-self", "0", "this slave SIGKILLs itself (failure tests); 0: none"},
      {"kill-after", "5", "... after this many iterations"},
      {"deadlock-slave", "0", "this slave waits for a message that never comes; 0: none"},
      {"setup-ms", "0", "real milliseconds the master spends before the loop (its set-up)"},
      {"report-arrays", "0",
       "1: after the loop every task prints ARRAYS rank=R bytes=B, the bytes of its arrays in "
       "resident pages (the memory tests; one process under --backend sim)"},
  };
}

void validate(const dlb::options& o) {
  o.integer("iterations", 1, 100'000'000);
  const std::string& shape = o.str("shape");
  if (shape != "uniform" && shape != "triangular" && shape != "linear" && shape != "heavy") {
    throw dlb::usage_error("option --shape must be uniform, triangular, linear or heavy, got '" +
                           shape + "'");
  }
  o.integer("shape-seed", 0, INT64_MAX);
  o.real("work-ms", 0, 1e9);
  if (o.str("style") != "figure" && o.str("style") != "parallel_for") {
    throw dlb::usage_error("option --style must be figure or parallel_for, got '" + o.str("style") +
                           "'");
  }
  o.real("body-sleep-ms", 0, 1e6);
  if (o.str("work-clock") != "wall" && o.str("work-clock") != "cpu") {
    throw dlb::usage_error("option --work-clock must be wall or cpu, got '" + o.str("work-clock") +
                           "'");
  }
  if (o.str("distribution") != "block" && o.str("distribution") != "cyclic") {
    throw dlb::usage_error("option --distribution must be block or cyclic, got '" +
                           o.str("distribution") + "'");
  }
  o.integer("kill-self", 0, 64);
  o.integer("kill-after", 0, 100'000'000);
  o.integer("deadlock-slave", 0, 4096);
  o.integer("report-arrays", 0, 1);
}

// The calling thread's CPU seconds (user and system).
double thread_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Under the native clock: spins for `seconds` of the wall clock, or with `cpu` of this thread's
// CPU time (a competitor for the core then stretches it, as it stretches real arithmetic).
void spin_for(double seconds, bool cpu) {
  if (cpu) {
    const double until = thread_cpu_seconds() + seconds;
    while (thread_cpu_seconds() < until) {
    }
    return;
  }
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
  }
}

// Base seconds of work of iteration i, of mean `work_s` over the loop: computed on demand, so
// that no task holds I of them (every task calls the work function, docs/design/clocks.md). The heavy
// shape's scale is one sum over the loop, made once.
class iteration_costs {
 public:
  iteration_costs(const std::string& shape, std::int64_t I, double work_s, std::uint64_t seed)
      : shape_(shape == "triangular" ? 1
               : shape == "linear"   ? 2
               : shape == "heavy"    ? 3
                                     : 0),
        n_(static_cast<double>(I)),
        work_s_(work_s),
        seed_(seed) {
    if (shape_ != 3) return;
    double sum = 0.0;
    for (std::int64_t i = 0; i < I; ++i) sum += heavy_draw(i);
    if (sum > 0) factor_ = work_s * n_ / sum;
  }
  double operator()(std::int64_t i) const {
    const auto x = static_cast<double>(i);
    switch (shape_) {
      case 1:
        return 2.0 * work_s_ * (n_ - x) / n_;
      case 2:
        return 2.0 * work_s_ * (x + 1) / (n_ + 1);
      case 3:
        return factor_ > 0 ? heavy_draw(i) * factor_ : heavy_draw(i);
      default:
        return work_s_;
    }
  }

 private:
  // u in (0, 1] from a counter-based hash of (seed, i); Pareto(1.1) = u^(-1/1.1), capped.
  double heavy_draw(std::int64_t i) const {
    const std::uint64_t h =
        dlb::core::splitmix64(dlb::core::splitmix64(seed_) ^ static_cast<std::uint64_t>(i));
    const double u = (static_cast<double>(h >> 11) + 1.0) / 9007199254740992.0;
    return std::min(50.0, std::pow(u, -1.0 / 1.1));
  }
  int shape_;
  double n_, work_s_;
  std::uint64_t seed_;
  double factor_ = 0.0;
};

// The master's input array: in[i] = i/2 - 3.
std::vector<double> initial_input(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = 0.5 * static_cast<double>(i) - 3.0;
  return v;
}

template <class In>
double expected(const In& in, const std::vector<double>& w, std::int64_t i) {
  return 2 * in[static_cast<std::size_t>(i)] + w[static_cast<std::size_t>(i % 16)] +
         static_cast<double>(i);
}

// --on-loss recover: the RESULT line's last keys (which slaves were lost and when, the
// iterations the survivors recomputed, the recovery's time).
std::string loss_keys(const dlb::run_stats& st) {
  if (!st.recover) return "";
  std::string lost;
  for (const auto& l : st.lost) {
    char at[64];
    std::snprintf(at, sizeof at, "%zu@%.6f", l.slave + 1, l.time);
    lost += (lost.empty() ? "" : "/") + std::string(at);
  }
  char keys[256];
  std::snprintf(keys, sizeof keys, " lost_slaves=%zu lost=%s recovered_iters=%lld recovery_s=%.6f",
                st.lost.size(), lost.empty() ? "-" : lost.c_str(),
                static_cast<long long>(st.recovered_iterations), st.recovery_time);
  return keys;
}

// The statistics add up: every iteration done once, the moves counted on both sides, each
// slave's busy and sync time within its span.
bool stats_add_up(const dlb::run_stats& st, std::int64_t I) {
  std::int64_t done = 0, sent = 0, received = 0;
  bool spans_ok = true;
  for (const auto& s : st.slaves) {
    done += s.iterations_done;
    sent += s.iterations_sent;
    received += s.iterations_received;
    if (s.busy + s.sync > s.finish - s.start + 1e-9 || s.busy < 0 || s.sync < 0 || s.idle < 0)
      spans_ok = false;
  }
  // A lost slave's statistics are what it handed in before it was lost (nothing, mostly): work
  // shipped to it or by it is then on one side of the count only.
  const bool moves_ok = !st.lost.empty() || (sent == received && sent == st.iterations_moved);
  return done == I && moves_ok && spans_ok;
}

// One SLAVE line per slave: its statistics.
void print_slaves(const dlb::run_stats& st) {
  for (std::size_t s = 0; s < st.slaves.size(); ++s) {
    const auto& x = st.slaves[s];
    std::printf(
        "SLAVE s=%zu group=%d done=%lld sent=%lld received=%lld syncs=%lld busy=%.6f sync=%.6f "
        "idle=%.6f start=%.6f finish=%.6f lag=%.6f\n",
        s + 1, x.group, static_cast<long long>(x.iterations_done),
        static_cast<long long>(x.iterations_sent), static_cast<long long>(x.iterations_received),
        static_cast<long long>(x.syncs), x.busy, x.sync, x.idle, x.start, x.finish, x.lag);
  }
}

// Both predictions: the best under each assumption about the load, and the predicted total time
// of the strategy that ran (AUTO: the one it chose), to set beside total_s.
void print_prediction(const dlb::runtime& rt, const dlb::run_stats& st) {
  auto best_of = [&](dlb::core::model_load m) {
    const auto& p = st.prediction_with(m);
    return p.valid ? std::string(dlb::core::to_string(p.best)) : std::string("-");
  };
  auto own_time = [&](dlb::core::model_load m) {
    const auto& p = st.prediction_with(m);
    const auto ran = st.policy.is_customized() ? st.chosen : st.policy;
    const auto row = ran ? ran->row() : std::nullopt;
    return p.valid && row ? p.total_time[dlb::core::index_of(*row)] : -1.0;
  };
  const auto& est = st.prediction_with(dlb::core::model_load::estimated);
  std::printf(
      "PREDICTION model_load=%s predicted_best_run=%s predicted_best_estimated=%s est_ml=%d "
      "est_tl=%.6g predicted_run_s=%.6f predicted_estimated_s=%.6f\n",
      std::string(dlb::core::to_string(rt.params().model_load)).c_str(),
      best_of(dlb::core::model_load::run).c_str(),
      best_of(dlb::core::model_load::estimated).c_str(), est.valid ? est.max_load : -1,
      est.persistence, own_time(dlb::core::model_load::run),
      own_time(dlb::core::model_load::estimated));
}

// AUTO-ALL's fields (dlb::auto_all_fields), " key=value" each; empty for another strategy.
std::string auto_all_keys(const dlb::run_stats& st) {
  std::string out;
  for (const auto& [k, v] : dlb::auto_all_fields(st)) out += " " + k + "=" + v;
  return out;
}

// The RESULT line: the run's identity, its verification and its statistics.
void print_result(const dlb::runtime& rt, const dlb::run_stats& st, std::int64_t I,
                  std::int64_t wrong, bool stats_ok, double wall) {
  std::printf(
      "RESULT app=synthetic strategy=%s P=%d K=%d iterations=%lld wrong=%lld stats_ok=%d "
      "total_s=%.6f syncs=%lld "
      "redistributions=%lld iterations_moved=%lld bytes_moved=%llu lag_s=%.6f wall_s=%.3f "
      "verified=%d oracle_s=%.6f comm_bound_s=%.6f max_rss_mb=%.1f chosen=%s predicted_best=%s "
      "choices=%s%s\n",
      dlb::core::to_string(rt.params().policy).c_str(), st.procs,
      apps::common::requested_group(rt),  // K as asked for, as the applications echo it
      static_cast<long long>(I), static_cast<long long>(wrong), stats_ok ? 1 : 0, st.total_time(),
      static_cast<long long>(st.syncs), static_cast<long long>(st.redistributions),
      static_cast<long long>(st.iterations_moved), static_cast<unsigned long long>(st.bytes_moved),
      st.lag, wall, wrong == 0 && stats_ok ? 1 : 0, st.oracle_time, st.comm_bound_time,
      apps::common::peak_rss_mb(),
      st.committed.empty() ? dlb::core::to_string(st.chosen).c_str() : st.committed.c_str(),
      st.prediction.valid ? std::string(dlb::core::to_string(st.prediction.best)).c_str() : "-",
      dlb::choice_sequence(st).c_str(), (loss_keys(st) + auto_all_keys(st)).c_str());
}

// Figure 1.4, as printed (modulo C++ syntax).
template <class Body>
dlb::run_stats figure_loop(dlb::runtime& rt, const dlb::loop_spec& loop,
                           std::initializer_list<dlb::DLB_array*> arrays, Body& body_of) {
  dlb::context DLB(rt);
  const int P = rt.slaves(), K = rt.params().group;
  DLB_init(DLB, P, K, loop, arrays);
  DLB_scatter_data(DLB);
  if (DLB.master())
    DLB_master_sync(DLB);
  else
    while (DLB.more_work()) {
      for (std::int64_t i = DLB.start(); i < DLB.end() && DLB.more_work(); i++) {
        body_of(i);
        if (DLB_slave_sync(DLB) && DLB.interrupt()) DLB_profile_send_move_work(DLB);
      }
      if (DLB.more_work()) DLB_send_interrupt(DLB);
      DLB_profile_send_move_work(DLB);
    }
  DLB_gather_data(DLB);
  return DLB.stats();
}

// What a test asks of a task before the loop: a slave that waits for a message that never
// comes (--deadlock-slave), the master's set-up in real time (--setup-ms: the application's own,
// outside the runtime's accounting, so neither emulated time nor lag).
void before_loop(dlb::runtime& rt) {
  const auto& o = rt.opts();
  if (o.integer("deadlock-slave", 0, 4096) == rt.rank() && !rt.master())
    dlb::detail::net(rt).wait(dlb::with_tag(dlb::tag::release), "a message that never comes");
  if (rt.master())
    std::this_thread::sleep_for(
        std::chrono::duration<double, std::milli>(o.real("setup-ms", 0, 1e6)));
}

// The master's report: the results against the sequential computation, each slave's line, the
// RESULT line, the chunks handed out and the prediction.
template <class In, class Out>
int report(dlb::runtime& rt, const dlb::run_stats& st, std::int64_t I, const In& in,
           const std::vector<double>& w, const Out& out, double wall) {
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < I; ++i) {
    if (out[static_cast<std::size_t>(i)] != expected(in, w, i)) ++wrong;
  }
  const bool stats_ok = stats_add_up(st, I);
  print_slaves(st);
  std::printf("Verification = %s\n", wrong == 0 && stats_ok ? "SUCCESSFUL" : "FAILED");
  print_result(rt, st, I, wrong, stats_ok, wall);
  // Self-scheduling: the chunk sizes the master handed out, in order.
  if (!st.chunks.empty()) {
    std::string list;
    for (const std::int64_t c : st.chunks) list += (list.empty() ? "" : ",") + std::to_string(c);
    std::printf("CHUNKS n=%zu sizes=%s\n", st.chunks.size(), list.c_str());
  }
  print_prediction(rt, st);
  return wrong == 0 && stats_ok ? 0 : 1;
}

int body(dlb::runtime& rt) {
  const auto& o = rt.opts();
  const std::int64_t I = o.integer("iterations", 1, 100'000'000);
  const iteration_costs costs(o.str("shape"), I, o.real("work-ms", 0, 1e9) * 1e-3,
                              static_cast<std::uint64_t>(o.integer("shape-seed", 0, INT64_MAX)));
  const double sleep_ms = o.real("body-sleep-ms", 0, 1e6);
  const bool cpu_work = o.str("work-clock") == "cpu";
  const int kill_self = static_cast<int>(o.integer("kill-self", 0, 64));
  const std::int64_t kill_after = o.integer("kill-after", 0, 100'000'000);
  before_loop(rt);

  // Full-size arrays indexed globally, as generated; a slave's pages are resident only where it
  // holds slices (apps::common::task_array).
  const auto n = static_cast<std::size_t>(I);
  auto in = apps::common::master_or_zeros(rt.master(), n, [n] { return initial_input(n); });
  auto out = apps::common::master_or_zeros(rt.master(), n, [n] { return std::vector<double>(n); });
  std::vector<double> w(16);
  if (rt.master())
    for (int j = 0; j < 16; ++j) w[static_cast<std::size_t>(j)] = 100.0 * j;
  const auto dist = o.str("distribution") == "cyclic" ? dlb::data_distribution::cyclic
                                                      : dlb::data_distribution::block;
  auto a_in = dlb::DLB_array::of("in", in.data(), I, 1, dist);
  auto a_out = dlb::DLB_array::of("out", out.data(), I, 1, dist);
  a_out.input = false;
  a_out.output = true;
  auto a_w = dlb::DLB_array::of("w", w.data(), 16, 1, dlb::data_distribution::whole);
  dlb::loop_spec loop;
  loop.iterations = I;
  loop.work = [&costs](std::int64_t i) { return costs(i); };
  std::int64_t executed = 0;
  const bool native = !rt.params().emulated;
  auto body_of = [&](std::int64_t i) {
    out[static_cast<std::size_t>(i)] = expected(in, w, i);
    if (native) spin_for(loop.work(i), cpu_work);  // the work is real
    if (sleep_ms > 0)
      std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(sleep_ms));
    if (kill_self == rt.rank() && ++executed > kill_after) raise(SIGKILL);
  };

  const auto t0 = std::chrono::steady_clock::now();
  const dlb::run_stats st = o.str("style") == "parallel_for"
                                ? dlb::parallel_for(rt, loop, {&a_out, &a_in, &a_w}, body_of)
                                : figure_loop(rt, loop, {&a_out, &a_in, &a_w}, body_of);
  if (o.integer("report-arrays", 0, 1) == 1)
    std::printf("ARRAYS rank=%d bytes=%zu\n", rt.rank(),
                in.resident_bytes() + out.resident_bytes() + w.size() * sizeof(double));
  if (!rt.master()) return 0;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report(rt, st, I, in, w, out, wall);
}

}  // namespace

int main(int argc, char** argv) {
  pvm::tune_malloc_for_messages();  // a program's choice, not the library's (pvm/session.hpp)
  dlb::app_spec spec{"synthetic", "A synthetic DLB loop for the runtime's integration tests.",
                     app_options(), validate};
  return dlb::run_app(argc, argv, spec, body);
}
