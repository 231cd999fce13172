// The policy a run's --strategy names: one of the paper's strategies (NONE, GCDLB, GDDLB, LCDLB,
// LDDLB, AUTO), ADAPTIVE (the model re-run at every synchronization), or a loop
// self-scheduling baseline (SS, CSS:k, GSS, TSS, FAC2, AWF; chunks.hpp), which runs as
// strategy::self_scheduling with its chunk rule. One parser, so that the programs and the sweep
// driver accept exactly the same names.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
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

// What a policy can run with: the columns from which the runtime derives the option
// combinations it refuses (runtime.cpp, refuse_combinations). A new policy kind is a row of
// capabilities_of's table; the refusals follow.
struct capabilities {
  // --on-loss recover: the survivors take a lost slave's unfinished iterations (lib/README.md,
  // "When a workstation is lost"). The self-scheduling rules hand out chunks without it;
  // ADAPTIVE waits for every slave's profile; AUTO-ALL may commit to either.
  bool survives_loss = true;
  // Waits for every active slave's profile at each synchronization, so --after-no-move stop
  // (a group that stops balancing sends no more) would leave it waiting: ADAPTIVE.
  bool needs_every_profile = false;
  bool operator==(const capabilities&) const = default;
};
// The row of a policy kind (a self-scheduling rule's whatever its rule).
capabilities capabilities_of(strategy kind);
// A run's: its policy's row, and under AUTO-ALL also those of every policy it may commit to
// (the candidates and a forced one): it survives a loss only if all of them do, and needs every
// profile if any of them does.
capabilities capabilities_of(const policy& p, std::span<const policy> candidates,
                             const std::optional<policy>& forced);

}  // namespace dlb::core
