// The table of runs (runs.hpp).
#include "report/runs.hpp"

#include <set>
#include <stdexcept>

#include "sweep/results_store.hpp"
#include "sweep/text.hpp"

namespace dlb::report {

const std::vector<std::string>& config_columns() {
  static const std::vector<std::string> c{"app",   "P",     "K",       "size",    "ml",        "tl",
                                          "clock", "scale", "network", "backend", "extra_args"};
  return c;
}

std::optional<double> run::number(std::string_view column) const {
  return sweep::parse_double(text(column));
}

std::string run::config_key() const {
  std::string k;
  for (const auto& c : config_columns()) {
    k += sweep::key_field(*table, *row, c);
    k += '\x1f';
  }
  return k;
}

void require_columns(const sweep::csv_table& table, const std::vector<std::string>& columns) {
  for (const auto& c : columns)
    if (!table.column(c)) throw std::runtime_error("results table has no column '" + c + "'");
}

std::vector<run> latest_runs(const std::vector<sweep::csv_table>& results,
                             std::size_t* superseded) {
  std::map<std::string, run> last;
  std::vector<std::string> order;
  std::size_t rows_seen = 0;
  for (const auto& t : results) {
    for (const auto& row : t.rows) {
      ++rows_seen;
      const std::string key = sweep::row_key(t, row);
      auto [it, fresh] = last.try_emplace(key, run{&t, &row});
      if (fresh) {
        order.push_back(key);
      } else {
        it->second = run{&t, &row};
      }
    }
  }
  if (superseded) *superseded = rows_seen - last.size();
  std::vector<run> runs;
  for (const auto& key : order) runs.push_back(last.at(key));
  return runs;
}

std::vector<run> rows_of(const sweep::csv_table& table) {
  std::vector<run> out;
  for (const auto& row : table.rows) out.push_back(run{&table, &row});
  return out;
}

reference_runs::reference_runs(const std::vector<run>& runs, const std::string& policy,
                               bool (*use)(const run&)) {
  for (const auto& r : runs)
    if (use(r) && r.text("strategy") == policy) by_seed_[r.config_key() + r.seed()] = r;
}

const run* reference_runs::partner(const run& r, const std::string& config) const {
  const auto it = by_seed_.find(config + r.seed());
  return it == by_seed_.end() ? nullptr : &it->second;
}

std::vector<double> paired_ratios(const by_seed& a, const by_seed& b, bool positive_a) {
  std::vector<double> out;
  for (const auto& [seed, x] : a) {
    const auto y = b.find(seed);
    if (y != b.end() && y->second > 0 && (!positive_a || x > 0)) out.push_back(x / y->second);
  }
  return out;
}

std::vector<std::string> seeds_of(const std::vector<sweep::csv_table>& results) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& t : results) {
    if (!t.column("seed")) continue;
    for (const auto& r : t.rows) {
      const std::string s(t.field(r, "seed"));
      if (seen.insert(s).second) out.push_back(s);
    }
  }
  return out;
}

sweep::csv_table resample_seeds(const sweep::csv_table& table,
                                const std::vector<std::string>& drawn) {
  const auto rep_col = table.column("rep");
  const auto seed_col = table.column("seed");
  if (!rep_col || !seed_col) return table;
  std::map<std::string, std::vector<const std::vector<std::string>*>> by_seed;
  for (const auto& r : table.rows) by_seed[r[*seed_col]].push_back(&r);
  sweep::csv_table t;
  t.columns = table.columns;
  for (std::size_t slot = 0; slot < drawn.size(); ++slot) {
    for (const auto* r : by_seed[drawn[slot]]) {
      auto copy = *r;
      copy[*rep_col] = std::to_string(slot);
      copy[*seed_col] = std::to_string(1000000 + slot);
      t.rows.push_back(std::move(copy));
    }
  }
  return t;
}

}  // namespace dlb::report
