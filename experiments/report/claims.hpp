// The paper's qualitative claims (experiments/paper/claims.md) as predicates over a summary.
//
// Strategies are compared by their median paired normalized time (time / no-DLB time of the same
// load seed) when every DLB strategy of the configuration has one, else by median time. Only
// configurations under external load (ml > 0) count, except for O1, which is about runs without
// it (ml = 0). Each claim says which predicate it uses; a claim is "not measured" when no
// configuration it needs is in the summary.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/summary.hpp"

namespace dlb::report {

enum class verdict { holds, does_not_hold, not_measured };
std::string to_string(verdict v);

// Two readings of a claim. The strict one asks the paper's pattern of every configuration (or
// both ends, every pair); the tendency one, where the paper's sentence allows it ("tends to",
// "usually", "typically", a statement about a figure as a whole), asks it of most configurations
// (more than half) or of the mean. A claim whose sentence allows no looser reading has the strict
// one only (`tendency` empty); counts "under the tendency reading" then use its strict verdict.
struct claim_result {
  std::string id;                           // M1 ... O2
  std::string statement;                    // as the paper states it
  std::string predicate;                    // what we check (strict reading)
  verdict outcome = verdict::not_measured;  // the strict reading
  std::string tally;                        // e.g. "3 of 4 configurations"
  std::optional<verdict> tendency;          // the tendency reading, where the sentence allows one
  std::string tendency_tally;
  std::string tendency_predicate;     // what the tendency reading checks ("" without one)
  std::string readings;               // why these readings (claim_spec::readings)
  std::vector<std::string> evidence;  // one line per configuration (numbers behind the verdict)

  // The tendency verdict, or the strict one for a claim without a tendency reading.
  verdict tendency_or_strict() const { return tendency.value_or(outcome); }
};

// Which time a ranking uses: the whole run, or one loop of TRFD.
enum class measure { total, loop1, loop2 };

// One configuration of the summary with its strategies' rows.
struct config_view {
  std::string app;
  int procs = 0;
  int group = 0;
  int ml = 0;
  std::string size;  // label, e.g. "n=400 r=400 m=400"
  std::vector<std::pair<std::string, const summary_row*>> strategies;

  const summary_row* row(const std::string& strategy) const;
  std::string label() const;  // "P=4 n=400 r=400 m=400" (+ " ml=0" when unloaded)
};
// Configurations in summary order. The rows must outlive the views.
std::vector<config_view> group_configs(const std::vector<summary_row>& rows);

// The four DLB strategies ranked best first by `m`, and whether normalized times were used.
// nullopt unless all four have a value.
struct ranking {
  std::vector<std::pair<std::string, double>> order;
  bool normalized = false;
  std::string text() const;  // "GDDLB 0.61 < GCDLB 0.65 < ..."
};
std::optional<ranking> rank_strategies(const config_view& c, measure m = measure::total);

// The predicted best of a configuration: the most frequent predicted_best over its rows (for a
// loop of TRFD: predicted_best_loop1 / _loop2, falling back to the whole run's).
// `load`: the prediction under one assumption about the load ("run" or "estimated",
// --model-load), falling back to the whole run's under that assumption; "" is the one the runs
// used (predicted_best).
std::optional<std::string> predicted_best(const config_view& c, measure m = measure::total,
                                          std::string_view load = "");

// One claim as data: the paper's words, what it reads, what we check, with which tolerance, and
// the function that checks it over the configurations of a summary.
struct claim_spec;
using claim_evaluator =
    std::function<claim_result(const claim_spec&, const std::vector<config_view>&)>;
struct claim_spec {
  std::string id;         // M1 ... O2, as in claims.md
  std::string statement;  // the paper's words
  std::string reads;      // the summary's data it reads
  std::string predicate;  // what we check (strict reading)
  // What the tendency reading checks; empty: the sentence allows no looser reading.
  std::string tendency_predicate;
  // Why these readings: which words of the sentence the strict and the tendency reading rest on.
  std::string readings;
  // Ordering claims: the relative margin by which the better must beat the worse (0: any
  // difference of the medians counts). O1: the time overhead allowed without load (DLB / no-DLB
  // at most 1 + tolerance). O2: the share of configurations that must match.
  double tolerance = 0;
  claim_evaluator evaluate;
};
// Every claim of claims.md, in its order.
const std::vector<claim_spec>& claim_table();

// Each claim of claim_table() evaluated over the summary's rows, in the table's order.
std::vector<claim_result> evaluate_claims(const std::vector<summary_row>& rows);

}  // namespace dlb::report
