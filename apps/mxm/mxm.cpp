// mxm: the paper's matrix multiplication Z = X Y (section 1.5.2) as a DLB program, written the
// way the paper's compiler generated it (Figure 1.4, "TRANSFORMED CODE").
//
// The master generates X (n x r) and Y (r x m), scatters the rows of X by blocks and Y whole,
// serves the synchronizations of the centralized strategies, gathers the rows of Z and checks
// Z against the sequential reference. Iteration i computes row i of Z; moving it moves row i of
// X (D = r doubles). Its work, r*m multiply-adds, is given to the runtime in base seconds
// (ops * t_op), which the emulated clock stretches by the external load.
#include "apps/mxm.hpp"

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
// paper's measured times (experiments/regime/calibration.md); 2.88e-6 at the old regime (tl = 5 s).
constexpr const char* kCalibratedTOp = "3.61e-6";

// Any one array may hold at most this many doubles (256 MB): every task keeps full-size arrays.
constexpr std::int64_t kMaxArrayDoubles = std::int64_t{1} << 25;

std::vector<dlb::option_spec> app_options() {
  return {
      {"n", "400", "rows of X and Z: the iterations of the parallel loop"},
      {"r", "400", "columns of X, rows of Y (data moved per iteration: r doubles)"},
      {"m", "400", "columns of Y and Z"},
      apps::common::t_op_option(kCalibratedTOp),
      apps::common::t_op_factor_option(),
  };
}

apps::mxm::problem problem_of(const dlb::options& o) {
  apps::mxm::problem p;
  p.n = static_cast<std::size_t>(o.integer("n", 1, 1'000'000));
  p.r = static_cast<std::size_t>(o.integer("r", 1, 1'000'000));
  p.m = static_cast<std::size_t>(o.integer("m", 1, 1'000'000));
  // The input data follow the load seed, so repetitions also vary the data.
  p.seed = static_cast<std::uint64_t>(o.integer("seed", 0, INT64_MAX));
  return p;
}

void validate(const dlb::options& o) {
  const auto p = problem_of(o);
  apps::common::validate_t_op(o);
  const std::pair<const char*, std::size_t> arrays[] = {
      {"X = n x r", p.n * p.r}, {"Y = r x m", p.r * p.m}, {"Z = n x m", p.n * p.m}};
  for (const auto& [what, doubles] : arrays) {
    if (static_cast<std::int64_t>(doubles) > kMaxArrayDoubles) {
      throw dlb::usage_error("options --n/--r/--m: array " + std::string(what) + " would hold " +
                             std::to_string(doubles) + " doubles, more than " +
                             std::to_string(kMaxArrayDoubles));
    }
  }
}

// The master's report: Z against the sequential i-j-k loop (or its cached reference), the RESULT
// line.
int report(dlb::runtime& rt, const apps::mxm::problem& p, const std::vector<double>& Z,
           const dlb::run_stats& st, std::chrono::steady_clock::time_point started) {
  const std::string size =
      "n=" + std::to_string(p.n) + ",r=" + std::to_string(p.r) + ",m=" + std::to_string(p.m);
  const auto checked = apps::common::verify_cached(
      apps::common::reference_cache_dir(),
      "mxm-n" + std::to_string(p.n) + "-r" + std::to_string(p.r) + "-m" + std::to_string(p.m) +
          "-seed" + std::to_string(p.seed) + "-Z",
      Z, [](const std::vector<double>& a) { return a; }, [&p] { return apps::mxm::reference(p); },
      [&](const std::vector<double>& ref) { return apps::mxm::verify(p, Z, ref); });
  return apps::common::report_single_loop(rt, "mxm", size, st,
                                          "Z against the sequential i-j-k loop", checked.v, started,
                                          checked.source());
}

int body(dlb::runtime& rt, std::chrono::steady_clock::time_point started) {
  const auto p = problem_of(rt.opts());
  const double t_op = apps::common::t_op(rt.opts());
  const std::size_t n = p.n, r = p.r, m = p.m;

  // Full-size arrays on every task, indexed globally as in the generated code; a slave fills
  // only the rows it is given or computes (apps::common::task_array: its other pages untouched).
  const bool master = rt.master();
  auto Z = apps::common::master_or_zeros(master, n * m, [&] { return std::vector<double>(n * m); });
  auto X = apps::common::master_or_zeros(master, n * r, [&] { return apps::mxm::make_x(p); });
  auto Y = apps::common::master_or_zeros(master, r * m, [&] { return apps::mxm::make_y(p); });

  // The compiler's DLB_array descriptions: Z and X by row blocks, Y replicated. Z is only
  // produced (gathered, never scattered); X is the data D that moves with an iteration.
  auto DLB_arrayZ = dlb::DLB_array::of("Z", Z.data(), static_cast<std::int64_t>(n),
                                       static_cast<std::int64_t>(m), dlb::data_distribution::block);
  DLB_arrayZ.input = false;
  DLB_arrayZ.output = true;
  auto DLB_arrayX = dlb::DLB_array::of("X", X.data(), static_cast<std::int64_t>(n),
                                       static_cast<std::int64_t>(r), dlb::data_distribution::block);
  auto DLB_arrayY = dlb::DLB_array::of("Y", Y.data(), static_cast<std::int64_t>(r),
                                       static_cast<std::int64_t>(m), dlb::data_distribution::whole);
  dlb::loop_spec loop;
  loop.iterations = static_cast<std::int64_t>(apps::mxm::iterations(p));
  loop.work = [p, t_op](std::int64_t i) {
    return static_cast<double>(apps::mxm::ops(p, static_cast<std::size_t>(i))) * t_op;
  };

  // Figure 1.4, as printed (modulo C++ syntax).
  dlb::context DLB(rt);
  const int P = rt.slaves(), K = rt.params().group;
  DLB_init(DLB, P, K, loop, {&DLB_arrayZ, &DLB_arrayX, &DLB_arrayY});
  DLB_scatter_data(DLB);
  if (DLB.master())
    DLB_master_sync(DLB);
  else
    while (DLB.more_work()) {
      for (std::int64_t i = DLB.start(); i < DLB.end() && DLB.more_work(); i++) {
        const auto row = static_cast<std::size_t>(i);
        apps::mxm::compute_row(&X[row * r], Y.data(), &Z[row * m], r, m);
        if (DLB_slave_sync(DLB) && DLB.interrupt()) DLB_profile_send_move_work(DLB);
      }
      if (DLB.more_work()) DLB_send_interrupt(DLB);
      DLB_profile_send_move_work(DLB);
    }
  DLB_gather_data(DLB);
  if (!rt.master()) return 0;
  return report(rt, p, Z.values(), DLB.stats(), started);
}

}  // namespace

int main(int argc, char** argv) {
  pvm::tune_malloc_for_messages();  // a program's choice, not the library's (pvm/session.hpp)
  const auto started = std::chrono::steady_clock::now();
  dlb::app_spec spec{"mxm",
                     "MXM, the paper's matrix multiplication Z = X Y, load balanced over P "
                     "slaves (Figure 1.4).",
                     app_options(), validate};
  return dlb::run_app(argc, argv, spec, [started](dlb::runtime& rt) { return body(rt, started); });
}
