// The analysis of the native study (`make native`, experiments/NATIVE.md): the customized choices
// (AUTO-ALL, AUTO) against the best policy of each configuration on real cores under a real
// external load, from the configurations of beyond.hpp. Pure functions of those, unit-tested
// (tests/unit/native_report_test.cpp); `dlb_beyond native` prints them.
//
// The external load of a native run is named in its arguments (`--load none`, `steady:1`,
// `paper:ML:TL:CORE`: experiments/native/native-launch); a configuration is under load unless it
// says `--load none` or nothing.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "beyond.hpp"

namespace dlb::report::native {

// The `--load` value of a configuration's arguments; "none" if it has none.
std::string load_of(const beyond::config_runs& c);
bool under_load(const beyond::config_runs& c);

// The policies a customized choice is judged against: every policy measured in the
// configuration but AUTO-ALL and AUTO (NONE included: on real cores the static block may win).
std::vector<std::string> reference_policies(const beyond::config_runs& c);

// One configuration's row of the regret table.
struct regret_row {
  std::string config;
  std::string best;                                // the reference policy of least median time
  std::optional<ratio_estimate> auto_all, autom;   // AUTO-ALL / best, AUTO / best
  std::optional<ratio_estimate> static_over_best;  // NONE / best
};
std::optional<regret_row> regret_of(const beyond::config_runs& c);

// The share of configurations where `policy` is at most 1, 3 and 5% slower than the best
// (geometric mean paired by seed), with 95% percentile intervals from a two-level bootstrap:
// configurations drawn with replacement, and within each its seeds (the best chosen again in
// every replicate). `replicates` draws from a generator seeded by `seed`: the same every time.
struct share_estimate {
  std::size_t configs = 0;
  std::array<std::size_t, 3> within{};  // at 1, 3, 5%
  std::array<double, 3> low{}, high{};  // the shares' intervals, fractions
};
inline constexpr std::array<double, 3> kPercents = {1.0, 3.0, 5.0};
share_estimate shares_within(const std::vector<beyond::config_runs>& configs,
                             const std::string& policy, int replicates, std::uint64_t seed);

// How a choice stands against the best policy of each configuration when the spread of the
// seeds is taken into account: the paired 95% interval of choice / best holds 1 (within noise),
// lies above it (surely slower) or below it (surely faster). `slower_min`/`slower_max`: the
// surely slower configurations' geometric-mean ratios (0 when there is none).
struct noise_counts {
  std::size_t configs = 0, within_noise = 0, surely_slower = 0, surely_faster = 0;
  double slower_min = 0, slower_max = 0;
};
noise_counts against_best(const std::vector<beyond::config_runs>& configs,
                          const std::string& policy);

// The geometric mean over configurations of `a` / `b` (each configuration's paired geometric
// mean), with a 95% interval over configurations; nullopt without a configuration holding both.
std::optional<ratio_estimate> mean_over_configs(const std::vector<beyond::config_runs>& configs,
                                                const std::string& a, const std::string& b);

// The Markdown of experiments/NATIVE.md's tables (dlb_beyond native): the regret table, the
// shares within 1, 3 and 5% (`replicates` bootstrap draws), the geometric means against every
// policy, the best policy against the static block under load, and the load averages; each
// target of issue 56 said met or missed.
void write_markdown(std::ostream& os, const std::vector<beyond::config_runs>& configs,
                    int replicates);

}  // namespace dlb::report::native
