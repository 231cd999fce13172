// Loop self-scheduling: the chunk-size rules of the dynamic loop scheduling literature, the
// baselines the paper's strategies are compared with beyond the paper. A master hands
// out chunks of consecutive iterations to workers that ask; the rules say how many:
//
//   SS    self-scheduling: 1 iteration.
//   CSS   chunk self-scheduling with a fixed chunk k.
//   GSS   guided self-scheduling (Polychronopoulos and Kuck 1987): ceil(R / P), R the iterations
//         not yet handed out.
//   TSS   trapezoid self-scheduling (Tzen and Ni 1993): sizes falling linearly from
//         f = ceil(I / 2P) to l = 1 over n = ceil(2I / (f + l)) chunks, step d = (f - l) / (n - 1);
//         chunk j is f - j d rounded to the nearest integer (halves up), at least 1.
//   FAC2  factoring (Hummel, Schonberg and Flynn 1992), its practical form: batches of P chunks,
//         each ceil(R_b / 2P), R_b the iterations left when the batch starts.
//   AWF   adaptive weighted factoring (Banicescu et al.): FAC2's batches, worker i's chunk
//         ceil(R_b w_i / (2 sum w)), its weight w_i its measured speed (equal weights: FAC2).
//   FSC   fixed size chunking (Kruskal and Weiss 1985): one chunk size for the whole loop,
//         k = (sqrt(2) I h / (sigma P sqrt(ln P)))^(2/3) rounded to the nearest whole number,
//         between 1 and ceil(I / P); h the overhead of scheduling one chunk, sigma the standard
//         deviation of an iteration's time (chunk_params). The runtime's: h the cost of one
//         request and one answer on the run's network (self_scheduling_model.hpp's message
//         costs), the overhead a chunk adds; sigma from the iterations' costs and the external
//         load known at DLB_init (fsc_sigma): Kruskal and Weiss take the iterations' times as
//         independent, which the load's persistence is not; that is the formula's assumption.
//         No variance (sigma = 0) or P = 1: ceil(I / P); no overhead (h = 0): 1; neither known
//         (a loop without iteration costs): MFSC's chunk.
//   MFSC  modified FSC (as defined with LB4OMP, Korndoerfer, Eleliemy, Mohammed and Ciorba
//         2022): FSC's fixed chunk without h and sigma, the number of chunks taken from FAC2
//         instead: k = ceil(I / n), n the number of FAC2's chunks for the same I and P, so that
//         it schedules as many chunks as factoring would.
//   WF    weighted factoring (Hummel, Schmidt, Uma and Wein 1996): FAC2's batches, worker i's
//         chunk ceil(R_b w_i / (2 sum w)) with fixed weights w_i, the workstations' relative
//         speeds as the run knows them (chunk_params::weights; --speeds).
//   AWF-B, AWF-C, AWF-D, AWF-E  adaptive weighted factoring's variants for loops without time
//         steps (Carino and Banicescu 2008): AWF's weights adapted during the loop from the
//         chunks' measured times (record): worker i's k-th chunk of c_ik iterations took t_ik,
//         pi_ik = t_ik / c_ik, its weighted mean pi_i = sum_k k pi_ik / sum_k k (later chunks
//         count more), its weight w_i = 1 / pi_i. -B: the weights are recomputed at the start
//         of every batch, chunk ceil(R_b w_i / (2 sum w)); -C: at every chunk, ceil(R w_i /
//         (2 sum w)) from R now. -D and -E are -B and -C with t_ik the whole time from the
//         worker's previous request to this one (its chunk and the scheduling overhead) where
//         -B and -C take the chunk's computation alone. A worker without a measurement counts
//         as the slowest measured one (awf_batch); before any, all weigh the same (FAC2).
//   AF    adaptive factoring (Banicescu and Liu 2000): at every request of worker i, from the
//         mean mu_j and the variance sigma_j^2 of an iteration's time on each worker j measured
//         so far, D = sum_j sigma_j^2 / mu_j, T = 1 / sum_j (1 / mu_j) and R the iterations not
//         handed out: chunk ceil((D + 2 T R - sqrt(D^2 + 4 D T R)) / (2 mu_i)). mu_j and
//         sigma_j come from worker j's recorded chunks (an iteration's time is not measured
//         alone): mu_j = sum t / sum c, sigma_j^2 = sum_k (t_k - c_k mu_j)^2 / c_k / (n - 1)
//         over its n chunks (a chunk of c iterations of variance sigma^2 varies by c sigma^2).
//         Until every worker has 2 recorded chunks the variance is unknown: FAC2's batches.
//
// Every chunk is at most what is left, and the chunks cover the loop exactly. Pure: values in,
// values out (lib/core's rule); the runtime's master-worker protocol is the caller.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlb::core {

