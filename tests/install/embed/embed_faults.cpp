// embed_faults.cpp: an outside MPI program that mistreats the installed DLB library the way a
// real program can (ctest install_embed_mpi_faults, tests/install/run_embed_faults_test.sh). One
// case per run, named by argv[1]; every rank prints what it saw, one line per event, and the
// script checks the lines and the exit status. The library must report each fault as an
// exception on the ranks concerned, never end the job, and leave the communicator as it found it.
//
//   before-init     a session made before MPI_Init: a dlb::usage_error, and MPI untouched (the
//                   program's own MPI_Init afterwards works)
//   after-finalize  a session made after MPI_Finalize: a dlb::usage_error
//   null            a session on MPI_COMM_NULL, then ones with a negative group and a zero
//                   timeout: a dlb::usage_error on every rank naming each, the job goes on
//   fail-then-new REPS POLICY...   under each policy ("all": every policy the library knows),
//                   REPS times: a session whose body throws on the last rank, then a new
//                   session on the same communicator and one on a fresh duplicate, each of which
//                   must compute the right result
//   missing-rank    the last rank never makes a session; the others, with --timeout 4, must get
//                   a dlb::run_error within the bound
//   blame           the body throws on the last rank: what each rank is told
//   misuse          the mistakes of a program whose ranks disagree, each followed by a session
//                   that must be right (the communicator usable): a loop whose length and
//                   array differ on the last rank, a policy that differs, finish on the last
//                   rank against a loop on the others, arrays of other extents, a loop after
//                   finish, a group larger than P, a typed AUTO-ALL with candidates (runs),
//                   a typed CSS:0 and a policy both typed and in the options (usage errors),
//                   parse_policy of a bad and an empty name, the
//                   last rank throwing between its session's making and its loop. Each
//                   prints "rank R: CASE: CLASS after T s: TEXT" and "rank R: CASE: then right"
//   skip-then-new REPS   REPS times: the last rank skips a session (the others' times out,
//                   --timeout 1), then every rank makes a new one, which must be right
#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "dlb/core/policy.hpp"
#include "dlb/mpi.hpp"

namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int world_size() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

double value(std::int64_t i) { return std::sqrt(static_cast<double>(i)) + 0.25 * (i % 3); }

dlb::mpi::session_params params_of(const std::string& policy, std::vector<std::string> extra = {}) {
  return {.policy = dlb::core::parse_policy(policy),
          .timeout = std::chrono::seconds(30),
          .quiet = true,
          .options = std::move(extra),
          .name = "embed_faults"};
}

// n iterations on `comm` under `policy`; the body throws on the communicator's last rank at its
// first computed iteration when `throw_there`. True on the master when every element is right
// (and on the slaves when the loop ended normally).
bool loop(MPI_Comm comm, const std::string& policy, std::int64_t n, bool throw_there) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  dlb::mpi::session s(comm, params_of(policy));
  std::vector<double> y(static_cast<std::size_t>(n), 0.0);
  auto Y = dlb::DLB_array::of("y", y.data(), n, 1, dlb::data_distribution::block);
  Y.input = false;
  Y.output = true;
  dlb::loop_spec spec;
  spec.iterations = n;
  spec.work = [](std::int64_t i) { return 2e-6 * static_cast<double>(1 + i % 4); };
  int computed = 0;
  s.parallel_for(spec, {&Y}, [&](std::int64_t i) {
    if (throw_there && rank == size - 1 && ++computed == 1)
      throw std::runtime_error("the body failed at iteration " + std::to_string(i));
    y[static_cast<std::size_t>(i)] = value(i);
  });
  s.finish();
  if (!s.master()) return true;
  for (std::int64_t i = 0; i < n; ++i)
    if (y[static_cast<std::size_t>(i)] != value(i)) return false;
  return true;
}

// 1 when the failing session failed on this rank with an exception (run_error, or the body's
// own on the rank whose body threw).
int failing_session(MPI_Comm comm, const std::string& policy) {
  try {
    loop(comm, policy, 400, true);
  } catch (const std::exception&) {
    return 1;
  }
  return 0;
}

