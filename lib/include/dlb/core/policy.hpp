// The policy a run's --strategy names: one of the paper's strategies (NONE, GCDLB, GDDLB, LCDLB,
// LDDLB, AUTO), ADAPTIVE (the model re-run at every synchronization), or a loop
// self-scheduling baseline (SS, CSS:k, GSS, TSS, FAC2, AWF; chunks.hpp), which runs as
// strategy::self_scheduling with its chunk rule. One parser, so that the programs and the sweep
// driver accept exactly the same names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "dlb/core/chunks.hpp"
#include "dlb/core/strategy.hpp"

namespace dlb::core {

struct policy {
  strategy kind = strategy::gddlb;    // strategy::self_scheduling for a chunk rule
  chunk_rule rule = chunk_rule::gss;  // when kind is self_scheduling
  std::int64_t chunk = 1;             // CSS's fixed chunk k
  bool operator==(const policy&) const = default;
};

// "GCDLB", "auto", "SS", "CSS:16", "gss", ... (letter case ignored). Throws std::invalid_argument
// with a message saying what is wrong: an unknown name, CSS without its chunk (CSS:k), a chunk
// that is not a whole number >= 1, or a chunk given to a rule that takes none.
policy parse_policy(std::string_view text);
// The name as --strategy spells it: "GCDLB", "CSS:16", "FAC2".
std::string to_string(const policy& p);
// Every name parse_policy accepts, for messages ("NONE GCDLB ... CSS:k ... AWF").
std::string_view known_policy_names();

}  // namespace dlb::core
