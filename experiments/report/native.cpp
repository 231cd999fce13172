#include "native.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "markdown.hpp"
#include "stats.hpp"
#include "sweep/text.hpp"

namespace dlb::report::native {

using beyond::config_runs;

std::string load_of(const config_runs& c) {
  const std::string key = "--load ";
  const auto at = c.args.find(key);
  if (at == std::string::npos) return "none";
  const auto from = at + key.size();
  return c.args.substr(from, c.args.find(' ', from) - from);
}

bool under_load(const config_runs& c) { return load_of(c) != "none"; }

std::vector<std::string> reference_policies(const config_runs& c) {
  std::vector<std::string> out;
  for (const auto& p : c.policies)
    if (p != "AUTO-ALL" && p != "AUTO") out.push_back(p);
  return out;
}

std::optional<regret_row> regret_of(const config_runs& c) {
  const auto best = beyond::best_of(c, reference_policies(c));
  if (!best) return std::nullopt;
  regret_row r;
  r.config = c.config;
  r.best = *best;
  r.auto_all = beyond::paired_ratio(c, "AUTO-ALL", *best);
  r.autom = beyond::paired_ratio(c, "AUTO", *best);
  if (*best != "NONE") r.static_over_best = beyond::paired_ratio(c, "NONE", *best);
  return r;
}

namespace {

// A configuration's times as a table: the seeds every policy of `policies` was measured with,
// and per policy its time at each of them (same order).
struct seed_table {
  std::vector<std::string> policies;
  std::vector<std::vector<double>> time;  // [policy][seed]
  std::size_t seeds = 0;
};

seed_table table_of(const config_runs& c, const std::string& policy) {
  seed_table t;
  t.policies = reference_policies(c);
  t.policies.push_back(policy);
  std::vector<std::string> seeds;
  if (const auto it = c.time.find(policy); it != c.time.end())
    for (const auto& [seed, time] : it->second) {
      bool everywhere = true;
      for (const auto& p : t.policies)
        everywhere = everywhere && c.time.at(p).count(seed) && c.time.at(p).at(seed) > 0;
      if (everywhere && time > 0) seeds.push_back(seed);
    }
  t.seeds = seeds.size();
  for (const auto& p : t.policies) {
    t.time.emplace_back();
    for (const auto& s : seeds) t.time.back().push_back(c.time.at(p).at(s));
  }
  return t;
}

// The last policy's geometric-mean ratio to the best of the others (by median) over the seeds
// `draw` picks (indices, with repetition).
double regret_over(const seed_table& t, const std::vector<std::size_t>& draw) {
  const std::size_t last = t.policies.size() - 1;
  std::size_t best = 0;
  double best_median = 0;
  for (std::size_t p = 0; p < last; ++p) {
    std::vector<double> x;
    for (auto i : draw) x.push_back(t.time[p][i]);
    const double m = *report::median(x);
    if (p == 0 || m < best_median) best = p, best_median = m;
  }
  double sum = 0;
  for (auto i : draw) sum += std::log(t.time[last][i] / t.time[best][i]);
  return std::exp(sum / static_cast<double>(draw.size()));
}

std::array<std::size_t, 3> count_within(const std::vector<double>& ratios) {
  std::array<std::size_t, 3> n{};
  for (double r : ratios)
    for (std::size_t k = 0; k < kPercents.size(); ++k)
      if (r <= 1 + kPercents[k] / 100 + 1e-12) ++n[k];
  return n;
}

double quantile(std::vector<double> x, double q) {
  std::sort(x.begin(), x.end());
  const auto i = static_cast<std::size_t>(std::floor(q * static_cast<double>(x.size() - 1) + 0.5));
  return x[std::min(i, x.size() - 1)];
}

}  // namespace

share_estimate shares_within(const std::vector<config_runs>& configs, const std::string& policy,
                             int replicates, std::uint64_t seed) {
  std::vector<seed_table> tables;
  for (const auto& c : configs) {
    auto t = table_of(c, policy);
    if (t.seeds > 0 && t.policies.size() > 1) tables.push_back(std::move(t));
  }
  share_estimate e;
  e.configs = tables.size();
  if (tables.empty()) return e;
  std::vector<double> point;
  for (const auto& t : tables) {
    std::vector<std::size_t> all(t.seeds);
    for (std::size_t i = 0; i < t.seeds; ++i) all[i] = i;
    point.push_back(regret_over(t, all));
  }
  e.within = count_within(point);
  std::mt19937_64 rng(seed);
  std::array<std::vector<double>, 3> shares;
  for (int b = 0; b < replicates; ++b) {
    std::vector<double> ratios;
    std::uniform_int_distribution<std::size_t> pick_config(0, tables.size() - 1);
    for (std::size_t k = 0; k < tables.size(); ++k) {
      const auto& t = tables[pick_config(rng)];
      std::uniform_int_distribution<std::size_t> pick_seed(0, t.seeds - 1);
      std::vector<std::size_t> draw(t.seeds);
      for (auto& i : draw) i = pick_seed(rng);
      ratios.push_back(regret_over(t, draw));
    }
    const auto n = count_within(ratios);
    for (std::size_t k = 0; k < 3; ++k)
      shares[k].push_back(static_cast<double>(n[k]) / static_cast<double>(tables.size()));
  }
  for (std::size_t k = 0; k < 3 && replicates > 0; ++k) {
    e.low[k] = quantile(shares[k], 0.025);
    e.high[k] = quantile(shares[k], 0.975);
  }
  return e;
}

noise_counts against_best(const std::vector<config_runs>& configs, const std::string& policy) {
  noise_counts n;
  for (const auto& c : configs) {
    const auto best = beyond::best_of(c, reference_policies(c));
    if (!best) continue;
    const auto r = beyond::paired_ratio(c, policy, *best);
    if (!r && policy != *best) continue;
    ++n.configs;
    if (!r || (r->low <= 1 && r->high >= 1)) {
      ++n.within_noise;  // (the best itself: no ratio, no difference)
    } else if (r->low > 1) {
      n.slower_min = n.surely_slower ? std::min(n.slower_min, r->geo_mean) : r->geo_mean;
      n.slower_max = std::max(n.slower_max, r->geo_mean);
      ++n.surely_slower;
    } else {
      ++n.surely_faster;
    }
  }
  return n;
}

std::optional<ratio_estimate> mean_over_configs(const std::vector<config_runs>& configs,
                                                const std::string& a, const std::string& b) {
  std::vector<double> per_config;
  for (const auto& c : configs)
    if (const auto r = beyond::paired_ratio(c, a, b)) per_config.push_back(r->geo_mean);
  return ratio_of(per_config);
}

}  // namespace dlb::report::native

