// mpi_paths_prog: an MPI program (run by mpi_paths_test.cpp under mpirun) that exercises the
// index-only loop's two paths (dlb::mpi::session_params::path) and the reproducible reduction
// (session::parallel_reduce). Every rank prints "rank R: OK MODE" when all its checks hold, else
// "rank R: FAIL ..." lines; expected errors are printed as "rank R: usage_error: ..." or
// "rank R: run_error: ...".
//
//   mpi_paths_prog paths         every index-only rule on both paths (and automatic): every
//                                iteration exactly once, the statistics, bitwise-equal reductions
//   mpi_paths_prog forced RULE   path one_sided under RULE (a usage_error on every rank for AWF)
//   mpi_paths_prog disagree      rank 1 reduces by max, the others by sum: a usage_error
//   mpi_paths_prog throws        one-sided, rank 1's body throws: an error on every rank, no hang
//   mpi_paths_prog fallback      automatic path (and then one_sided) where windows fail
//                                (run with OMPI_MCA_osc=pt2pt)
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "dlb/mpi.hpp"

namespace {

using dlb::mpi::loop_path;
using dlb::mpi::reduce_op;

int rank_ = 0;
int failures = 0;

void fail(const std::string& what) {
  std::printf("rank %d: FAIL %s\n", rank_, what.c_str());
  ++failures;
}

// Values whose sum depends on the order: 1e16, small ones and -1e16 mixed.
double value(std::int64_t i) {
  switch (i % 4) {
    case 0:
      return 1e16 + static_cast<double>(i);
    case 1:
      return 1.0 + static_cast<double>(i) * 1e-3;
    case 2:
      return -1e16;
    default:
      return std::ldexp(1.0, -static_cast<int>(i % 40)) - 0.5;
  }
}

// The documented rule: blocks of max(1, ceil(n / 1024)) iterations, each folded in order from the
// identity, the blocks folded in order.
double blocked(std::int64_t n, double identity, double (*op)(double, double)) {
  const std::int64_t B = n > 1024 ? (n + 1023) / 1024 : 1;
  double result = identity;
  for (std::int64_t b = 0; b * B < n; ++b) {
    double acc = identity;
    for (std::int64_t i = b * B; i < std::min(n, (b + 1) * B); ++i) acc = op(acc, value(i));
    result = op(result, acc);
  }
  return result;
}
double add(double a, double b) { return a + b; }
double lesser(double a, double b) { return b < a ? b : a; }
double greater(double a, double b) { return b > a ? b : a; }
double user_op(double a, double b) { return a * 0.5 + b; }  // not associative: order shows

dlb::loop_spec loop_of(std::int64_t n) {
  dlb::loop_spec l;
  l.iterations = n;
  return l;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

dlb::mpi::session_params params(const std::string& policy, loop_path path) {
  dlb::mpi::session_params p;
  p.policy = dlb::mpi::parse_policy(policy);
  p.path = path;
  p.timeout = std::chrono::seconds(60);
  p.name = "paths";
  p.report = [](dlb::report_kind, const std::string& line) {
    std::printf("rank %d: said: %s\n", rank_, line.c_str());
  };
  return p;
}

// One loop of n iterations: every iteration exactly once across the ranks, the statistics.
void check_loop(dlb::mpi::session& s, std::int64_t n, const std::string& cell) {
  std::vector<int> count(static_cast<std::size_t>(n), 0), all(count.size(), 0);
  const dlb::run_stats st =
      s.parallel_for(loop_of(n), {}, [&](std::int64_t i) { ++count[static_cast<std::size_t>(i)]; });
  MPI_Allreduce(count.data(), all.data(), static_cast<int>(n), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (std::int64_t i = 0; i < n; ++i)
    if (all[static_cast<std::size_t>(i)] != 1) {
      fail(cell + ": iteration " + std::to_string(i) + " ran " +
           std::to_string(all[static_cast<std::size_t>(i)]) + " times");
      break;
    }
  if (s.master()) {
    std::int64_t done = 0, chunked = 0;
    for (const auto& sl : st.slaves) done += sl.iterations_done;
    for (auto c : st.chunks) chunked += c;
    if (done != n) fail(cell + ": the statistics count " + std::to_string(done) + " iterations");
    if (!st.chunks.empty() && chunked != n)
      fail(cell + ": the chunks cover " + std::to_string(chunked));
  }
}

struct reduce_case {
  reduce_op op;
  double (*fn)(double, double);
  double identity;
};
const reduce_case reduce_cases[] = {{reduce_op::sum, add, 0.0},
                                    {reduce_op::min, lesser, INFINITY},
                                    {reduce_op::max, greater, -INFINITY},
                                    {reduce_op::user, user_op, 0.0}};

// Each operation over n iterations (sum and the user's; `all`: min and max too): the bits of the
// sequential blocked reference.
void check_reductions(dlb::mpi::session& s, std::int64_t n, const std::string& cell,
                      bool all = true) {
  for (const reduce_case& c : reduce_cases) {
    if (!all && (c.op == reduce_op::min || c.op == reduce_op::max)) continue;
    dlb::mpi::reduction r;
    r.op = c.op;
    if (c.op == reduce_op::user) {
      r.combine = c.fn;
      r.identity = c.identity;
      r.name = "half-and-add";
    }
    const double got = s.parallel_reduce(loop_of(n), r, value);
    const double want = blocked(n, c.identity, c.fn);
    if (!same_bits(got, want)) {
      char text[160];
      std::snprintf(text, sizeof text, "%s: op %d over %lld: %.17g, the reference %.17g",
                    cell.c_str(), static_cast<int>(c.op), static_cast<long long>(n), got, want);
      fail(text);
    }
  }
}

void mixed_session();

int paths() {
  // The data are order-sensitive: a naive sum in reverse differs from one in order.
  double forward = 0, backward = 0;
  for (std::int64_t i = 0; i < 3000; ++i) forward += value(i), backward += value(2999 - i);
  if (same_bits(forward, backward)) fail("the test's values do not depend on the order");
  const char* rules[] = {"SS",   "CSS:7", "GSS",  "TSS",   "FAC2",
                         "MFSC", "FSC",   "NONE", "GDDLB", "AWF"};
  const std::string one_sided_rules = " SS CSS:7 GSS TSS FAC2 MFSC ";
  for (const char* rule : rules) {
    // automatic is one of the two (one-sided where it can: every rank is on this node); once.
    for (loop_path path : {loop_path::two_sided, loop_path::one_sided, loop_path::automatic}) {
      if (path == loop_path::automatic && std::string(rule) != "FAC2") continue;
      const bool can = one_sided_rules.find(std::string(" ") + rule + " ") != std::string::npos;
      if (path == loop_path::one_sided && !can) continue;
      const std::string cell = std::string(rule) + "/path" + std::to_string(static_cast<int>(path));
      dlb::mpi::session s(MPI_COMM_WORLD, params(rule, path));
      const bool gss = std::string(rule) == "GSS";
      check_loop(s, 997, cell);
      check_reductions(s, 3000, cell, gss);
      if (gss) check_reductions(s, 5, cell + "/short");
      if (gss) check_loop(s, 0, cell + "/empty");
      s.finish();
    }
  }
  mixed_session();
  return 0;
}

// One session, the library's choice: index-only loops one-sided, a loop with an array two-sided
// between them (the runtime's own loops go on where the one-sided ones left them).
void mixed_session() {
  dlb::mpi::session s(MPI_COMM_WORLD, params("GSS", loop_path::automatic));
  check_loop(s, 300, "mixed/first");
  const std::int64_t n = 400;
  std::vector<double> y(n, 0.0);
  auto Y = dlb::DLB_array::of("y", y.data(), n, 1, dlb::data_distribution::block);
  Y.input = false;
  Y.output = true;
  s.parallel_for(loop_of(n), {&Y},
                 [&](std::int64_t i) { y[static_cast<std::size_t>(i)] = 2.0 * i; });
  if (s.master())
    for (std::int64_t i = 0; i < n; ++i)
      if (y[static_cast<std::size_t>(i)] != 2.0 * i) {
        fail("mixed: the array loop's y[" + std::to_string(i) + "]");
        break;
      }
  check_loop(s, 300, "mixed/last");
  check_reductions(s, 3000, "mixed");
  s.finish();
}

template <class F>
void expect_error(F&& f, const std::string& what) {
  try {
    f();
    fail(what + ": no error");
  } catch (const dlb::usage_error& e) {
    std::printf("rank %d: usage_error: %s\n", rank_, e.what());
  } catch (const dlb::run_error& e) {
    std::printf("rank %d: run_error: %s\n", rank_, e.what());
  } catch (const std::exception& e) {
    std::printf("rank %d: other error: %s\n", rank_, e.what());
  }
}

int forced(const std::string& rule) {
  expect_error(
      [&] {
        dlb::mpi::session s(MPI_COMM_WORLD, params(rule, loop_path::one_sided));
        s.parallel_for(loop_of(100), {}, [](std::int64_t) {});
      },
      "one_sided under " + rule);
  return 0;
}

int disagree() {
  expect_error(
      [&] {
        dlb::mpi::session s(MPI_COMM_WORLD, params("GSS", loop_path::automatic));
        dlb::mpi::reduction r;
        r.op = rank_ == 1 ? reduce_op::max : reduce_op::sum;
        s.parallel_reduce(loop_of(100), r, value);
      },
      "a disagreeing reduction");
  expect_error(
      [&] {
        dlb::mpi::session s(MPI_COMM_WORLD, params("GSS", rank_ == 1 ? loop_path::two_sided
                                                                     : loop_path::automatic));
        s.parallel_for(loop_of(100), {}, [](std::int64_t) {});
      },
      "a disagreeing path");
  return 0;
}

// The other ranks wait in their first iteration until rank 1 has taken a chunk, so that rank 1
// surely takes chunks past iteration 10 however the ranks are scheduled (on the one-sided path
// the first to ask takes the chunk; rank 0 serves nothing, so waiting in the body is safe).
int throws() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int token = 0;
  MPI_Request took = MPI_REQUEST_NULL;
  if (rank_ != 1) MPI_Irecv(&token, 1, MPI_INT, 1, 77, MPI_COMM_WORLD, &took);
  bool told = false;
  expect_error(
      [&] {
        dlb::mpi::session s(MPI_COMM_WORLD, params("SS", loop_path::one_sided));
        s.parallel_for(loop_of(2000), {}, [&](std::int64_t i) {
          if (rank_ != 1) {
            MPI_Wait(&took, MPI_STATUS_IGNORE);  // at once after the first time
            return;
          }
          for (int r = 0; !told && r < size; ++r)
            if (r != 1) MPI_Send(&token, 1, MPI_INT, r, 77, MPI_COMM_WORLD);
          told = true;
          if (i > 10) throw std::runtime_error("the body's own failure");
        });
      },
      "a throwing body");
  MPI_Wait(&took, MPI_STATUS_IGNORE);  // where this rank took no chunk
  return 0;
}

int fallback() {
  {
    dlb::mpi::session s(MPI_COMM_WORLD, params("GSS", loop_path::automatic));
    check_loop(s, 500, "fallback");
    check_loop(s, 500, "fallback again");
    check_reductions(s, 3000, "fallback");
    s.finish();
  }
  forced("GSS");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  const std::string mode = argc > 1 ? argv[1] : "";
  try {
    if (mode == "paths")
      paths();
    else if (mode == "forced" && argc > 2)
      forced(argv[2]);
    else if (mode == "disagree")
      disagree();
    else if (mode == "throws")
      throws();
    else if (mode == "fallback")
      fallback();
    else
      fail("unknown mode " + mode);
  } catch (const std::exception& e) {
    fail(std::string("unexpected: ") + e.what());
  }
  if (failures == 0) std::printf("rank %d: OK %s\n", rank_, mode.c_str());
  std::fflush(stdout);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