// 1 when a new session computed the right result (every rank agrees: 1 on all or on none).
int good_session(MPI_Comm comm, const std::string& policy, std::string& why) {
  int ok = 0;
  try {
    ok = loop(comm, policy, 600, false) ? 1 : 0;
    if (!ok) why = "wrong result";
  } catch (const std::exception& e) {
    why = e.what();
  }
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
  return all;
}

int fail_then_new(const std::vector<std::string>& policies, int reps) {
  const int rank = world_rank();
  int bad = 0;
  for (const auto& policy : policies) {
    int good = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int rep = 0; rep < reps; ++rep) {
      const int failed = failing_session(MPI_COMM_WORLD, policy);
      int all_failed = 0;
      MPI_Allreduce(&failed, &all_failed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      std::string why;
      const int same = good_session(MPI_COMM_WORLD, policy, why);
      MPI_Comm dup = MPI_COMM_NULL;
      MPI_Comm_dup(MPI_COMM_WORLD, &dup);
      const int fresh = good_session(dup, policy, why);
      MPI_Comm_free(&dup);
      if (all_failed && same && fresh) {
        ++good;
      } else {
        std::printf(
            "embed_faults: rank %d: %s try %d: failed everywhere %d, same comm %d, fresh "
            "dup %d: %s\n",
            rank, policy.c_str(), rep + 1, all_failed, same, fresh, why.c_str());
      }
    }
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("embed_faults: rank %d: %s: %d of %d (%.1f s)\n", rank, policy.c_str(), good, reps,
                s);
    if (good != reps) ++bad;
  }
  return bad == 0 ? 0 : 1;
}

int missing_rank() {
  const int rank = world_rank();
  if (rank == world_size() - 1) {
    std::printf("embed_faults: rank %d: makes no session\n", rank);
    std::fflush(stdout);
    return 0;
  }
  const auto start = std::chrono::steady_clock::now();
  try {
    auto params = params_of("GDDLB");
    params.timeout = std::chrono::seconds(4);
    dlb::mpi::session s(MPI_COMM_WORLD, params);
    std::printf("embed_faults: rank %d: made a session without the last rank\n", rank);
  } catch (const dlb::run_error& e) {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("embed_faults: rank %d: run_error after %.1f s: %s\n", rank, s, e.what());
  } catch (const std::exception& e) {
    std::printf("embed_faults: rank %d: other exception: %s\n", rank, e.what());
  }
  std::fflush(stdout);
  return 0;
}

int blame() {
  const int rank = world_rank();
  try {
    loop(MPI_COMM_WORLD, "GCDLB", 400, true);
    std::printf("embed_faults: rank %d: no exception\n", rank);
  } catch (const std::exception& e) {
    std::printf("embed_faults: rank %d: told: %s\n", rank, e.what());
  }
  return 0;
}

// What one case threw on this rank, with the time it took, then whether a new session on the
// same communicator is right.
template <class F>
void misuse_case(const char* name, F&& f) {
  const int rank = world_rank();
  const auto start = std::chrono::steady_clock::now();
  const auto took = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  try {
    f();
    std::printf("embed_faults: rank %d: %s: no exception\n", rank, name);
  } catch (const dlb::usage_error& e) {
    std::printf("embed_faults: rank %d: %s: usage_error after %.1f s: %s\n", rank, name, took(),
                e.what());
  } catch (const dlb::run_error& e) {
    std::printf("embed_faults: rank %d: %s: run_error after %.1f s: %s\n", rank, name, took(),
                e.what());
  } catch (const std::exception& e) {
    std::printf("embed_faults: rank %d: %s: other exception: %s\n", rank, name, e.what());
  }
  std::string why;
  if (good_session(MPI_COMM_WORLD, "GDDLB", why))
    std::printf("embed_faults: rank %d: %s: then right\n", rank, name);
  else
    std::printf("embed_faults: rank %d: %s: then wrong: %s\n", rank, name, why.c_str());
  std::fflush(stdout);
}

