// Self-scheduling chunk rules (dlb/core/chunks.hpp), table-style against sequences worked by hand
// from the published formulas, and the invariants every rule keeps.
#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>
#include <vector>

#include "dlb/core/chunks.hpp"

namespace {

using dlb::core::chunk_params;
using dlb::core::chunk_rule;
using dlb::core::chunk_sequence;
using seq = std::vector<std::int64_t>;

TEST(ChunkRules, SequencesWorkedByHand) {
  struct row {
    chunk_params p;
    seq expected;
  };
  const std::vector<row> rows{
      {{chunk_rule::ss, 5, 2, 1}, {1, 1, 1, 1, 1}},
      {{chunk_rule::css, 10, 4, 3}, {3, 3, 3, 1}},
      // GSS, I = 100, P = 4: ceil(R / 4) of R = 100, 75, 56, 42, 31, 23, 17, 12, 9, 6, 4, 3, 2, 1.
      {{chunk_rule::gss, 100, 4, 1}, {25, 19, 14, 11, 8, 6, 5, 3, 3, 2, 1, 1, 1, 1}},
      // TSS, I = 100, P = 4: f = 13, l = 1, n = ceil(200 / 14) = 15, d = 12 / 14; chunk j is
      // f - j d rounded: 13, 12.14, 11.29, 10.43, 9.57, 8.71, 7.86, 7, 6.14, 5.29, 4.43, 3.57,
      // 2.71; the last two are cut to what is left (4 of 4, then 1).
      {{chunk_rule::tss, 100, 4, 1}, {13, 12, 11, 10, 10, 9, 8, 7, 6, 5, 4, 4, 1}},
      // FAC2, I = 100, P = 4: batches of 4 chunks of ceil(R_b / 8), R_b = 100, 48, 24, 12, 4.
      {{chunk_rule::fac2, 100, 4, 1},
       {13, 13, 13, 13, 6, 6, 6, 6, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1}},
      // AWF with its initial equal weights is FAC2.
      {{chunk_rule::awf, 100, 4, 1},
       {13, 13, 13, 13, 6, 6, 6, 6, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1}},
      {{chunk_rule::gss, 0, 4, 1}, {}},
      {{chunk_rule::gss, 3, 8, 1}, {1, 1, 1}},
  };
  for (const row& r : rows)
    EXPECT_EQ(chunk_sequence(r.p), r.expected) << to_string(r.p.rule) << " I=" << r.p.iterations;
}

TEST(ChunkRules, EveryRuleCoversTheLoopExactlyWithPositiveChunks) {
  for (auto rule : {chunk_rule::ss, chunk_rule::css, chunk_rule::gss, chunk_rule::tss,
                    chunk_rule::fac2, chunk_rule::awf}) {
    for (std::int64_t I : {1, 7, 64, 1000, 12345}) {
      for (std::size_t P : {1u, 2u, 5u, 16u}) {
        const seq s = chunk_sequence({rule, I, P, 7});
        EXPECT_EQ(std::accumulate(s.begin(), s.end(), std::int64_t{0}), I)
            << to_string(rule) << " I=" << I << " P=" << P;
        for (auto c : s) EXPECT_GT(c, 0) << to_string(rule);
      }
    }
  }
}

TEST(ChunkRules, DecreasingRulesNeverGrow) {
  for (auto rule : {chunk_rule::gss, chunk_rule::tss, chunk_rule::fac2}) {
    const seq s = chunk_sequence({rule, 5000, 8, 1});
    for (std::size_t k = 1; k < s.size(); ++k)
      EXPECT_LE(s[k], s[k - 1]) << to_string(rule) << " chunk " << k;
  }
}

TEST(ChunkRules, AwfBatchFollowsTheWeights) {
  // R_b = 100, weights 1, 1, 1, 3: ceil(100 w / 12) = 9, 9, 9, 25.
  EXPECT_EQ(dlb::core::awf_batch(100, {1, 1, 1, 3}), (seq{9, 9, 9, 25}));
  // A worker without a measurement (weight 0) counts as the slowest measured one: weights 2, 2,
  // 2, 4, sum 10, ceil(100 w / 20) = 10, 10, 10, 20.
  EXPECT_EQ(dlb::core::awf_batch(100, {0, 2, 2, 4}), (seq{10, 10, 10, 20}));
  EXPECT_EQ(dlb::core::awf_batch(1, {1, 1}), (seq{1, 1}));
  EXPECT_THROW(dlb::core::awf_batch(10, {}), std::invalid_argument);
}

TEST(ChunkRules, AwfDispenserUsesTheWeightsOfTheAskingWorker) {
  dlb::core::chunk_dispenser d({chunk_rule::awf, 100, 2, 1});
  d.set_weights({1.0, 3.0});
  EXPECT_EQ(d.next(1), 38);  // ceil(100 * 3 / 8) = 38 (37.5)
  EXPECT_EQ(d.next(0), 13);  // same batch: ceil(100 * 1 / 8)
  EXPECT_EQ(d.next(0), 7);   // new batch, R_b = 49: ceil(49 / 8)
  EXPECT_EQ(d.remaining(), 42);
}

TEST(ChunkRules, NamesAndBadParameters) {
  EXPECT_EQ(dlb::core::parse_chunk_rule("FAC2"), chunk_rule::fac2);
  EXPECT_EQ(dlb::core::parse_chunk_rule("fac2"), std::nullopt);
  EXPECT_EQ(to_string(chunk_rule::tss), "TSS");
  EXPECT_THROW(chunk_sequence({chunk_rule::css, 10, 2, 0}), std::invalid_argument);
  EXPECT_THROW(chunk_sequence({chunk_rule::gss, 10, 0, 1}), std::invalid_argument);
  EXPECT_THROW(chunk_sequence({chunk_rule::gss, -1, 2, 1}), std::invalid_argument);
}

}  // namespace