enum class chunk_rule {
  ss,
  css,
  gss,
  tss,
  fac2,
  awf,
  fsc,
  mfsc,
  wf,
  awf_b,
  awf_c,
  awf_d,
  awf_e,
  af
};

// Every chunk rule and its name as --strategy spells it, in the order the names are listed
// (known_policy_names, AUTO-ALL's default candidates). A new rule is an enumerator, a row here,
// its chunk in chunk_dispenser::next (chunks.cpp) and its test: the policy parser, the runner
// of the self-scheduling kind and AUTO-ALL's model take it from there.
// Each row carries its one-line description, which --strategy's help lists
// (core::described_policy_names).
struct chunk_rule_row {
  chunk_rule rule;
  std::string_view name;
  std::string_view description = "";
};
inline constexpr std::array chunk_rules = {
    chunk_rule_row{chunk_rule::ss, "SS", "one iteration per request"},
    chunk_rule_row{chunk_rule::css, "CSS", "chunks of k"},
    chunk_rule_row{chunk_rule::gss, "GSS", "guided: the remaining iterations over P"},
    chunk_rule_row{chunk_rule::tss, "TSS", "trapezoid: sizes falling linearly"},
    chunk_rule_row{chunk_rule::fac2, "FAC2", "factoring: batches of half the remaining"},
    chunk_rule_row{chunk_rule::awf, "AWF", "adaptive weighted factoring"},
    chunk_rule_row{chunk_rule::fsc, "FSC", "fixed size chunking"},
    chunk_rule_row{chunk_rule::mfsc, "MFSC", "FSC with FAC2's number of chunks"},
    chunk_rule_row{chunk_rule::wf, "WF", "weighted factoring by --speeds"},
    chunk_rule_row{chunk_rule::awf_b, "AWF-B", "AWF's weights from the chunks' times, per batch"},
    chunk_rule_row{chunk_rule::awf_c, "AWF-C", "AWF's weights from the chunks' times, per chunk"},
    chunk_rule_row{chunk_rule::awf_d, "AWF-D", "AWF-B with the scheduling overhead"},
    chunk_rule_row{chunk_rule::awf_e, "AWF-E", "AWF-C with the scheduling overhead"},
    chunk_rule_row{chunk_rule::af, "AF", "adaptive factoring"},
};

// Whether the rule's chunks follow measurements the caller records (chunk_dispenser::record):
// AWF-B, AWF-C, AWF-D, AWF-E and AF.
bool adapts_to_measurements(chunk_rule r);

// "SS", "CSS", "GSS", "TSS", "FAC2", "AWF", "FSC", ... (as --strategy spells them).
std::string_view to_string(chunk_rule r);
std::optional<chunk_rule> parse_chunk_rule(std::string_view name);

struct chunk_params {
  chunk_rule rule = chunk_rule::gss;
  std::int64_t iterations = 0;  // I
  std::size_t workers = 1;      // P
  std::int64_t fixed = 1;       // k, CSS only
  double overhead = 0.0;        // FSC's h: seconds of scheduling per chunk
  double sigma = 0.0;           // FSC's sigma: standard deviation of an iteration's time, s
  std::vector<double> weights;  // WF's fixed weights (and AWF's first); empty: equal

