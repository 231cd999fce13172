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

enum class chunk_rule { ss, css, gss, tss, fac2, awf };

// Every chunk rule and its name as --strategy spells it, in the order the names are listed
// (known_policy_names, AUTO-ALL's default candidates). A new rule is an enumerator, a row here,
// its chunk in chunk_dispenser::next (chunks.cpp) and its test: the policy parser, the runner
// of the self-scheduling kind and AUTO-ALL's model take it from there.
struct chunk_rule_row {
  chunk_rule rule;
  std::string_view name;
};
inline constexpr std::array chunk_rules = {
    chunk_rule_row{chunk_rule::ss, "SS"},     chunk_rule_row{chunk_rule::css, "CSS"},
    chunk_rule_row{chunk_rule::gss, "GSS"},   chunk_rule_row{chunk_rule::tss, "TSS"},
    chunk_rule_row{chunk_rule::fac2, "FAC2"}, chunk_rule_row{chunk_rule::awf, "AWF"},
};

// "SS", "CSS", "GSS", "TSS", "FAC2", "AWF" (as --strategy spells them).
std::string_view to_string(chunk_rule r);
std::optional<chunk_rule> parse_chunk_rule(std::string_view name);

struct chunk_params {
  chunk_rule rule = chunk_rule::gss;
  std::int64_t iterations = 0;  // I
  std::size_t workers = 1;      // P
  std::int64_t fixed = 1;       // k, CSS only
};

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
// the caller may update between batches (set_weights).
class chunk_dispenser {
 public:
  explicit chunk_dispenser(const chunk_params& p);
  std::int64_t next(std::size_t worker);
  std::int64_t remaining() const { return remaining_; }
  void set_weights(std::vector<double> w) { weights_ = std::move(w); }

 private:
  chunk_params p_;
  std::int64_t remaining_ = 0;
  std::int64_t handed_ = 0;  // chunks handed out so far (TSS's j)
  // FAC2 / AWF: the current batch's chunk of each worker (awf_batch; FAC2 with equal weights),
  // and how many of the batch's P chunks are handed out (a new batch starts after P).
  std::vector<std::int64_t> batch_;
  std::size_t in_batch_ = 0;
  std::vector<double> weights_;
};

}  // namespace dlb::core