// A loop of n iterations with one array of n rows and `cols` columns, under `policy`.
void sized_loop(dlb::mpi::session& s, std::int64_t n, std::int64_t cols) {
  std::vector<double> y(static_cast<std::size_t>(n * cols), 0.0);
  auto Y = dlb::DLB_array::of("y", y.data(), n, cols, dlb::data_distribution::block);
  dlb::loop_spec spec;
  spec.iterations = n;
  s.parallel_for(spec, {&Y}, [&](std::int64_t i) { y[static_cast<std::size_t>(i * cols)] = 1; });
}

// The policy as a value, never text: AUTO-ALL with the program's candidates runs and commits to
// one of them; a bad value, and a policy given typed and in the options, are usage errors.
void typed_policy_cases() {
  misuse_case("typed-auto-all", [&] {
    using namespace dlb::core;
    const policy gss{self_scheduled{chunk_rule::gss}}, fac2{self_scheduled{chunk_rule::fac2}};
    auto p = params_of("GDDLB");
    p.policy = customized{customized_mode::auto_all, {gss, fac2}};
    dlb::mpi::session s(MPI_COMM_WORLD, p);
    dlb::loop_spec spec;
    spec.iterations = 300;
    const auto st = s.parallel_for(spec, {}, [](std::int64_t) {});
    s.finish();
    if (s.master() && st.chosen != gss && st.chosen != fac2)
      throw std::runtime_error("committed to " + to_string(st.chosen) + ", not a candidate");
  });
  misuse_case("typed-bad-policy", [&] {
    auto p = params_of("GDDLB");
    p.policy = dlb::core::self_scheduled{dlb::core::chunk_rule::css, 0};
    dlb::mpi::session s(MPI_COMM_WORLD, p);
  });
  misuse_case("policy-twice", [&] {
    dlb::mpi::session s(MPI_COMM_WORLD, params_of("GSS", {"--strategy", "TSS"}));
  });
}

int misuse() {
  const bool last = world_rank() == world_size() - 1;
  misuse_case("mismatched-n", [&] {
    dlb::mpi::session s(MPI_COMM_WORLD, params_of("GDDLB"));
    sized_loop(s, last ? 300 : 400, 1);
  });
  misuse_case("mismatched-policy",
              [&] { dlb::mpi::session s(MPI_COMM_WORLD, params_of(last ? "SS" : "GDDLB")); });
  misuse_case("finish-against-loop", [&] {
    dlb::mpi::session s(MPI_COMM_WORLD, params_of("TSS"));
    if (last)
      s.finish();
    else
      sized_loop(s, 200, 1);
  });
  misuse_case("mismatched-array", [&] {
    dlb::mpi::session s(MPI_COMM_WORLD, params_of("GCDLB"));
    sized_loop(s, 200, last ? 2 : 3);
  });
  misuse_case("throws-before-loop", [&] {
    dlb::mpi::session s(MPI_COMM_WORLD, params_of("GDDLB"));
    if (last) throw std::runtime_error("the program's own error before the loop");
    sized_loop(s, 200, 1);
  });
  misuse_case("loop-after-finish", [&] {
    dlb::mpi::session s(MPI_COMM_WORLD, params_of("SS"));
    s.finish();
    sized_loop(s, 10, 1);
  });
  misuse_case("group-too-large", [&] {
    auto p = params_of("LDDLB");
    p.group = 1000;
    dlb::mpi::session s(MPI_COMM_WORLD, p);
  });
  typed_policy_cases();
  misuse_case("parse-policy-bad", [] { dlb::mpi::parse_policy("FASTEST"); });
  misuse_case("parse-policy-empty", [] {
    if (dlb::mpi::parse_policy("").has_value())
      throw std::runtime_error("parse_policy(\"\") gave a policy");
  });
  return 0;
}

