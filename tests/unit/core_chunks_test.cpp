// Self-scheduling chunk rules (dlb/core/chunks.hpp), table-style against sequences worked by hand
// from the published formulas, and the invariants every rule keeps.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "dlb/core/chunks.hpp"

namespace {

using dlb::core::chunk_params;
using dlb::core::chunk_rule;
using dlb::core::chunk_sequence;
using seq = std::vector<std::int64_t>;

seq repeated(std::size_t n, std::int64_t c) { return seq(n, c); }

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
      // FSC, I = 100, P = 2, h = 0.04 s, sigma = 0.05 s: (sqrt(2) 100 0.04 / (0.05 2
      // sqrt(ln 2)))^(2/3) = 67.946^(2/3) = 16.65, rounded 17: five chunks of 17 and the 15 left.
      {{chunk_rule::fsc, 100, 2, 1, 0.04, 0.05}, {17, 17, 17, 17, 17, 15}},
      // FSC without variance: one chunk per worker; without overhead: SS.
      {{chunk_rule::fsc, 10, 4, 1, 0.04, 0.0}, {3, 3, 3, 1}},
      {{chunk_rule::fsc, 3, 2, 1, 0.0, 0.05}, {1, 1, 1}},
      // Neither known (a loop without iteration costs): MFSC's chunk (below).
      {{chunk_rule::fsc, 100, 4, 1, 0.0, 0.0}, repeated(20, 5)},
      // MFSC, I = 100, P = 4: FAC2 hands out 20 chunks (above), so chunks of ceil(100 / 20) = 5.
      {{chunk_rule::mfsc, 100, 4, 1}, repeated(20, 5)},
      // WF, I = 100, P = 2, weights 1 and 3 (sum 4), the workers asking in turn: batches of
      // ceil(R_b w / 8) for R_b = 100 (12.5, 37.5), 49 (6.1, 18.4), 23 (2.9, 8.6), 11 (1.4, 4.1),
      // 4 (0.5, 1.5) and 1 (0.1: the last iteration).
      {{chunk_rule::wf, 100, 2, 1, 0, 0, {1, 3}}, {13, 38, 7, 19, 3, 9, 2, 5, 1, 2, 1}},
      // WF with equal weights, and AWF-B..E and AF before any measurement, are FAC2.
      {{chunk_rule::wf, 100, 4, 1},
       {13, 13, 13, 13, 6, 6, 6, 6, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1}},
      {{chunk_rule::awf_b, 30, 2, 1}, {8, 8, 4, 4, 2, 2, 1, 1}},
      {{chunk_rule::awf_c, 30, 2, 1}, {8, 6, 4, 3, 3, 2, 1, 1, 1, 1}},
      {{chunk_rule::awf_d, 30, 2, 1}, {8, 8, 4, 4, 2, 2, 1, 1}},
      {{chunk_rule::awf_e, 30, 2, 1}, {8, 6, 4, 3, 3, 2, 1, 1, 1, 1}},
      {{chunk_rule::af, 30, 2, 1}, {8, 8, 4, 4, 2, 2, 1, 1}},
      {{chunk_rule::gss, 0, 4, 1}, {}},
      {{chunk_rule::gss, 3, 8, 1}, {1, 1, 1}},
  };
  for (const row& r : rows)
    EXPECT_EQ(chunk_sequence(r.p), r.expected) << to_string(r.p.rule) << " I=" << r.p.iterations;
}

TEST(ChunkRules, EveryRuleCoversTheLoopExactlyWithPositiveChunks) {
  for (const auto& row : dlb::core::chunk_rules) {
    const auto rule = row.rule;
    for (std::int64_t I : {1, 7, 64, 1000, 12345}) {
      for (std::size_t P : {1u, 2u, 5u, 16u}) {
        const seq s = chunk_sequence({rule, I, P, 7, 0.001, 0.01});
        EXPECT_EQ(std::accumulate(s.begin(), s.end(), std::int64_t{0}), I)
            << to_string(rule) << " I=" << I << " P=" << P;
        for (auto c : s) EXPECT_GT(c, 0) << to_string(rule);
      }
    }
  }
}

