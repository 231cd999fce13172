#include "report/expected.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "report/agreement.hpp"
#include "report/claims.hpp"
#include "report/markdown.hpp"
#include "report/report.hpp"
#include "report/runs.hpp"
#include "report/stats.hpp"
#include "sweep/sha256.hpp"
#include "sweep/text.hpp"

namespace dlb::report {

namespace {

void put_number(measurements& out, const std::string& key, std::optional<double> v) {
  if (v && std::isfinite(*v)) out[key].number = *v;
}

std::string app_upper(std::string app) {
  for (auto& ch : app) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return app;
}

std::string num(double v) { return sweep::format_sig(v, 6); }

}  // namespace

void measure_norms(const std::vector<summary_row>& rows, std::string_view name, measurements& out) {
  const std::string prefix(name);
  for (const auto& c : group_configs(rows)) {
    if (const summary_row* none = c.row("NONE"))
      put_number(out, prefix + " time " + app_upper(c.app) + " " + c.label() + " NONE (s)",
                 none->number("total_median"));
    for (const auto& [strategy, row] : c.strategies) {
      if (strategy == "NONE") continue;
      const std::string base = app_upper(c.app) + " " + c.label() + " " + strategy;
      put_number(out, prefix + " norm " + base, row->number("norm_median"));
      if (c.app == "trfd") {
        put_number(out, prefix + " norm_loop1 " + base, row->number("norm_loop1_median"));
        put_number(out, prefix + " norm_loop2 " + base, row->number("norm_loop2_median"));
      }
    }
  }
}

namespace {

// Each claim's verdict in both readings (measured ones only), and the counts holding.
void measure_claims(const std::vector<summary_row>& rows, const std::string& prefix,
                    measurements& out) {
  std::size_t strict = 0, tendency = 0, measured_claims = 0;
  for (const auto& c : evaluate_claims(rows)) {
    if (c.outcome != verdict::not_measured) {
      ++measured_claims;
      auto& m = out[prefix + " claim " + c.id + " strict"];
      m.verdict = to_string(c.outcome);
      m.paper = "holds";
    }
    if (c.tendency && *c.tendency != verdict::not_measured) {
      auto& m = out[prefix + " claim " + c.id + " tendency"];
      m.verdict = to_string(*c.tendency);
      m.paper = "holds";
    }
    if (c.outcome == verdict::holds) ++strict;
    if (c.tendency_or_strict() == verdict::holds) ++tendency;
  }
  if (measured_claims > 0) {
    out[prefix + " claims holding strictly (count)"] = {static_cast<double>(strict), "",
                                                        std::to_string(measured_claims)};
    out[prefix + " claims holding as a tendency (count)"] = {static_cast<double>(tendency), "",
                                                             std::to_string(measured_claims)};
  }
}

// Tables 1.1-1.3: our no-DLB time (under load) beside the paper's, the entries within 25%.
void measure_nodlb(const std::vector<config_view>& configs, const paper_tables& paper,
                   const std::string& prefix, measurements& out) {
  std::size_t entries = 0, within = 0;
  for (const auto& p : paper.nodlb) {
    for (const auto& c : configs) {
      if (c.app != p.app || c.procs != p.procs || c.ml == 0 || !size_matches(p.size, c.size))
        continue;
      const summary_row* none = c.row("NONE");
      const auto t = none ? none->number("total_median") : std::nullopt;
      if (!t || !(p.time_s > 0)) continue;
      ++entries;
      if (std::fabs(*t / p.time_s - 1.0) <= 0.25) ++within;
      const std::string what = " " + app_upper(c.app) + " " + c.label();
      const std::string paper_time = sweep::format_sig(p.time_s, 4) + " s";
      out[prefix + " " + p.table + what + " no-DLB time / the paper's"] = {
          *t / p.time_s, "", "1 (" + paper_time + ")"};
      const auto it = out.find(prefix + " time" + what + " NONE (s)");
      if (it != out.end()) it->second.paper = paper_time;
      break;
    }
  }
  if (entries > 0) {
    out[prefix + " Tables 1.1-1.3 no-DLB entries within 25% of the paper (count)"].number =
        static_cast<double>(within);
  }
}

// Table 1.4's counts, ours beside the paper's.
void measure_table14(const std::vector<config_view>& configs, const paper_tables& paper,
                     const std::string& prefix, measurements& out) {
  if (!paper.best.empty()) {
    const auto t = compare_table14(configs, paper.best);
    if (t.measured > 0) {
      out[prefix + " Table 1.4 rows measured"] = {static_cast<double>(t.measured), "",
                                                  std::to_string(t.paper_rows)};
      // The paper's side: its actual best is itself in every row; its model predicted its
      // actual best where the two columns agree.
      std::size_t paper_right = 0;
      for (const auto& b : paper.best) paper_right += b.actual_best == b.predicted_best ? 1 : 0;
      const std::string rows_text = std::to_string(t.paper_rows);
      out[prefix + " Table 1.4 our best = paper's actual best (rows)"] = {
          static_cast<double>(t.same_actual), "", rows_text + " (its own)"};
      out[prefix + " Table 1.4 our model predicts our best (rows)"] = {
          static_cast<double>(t.as_run.right), "",
          std::to_string(paper_right) + " (its model, its best)"};
      out[prefix + " Table 1.4 our model = paper's predicted (rows)"] = {
          static_cast<double>(t.model_matches), "", rows_text + " (its own)"};
    }
  }
}

// The implied-time rows: ours beside each, and the two counts of the report's section.
void measure_implied(const std::vector<config_view>& configs, const paper_tables& paper,
                     const std::string& prefix, measurements& out) {
  if (!paper.implied.empty()) {
    const auto j = judge_implied(paper.implied, configs);
    if (j.measured > 0) {
      out[prefix + " implied: ours inside the paper's interval (usable rows)"].number =
          static_cast<double>(j.contained);
      out[prefix + " implied: paper below our oracle bound (usable rows)"].number =
          static_cast<double>(j.beaten);
    }
    for (const auto& r : j.rows) {
      const auto& t = *r.time;
      if (!r.ours || !std::isfinite(*r.ours)) continue;
      const int dec = r.normalized ? 3 : 1;
      const auto f = [dec](double v) { return sweep::format_fixed(v, dec); };
      out[prefix + " implied " + t.row + " " + t.scheme + " (" + t.role + ") ours"] = {
          *r.ours, "",
          f(r.normalized ? t.norm : t.time_s) + " [" + f(r.lo) + ", " + f(r.hi) + "]" +
              (r.normalized ? "" : " s")};
    }
  }
}

}  // namespace

void measure_paper(const std::vector<summary_row>& rows, const paper_tables& paper,
                   std::string_view name, measurements& out) {
  const std::string prefix(name);
  measure_claims(rows, prefix, out);
  const auto configs = group_configs(rows);
  measure_nodlb(configs, paper, prefix, out);
  measure_table14(configs, paper, prefix, out);
  measure_implied(configs, paper, prefix, out);
}

std::size_t runs_not_ok(const sweep::csv_table& results) {
  std::size_t n = 0;
  for (const auto& r : rows_of(results)) n += !r.ok();
  return n;
}

void measure_agreement(const std::vector<summary_row>& a, const std::vector<summary_row>& b,
                       std::string_view name, measurements& out) {
  const std::string prefix(name);
  const auto r = compare_summaries(a, b);
  out[prefix + " pairs compared"].number = static_cast<double>(r.rows.size());
  if (r.abs_diff_pct) {
    out[prefix + " median |norm difference| %"].number = r.abs_diff_pct->median;
    out[prefix + " max |norm difference| %"].number = r.abs_diff_pct->max;
  }
  // NONE's time: the same configuration (app, P, size, ml) on both sides.
  std::optional<double> worst;
  for (const auto& x : a) {
    if (x.strategy() != "NONE") continue;
    for (const auto& y : b) {
      if (y.strategy() != "NONE" || y.app() != x.app() || y.procs() != x.procs() ||
          y.ml() != x.ml() || y.text("size") != x.text("size"))
        continue;
      const auto ta = x.number("total_median"), tb = y.number("total_median");
      if (!ta || !tb || !(*tb > 0)) continue;
      const double d = std::fabs(100.0 * (*ta / *tb - 1.0));
      worst = worst ? std::max(*worst, d) : d;
    }
  }
  put_number(out, prefix + " max |NONE time difference| %", worst);
}

std::vector<int> seeds_of(const sweep::csv_table& results) {
  std::set<int> seeds;
  for (const auto& row : results.rows) {
    if (results.field(row, "ml") == "0") continue;
    seeds.insert(std::stoi(std::string(results.field(row, "seed"))));
  }
  return {seeds.begin(), seeds.end()};
}

sweep::csv_table keep_seeds(const sweep::csv_table& results, const std::set<int>& keep) {
  sweep::csv_table t;
  t.comments = results.comments;
  t.columns = results.columns;
  for (std::size_t i = 0; i < results.rows.size(); ++i) {
    const auto& row = results.rows[i];
    const bool unloaded = results.field(row, "ml") == "0";
    if (unloaded || keep.count(std::stoi(std::string(results.field(row, "seed"))))) {
      t.rows.push_back(row);
      if (i < results.row_lines.size()) t.row_lines.push_back(results.row_lines[i]);
    }
  }
  return t;
}

std::vector<std::set<int>> seed_subsets(const std::vector<int>& seeds, int k) {
  const int n = static_cast<int>(seeds.size());
  if (k <= 0 || k > n)
    throw std::invalid_argument("subsets of " + std::to_string(k) + " of " + std::to_string(n) +
                                " seeds: need 1 <= k <= the number of seeds");
  std::vector<std::set<int>> out;
  std::vector<int> idx(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i) idx[static_cast<std::size_t>(i)] = i;
  while (true) {
    std::set<int> s;
    for (int i : idx) s.insert(seeds[static_cast<std::size_t>(i)]);
    out.push_back(std::move(s));
    int i = k - 1;
    while (i >= 0 && idx[static_cast<std::size_t>(i)] == n - k + i) --i;
    if (i < 0) break;
    ++idx[static_cast<std::size_t>(i)];
    for (int j = i + 1; j < k; ++j)
      idx[static_cast<std::size_t>(j)] = idx[static_cast<std::size_t>(j - 1)] + 1;
  }
  return out;
}

std::vector<expected_row> derive_expected(const std::vector<measurements>& subsets,
                                          const std::string& spread, double slack) {
  std::vector<expected_row> out;
  if (subsets.empty()) return out;
  for (const auto& [key, first] : subsets.front()) {
    std::vector<double> numbers;
    std::map<std::string, std::size_t> verdicts;
    bool everywhere = true;
    for (const auto& m : subsets) {
      const auto it = m.find(key);
      if (it == m.end()) {
        everywhere = false;
        break;
      }
      if (it->second.number) numbers.push_back(*it->second.number);
      if (!it->second.verdict.empty()) ++verdicts[it->second.verdict];
    }
    if (!everywhere) continue;
    expected_row e;
    e.key = key;
    e.spread = spread;
    e.paper = first.paper;
    if (!first.verdict.empty()) {
      e.kind = "verdict";
      e.ours_verdict = first.verdict;
      std::vector<std::pair<std::string, std::size_t>> seen(verdicts.begin(), verdicts.end());
      std::stable_sort(seen.begin(), seen.end(),
                       [](const auto& x, const auto& y) { return x.second > y.second; });
      std::ostringstream share;
      for (const auto& [v, n] : seen) {
        e.verdicts.push_back(v);
        share << (share.tellp() > 0 ? ", " : "") << v << " in " << n;
      }
      e.spread += ": " + share.str();
      e.rule = seen.size() == 1 ? "the verdict of every subset"
                                : "unstable over the seeds: any verdict a subset gave";
    } else if (numbers.size() == subsets.size()) {
      e.kind = "number";
      e.ours = numbers.front();
      const auto s = describe(numbers);
      e.expected = s->median;
      e.lo = s->min - slack;
      e.hi = s->max + slack;
      e.rule = "median over the subsets; band their min to max, +-" + num(slack);
    } else {
      continue;
    }
    out.push_back(std::move(e));
  }
  return out;
}

expected_row fixed_band(const std::string& key, double observed, double lo, double hi,
                        const std::string& rule) {
  expected_row e;
  e.key = key;
  e.kind = "number";
  e.expected = observed;
  e.lo = lo;
  e.hi = hi;
  e.spread = "one reference run";
  e.rule = rule;
  return e;
}

sweep::csv_table expected_table(const std::vector<expected_row>& rows) {
  sweep::csv_table t;
  t.columns = {"key",      "kind",   "expected", "lo",    "hi",
               "verdicts", "spread", "rule",     "paper", "ours"};
  for (const auto& r : rows) {
    std::string verdicts;
    for (const auto& v : r.verdicts) verdicts += (verdicts.empty() ? "" : "|") + v;
    const bool n = r.kind == "number";
    t.rows.push_back({r.key, r.kind, n ? num(r.expected) : "", n ? num(r.lo) : "",
                      n ? num(r.hi) : "", verdicts, r.spread, r.rule, r.paper,
                      n ? (r.ours ? sweep::format_sig(*r.ours, 12) : "") : r.ours_verdict});
  }
  return t;
}

std::vector<expected_row> read_expected(const sweep::csv_table& table) {
  for (const char* c : {"key", "kind", "expected", "lo", "hi", "verdicts"}) {
    if (!table.column(c))
      throw sweep::csv_error("not an expected-results file (no column '" + std::string(c) + "')");
  }
  std::vector<expected_row> out;
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const auto& row = table.rows[i];
    const std::string where =
        "line " + std::to_string(i < table.row_lines.size() ? table.row_lines[i] : i + 2);
    expected_row e;
    e.key = table.field(row, "key");
    e.kind = table.field(row, "kind");
    e.spread = table.field(row, "spread");
    e.rule = table.field(row, "rule");
    e.paper = table.field(row, "paper");
    if (e.key.empty()) throw sweep::csv_error(where + ": empty key");
    if (e.kind == "number") {
      const auto parse = [&](const char* col) {
        const std::string s(table.field(row, col));
        std::size_t used = 0;
        double v = 0;
        try {
          v = std::stod(s, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (s.empty() || used != s.size() || !std::isfinite(v))
          throw sweep::csv_error(where + ": column " + col + " must be a number, got '" + s + "'");
        return v;
      };
      e.expected = parse("expected");
      e.lo = parse("lo");
      e.hi = parse("hi");
      if (!table.field(row, "ours").empty()) e.ours = parse("ours");
      if (e.lo > e.hi) throw sweep::csv_error(where + ": lo > hi for '" + e.key + "'");
    } else if (e.kind == "verdict") {
      std::string v(table.field(row, "verdicts"));
      for (std::size_t p = 0; p <= v.size();) {
        const auto bar = std::min(v.find('|', p), v.size());
        if (bar > p) e.verdicts.push_back(v.substr(p, bar - p));
        p = bar + 1;
      }
      if (e.verdicts.empty()) throw sweep::csv_error(where + ": no verdicts for '" + e.key + "'");
      e.ours_verdict = table.field(row, "ours");
    } else {
      throw sweep::csv_error(where + ": column kind must be number or verdict, got '" + e.kind +
                             "'");
    }
    out.push_back(std::move(e));
  }
  return out;
}

namespace {

constexpr std::string_view kSealPrefix = "# integrity: rows=";
constexpr std::string_view kSealHash = " sha256=";

}  // namespace

std::string seal_expected(const std::string& text, std::size_t rows) {
  return text + std::string(kSealPrefix) + std::to_string(rows) + std::string(kSealHash) +
         sweep::sha256_hex(text) + "\n";
}

std::vector<expected_row> read_sealed_expected(std::string_view text, std::string_view source) {
  const std::string src(source);
  const auto refused = [&src](const std::string& why) {
    return sweep::csv_error(src + ": " + why +
                            " (an expected-values file ends with the line '# integrity: rows=N "
                            "sha256=HEX' that dlb_expected writes; derive it again)");
  };
  if (text.empty() || text.back() != '\n')
    throw refused("cut short: its last line has no newline, so no integrity line at its end");
  const auto nl = text.rfind('\n', text.size() - 2);
  const std::size_t at = nl == std::string_view::npos ? 0 : nl + 1;
  const std::string_view last = text.substr(at, text.size() - 1 - at);
  if (last.rfind(kSealPrefix, 0) != 0)
    throw refused("cut short or not written by dlb_expected: no integrity line at its end");
  const std::string_view rest = last.substr(kSealPrefix.size());
  const auto hash_at = rest.find(kSealHash);
  const auto rows = sweep::parse_uint(rest.substr(0, hash_at));
  const std::string_view hash =
      hash_at == std::string_view::npos ? "" : rest.substr(hash_at + kSealHash.size());
  if (!rows || hash.size() != 64)
    throw refused("a malformed integrity line '" + std::string(last) + "'");
  const std::string_view body = text.substr(0, at);
  if (sweep::sha256_hex(body) != hash)
    throw refused("its content does not match its checksum (cut or edited after it was written)");
  const auto table = sweep::parse_csv_table(body, source);
  if (table.rows.size() != *rows) {
    throw refused("holds " + std::to_string(table.rows.size()) +
                  " rows where its integrity line says " + std::to_string(*rows));
  }
  try {
    return read_expected(table);
  } catch (const sweep::csv_error& e) {
    throw sweep::csv_error(src + ": " + e.what());
  }
}

std::vector<check_line> check_expected(const std::vector<expected_row>& expected,
                                       const measurements& got) {
  std::vector<check_line> out;
  for (const auto& e : expected) {
    check_line l;
    l.key = e.key;
    const auto it = got.find(e.key);
    std::ostringstream text;
    if (e.kind == "number") {
      const bool have = it != got.end() && it->second.number;
      l.ok = have && *it->second.number >= e.lo && *it->second.number <= e.hi;
      text << e.key << ": " << (have ? num(*it->second.number) : "not measured") << ", expected "
           << num(e.expected) << " in [" << num(e.lo) << ", " << num(e.hi) << "]";
      if (e.ours) {
        const double v = have ? *it->second.number : std::nan("");
        l.same_as_ours = have && std::fabs(v - *e.ours) <= 1e-6 * std::max(1.0, std::fabs(*e.ours));
        if (!*l.same_as_ours) text << " (ours at the same seeds: " << num(*e.ours) << ")";
      }
    } else {
      const bool have = it != got.end() && !it->second.verdict.empty();
      l.ok = have && std::find(e.verdicts.begin(), e.verdicts.end(), it->second.verdict) !=
                         e.verdicts.end();
      text << e.key << ": " << (have ? it->second.verdict : "not measured") << ", expected ";
      for (std::size_t i = 0; i < e.verdicts.size(); ++i)
        text << (i ? " or " : "") << e.verdicts[i];
      if (!e.ours_verdict.empty()) {
        l.same_as_ours = have && it->second.verdict == e.ours_verdict;
        if (!*l.same_as_ours) text << " (ours at the same seeds: " << e.ours_verdict << ")";
      }
    }
    l.text = (l.ok ? "ok      " : "OUTSIDE ") + text.str();
    out.push_back(std::move(l));
  }
  return out;
}

std::string same_as_ours_summary(const std::vector<check_line>& lines) {
  std::size_t with = 0, same = 0;
  for (const auto& l : lines) {
    if (!l.same_as_ours) continue;
    ++with;
    if (*l.same_as_ours) ++same;
  }
  if (with == 0) return "";
  return "identical to ours (same seeds, relative 1e-6): " + std::to_string(same) + " of " +
         std::to_string(with);
}

std::string check_summary(const std::vector<check_line>& lines) {
  const auto ok = std::count_if(lines.begin(), lines.end(), [](const auto& l) { return l.ok; });
  return "expected results: " + std::to_string(ok) + " of " + std::to_string(lines.size()) +
         " within tolerance";
}

namespace {

// Which table of the rendered page a key belongs to (its words after the input's name).
std::string group_of(const std::string& key) {
  const std::vector<std::pair<std::string, std::string>> groups = {
      {" norm_loop", "TRFD's loops: median normalized time (Figure 1.9's loop panels)"},
      {" norm ",
       "Median normalized time, time / no-DLB time of the same seed (Figures 1.7, 1.9, 1.10)"},
      {" no-DLB", "No-DLB time over the paper's (Tables 1.1-1.3)"},
      {"Tables 1.1-1.3", "No-DLB time over the paper's (Tables 1.1-1.3)"},
      {" time ", "No-DLB time under load, emulated seconds (Tables 1.1-1.3)"},
      {" claim ", "The claims (experiments/paper/claims.md), each reading"},
      {" claims holding", "The claims (experiments/paper/claims.md), each reading"},
      {" Table 1.4", "Table 1.4: actual and predicted best"},
      {" implied", "The paper's DLB times implied by Table 1.4 and the text, beside ours"},
      {" runs not ok", "Runs: every one ok and verified"},
  };
  for (const auto& [needle, name] : groups) {
    if (key.find(needle) != std::string::npos) return name;
  }
  return "Agreement of the backends (percent of the no-DLB time)";
}

}  // namespace

std::string render_expected(const std::vector<expected_row>& rows) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const expected_row*>> by_group;
  for (const auto& r : rows) {
    const auto g = group_of(r.key);
    if (!by_group.count(g)) order.push_back(g);
    by_group[g].push_back(&r);
  }
  std::ostringstream md;
  for (const auto& g : order) {
    md << "### " << g << "\n\n"
       << md_header({{"quantity"}, {"paper"}, {"expected"}, {"tolerance"}, {"from"}});
    for (const auto* r : by_group[g]) {
      md << "| " << md_escape(r->key) << " | " << (r->paper.empty() ? "-" : md_escape(r->paper))
         << " | ";
      if (r->kind == "number") {
        md << num(r->expected) << " | [" << num(r->lo) << ", " << num(r->hi) << "]";
      } else {
        md << md_escape(r->verdicts.front()) << " | ";
        for (std::size_t i = 0; i < r->verdicts.size(); ++i)
          md << (i ? " or " : "") << md_escape(r->verdicts[i]);
      }
      md << " | " << md_escape(r->spread) << "; " << md_escape(r->rule) << " |\n";
    }
    md << "\n";
  }
  return md.str();
}

}  // namespace dlb::report
