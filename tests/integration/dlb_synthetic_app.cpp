// dlb_synthetic_app: a synthetic loop for the DLB runtime's integration tests.
//
// Iteration i reads in[i] (a distributed input that moves with its iteration) and w[i % 16] (a
// replicated input) and writes out[i] = 2 in[i] + w[i % 16] + i (a distributed output gathered
// at the end). Its work is uniform (work-ms base milliseconds) or triangular (2 work-ms (I-i)/I,
// the same mean; under the native clock the body spins for it). The master checks every out[i]
// against a sequential computation and that the statistics add up, then prints the statistics.
// --style figure runs the loop exactly as the paper's Figure 1.4; --style parallel_for through
// dlb::parallel_for. --deadlock-slave N makes slave N wait, before its loop, for a message that
// never comes (the deadlock tests: the simulator must report it, PVM must time out).
#include <signal.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <thread>
#include <vector>

#include "dlb/dlb.hpp"
#include "pvm/session.hpp"

namespace {

std::vector<dlb::option_spec> app_options() {
  return {
      {"iterations", "400", "I, iterations of the loop"},
      {"shape", "uniform", "uniform or triangular work per iteration"},
      {"work-ms", "50", "mean base milliseconds of work per iteration"},
      {"style", "figure", "figure (Figure 1.4 written out) or parallel_for"},
      {"body-sleep-ms", "0", "real milliseconds each iteration's body sleeps (long iterations)"},
      {"distribution", "block", "distribution of the arrays in and out: block or cyclic"},
      {"kill-self", "0", "this slave SIGKILLs itself (failure tests); 0: none"},
      {"kill-after", "5", "... after this many iterations"},
      {"deadlock-slave", "0", "this slave waits for a message that never comes; 0: none"},
      {"setup-ms", "0", "real milliseconds the master spends before the loop (its set-up)"},
  };
}

void validate(const dlb::options& o) {
  o.integer("iterations", 0, 100'000'000);
  if (o.str("shape") != "uniform" && o.str("shape") != "triangular") {
    throw dlb::usage_error("option --shape must be uniform or triangular, got '" + o.str("shape") +
                           "'");
  }
  o.real("work-ms", 0, 1e9);
  if (o.str("style") != "figure" && o.str("style") != "parallel_for") {
    throw dlb::usage_error("option --style must be figure or parallel_for, got '" + o.str("style") +
                           "'");
  }
  o.real("body-sleep-ms", 0, 1e6);
  if (o.str("distribution") != "block" && o.str("distribution") != "cyclic") {
    throw dlb::usage_error("option --distribution must be block or cyclic, got '" +
                           o.str("distribution") + "'");
  }
  o.integer("kill-self", 0, 64);
  o.integer("kill-after", 0, 100'000'000);
  o.integer("deadlock-slave", 0, 4096);
}

double expected(const std::vector<double>& in, const std::vector<double>& w, std::int64_t i) {
  return 2 * in[static_cast<std::size_t>(i)] + w[static_cast<std::size_t>(i % 16)] +
         static_cast<double>(i);
}

int body(dlb::runtime& rt) {
  const auto& o = rt.opts();
  const std::int64_t I = o.integer("iterations", 0, 100'000'000);
  const bool triangular = o.str("shape") == "triangular";
  const double work_s = o.real("work-ms", 0, 1e9) * 1e-3;
  const double sleep_ms = o.real("body-sleep-ms", 0, 1e6);
  const int kill_self = static_cast<int>(o.integer("kill-self", 0, 64));
  const std::int64_t kill_after = o.integer("kill-after", 0, 100'000'000);
  if (o.integer("deadlock-slave", 0, 4096) == rt.rank() && !rt.master())
    rt.net().wait(dlb::with_tag(dlb::tag::release), "a message that never comes");
  // The master's set-up before the loop, in real time (the application's own, outside the
  // runtime's accounting): neither emulated time nor lag.
  if (rt.master())
    std::this_thread::sleep_for(
        std::chrono::duration<double, std::milli>(o.real("setup-ms", 0, 1e6)));

  std::vector<double> in(static_cast<std::size_t>(I)), out(static_cast<std::size_t>(I), 0.0), w(16);
  if (rt.master()) {
    for (std::int64_t i = 0; i < I; ++i)
      in[static_cast<std::size_t>(i)] = 0.5 * static_cast<double>(i) - 3.0;
    for (int j = 0; j < 16; ++j) w[static_cast<std::size_t>(j)] = 100.0 * j;
  }
  const auto dist = o.str("distribution") == "cyclic" ? dlb::data_distribution::cyclic
                                                      : dlb::data_distribution::block;
  auto a_in = dlb::DLB_array::of("in", in.data(), I, 1, dist);
  auto a_out = dlb::DLB_array::of("out", out.data(), I, 1, dist);
  a_out.input = false;
  a_out.output = true;
  auto a_w = dlb::DLB_array::of("w", w.data(), 16, 1, dlb::data_distribution::whole);
  dlb::loop_spec loop;
  loop.iterations = I;
  loop.work = [=](std::int64_t i) {
    return triangular ? 2.0 * work_s * static_cast<double>(I - i) / static_cast<double>(I) : work_s;
  };
  std::int64_t executed = 0;
  const bool native = !rt.params().emulated;
  auto body_of = [&](std::int64_t i) {
    out[static_cast<std::size_t>(i)] = expected(in, w, i);
    if (native) {
      // Under the native clock the work is real: spin for the iteration's base time.
      const auto until =
          std::chrono::steady_clock::now() + std::chrono::duration<double>(loop.work(i));
      while (std::chrono::steady_clock::now() < until) {
      }
    }
    if (sleep_ms > 0)
      std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(sleep_ms));
    if (kill_self == rt.rank() && ++executed > kill_after) raise(SIGKILL);
  };

