// The one-sided path's chunk table and the reproducible reduction's block_reducer, without MPI
// running (lib/backends/mpi/one_sided.hpp, reduction.hpp): pure values in, values out.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "dlb/core/chunks.hpp"
#include "dlb/runtime/errors.hpp"
#include "one_sided.hpp"
#include "reduction.hpp"

namespace {

using dlb::mpi_detail::block_reducer;
using dlb::mpi_detail::chunk_table;

// The table's chunks are core's, in order, for every rule the one-sided path takes.
TEST(ChunkTable, IsCoresChunkSequenceForEveryOneSidedRule) {
  for (const auto& row : dlb::core::chunk_rules) {
    const dlb::core::policy p = dlb::core::self_scheduled{row.rule, 7};
    if (!dlb::mpi_detail::one_sided_rule(p)) continue;
    for (std::int64_t n : {0, 1, 5, 997, 100000})
      for (std::size_t P : {1u, 2u, 3u, 8u}) {
        const chunk_table t(p, n, P);
        const auto want = dlb::core::chunk_sequence(dlb::core::chunk_params(row.rule, n, P, 7));
        EXPECT_EQ(t.sizes(), want) << row.name << " n=" << n << " P=" << P;
        std::int64_t next = 0;
        for (std::int64_t k = 0; k < t.chunks(); ++k) {
          const auto [b, e] = t.chunk(k);
          ASSERT_EQ(b, next) << row.name << " chunk " << k;
          next = e;
        }
        EXPECT_EQ(next, n);
        if (row.rule == dlb::core::chunk_rule::ss) {
          EXPECT_LE(t.runs().size(), 1u);
        }
      }
  }
}

TEST(ChunkTable, OnlyRulesOfTheRequestCountTakeTheOneSidedPath) {
  using dlb::core::chunk_rule;
  for (chunk_rule r : {chunk_rule::ss, chunk_rule::css, chunk_rule::gss, chunk_rule::tss,
                       chunk_rule::fac2, chunk_rule::mfsc})
    EXPECT_TRUE(dlb::mpi_detail::one_sided_rule(dlb::core::self_scheduled{r, 1}));
  for (chunk_rule r : {chunk_rule::awf, chunk_rule::awf_b, chunk_rule::awf_c, chunk_rule::awf_d,
                       chunk_rule::awf_e, chunk_rule::af, chunk_rule::wf, chunk_rule::fsc})
    EXPECT_FALSE(dlb::mpi_detail::one_sided_rule(dlb::core::self_scheduled{r, 1}));
  EXPECT_FALSE(dlb::mpi_detail::one_sided_rule(dlb::core::policy{}));  // GDDLB
}

double value(std::int64_t i) {
  return i % 3 == 0 ? 1e16 + static_cast<double>(i) : i % 3 == 1 ? 0.7 * i : -1e16;
}

// The values of [0, n) split into `cuts` chunks dealt to `ranks` reducers, the records folded.
double reduce_split(std::int64_t n, const std::vector<std::int64_t>& cuts, int ranks,
                    const dlb::mpi::reduction& r, unsigned seed) {
  std::vector<block_reducer> reducers(static_cast<std::size_t>(ranks), block_reducer(r, n));
  std::mt19937 rng(seed);
  std::vector<std::pair<std::int64_t, std::int64_t>> chunks;
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) chunks.emplace_back(cuts[k], cuts[k + 1]);
  std::shuffle(chunks.begin(), chunks.end(), rng);  // any rank, any order of chunks
  for (const auto& [b, e] : chunks) {
    auto& red = reducers[rng() % reducers.size()];
    for (std::int64_t i = b; i < e; ++i) red.add(i, value(i));
  }
  std::vector<double> all;
  for (auto& red : reducers) {
    auto mine = red.take();
    all.insert(all.end(), mine.begin(), mine.end());
  }
  return reducers[0].fold(all);
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(BlockReducer, TheSameBitsWhateverTheChunksRanksAndOrder) {
  const std::int64_t n = 5000;  // blocks of 5
  dlb::mpi::reduction sum, user;
  user.op = dlb::mpi::reduce_op::user;
  user.combine = [](double a, double b) { return 0.5 * a + b; };
  user.name = "half";
  for (const auto* r : {&sum, &user}) {
    std::vector<std::int64_t> whole = {0, n};
    const double reference = reduce_split(n, whole, 1, *r, 1);
    for (unsigned seed = 0; seed < 20; ++seed) {
      std::mt19937 rng(seed);
      std::vector<std::int64_t> cuts = {0, n};
      for (int k = 0; k < 1 + static_cast<int>(seed) * 40; ++k) cuts.push_back(rng() % n);
      std::sort(cuts.begin(), cuts.end());
      cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
      EXPECT_TRUE(
          same_bits(reduce_split(n, cuts, 1 + static_cast<int>(seed % 4), *r, seed), reference))
          << "seed " << seed;
    }
  }
  // The sequential order would give other bits: the blocks matter.
  double naive = 0;
  for (std::int64_t i = n - 1; i >= 0; --i) naive += value(i);
  EXPECT_FALSE(same_bits(naive, reduce_split(n, {0, n}, 1, sum, 1)));
}

TEST(BlockReducer, AMissingOrRepeatedIterationIsARunError) {
  dlb::mpi::reduction r;
  block_reducer a(r, 100), b(r, 100);
  for (std::int64_t i = 0; i < 100; ++i)
    if (i != 42) a.add(i, 1.0);
  EXPECT_THROW(a.fold(a.take()), dlb::run_error);
  for (std::int64_t i = 0; i < 100; ++i) a.add(i, 1.0);
  b.add(7, 1.0);
  auto records = a.take();
  const auto more = b.take();
  records.insert(records.end(), more.begin(), more.end());
  EXPECT_THROW(a.fold(records), dlb::run_error);
}

TEST(BlockReducer, AUserOperationWithoutItsFunctionIsAUsageError) {
  dlb::mpi::reduction r;
  r.op = dlb::mpi::reduce_op::user;
  EXPECT_THROW(block_reducer(r, 10), dlb::usage_error);
}

}  // namespace
