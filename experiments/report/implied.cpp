// The paper's implied DLB times (implied.hpp).
#include "report/implied.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "report/claims.hpp"
#include "report/summary.hpp"
#include "sweep/config.hpp"
#include "report/markdown.hpp"
#include "sweep/text.hpp"

namespace dlb::report {
namespace {

double number_of(const std::string& printed, const std::string& what) {
  const auto v = sweep::parse_double(printed);
  if (!v || !std::isfinite(*v)) throw std::invalid_argument(what + " is not a number: '" + printed + "'");
  return *v;
}

std::string row_label(const std::string& app, int procs, const std::string& size_text,
                      const std::string& loop) {
  return sweep::upper(app) + " P=" + std::to_string(procs) + " " + size_text +
         (loop.empty() ? "" : " " + loop);
}

const paper_nodlb_row* nodlb_of(const std::vector<paper_nodlb_row>& nodlb, const std::string& app,
                                int procs, const size_params& size) {
  for (const auto& r : nodlb) {
    if (r.app != app || r.procs != procs) continue;
    bool same = true;
    for (const auto& [k, v] : r.size) {
      const auto it = size.find(k);
      if (it == size.end() || it->second != v) same = false;
    }
    if (same) return &r;
  }
  return nullptr;
}

// Normalizes a whole program's time by its no-DLB time (a loop's time stays in seconds).
void normalize(implied_time& t, const std::vector<paper_nodlb_row>& nodlb) {
  if (!t.loop.empty()) return;
  const auto* base = nodlb_of(nodlb, t.app, t.procs, t.size);
  if (!base) return;
  t.nodlb_s = base->time_s;
  t.norm = t.time_s / base->time_s;
  t.norm_lo = t.time_lo / (base->time_s + kNodlbHalfUnit);
  t.norm_hi = t.time_hi / (base->time_s - kNodlbHalfUnit);
  t.usable = std::isfinite(t.norm_hi) && t.norm_hi / t.norm_lo <= kUsableSpread;
}

std::string fixed(double x, int decimals) {
  if (!std::isfinite(x)) return std::isnan(x) ? "" : "inf";
  return sweep::format_fixed(x, decimals);
}

std::string interval(double lo, double hi, int decimals) {
  return fixed(lo, decimals) + ".." + fixed(hi, decimals);
}

}  // namespace

double half_unit(const std::string& printed) {
  number_of(printed, "a printed value");
  const auto dot = printed.find('.');
  int decimals = 0;
  if (dot != std::string::npos) {
    for (std::size_t i = dot + 1; i < printed.size() && std::isdigit(static_cast<unsigned char>(printed[i])); ++i)
      ++decimals;
  }
  return 0.5 * std::pow(10.0, -decimals);
}

std::vector<paper_text_time> read_paper_text_times(const std::filesystem::path& dir) {
  const auto path = dir / "text_times.csv";
  const sweep::csv_table t = sweep::read_csv_table(path);
  for (const char* c : {"app", "P", "size", "loop", "scheme", "time_s", "source"}) {
    if (!t.column(c)) throw sweep::csv_error(path.string() + ": no column '" + c + "'");
  }
  std::vector<paper_text_time> out;
  for (const auto& row : t.rows) {
    paper_text_time r;
    r.app = sweep::lower(std::string(t.field(row, "app")));
    const auto p = sweep::parse_int(t.field(row, "P"));
    if (!p || *p <= 0) throw sweep::csv_error(path.string() + ": P is not a positive integer");
    r.procs = static_cast<int>(*p);
    r.size_text = std::string(t.field(row, "size"));
    try {
      for (const auto& [k, v] : sweep::parse_size(r.size_text).params) r.size[k] = v;
    } catch (const sweep::config_error& e) {
      throw sweep::csv_error(path.string() + ": " + e.what());
    }
    if (r.app == "mxm" && !r.size.count("m")) r.size["m"] = 400;
    r.loop = std::string(t.field(row, "loop"));
    r.scheme = std::string(t.field(row, "scheme"));
    r.time_s = std::string(t.field(row, "time_s"));
    const auto v = sweep::parse_double(r.time_s);
    if (!v || !(*v > 0)) throw sweep::csv_error(path.string() + ": time_s is not a positive number: '" + r.time_s + "'");
    r.source = std::string(t.field(row, "source"));
    out.push_back(r);
  }
  return out;
}

std::vector<implied_time> derive_implied(const std::vector<paper_best_row>& best,
                                         const std::vector<paper_nodlb_row>& nodlb,
                                         const std::vector<paper_text_time>& text) {
  std::vector<implied_time> out;
  for (const auto& b : best) {
    if (b.diff_s.empty() && b.diff_pct.empty()) continue;
    const std::string label = row_label(b.app, b.procs, b.size_text, b.loop);
    const double d = number_of(b.diff_s, label + ": diff_s");
    const double pct = number_of(b.diff_pct, label + ": diff_pct");
    if (!(d > 0) || !(pct > 0)) throw std::invalid_argument(label + ": a difference must be > 0");
    const double ud = half_unit(b.diff_s), up = half_unit(b.diff_pct);
    implied_time a;
    a.source = "Table 1.4: diff_s / diff_pct";
    a.app = b.app;
    a.procs = b.procs;
    a.size = b.size;
    a.size_text = b.size_text;
    a.loop = b.loop;
    a.row = label;
    a.scheme = b.actual_best;
    a.role = "actual best";
    a.diff_s = b.diff_s;
    a.diff_pct = b.diff_pct;
    a.time_s = d / (pct / 100.0);
    a.time_lo = (d - ud) / ((pct + up) / 100.0);
    a.time_hi = pct - up > 0 ? (d + ud) / ((pct - up) / 100.0) : std::numeric_limits<double>::infinity();
    normalize(a, nodlb);
    implied_time p = a;
    p.source = "Table 1.4: diff_s / diff_pct + diff_s";
    p.scheme = b.predicted_best;
    p.role = "predicted best";
    p.time_s = a.time_s + d;
    p.time_lo = a.time_lo + d - ud;
    p.time_hi = a.time_hi + d + ud;
    p.norm = p.norm_lo = p.norm_hi = std::numeric_limits<double>::quiet_NaN();
    p.usable = false;
    normalize(p, nodlb);
    out.push_back(a);
    out.push_back(p);
  }
  for (const auto& s : text) {
    implied_time t;
    t.source = s.source;
    t.app = s.app;
    t.procs = s.procs;
    t.size = s.size;
    t.size_text = s.size_text;
    t.loop = s.loop;
    t.row = row_label(s.app, s.procs, s.size_text, s.loop);
    t.scheme = s.scheme;
    t.role = "stated";
    t.time_s = number_of(s.time_s, t.row + ": time_s");
    const double u = half_unit(s.time_s);
    t.time_lo = t.time_s - u;
    t.time_hi = t.time_s + u;
    normalize(t, nodlb);
    out.push_back(t);
  }
  return out;
}

sweep::csv_table implied_table(const std::vector<implied_time>& rows) {
  sweep::csv_table t;
  t.comments = {
      "The paper's DLB times implied by Table 1.4 and stated in the text (issue 34; written by "
      "dlb_implied from table1_4_best.csv, table1_1-1_3 and text_times.csv, checked by the unit "
      "tests).",
      "time_s = diff_s / (diff_pct / 100) for the actual best, + diff_s for the predicted scheme; "
      "time_lo..time_hi from half a unit of each printed digit.",
      "nodlb_s: the no-DLB time of Tables 1.1-1.3 (empty for TRFD's loop times, which have none); "
      "norm = time / nodlb, its interval also widened by nodlb's rounding (0.05 s).",
      "usable: normalized and norm_hi / norm_lo <= 1.3 (the rows the targets judge)."};
  t.columns = {"source", "row", "app", "P", "size", "loop", "scheme", "role", "diff_s",
               "diff_pct", "time_s", "time_lo", "time_hi", "nodlb_s", "norm", "norm_lo",
               "norm_hi", "usable"};
  for (const auto& r : rows) {
    t.rows.push_back({r.source, r.row, sweep::upper(r.app), std::to_string(r.procs), r.size_text, r.loop,
                      r.scheme, r.role, r.diff_s, r.diff_pct, fixed(r.time_s, 2),
                      fixed(r.time_lo, 2), fixed(r.time_hi, 2),
                      r.nodlb_s > 0 ? fixed(r.nodlb_s, 1) : "", fixed(r.norm, 3),
                      fixed(r.norm_lo, 3), fixed(r.norm_hi, 3), r.usable ? "yes" : "no"});
  }
  return t;
}

namespace {

const config_view* config_of(const std::vector<config_view>& configs, const implied_time& t) {
  for (const auto& c : configs) {
    if (c.app == t.app && c.procs == t.procs && c.ml > 0 && size_matches(t.size, c.size)) return &c;
  }
  return nullptr;
}

std::string sig(std::optional<double> v, int digits = 3) {
  return v && std::isfinite(*v) ? sweep::format_sig(*v, digits) : "-";
}

// Our oracle bound over no-DLB: 1 / the median of NONE's time over its oracle bound (the oracle
// covers the balanced loop from its start, so this is a lower bound for any schedule's total).
std::optional<double> oracle_norm(const config_view& c) {
  const summary_row* none = c.row("NONE");
  if (!none) return std::nullopt;
  const auto o = none->number("over_oracle_median");
  if (!o || !(*o > 0)) return std::nullopt;
  return 1.0 / *o;
}

}  // namespace

implied_judgement judge_implied(const std::vector<implied_time>& rows,
                                const std::vector<config_view>& configs) {
  implied_judgement j;
  for (const auto& t : rows) {
    implied_judged_row r;
    r.time = &t;
    const auto* c = config_of(configs, t);
    r.normalized = std::isfinite(t.norm);
    r.lo = r.normalized ? t.norm_lo : t.time_lo;
    r.hi = r.normalized ? t.norm_hi : t.time_hi;
    const std::string col = r.normalized       ? "norm_median"
                            : t.loop == "L1" ? "loop1_median"
                            : t.loop == "L2" ? "loop2_median"
                                             : "total_median";
    if (c) {
      if (const summary_row* s = c->row(t.scheme)) r.ours = s->number(col);
      if (const auto rk = rank_strategies(*c, t.loop == "L1"   ? measure::loop1
                                              : t.loop == "L2" ? measure::loop2
                                                               : measure::total)) {
        r.best_name = rk->order[0].first;
        if (const summary_row* s = c->row(r.best_name)) r.best = s->number(col);
      }
      if (r.normalized) r.oracle = oracle_norm(*c);
    }
    r.in = r.ours && *r.ours >= r.lo && *r.ours <= r.hi;
    r.below = r.oracle && std::isfinite(r.hi) && r.hi < *r.oracle;
    if (t.usable && t.role == "actual best") {
      ++j.usable;
      if (r.ours) ++j.measured;
      if (r.in) ++j.contained;
      if (r.below) {
        ++j.beaten;
        j.beaten_rows.push_back(t.row);
      }
    }
    j.rows.push_back(std::move(r));
  }
  return j;
}

void section_implied(std::ostringstream& md, const std::vector<implied_time>& rows,
                     const std::vector<config_view>& configs) {
  if (rows.empty()) return;
  md << "## The paper's DLB times implied by Table 1.4, beside ours\n\n"
        "Where Table 1.4's predicted scheme is not the actual best, diff_s / diff_pct is the "
        "actual best's time and that plus diff_s the predicted scheme's; the text states two "
        "more (`experiments/paper/implied_times.csv`, half a unit of each printed digit giving "
        "the interval). Whole programs are normalized by Tables 1.1-1.3's no-DLB time; TRFD's "
        "are loop times in seconds. **ours**: the same scheme's median over repetitions (paired "
        "normalized time, or the loop's time); **our best**: our lowest median; **oracle / "
        "NONE**: our oracle bound over our no-DLB time (no schedule of ours can go below it). "
        "Usable rows: normalized interval narrower than a factor "
     << kUsableSpread << ".\n\n";
  md << md_header({{"row"}, {"scheme (role)"}, {"paper"}, {"paper interval"}, {"ours"},
                   {"in interval"}, {"our best"}, {"oracle / NONE"}, {"paper below our oracle"}});
  const implied_judgement j = judge_implied(rows, configs);
  for (const auto& r : j.rows) {
    const implied_time& t = *r.time;
    const int dec = r.normalized ? 3 : 1;
    md << "| " << t.row << " | " << t.scheme << " (" << t.role << (t.usable ? ", usable" : "")
       << ") | " << fixed(r.normalized ? t.norm : t.time_s, dec) << (r.normalized ? "" : " s")
       << " | " << interval(r.lo, r.hi, dec) << " | " << sig(r.ours) << " | "
       << (r.ours ? (r.in ? "yes" : "no") : "-") << " | " << r.best_name
       << (r.best ? " " + sig(r.best) : "") << " | " << sig(r.oracle) << " | "
       << (r.oracle ? (r.below ? "**yes**" : "no") : "-") << " |\n";
  }
  md << "\n**Usable rows (the actual best's normalized time): ours (same scheme) inside the "
        "paper's interval in "
     << j.contained << " of " << j.usable << " (" << j.measured
     << " measured).**\n\n**Strategy-free consistency: the paper's measured time is below our "
        "oracle bound in "
     << j.beaten << " of " << j.usable << " usable rows"
     << (j.beaten_rows.empty() ? "" : ": ");
  for (std::size_t i = 0; i < j.beaten_rows.size(); ++i)
    md << (i ? ", " : "") << j.beaten_rows[i];
  md << ".** Such a row means no balancer, however perfect, could have done what the paper "
        "measured under our load: the load regime, not a strategy, is off.\n\n";
}

}  // namespace dlb::report