// A first session on the communicator, then REPS times: the last rank skips a session whose
// --timeout is 1 s on the others, the ranks meet (the program's own MPI_Barrier on the
// communicator: the timed-out session left nothing pending on it), and every rank makes a new
// session on the same communicator.
int skip_then_new(int reps) {
  const int rank = world_rank();
  const bool last = rank == world_size() - 1;
  std::string first;
  if (!good_session(MPI_COMM_WORLD, "GDDLB", first))
    std::printf("embed_faults: rank %d: the first session: %s\n", rank, first.c_str());
  int good = 0;
  for (int rep = 0; rep < reps; ++rep) {
    if (!last) {
      try {
        auto p = params_of("GDDLB");
        p.timeout = std::chrono::seconds(1);
        dlb::mpi::session s(MPI_COMM_WORLD, p);
        std::printf("embed_faults: rank %d: made a session without the last rank\n", rank);
      } catch (const dlb::run_error&) {
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    std::string why;
    if (good_session(MPI_COMM_WORLD, rep % 2 ? "SS" : "AUTO-ALL", why))
      ++good;
    else
      std::printf("embed_faults: rank %d: try %d: %s\n", rank, rep + 1, why.c_str());
  }
  std::printf("embed_faults: rank %d: skip-then-new: %d of %d\n", rank, good, reps);
  return 0;
}

int null_comm() {
  const int rank = world_rank();
  try {
    dlb::mpi::session s(MPI_COMM_NULL, params_of("SS"));
    std::printf("embed_faults: rank %d: made a session on MPI_COMM_NULL\n", rank);
  } catch (const dlb::usage_error& e) {
    std::printf("embed_faults: rank %d: usage_error: %s\n", rank, e.what());
  }
  auto bad_group = params_of("SS"), bad_timeout = params_of("SS"), bad_prefetch = params_of("SS");
  bad_group.group = -1;
  bad_timeout.timeout = std::chrono::seconds(0);
  bad_prefetch.prefetch = 1.0;
  for (const auto& p : {bad_group, bad_timeout, bad_prefetch}) {
    try {
      dlb::mpi::session s(MPI_COMM_WORLD, p);
      std::printf("embed_faults: rank %d: made a session with a bad parameter\n", rank);
    } catch (const dlb::usage_error& e) {
      std::printf("embed_faults: rank %d: usage_error: %s\n", rank, e.what());
    }
  }
  int sum = 0, one = 1;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (sum == world_size()) std::printf("embed_faults: rank %d: MPI goes on\n", rank);
  return 0;
}

void try_unready(const char* when) {
  try {
    dlb::mpi::session s(MPI_COMM_WORLD, params_of("SS"));
    std::printf("embed_faults: %s: made a session\n", when);
  } catch (const dlb::usage_error& e) {
    std::printf("embed_faults: %s: usage_error: %s\n", when, e.what());
  } catch (const std::exception& e) {
    std::printf("embed_faults: %s: other exception: %s\n", when, e.what());
  }
  std::fflush(stdout);
}

// The policies named, "all" standing for every policy the library knows (CSS with k = 4).
std::vector<std::string> policies(const std::vector<std::string>& named) {
  std::vector<std::string> out;
  for (const auto& n : named) {
    if (n != "all") {
      out.push_back(n);
      continue;
    }
    std::istringstream known{std::string(dlb::core::known_policy_names())};
    for (std::string p; known >> p;) out.push_back(p == "CSS:k" ? "CSS:4" : p);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  if (what == "before-init") try_unready("before MPI_Init");
  MPI_Init(&argc, &argv);
  int rc = 0;
  if (what == "before-init") {
    int sum = 0, one = 1;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum == world_size()) std::printf("embed_faults: rank %d: MPI_Init works\n", world_rank());
  } else if (what == "after-finalize") {
    MPI_Finalize();
    try_unready("after MPI_Finalize");
    return 0;
  } else if (what == "null") {
    rc = null_comm();
  } else if (what == "fail-then-new" && argc > 3) {
    rc = fail_then_new(policies(std::vector<std::string>(argv + 3, argv + argc)),
                       std::atoi(argv[2]));
  } else if (what == "missing-rank") {
    rc = missing_rank();
  } else if (what == "blame") {
    rc = blame();
  } else if (what == "misuse") {
    rc = misuse();
  } else if (what == "skip-then-new" && argc > 2) {
    rc = skip_then_new(std::atoi(argv[2]));
  } else {
    std::fprintf(stderr,
                 "usage: embed_faults before-init|after-finalize|null|missing-rank|blame|misuse"
                 "|skip-then-new REPS|fail-then-new REPS POLICY...\n");
    rc = 2;
  }
  MPI_Finalize();
  return rc;
}