namespace dlb::report::native {
namespace {

using sweep::format_fixed;

std::string committed(const config_runs& c) {
  const auto it = c.chose.find("AUTO-ALL");
  if (it == c.chose.end()) return "-";
  std::string out;
  for (const auto& [seed, what] : it->second) out += (out.empty() ? "" : ", ") + seed + ": " + what;
  return out;
}

void regret_table(std::ostream& os, const std::vector<config_runs>& configs) {
  os << md_header({{"configuration"},
                   {"load"},
                   {"best policy"},
                   md_right("AUTO-ALL / best"),
                   md_right("AUTO / best"),
                   md_right("static block / best"),
                   {"AUTO-ALL committed to (seed: policy)"},
                   md_right("load average")});
  for (const auto& c : configs) {
    const auto r = regret_of(c);
    if (!r) continue;
    const auto la = report::median(c.loadavg);
    os << "| " << c.app << " " << c.size << " " << c.args << " | " << load_of(c) << " | " << r->best
       << " | " << format_estimate(r->auto_all) << " | " << format_estimate(r->autom) << " | "
       << (r->best == "NONE" ? std::string("1 (it is the best)")
                             : format_estimate(r->static_over_best))
       << " | " << committed(c) << " | " << (la ? format_fixed(*la, 2) : "-") << " |\n";
  }
  os << "\nTimes paired by seed (the seed of the load function; every policy of a configuration "
        "and repetition ran with the same one): geometric mean [95% interval, Student's t]. The "
        "best policy is the fastest by median of every policy measured but AUTO-ALL and AUTO "
        "(NONE, the static block, included); load average: the median over the configuration's "
        "runs of the machine's 1-minute load average as each run started.\n\n";
}

void shares_table(std::ostream& os, const std::vector<config_runs>& configs, int replicates) {
  os << "**The regret's distribution** (configurations where the choice is at most 1%, 3%, 5% "
        "slower than the best policy; [95% interval], a bootstrap of "
     << replicates << " draws over the configurations and, within each, its seeds):\n\n"
     << md_header({{"choice"},
                   md_right("configurations"),
                   md_right("within 1%"),
                   md_right("within 3%"),
                   md_right("within 5%")});
  share_estimate all;
  std::vector<std::string> rows{"AUTO-ALL", "AUTO"};
  for (const auto& p : beyond::policies_of(configs))
    if (p != "AUTO-ALL" && p != "AUTO") rows.push_back(p);
  for (const auto& p : rows) {
    const auto e = shares_within(configs, p, replicates, 1);
    if (p == "AUTO-ALL") all = e;
    if (e.configs == 0) continue;  // not in the study
    const bool fixed_policy = p != "AUTO-ALL" && p != "AUTO";
    os << "| " << p << (fixed_policy ? " (fixed)" : "") << " | " << e.configs << " |";
    for (std::size_t k = 0; k < 3; ++k)
      os << " " << e.within[k] << " ("
         << (e.configs ? format_fixed(100.0 * e.within[k] / e.configs, 0) : "-") << "%) ["
         << format_fixed(100 * e.low[k], 0) << ", " << format_fixed(100 * e.high[k], 0) << "] |";
    os << "\n";
  }
  const bool met5 = all.configs && all.within[2] * 10 >= all.configs * 9;
  const bool met3 = all.configs && all.within[1] * 4 >= all.configs * 3;
  os << "\n**Target: AUTO-ALL within 5% of the best policy in >= 90% of the configurations and "
        "within 3% in >= 75%: "
     << (met5 && met3 ? "met" : "missed") << ".** Within 5% in " << all.within[2] << " of "
     << all.configs << ", within 3% in " << all.within[1] << " of " << all.configs << ".\n\n"
     << "A fixed policy's row is judged the same way against the best of the fixed policies, "
        "itself included (so it is within 0% wherever it is the best): what a single fixed "
        "choice would have given, and the winner's curse any choice pays against a best picked "
        "after the fact from noisy medians.\n\n";
  os << "**Within noise** (the paired 95% interval of choice / best holds 1):";
  for (const std::string p : {"AUTO-ALL", "AUTO"}) {
    const auto n = against_best(configs, p);
    if (n.configs == 0) continue;
    os << " " << p << " in " << n.within_noise << " of " << n.configs << ", surely slower in "
       << n.surely_slower;
    if (n.surely_slower)
      os << " (" << format_fixed(n.slower_min) << " to " << format_fixed(n.slower_max)
         << " of the best)";
    os << ", surely faster in " << n.surely_faster << (p == "AUTO-ALL" ? ";" : ".");
  }
  os << "\n\n";
}

void means_table(std::ostream& os, const std::vector<config_runs>& configs) {
  os << "**The choices against every policy on average** (geometric mean over configurations "
        "of the paired ratio [95% interval over configurations]; < 1: the choice is faster):\n\n"
     << md_header({{"policy"}, md_right("AUTO-ALL / policy"), md_right("AUTO / policy")});
  bool faster_than_all = true;
  for (const auto& p : beyond::policies_of(configs)) {
    if (p == "AUTO-ALL") continue;
    const auto a = mean_over_configs(configs, "AUTO-ALL", p);
    faster_than_all = faster_than_all && (p == "AUTO" || (a && a->geo_mean < 1));
    os << "| " << p << " | " << format_estimate(a) << " | "
       << (p == "AUTO" ? "-" : format_estimate(mean_over_configs(configs, "AUTO", p))) << " |\n";
  }
  os << "\n**Target: AUTO-ALL faster than every fixed policy on the geometric mean: "
     << (faster_than_all ? "met" : "missed") << ".**\n\n";
}

void static_block_part(std::ostream& os, const std::vector<config_runs>& configs) {
  std::vector<double> ratios;
  for (const auto& c : configs) {
    if (!under_load(c)) continue;
    const auto r = regret_of(c);
    if (r) ratios.push_back(r->static_over_best ? r->static_over_best->geo_mean : 1.0);
  }
  const auto m = ratio_of(ratios);
  std::size_t at_least = 0;
  for (double r : ratios) at_least += r >= 1.3 ? 1 : 0;
  os << "**Target: under the competing load, the best policy at least 1.3x faster than the "
        "static block** (NONE / best, the column above, over the "
     << ratios.size() << " configurations under load): geometric mean " << format_estimate(m)
     << "; at "
     << "least 1.3 in " << at_least << " of " << ratios.size() << ": "
     << (m && m->geo_mean >= 1.3 ? "met" : "missed") << " on the geometric mean.\n\n";
}

}  // namespace

void write_markdown(std::ostream& os, const std::vector<config_runs>& configs, int replicates) {
  regret_table(os, configs);
  shares_table(os, configs, replicates);
  means_table(os, configs);
  static_block_part(os, configs);
  std::vector<double> la;
  for (const auto& c : configs) la.insert(la.end(), c.loadavg.begin(), c.loadavg.end());
  if (const auto s = report::describe(la))
    os << "The machine's 1-minute load average as each run started, over the " << la.size()
       << " runs: median " << format_fixed(s->median, 2) << ", " << format_fixed(s->min, 2)
       << " to " << format_fixed(s->max, 2)
       << " (2 ranks and the competing process count; a load average far "
       << "above that says the machine was shared).\n";
}

}  // namespace dlb::report::native