  const auto t0 = std::chrono::steady_clock::now();
  dlb::run_stats st;
  if (o.str("style") == "parallel_for") {
    st = dlb::parallel_for(rt, loop, {&a_out, &a_in, &a_w}, body_of);
  } else {
    // Figure 1.4, as printed (modulo C++ syntax).
    dlb::context DLB(rt);
    const int P = rt.slaves(), K = rt.params().group;
    DLB_init(DLB, P, K, loop, {&a_out, &a_in, &a_w});
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
    st = DLB.stats();
  }
  if (!rt.master()) return 0;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // Results against the sequential computation.
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < I; ++i) {
    if (out[static_cast<std::size_t>(i)] != expected(in, w, i)) ++wrong;
  }
  // Statistics that must add up.
  std::int64_t done = 0, sent = 0, received = 0;
  bool spans_ok = true;
  for (const auto& s : st.slaves) {
    done += s.iterations_done;
    sent += s.iterations_sent;
    received += s.iterations_received;
    if (s.busy + s.sync > s.finish - s.start + 1e-9 || s.busy < 0 || s.sync < 0 || s.idle < 0)
      spans_ok = false;
  }
  const bool stats_ok = done == I && sent == received && sent == st.iterations_moved && spans_ok;
  for (std::size_t s = 0; s < st.slaves.size(); ++s) {
    const auto& x = st.slaves[s];
    std::printf(
        "SLAVE s=%zu group=%d done=%lld sent=%lld received=%lld syncs=%lld busy=%.6f sync=%.6f "
        "idle=%.6f start=%.6f finish=%.6f lag=%.6f\n",
        s + 1, x.group, static_cast<long long>(x.iterations_done),
        static_cast<long long>(x.iterations_sent), static_cast<long long>(x.iterations_received),
        static_cast<long long>(x.syncs), x.busy, x.sync, x.idle, x.start, x.finish, x.lag);
  }
  std::printf("Verification = %s\n", wrong == 0 && stats_ok ? "SUCCESSFUL" : "FAILED");
  std::printf(
      "RESULT app=synthetic strategy=%s P=%d K=%d iterations=%lld wrong=%lld stats_ok=%d "
      "total_s=%.6f syncs=%lld "
      "redistributions=%lld iterations_moved=%lld bytes_moved=%llu lag_s=%.6f wall_s=%.3f "
      "chosen=%s predicted_best=%s\n",
      dlb::core::to_string(rt.params().policy).c_str(), st.procs, st.group_size,
      static_cast<long long>(I), static_cast<long long>(wrong), stats_ok ? 1 : 0, st.total_time(),
      static_cast<long long>(st.syncs), static_cast<long long>(st.redistributions),
      static_cast<long long>(st.iterations_moved), static_cast<unsigned long long>(st.bytes_moved),
      st.lag, wall, std::string(dlb::core::to_string(st.chosen)).c_str(),
      st.prediction.valid ? std::string(dlb::core::to_string(st.prediction.best)).c_str() : "-");
  // Self-scheduling: the chunk sizes the master handed out, in order.
  if (!st.chunks.empty()) {
    std::string list;
    for (const std::int64_t c : st.chunks) list += (list.empty() ? "" : ",") + std::to_string(c);
    std::printf("CHUNKS n=%zu sizes=%s\n", st.chunks.size(), list.c_str());
  }
  // Both predictions (issue 10 item 5): the best under each assumption about the load, and the
  // predicted total time of the strategy that ran (AUTO: the one it chose), to set beside
  // total_s.
  auto best_of = [&](dlb::core::model_load m) {
    const auto& p = st.prediction_with(m);
    return p.valid ? std::string(dlb::core::to_string(p.best)) : std::string("-");
  };
  auto own_time = [&](dlb::core::model_load m) {
    const auto& p = st.prediction_with(m);
    const auto ran = st.strategy == dlb::core::strategy::automatic ? st.chosen : st.strategy;
    for (std::size_t k = 0; k < 4; ++k)
      if (p.valid && dlb::core::balancing_strategies[k] == ran) return p.total_time[k];
    return -1.0;
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
  return wrong == 0 && stats_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  pvm::tune_malloc_for_messages();  // a program's choice, not the library's (pvm/session.hpp)
  dlb::app_spec spec{"dlb_synthetic_app",
                     "A synthetic DLB loop for the runtime's integration tests.", app_options(),
                     validate};
  return dlb::run_app(argc, argv, spec, body);
}
