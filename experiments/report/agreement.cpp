// Comparing two summaries (one per backend): normalized times side by side.
#include "report/agreement.hpp"

#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "report/markdown.hpp"
#include "sweep/text.hpp"

namespace dlb::report {
namespace {

std::string match_key(const summary_row& r) {
  std::string k;
  for (const std::string c : {"app", "P", "K", "size", "ml", "tl", "network", "extra_args"}) {
    k += r.text(c);
    k += '\x1f';
  }
  return k + r.strategy();
}

// Percent with two decimals.
std::string pct(double x) { return sweep::format_fixed(x, 2); }

}  // namespace

agreement_result compare_summaries(const std::vector<summary_row>& a,
                                   const std::vector<summary_row>& b) {
  agreement_result out;
  out.backend_a = backends_joined(a, "+", "(empty)");
  out.backend_b = backends_joined(b, "+", "(empty)");
  std::map<std::string, const summary_row*> by_key;
  for (const auto& r : b) {
    if (r.strategy() != "NONE") by_key[match_key(r)] = &r;
  }
  std::set<std::string> matched;
  std::vector<double> abs_diffs;
  double sum = 0;
  for (const auto& ra : a) {
    if (ra.strategy() == "NONE") continue;
    const auto it = by_key.find(match_key(ra));
    if (it == by_key.end()) {
      ++out.only_a;
      continue;
    }
    matched.insert(it->first);
    const summary_row& rb = *it->second;
    for (const std::string m : {"total", "loop1", "loop2"}) {
      const std::string col = m == "total" ? "norm_median" : "norm_" + m + "_median";
      const auto na = ra.number(col), nb = rb.number(col);
      if (!na || !nb) continue;
      if (m != "total" && ra.app() != "trfd") continue;
      agreement_row row;
      row.app = ra.app();
      row.procs = ra.procs();
      row.group = static_cast<int>(ra.number("K").value_or(0));
      row.size = std::string(ra.text("size"));
      row.ml = ra.ml();
      row.strategy = ra.strategy();
      row.measure = m;
      row.norm_a = *na;
      row.norm_b = *nb;
      row.runs_a = static_cast<int>(ra.number("paired").value_or(0));
      row.runs_b = static_cast<int>(rb.number("paired").value_or(0));
      if (m == "total") {
        abs_diffs.push_back(std::fabs(row.diff_pct()));
        sum += row.diff_pct();
        out.rows.push_back(row);
      } else {
        out.loop_rows.push_back(row);
      }
    }
  }
  out.only_b = by_key.size() - matched.size();
  out.abs_diff_pct = describe(abs_diffs);
  if (!abs_diffs.empty()) out.mean_diff_pct = sum / static_cast<double>(abs_diffs.size());
  return out;
}

std::string render_agreement(const agreement_result& r, double median_target, double max_target) {
  std::ostringstream md;
  const std::string A = r.backend_a, B = r.backend_b;
  if (!r.abs_diff_pct) {
    md << "No (configuration, strategy) with a normalized time in both summaries (" << A << ": "
       << r.only_a << " unmatched, " << B << ": " << r.only_b << " unmatched).\n";
    return md.str();
  }
  const auto& s = *r.abs_diff_pct;
  const bool ok = s.median <= median_target && s.max <= max_target;
  md << "Normalized time (median over repetitions of time / no-DLB time of the same seed) on " << A
     << " and on " << B << ", per (configuration, strategy); difference = " << A << " - " << B
     << " in percent of the no-DLB time.\n\n"
     << "- pairs compared: " << s.count << " (unmatched: " << r.only_a << " only on " << A << ", "
     << r.only_b << " only on " << B << ")\n"
     << "- |difference|: median " << pct(s.median) << "%, max " << pct(s.max)
     << "% (target: median <= " << pct(median_target) << "%, max <= " << pct(max_target)
     << "%: " << (ok ? "**met**" : "**not met**") << ")\n"
     << "- signed mean difference: " << pct(r.mean_diff_pct.value_or(0)) << "% (> 0: " << A
     << " slower)\n\n";
  auto table = [&](const std::vector<agreement_row>& rows, bool loops) {
    std::vector<std::string> head{"app", "P", "K", "size"};
    if (loops) head.push_back("loop");
    head.insert(head.end(), {"strategy", A, B, "difference (%)", "repetitions " + A + "/" + B});
    md << md_plain_header(head);
    for (const auto& x : rows) {
      md << "| " << x.app << " | " << x.procs << " | " << x.group << " | " << x.size
         << (x.ml == 0 ? " (ml=0)" : "") << " | " << (loops ? x.measure + " | " : "") << x.strategy
         << " | " << sweep::format_sig(x.norm_a, 4) << " | " << sweep::format_sig(x.norm_b, 4)
         << " | " << (x.diff_pct() >= 0 ? "+" : "") << pct(x.diff_pct()) << " | " << x.runs_a << "/"
         << x.runs_b << " |\n";
    }
    md << "\n";
  };
  table(r.rows, false);
  if (!r.loop_rows.empty()) {
    md << "TRFD's loops (not in the statistics above):\n\n";
    table(r.loop_rows, true);
  }
  return md.str();
}

}  // namespace dlb::report
