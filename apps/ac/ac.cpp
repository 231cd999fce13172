// ac: the paper's adjoint convolution (section 1.5.4) as a DLB program, written the way the
// paper's compiler generated it (Figure 1.4).
//
// A[i] = sum_{j>=i} X * B[j] * C[j-i] over vectors of L = n^2 elements: a triangular loop made
// uniform by bitonic scheduling, ceil(L/2) iterations, iteration k computing A[k] and A[L-1-k].
// All arrays are replicated (WHOLE): B and C are scattered to every slave, and nothing moves
// with an iteration (D = 0); A is written by each slave only at the iterations it executes, and
// gathered back from exactly those. Each iteration's work (L + 1 terms) is given to the runtime
// in base seconds (ops * t_op).
#include "apps/ac.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "app_common.hpp"
#include "dlb/dlb.hpp"
#include "pvm/session.hpp"
#include "reference_cache.hpp"

namespace {

// Calibrated at the load regime of paper.conf (10 load changes per slave's block) against the
// paper's measured times (experiments/regime/calibration.md); 1.36e-6 at the old regime (tl = 5 s).
constexpr const char* kCalibratedTOp = "1.23e-6";

// L = n^2 elements per vector: n = 2000 gives 4 million (32 MB per vector per task).
constexpr std::int64_t kMaxN = 2000;

std::vector<dlb::option_spec> app_options() {
  return {
      {"n", "100", "the paper's input parameter; vectors have L = n^2 elements"},
      apps::common::t_op_option(kCalibratedTOp),
      apps::common::t_op_factor_option(),
  };
}

apps::ac::problem problem_of(const dlb::options& o) {
  apps::ac::problem p;
  p.n = static_cast<std::size_t>(o.integer("n", 1, kMaxN));
  // The input data follow the load seed, so repetitions also vary the data.
  p.seed = static_cast<std::uint64_t>(o.integer("seed", 0, INT64_MAX));
  return p;
}

void validate(const dlb::options& o) {
  problem_of(o);
  apps::common::validate_t_op(o);
}

int body(dlb::runtime& rt, std::chrono::steady_clock::time_point started) {
  const auto p = problem_of(rt.opts());
  const double t_op = apps::common::t_op(rt.opts());
  const std::size_t L = apps::ac::length(p);
  const auto L64 = static_cast<std::int64_t>(L);
  // The scalar X is a constant of the program (a pure function of the seed), known to all.
  const double X = apps::ac::x_scalar(p);

  const bool master = rt.master();
  auto A = apps::common::master_or_zeros(master, L, [&] { return std::vector<double>(L); });
  auto B = apps::common::master_or_zeros(master, L, [&] { return apps::ac::make_b(p); });
  auto C = apps::common::master_or_zeros(master, L, [&] { return apps::ac::make_c(p); });

  // Everything replicated. A is an output only: the slices (elements) of the iterations each
  // slave executed come back, with the bitonic map naming the two elements of an iteration.
  auto DLB_arrayA = dlb::DLB_array::of("A", A.data(), L64, 1, dlb::data_distribution::whole);
  DLB_arrayA.map = dlb::iteration_map::bitonic;
  DLB_arrayA.input = false;
  DLB_arrayA.output = true;
  auto DLB_arrayB = dlb::DLB_array::of("B", B.data(), L64, 1, dlb::data_distribution::whole);
  auto DLB_arrayC = dlb::DLB_array::of("C", C.data(), L64, 1, dlb::data_distribution::whole);
  dlb::loop_spec loop;
  loop.iterations = static_cast<std::int64_t>(apps::ac::iterations(p));
  loop.work = [p, t_op](std::int64_t k) {
    return static_cast<double>(apps::ac::ops(p, static_cast<std::size_t>(k))) * t_op;
  };

  // Figure 1.4, as printed (modulo C++ syntax).
  dlb::context DLB(rt);
  const int P = rt.slaves(), K = rt.params().group;
  DLB_init(DLB, P, K, loop, {&DLB_arrayA, &DLB_arrayB, &DLB_arrayC});
  DLB_scatter_data(DLB);
  // X * B[j], once per j: B is an input that no iteration changes (the same products as the
  // paper's X * B[j] * C[j-i], apps/ac.hpp).
  const std::vector<double> XB =
      master ? std::vector<double>() : apps::ac::scaled_b(B.data(), X, L);
  if (DLB.master())
    DLB_master_sync(DLB);
  else
    while (DLB.more_work()) {
      for (std::int64_t k = DLB.start(); k < DLB.end() && DLB.more_work(); k++) {
        apps::ac::compute_iteration_scaled(XB.data(), C.data(), L, static_cast<std::size_t>(k),
                                           A.data());
        if (DLB_slave_sync(DLB) && DLB.interrupt()) DLB_profile_send_move_work(DLB);
      }
      if (DLB.more_work()) DLB_send_interrupt(DLB);
      DLB_profile_send_move_work(DLB);
    }
  DLB_gather_data(DLB);
  if (!rt.master()) return 0;

  const auto checked = apps::common::verify_cached(
      apps::common::reference_cache_dir(),
      "ac-n" + std::to_string(p.n) + "-seed" + std::to_string(p.seed) + "-A", A.values(),
      [](const std::vector<double>& a) { return a; }, [&p] { return apps::ac::reference(p); },
      [&](const std::vector<double>& ref) { return apps::ac::verify(p, A.values(), ref); });
  return apps::common::report_single_loop(rt, "ac", "n=" + std::to_string(p.n), DLB.stats(),
                                          "A against the sequential loop", checked.v, started,
                                          checked.source());
}

}  // namespace

int main(int argc, char** argv) {
  pvm::tune_malloc_for_messages();  // a program's choice, not the library's (pvm/session.hpp)
  const auto started = std::chrono::steady_clock::now();
  dlb::app_spec spec{"ac",
                     "AC, the paper's adjoint convolution of two n^2-element vectors, bitonic "
                     "scheduled and load balanced over P slaves (Figure 1.4).",
                     app_options(), validate};
  return dlb::run_app(argc, argv, spec, [started](dlb::runtime& rt) { return body(rt, started); });
}
