// The index-only loop's two paths and the reproducible reduction inside an MPI program
// (mpi_paths_prog.cpp under mpirun): every index-only rule on the one-sided and the two-sided
// path gives every iteration exactly once, and every reduction the bits of the sequential
// blocked reference, at P = 2 and 3; a path the loop cannot take, a disagreeing reduction, a
// throwing body and windows that cannot be made are errors (or the fallback line) on every rank.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <string>

#include "mpi_support.hpp"

namespace {

int count(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  return static_cast<int>(
      std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

testing_support::process_result run(int np, std::vector<std::string> args) {
  args.insert(args.begin(), DLB_PATHS_PROG);
  return mpi_testing::run_mpi(np, args, 120);
}

TEST(MpiPaths, EveryRuleOnBothPathsRunsEachIterationOnceAndReducesToTheSameBits) {
  for (int np : {2, 3}) {
    const auto r = run(np, {"paths"});
    ASSERT_FALSE(r.timed_out);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(count(r.out, "rank [0-9]+: OK paths"), np) << r.out << r.err;
    EXPECT_EQ(count(r.out, "FAIL"), 0) << r.out;
  }
}

TEST(MpiPaths, ForcedOneSidedUnderAMeasuredRuleIsAUsageErrorOnEveryRank) {
  const auto r = run(2, {"forced", "AWF"});
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(
      count(r.out, "usage_error: dlb::mpi::session_params::path is one_sided, but policy AWF"), 2)
      << r.out;
}

TEST(MpiPaths, RanksThatDisagreeOnTheReductionOrThePathAreAUsageErrorOnEveryRank) {
  const auto r = run(3, {"disagree"});
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(count(r.out, "usage_error: .*the loop's reduction.*rank 1 has a max"), 3) << r.out;
  EXPECT_EQ(count(r.out, "usage_error: .*session_params::path: rank 1 has path two_sided"), 3)
      << r.out;
}

TEST(MpiPaths, ABodyThatThrowsOnTheOneSidedPathIsAnErrorOnEveryRankNotAHang) {
  const auto r = run(3, {"throws"});
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(count(r.out, "rank 1: other error: the body's own failure"), 1) << r.out;
  EXPECT_EQ(count(r.out,
                  "rank [02]: run_error: slave 1 \\(MPI rank 1\\) failed: its loop body threw: the "
                  "body's own failure"),
            2)
      << r.out;
}

// Open MPI's osc pt2pt makes no shared-memory window (MPI_Win_allocate_shared fails): the
// library's choice falls back, said once on every rank; a forced one-sided loop is a usage_error.
TEST(MpiPaths, WhereNoWindowCanBeMadeTheLibraryFallsBackOrRefusesOnEveryRank) {
  setenv("OMPI_MCA_osc", "pt2pt", 1);
  const auto r = run(2, {"fallback"});
  unsetenv("OMPI_MCA_osc");
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(count(r.out, "rank [0-9]+: OK fallback"), 2) << r.out << r.err;
  EXPECT_EQ(count(r.out,
                  "said: paths: rank [0-9]+: index-only loops take the two-sided path: "
                  "the loop's window could not be made"),
            2)
      << r.out;
  EXPECT_EQ(count(r.out,
                  "usage_error: dlb::mpi::session_params::path is one_sided, but the "
                  "loop's window could not be made"),
            2)
      << r.out;
}

}  // namespace
