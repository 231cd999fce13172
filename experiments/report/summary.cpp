// Raw results -> summary (median, spread, paired normalization).
#include "report/summary.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "report/stats.hpp"
#include "sweep/config.hpp"
#include "sweep/results_store.hpp"
#include "sweep/text.hpp"

namespace dlb::report {
namespace {

using sweep::csv_table;
using sweep::format_sig;
using sweep::parse_double;

const std::vector<std::string>& measured() {
  // Result columns summarized as median/min/max, and their short names in the summary.
  static const std::vector<std::string> m{"total_s", "loop1_s", "loop2_s"};
  return m;
}

std::string short_name(const std::string& col) { return col.substr(0, col.size() - 2); }

std::string fmt(double x) { return format_sig(x, 6); }

}  // namespace

std::string prediction_column(std::string_view loop, std::string_view load) {
  std::string c = "predicted_best";
  for (const std::string_view part : {load, loop}) {
    if (part.empty()) continue;
    c += '_';
    c.append(part);
  }
  return c;
}

const std::vector<std::pair<std::string, std::string>>& prediction_columns() {
  static const std::vector<std::pair<std::string, std::string>> c = [] {
    std::vector<std::pair<std::string, std::string>> v;
    for (const std::string loop : {"", "loop1", "loop2"}) {
      for (const std::string load : {"", "run", "estimated"}) {
        if (loop.empty() && load.empty()) continue;  // predicted_best: voted on its own
        // The programs' RESULT key: loop prefix, then predicted_best, then the load.
        std::string key = loop;
        if (!key.empty()) key += '_';
        key += "predicted_best";
        if (!load.empty()) key.append("_").append(load);
        v.emplace_back(key, prediction_column(loop, load));
      }
    }
    return v;
  }();
  return c;
}

const std::vector<std::string>& summary_columns() {
  static const std::vector<std::string> cols = [] {
    std::vector<std::string> c = config_columns();
    c.insert(c.end(), {"strategy", "runs", "paired"});
    for (const auto& m : measured()) {
      const auto s = short_name(m);
      c.insert(c.end(), {s + "_median", s + "_min", s + "_max"});
    }
    for (const std::string s : {"norm", "norm_loop1", "norm_loop2"}) {
      c.insert(c.end(), {s + "_median", s + "_min", s + "_max"});
    }
    c.insert(c.end(),
             {"syncs_median", "syncs_max", "redistributions_median", "iterations_moved_median",
              "bytes_moved_median", "lag_pct_median", "lag_pct_max", "predicted_best",
              "predicted_best_votes", "wall_median", "predicted_best_loop1", "predicted_best_loop2",
              "over_oracle_median", "over_oracle_min", "over_oracle_max"});
    for (const auto& [result_key, column] : prediction_columns()) {
      if (column.rfind("predicted_best_loop", 0) != 0) c.push_back(column);
    }
    return c;
  }();
  return cols;
}

int app_rank(std::string_view app) {
  const auto& a = sweep::known_apps();
  const auto it = std::find(a.begin(), a.end(), app);
  return it == a.end() ? static_cast<int>(a.size()) : static_cast<int>(it - a.begin());
}

int strategy_rank(std::string_view strategy) {
  // Twice the position among the known names; CSS:k (any k) just before AUTO-ALL, after the
  // other self-scheduling baselines; anything else last.
  const auto& s = sweep::known_strategies();
  const auto at = [&s](std::string_view name) {
    return static_cast<int>(std::find(s.begin(), s.end(), name) - s.begin());
  };
  if (strategy.rfind("CSS:", 0) == 0) return 2 * at("AUTO-ALL") - 1;
  return 2 * at(strategy);
}

bool size_less(std::string_view a, std::string_view b) {
  try {
    const auto sa = sweep::parse_size(a);
    const auto sb = sweep::parse_size(b);
    std::vector<std::int64_t> va, vb;
    for (const auto& [k, v] : sa.params) va.push_back(v);
    for (const auto& [k, v] : sb.params) vb.push_back(v);
    if (va != vb) return va < vb;
  } catch (const sweep::config_error&) {
  }
  return a < b;
}

namespace {

// A run that counts: ok, with a total time.
bool counted(const run& r) { return r.ok() && r.number("total_s"); }

// The counted runs grouped by configuration and strategy, in order of first appearance.
struct run_groups {
  std::map<std::string, std::vector<run>> groups;  // config key + strategy
  std::vector<std::string> order;                  // of first appearance
};

run_groups group_ok_runs(const std::vector<run>& runs, summary_counts& counts) {
  run_groups g;
  for (const auto& r : runs) {
    const std::string status = r.status();
    if (status != "ok") {
      ++counts.excluded[status.empty() ? "(no status)" : status];
      continue;
    }
    if (!r.number("total_s")) {
      ++counts.no_total;
      continue;
    }
    ++counts.used;
    const std::string gk = r.config_key() + r.policy();
    if (!g.groups.count(gk)) g.order.push_back(gk);
    g.groups[gk].push_back(r);
  }
  return g;
}

// The most frequent prediction; ties go to the strategy listed first.
std::map<std::string, std::size_t>::const_iterator most_voted(
    const std::map<std::string, std::size_t>& v) {
  return std::max_element(v.begin(), v.end(), [](auto& a, auto& b) {
    if (a.second != b.second) return a.second < b.second;
    return strategy_rank(a.first) > strategy_rank(b.first);
  });
}

// What a group's runs give: samples of each measure, the votes for the best strategy (whole
// run, and each loop and model), and how many runs have a no-DLB partner of the same seed.
struct group_samples {
  std::map<std::string, std::vector<double>> samples;
  std::map<std::string, std::size_t> votes;
  std::map<std::string, std::map<std::string, std::size_t>> loop_votes;
  std::size_t paired = 0;
};

// One run into the group's samples (normalized ones paired with the no-DLB run of its seed).
void sample_run(const run& r, const std::string& config, const reference_runs& none,
                group_samples& g) {
  for (const std::string c : {"total_s", "loop1_s", "loop2_s", "syncs", "redistributions",
                              "iterations_moved", "bytes_moved", "lag_pct", "wall_s"}) {
    if (auto x = r.number(c)) g.samples[c].push_back(*x);
  }
  // Time over the oracle bound (an ideal zero-overhead balancer under the same load).
  if (const auto total = r.number("total_s"), oracle = r.number("oracle_s");
      total && oracle && *oracle > 0)
    g.samples["over_oracle"].push_back(*total / *oracle);
  const std::string pb(r.text("predicted_best"));
  if (!pb.empty() && pb != "-") ++g.votes[pb];
  // TRFD balances its two loops independently: each has its own prediction; and every
  // balanced run predicts under both assumptions about the load (--model-load).
  for (const auto& [result_key, column] : prediction_columns()) {
    const std::string pl(r.text(result_key));
    if (!pl.empty() && pl != "-") ++g.loop_votes[column][pl];
  }
  const run* partner = none.partner(r, config);
  if (!partner) return;
  ++g.paired;
  for (const std::string c : {"total_s", "loop1_s", "loop2_s"}) {
    const auto mine = r.number(c);
    const auto base = partner->number(c);
    if (mine && base && *base > 0) g.samples["norm_" + c].push_back(*mine / *base);
  }
}

// One group's summary fields: its configuration, the median/min/max of each measure over its
// runs (normalized ones paired with the no-DLB run of the same seed), and the predictions.
std::map<std::string, std::string> summary_fields(const std::vector<run>& runs,
                                                  const reference_runs& none) {
  const run& r0 = runs.front();
  std::map<std::string, std::string> f;
  for (const auto& c : config_columns()) f[c] = sweep::key_field(*r0.table, *r0.row, c);
  f["strategy"] = r0.policy();
  f["runs"] = std::to_string(runs.size());
  const std::string config = r0.config_key();
  group_samples g;
  for (const auto& r : runs) sample_run(r, config, none, g);
  f["paired"] = std::to_string(g.paired);
  for (const auto& [prefix, sample] :
       std::vector<std::pair<std::string, std::string>>{{"total", "total_s"},
                                                        {"loop1", "loop1_s"},
                                                        {"loop2", "loop2_s"},
                                                        {"norm", "norm_total_s"},
                                                        {"norm_loop1", "norm_loop1_s"},
                                                        {"norm_loop2", "norm_loop2_s"},
                                                        {"syncs", "syncs"},
                                                        {"redistributions", "redistributions"},
                                                        {"iterations_moved", "iterations_moved"},
                                                        {"bytes_moved", "bytes_moved"},
                                                        {"lag_pct", "lag_pct"},
                                                        {"wall", "wall_s"},
                                                        {"over_oracle", "over_oracle"}}) {
    if (const auto d = describe(g.samples[sample])) {
      f[prefix + "_median"] = fmt(d->median);
      f[prefix + "_min"] = fmt(d->min);
      f[prefix + "_max"] = fmt(d->max);
    }
  }
  if (!g.votes.empty()) {
    const auto best = most_voted(g.votes);
    f["predicted_best"] = best->first;
    f["predicted_best_votes"] = std::to_string(best->second) + "/" + std::to_string(runs.size());
  }
  for (const auto& [column, v] : g.loop_votes) f[column] = most_voted(v)->first;
  return f;
}

}  // namespace

summary_result summarize(const std::vector<csv_table>& results) {
  summary_result out;
  const auto runs = latest_runs(results, &out.counts.superseded);
  const run_groups g = group_ok_runs(runs, out.counts);
  const reference_runs none(runs, "NONE", counted);
  for (const auto& gk : g.order) {
    auto f = summary_fields(g.groups.at(gk), none);
    std::vector<std::string> row;
    for (const auto& c : summary_columns()) row.push_back(f.count(c) ? f[c] : std::string());
    out.table.rows.push_back(row);
  }
  out.table.columns = summary_columns();

  const auto col = [&](const char* name) { return *out.table.column(name); };
  const auto ip = col("P"), isz = col("size"), iml = col("ml"), ist = col("strategy"),
             iapp = col("app"), ibk = col("backend");
  std::stable_sort(out.table.rows.begin(), out.table.rows.end(), [&](const auto& a, const auto& b) {
    const auto ka = std::make_tuple(app_rank(a[iapp]), a[iapp], parse_double(a[ip]).value_or(0));
    const auto kb = std::make_tuple(app_rank(b[iapp]), b[iapp], parse_double(b[ip]).value_or(0));
    if (ka != kb) return ka < kb;
    if (a[isz] != b[isz]) return size_less(a[isz], b[isz]);
    // Runs under external load before runs without it.
    const double ma = parse_double(a[iml]).value_or(0), mb = parse_double(b[iml]).value_or(0);
    if (ma != mb) return ma > mb;
    if (a[ibk] != b[ibk]) return a[ibk] < b[ibk];
    return strategy_rank(a[ist]) < strategy_rank(b[ist]);
  });
  return out;
}

std::string_view summary_row::text(const std::string& column) const {
  const auto it = fields.find(column);
  return it == fields.end() ? std::string_view() : std::string_view(it->second);
}

std::optional<double> summary_row::number(const std::string& column) const {
  return parse_double(text(column));
}

int summary_row::procs() const { return static_cast<int>(number("P").value_or(0)); }
int summary_row::ml() const { return static_cast<int>(number("ml").value_or(0)); }
std::string summary_row::backend() const {
  const auto b = text("backend");
  return b.empty() ? std::string("pvm") : std::string(b);
}

std::string summary_row::config_key() const {
  std::string k;
  for (const auto& c : config_columns()) {
    k += c == "backend" ? backend() : std::string(text(c));
    k += '\x1f';
  }
  return k;
}

std::vector<summary_row> load_summary(const csv_table& table) {
  for (const std::string c : {"app", "P", "size", "strategy", "runs", "total_median"}) {
    if (!table.column(c)) throw sweep::csv_error("not a dlb_summary file: no column '" + c + "'");
  }
  std::vector<summary_row> rows;
  for (const auto& r : table.rows) {
    summary_row s;
    for (std::size_t i = 0; i < table.columns.size(); ++i) s.fields[table.columns[i]] = r[i];
    rows.push_back(std::move(s));
  }
  return rows;
}

std::string backends_joined(const std::vector<summary_row>& rows, std::string_view separator,
                            std::string_view none) {
  std::set<std::string> b;
  for (const auto& r : rows) b.insert(r.backend());
  std::string s;
  for (const auto& x : b) {
    if (!s.empty()) s += separator;
    s += x;
  }
  return s.empty() ? std::string(none) : s;
}

}  // namespace dlb::report