  chunk_params() = default;
  // The fields in order, the rule's own parameters left at their defaults when not given.
  chunk_params(chunk_rule r, std::int64_t I, std::size_t P, std::int64_t k = 1, double h = 0.0,
               double s = 0.0, std::vector<double> w = {})
      : rule(r),
        iterations(I),
        workers(P),
        fixed(k),
        overhead(h),
        sigma(s),
        weights(std::move(w)) {}
};

// FSC's chunk size for p (its I, P, h and sigma; neither h nor sigma known, both 0: MFSC's).
std::int64_t fsc_chunk(const chunk_params& p);
// FSC's sigma for a loop whose iterations take T_k base seconds (their mean and the mean of their
// squares) under the external load function's load l, uniform in 0..max_load, that stretches an
// iteration to T_k (l + 1): the standard deviation of T (l + 1) with T and l independent,
// sqrt(E[T^2] E[(l+1)^2] - E[T]^2 E[l+1]^2), E[l+1] = ml / 2 + 1, E[(l+1)^2] = (ml + 2)(2 ml +
// 3) / 6.
double fsc_sigma(double mean_time, double mean_square_time, int max_load);

// The chunk sizes a master hands out, in order, whoever asks (AWF with equal weights). Throws
// std::invalid_argument for I < 0, P = 0 or (CSS) k < 1.
std::vector<std::int64_t> chunk_sequence(const chunk_params& p);

// One AWF batch: the chunk of each worker, from the iterations left when the batch starts and
// the workers' weights (measured speeds; a weight <= 0 counts as the smallest positive one, or
// 1 if none is positive). Each chunk is at least 1; the batch may ask for more than is left (the
// caller hands out at most what is left). Throws std::invalid_argument for no workers.
std::vector<std::int64_t> awf_batch(std::int64_t remaining, const std::vector<double>& weights);

// The state of a master handing out chunks by one rule: next(worker) is the next chunk for the
// worker that asks (0 when the loop is all handed out). AWF takes the workers' weights, which
// the caller may update between batches (set_weights). AWF-B to AWF-E and AF take the times
// of the chunks the workers finished (record).
class chunk_dispenser {
 public:
  explicit chunk_dispenser(const chunk_params& p);
  std::int64_t next(std::size_t worker);
  std::int64_t remaining() const { return remaining_; }
  void set_weights(std::vector<double> w) { weights_ = std::move(w); }
  // Worker `worker` finished `iterations` iterations of its chunks in `compute` seconds of
  // computation, `total` seconds from its previous request (or its start) to this one.
  void record(std::size_t worker, std::int64_t iterations, double compute, double total);

 private:
  // One worker's measurements (record), in the sums the rules need.
  struct measured {
    std::size_t chunks = 0;
    double weighted_pi[2] = {0.0, 0.0};  // sum_k k pi_k: of computation, of the whole time
    double weights = 0.0;                // sum_k k
    double time = 0.0, iterations = 0.0, t2_over_c = 0.0;  // AF: sum t, sum c, sum t^2 / c
  };
  std::vector<double> adapted_weights() const;  // AWF-B..E: 1 / pi_i (0: unmeasured)
  bool af_ready() const;                        // every worker has 2 recorded chunks with time
  std::int64_t af_chunk(std::size_t worker) const;
  std::int64_t batch_chunk(std::size_t worker, const std::vector<double>& w);

  chunk_params p_;
  std::int64_t remaining_ = 0;
  std::int64_t handed_ = 0;  // chunks handed out so far (TSS's j)
  // FAC2 / AWF: the current batch's chunk of each worker (awf_batch; FAC2 with equal weights),
  // and how many of the batch's P chunks are handed out (a new batch starts after P).
  std::vector<std::int64_t> batch_;
  std::size_t in_batch_ = 0;
  std::vector<double> weights_;
  std::vector<measured> measured_;
  std::int64_t fixed_ = 1;  // FSC's and MFSC's chunk
};

}  // namespace dlb::core
