// The policy a run's --strategy names, as one value of one of four kinds: no balancing (NONE),
// a balancing strategy (a row of balancing_rows: GCDLB, GDDLB, LCDLB, LDDLB), customized mode
// (AUTO, ADAPTIVE: the model re-run at every synchronization, AUTO-ALL: the models choose once
// among its candidates), or a loop self-scheduling baseline (SS, CSS:k, GSS, TSS, FAC2, AWF, FSC,
// MFSC, WF, AWF-B..E, AF; chunks.hpp). One parser, so that the programs and the sweep driver
// accept exactly the same names. The runtime runs these values as they are (a policy runner per
// loop, made from the value at DLB_init); nothing flattens them into another enum.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "dlb/core/chunks.hpp"
#include "dlb/core/strategy.hpp"

namespace dlb::core {

struct policy;

// NONE: equal blocks to completion, no synchronization.
struct no_balancing {
  bool operator==(const no_balancing&) const = default;
};
// A balancing strategy: its row of balancing_rows.
struct balancing {
  scheme row = scheme::gddlb;
  bool operator==(const balancing&) const = default;
};
// Customized mode: AUTO (the cost model picks one of the balancing strategies once), ADAPTIVE
// (again at every synchronization) or AUTO-ALL (every candidate predicted once; its candidates,
// --candidates, are set by the runtime: empty as parsed).
// (A commitment carries the mode as its value: a new mode goes at the end.)
enum class customized_mode { automatic, adaptive, auto_all };
// "AUTO", "ADAPTIVE", "AUTO-ALL".
std::string_view to_string(customized_mode m);
struct customized {
  customized() = default;
  explicit customized(customized_mode m, std::vector<policy> c = {}, std::vector<policy> f = {});
  customized_mode mode = customized_mode::automatic;
  std::vector<policy> candidates;
  // AUTO-ALL under --auto-force (for testing and diagnosis): the policy it commits to whatever
  // the predictions; at most one (a vector because policy is not complete here).
  std::vector<policy> forced;
  bool operator==(const customized& o) const;
};
// A loop self-scheduling baseline: its chunk rule (and CSS's fixed chunk k).
struct self_scheduled {
  chunk_rule rule = chunk_rule::gss;
  std::int64_t chunk = 1;
  bool operator==(const self_scheduled&) const = default;
};

struct policy {
  // GDDLB by default, as --strategy.
  std::variant<balancing, no_balancing, customized, self_scheduled> value;

  policy() = default;
  policy(balancing v) : value(v) {}              // NOLINT(google-explicit-constructor)
  policy(no_balancing v) : value(v) {}           // NOLINT(google-explicit-constructor)
  policy(customized v) : value(std::move(v)) {}  // NOLINT(google-explicit-constructor)
  policy(self_scheduled v) : value(v) {}         // NOLINT(google-explicit-constructor)

  // A balancing policy's row, a customized policy's mode (empty for the other kinds).
  std::optional<scheme> row() const;
  std::optional<customized_mode> mode() const;
  bool is(customized_mode m) const { return mode() == m; }
  bool is_customized() const { return mode().has_value(); }
  bool is_self_scheduled() const { return std::holds_alternative<self_scheduled>(value); }
  // A self-scheduling policy's rule and chunk (gss and 1 for the others).
  chunk_rule rule() const;
  std::int64_t chunk() const;
  // AUTO-ALL's candidates (empty for every other policy), and its forced commitment (null
  // without --auto-force).
  std::span<const policy> candidates() const;
  const policy* forced() const;
  bool operator==(const policy&) const = default;
};

inline customized::customized(customized_mode m, std::vector<policy> c, std::vector<policy> f)
    : mode(m), candidates(std::move(c)), forced(std::move(f)) {}

inline bool customized::operator==(const customized& o) const {
  return mode == o.mode && candidates == o.candidates && forced == o.forced;
}

// "GCDLB", "auto", "SS", "CSS:16", "gss", ... (letter case ignored). Throws std::invalid_argument
// with a message saying what is wrong: an unknown name, CSS without its chunk (CSS:k), a chunk
// that is not a whole number >= 1, or a chunk given to a rule that takes none.
policy parse_policy(std::string_view text);
// The name as --strategy spells it: "GCDLB", "CSS:16", "FAC2".
std::string to_string(const policy& p);
// A policy that may be absent (run_stats::chosen: what customized mode committed to): its name,
// or "NONE".
std::string to_string(const std::optional<policy>& p);
// Every name parse_policy accepts, for messages ("NONE GCDLB ... CSS:k ... AWF").
std::string_view known_policy_names();
// The same names, each with its row's one-line description, for --strategy's help: "NONE (no
// balancing), GCDLB (global, centralized), ...; or a loop self-scheduling rule: SS (...), ...".
std::string described_policy_names();
// Whether AUTO-ALL may have `p` among its candidates (or commit to it under --auto-force): a
// balancing row, ADAPTIVE or a chunk rule; not NONE, AUTO or AUTO-ALL.
bool may_be_candidate(const policy& p);
// A policy made as a value (dlb::mpi::session_params::policy), checked as parse_policy and
// parse_candidates check a name: throws std::invalid_argument saying what is wrong (a row or a
// rule outside its table, CSS's chunk below 1, a chunk given to a rule that takes none,
// candidates or a forced commitment outside AUTO-ALL, a candidate that may be none or is given
// twice, more than one forced commitment).
void check_policy(const policy& p);

// What a policy can run with: the columns from which the runtime derives the option
// combinations it refuses (option_table.cpp, refuse_combinations). A new policy kind is a row of
// capabilities_of's table; the refusals follow.
struct capabilities {
  // --on-loss recover: the survivors take a lost slave's unfinished iterations (docs/design/recovery.md,
  // "When a workstation is lost"). The self-scheduling rules hand out chunks without it;
  // ADAPTIVE waits for every slave's profile; AUTO-ALL may commit to either.
  bool survives_loss = true;
  // Waits for every active slave's profile at each synchronization, so --after-no-move stop
  // (a group that stops balancing sends no more) would leave it waiting: ADAPTIVE.
  bool needs_every_profile = false;
  bool operator==(const capabilities&) const = default;
};
// The row of a policy's kind (a self-scheduling rule's whatever its rule; AUTO-ALL's own, without
// its candidates').
capabilities capabilities_of(const policy& p);
// A run's: its policy's row, and under AUTO-ALL also those of every policy it may commit to
// (the candidates and a forced one): it survives a loss only if all of them do, and needs every
// profile if any of them does.
capabilities capabilities_of(const policy& p, std::span<const policy> candidates,
                             const policy* forced);

}  // namespace dlb::core