TEST(ChunkRules, DecreasingRulesNeverGrow) {
  for (auto rule : {chunk_rule::gss, chunk_rule::tss, chunk_rule::fac2, chunk_rule::wf}) {
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

// AWF-B, I = 100, P = 2. Batch 1 with equal weights: 25, 25. Worker 0 did its 25 in 2.5 s of
// computation (pi = 0.1), worker 1 in 5 s (pi = 0.2): batch 2 (R_b = 50) weighs 1 / pi = 10 and 5,
// ceil(50 10 / 30) = 17 and ceil(50 5 / 30) = 9. Then 17 in 1.7 s and 9 in 0.9 s (pi = 0.1 each):
// the weighted means are (1 0.1 + 2 0.1) / 3 = 0.1 and (1 0.2 + 2 0.1) / 3 = 0.1333, weights 10
// and 7.5, batch 3 (R_b = 24): ceil(24 10 / 35) = 7 and ceil(24 7.5 / 35) = 6.
TEST(ChunkRules, AwfBWeighsEachBatchByTheRecordedChunks) {
  dlb::core::chunk_dispenser d({chunk_rule::awf_b, 100, 2, 1});
  EXPECT_EQ(d.next(0), 25);
  EXPECT_EQ(d.next(1), 25);
  d.record(0, 25, 2.5, 9.0);
  d.record(1, 25, 5.0, 9.0);
  EXPECT_EQ(d.next(0), 17);
  d.record(0, 17, 1.7, 9.0);  // within the batch: the batch's weights stand
  EXPECT_EQ(d.next(1), 9);
  d.record(1, 9, 0.9, 9.0);
  EXPECT_EQ(d.next(0), 7);
  EXPECT_EQ(d.next(1), 6);
  EXPECT_EQ(d.remaining(), 11);
}

// AWF-D is AWF-B on the whole times (the third value recorded), AWF-E is AWF-C on them: the same
// records as above but with the computation times and the whole times swapped give AWF-B's
// chunks.
TEST(ChunkRules, AwfDAndEWeighTheWholeTimeFromRequestToRequest) {
  dlb::core::chunk_dispenser b({chunk_rule::awf_b, 100, 2, 1}), d({chunk_rule::awf_d, 100, 2, 1});
  for (auto* x : {&b, &d}) {
    x->next(0);
    x->next(1);
  }
  b.record(0, 25, 2.5, 1.0);
  b.record(1, 25, 5.0, 1.0);
  d.record(0, 25, 1.0, 2.5);
  d.record(1, 25, 1.0, 5.0);
  EXPECT_EQ(b.next(0), 17);
  EXPECT_EQ(d.next(0), 17);
  // AWF-E, I = 100, P = 2, at every request from R now: 25 (R = 100, no measurement), 19
  // (ceil(75 / 4)); worker 0's 25 took 4 s whole (pi = 0.16, weight 6.25), worker 1 unmeasured
  // counts as the slowest measured: ceil(56 6.25 / 25) = 14; then worker 1's 19 in 7.6 s (pi =
  // 0.4, weight 2.5): ceil(42 2.5 / 17.5) = 6.
  dlb::core::chunk_dispenser e({chunk_rule::awf_e, 100, 2, 1});
  EXPECT_EQ(e.next(0), 25);
  EXPECT_EQ(e.next(1), 19);
  e.record(0, 25, 1.0, 4.0);
  EXPECT_EQ(e.next(0), 14);
  e.record(1, 19, 1.0, 7.6);
  EXPECT_EQ(e.next(1), 6);
}

// AF, I = 1000, P = 2: FAC2's batches until each worker has 2 recorded chunks (250, 250, 125,
// 125). Worker 0: 250 iterations in 25 s and 125 in 15 s: mu_0 = 40 / 375 = 0.10667, sigma_0^2 =
// ((25 - 26.667)^2 / 250 + (15 - 13.333)^2 / 125) / 1 = 0.033333; worker 1: 250 in 50 s, 125 in
// 25 s: mu_1 = 0.2, sigma_1^2 = 0. D = 0.033333 / 0.10667 = 0.3125, T = 1 / (9.375 + 5) =
// 0.069565. R = 250: (D + 2 T R - sqrt(D^2 + 4 D T R)) / 2 = (0.3125 + 34.783 - 4.6730) / 2 =
// 15.211, over mu_0: 142.6, chunk 143; then R = 107 for worker 1: (0.3125 + 14.887 - 3.0663) / 2
// / 0.2 = 30.33, chunk 31.
TEST(ChunkRules, AfChunkFromTheMeasuredMeanAndVariance) {
  dlb::core::chunk_dispenser d({chunk_rule::af, 1000, 2, 1});
  EXPECT_EQ(d.next(0), 250);
  EXPECT_EQ(d.next(1), 250);
  d.record(0, 250, 25.0, 26.0);
  d.record(1, 250, 50.0, 51.0);
  EXPECT_EQ(d.next(0), 125);
  EXPECT_EQ(d.next(1), 125);
  d.record(0, 125, 15.0, 16.0);
  d.record(1, 125, 25.0, 26.0);
  EXPECT_EQ(d.next(0), 143);
  EXPECT_EQ(d.next(1), 31);
  EXPECT_EQ(d.remaining(), 76);
}

// T = 2 s for every iteration under load uniform in 0..5: E[l+1] = 3.5, E[(l+1)^2] = 7 13 / 6 =
// 15.1667, so sigma^2 = 4 15.1667 - 4 12.25 = 11.667. Without load, the iterations' own spread:
// mean 1, mean square 1.25, sigma 0.5.
TEST(ChunkRules, FscSigmaFromTheCostsAndTheLoad) {
  EXPECT_NEAR(dlb::core::fsc_sigma(2.0, 4.0, 5), std::sqrt(11.0 + 2.0 / 3.0), 1e-12);
  EXPECT_NEAR(dlb::core::fsc_sigma(1.0, 1.25, 0), 0.5, 1e-12);
  EXPECT_EQ(dlb::core::fsc_sigma(1.0, 1.0, 0), 0.0);
}

TEST(ChunkRules, NamesAndBadParameters) {
  EXPECT_EQ(dlb::core::parse_chunk_rule("AWF-C"), chunk_rule::awf_c);
  EXPECT_EQ(dlb::core::parse_chunk_rule("MFSC"), chunk_rule::mfsc);
  EXPECT_EQ(to_string(chunk_rule::af), "AF");
  EXPECT_TRUE(dlb::core::adapts_to_measurements(chunk_rule::awf_e));
  EXPECT_FALSE(dlb::core::adapts_to_measurements(chunk_rule::wf));
  EXPECT_THROW(chunk_sequence({chunk_rule::fsc, 10, 2, 1, -1.0, 0.1}), std::invalid_argument);
  EXPECT_THROW(chunk_sequence({chunk_rule::wf, 10, 2, 1, 0, 0, {1, 2, 3}}), std::invalid_argument);
  EXPECT_EQ(dlb::core::parse_chunk_rule("FAC2"), chunk_rule::fac2);
  EXPECT_EQ(dlb::core::parse_chunk_rule("fac2"), std::nullopt);
  EXPECT_EQ(to_string(chunk_rule::tss), "TSS");
  EXPECT_THROW(chunk_sequence({chunk_rule::css, 10, 2, 0}), std::invalid_argument);
  EXPECT_THROW(chunk_sequence({chunk_rule::gss, 10, 0, 1}), std::invalid_argument);
  EXPECT_THROW(chunk_sequence({chunk_rule::gss, -1, 2, 1}), std::invalid_argument);
}

}  // namespace
