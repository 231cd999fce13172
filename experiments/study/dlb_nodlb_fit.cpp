// dlb_nodlb_fit: how t_op grows with the data, fitted to the paper's no-DLB Tables 1.1-1.3.
//
// The 22 entries of Tables 1.1-1.3 are runs without load balancing (NONE) under external load:
// no strategy, so independent evidence for the work model. For each entry the tool runs the
// application on the simulated backend (deterministic) over seeds 1..N at the current defaults
// and takes the median total time T; it runs the entry once more without load and with a
// vanishing t_op (--ml 0 --t-op-factor 1e-9) for its fixed part c (scatter, gather, messages:
// what does not scale with t_op). Under the near-affine model T(f) = c + f (T - c) in the factor
// f on t_op, the factor that meets the paper's time P is f* = (P - c) / (T - c). Per application
// it then fits ln f* = alpha + beta ln(x / x_0) by least squares, x the problem's data in
// doubles (MXM n r + r m + n m, TRFD (n(n+1)/2)^2, AC 3 n^2) and x_0 the smallest entry's, i.e.
// t_op(x) = t_op_default e^alpha (x / x_0)^beta; and checks the fit by running every entry again
// at its fitted factor (the same seeds, median), counting the entries within +-25% of the paper's
// time, beside the same count at the defaults. Writes Markdown (and a CSV with --csv).
//
// The tables cannot identify the load's level (ml) apart from t_op (a NONE run's time scales
// with t_op times the mean stretch), nor the message costs apart from c; tl (the load's
// persistence) moves only the slowest-of-P excess: the tool fits at each --tl given (default
// 5 s) and details the tl with the most entries within the tolerance.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "report/markdown.hpp"
#include "report/paper.hpp"
#include "report/stats.hpp"
#include "sweep/app_output.hpp"
#include "sweep/cli.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/text.hpp"

namespace fs = std::filesystem;
using namespace dlb;

namespace {

constexpr const char* kUsage =
    "usage: dlb_nodlb_fit --bin-dir DIR [--paper-dir DIR] [--seeds N] [--tl S ...] [--jobs J]\n"
    "                     [--out FILE.md] [--csv FILE.csv] [--fit-within PCT]\n"
    "Fits t_op(x) = t_op_default e^alpha (x/x0)^beta per application to the paper's no-DLB\n"
    "Tables 1.1-1.3 from NONE runs on the simulated backend (seeds 1..N, median), and checks the\n"
    "fit by running every entry at its fitted t_op. --bin-dir: the directory with mxm, trfd, ac\n"
    "(build/apps). --paper-dir: the paper's tables (default experiments/paper). --seeds: 10.\n"
    "--tl: the load's persistence, repeatable (one fit each; the report details the best), 5.\n"
    "--jobs: parallel runs, 2. --fit-within: the agreement counted, 25 (percent).\n";

struct entry {
  report::paper_nodlb_row paper;
  double data = 0;     // x: the problem's data in doubles
  double median = 0;   // T at the defaults
  double fixed = 0;    // c
  double target = 0;   // f*
  double fitted = 0;   // the fitted factor
  double checked = 0;  // T at the fitted factor
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// One run of an application; its total_s. Throws naming the command if it fails.
double run_total(const std::vector<std::string>& argv) {
  std::string cmd;
  for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + quote(a);
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) throw std::runtime_error("cannot start: " + cmd);
  std::string out;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), p)) out += buf.data();
  const int rc = ::pclose(p);
  const auto parsed = sweep::parse_app_output(out);
  std::optional<double> total;
  for (const auto& [k, v] : parsed.result)
    if (k == "total_s") total = sweep::parse_double(v);
  if (rc != 0 || !total || parsed.verification != true)
    throw std::runtime_error("run failed (status " + std::to_string(rc) + "): " + cmd + "\n" + out);
  return *total;
}

// The runs of `jobs`, `parallel` at a time; results in order.
std::vector<double> run_all(const std::vector<std::vector<std::string>>& jobs, int parallel) {
  std::vector<double> out(jobs.size(), 0.0);
  std::atomic<std::size_t> next{0};
  std::mutex m;
  std::string error;
  auto worker = [&] {
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      try {
        out[i] = run_total(jobs[i]);
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(m);
        if (error.empty()) error = e.what();
        next = jobs.size();
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < parallel; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (!error.empty()) throw std::runtime_error(error);
  return out;
}

double data_of(const report::paper_nodlb_row& p) {
  auto get = [&p](const char* k) { return static_cast<double>(p.size.at(k)); };
  if (p.app == "mxm") return get("n") * get("r") + get("r") * get("m") + get("n") * get("m");
  if (p.app == "trfd") {
    const double a = get("n") * (get("n") + 1) / 2;
    return a * a;
  }
  return 3 * get("n") * get("n");  // ac: A, B, C of n^2
}

std::vector<std::string> base_args(const fs::path& bin, const report::paper_nodlb_row& p,
                                   double tl) {
  std::vector<std::string> a{(bin / p.app).string(),
                             "--backend",
                             "sim",
                             "--strategy",
                             "NONE",
                             "--procs",
                             std::to_string(p.procs),
                             "--tl",
                             sweep::format_sig(tl, 6),
                             "--quiet"};
  for (const char* k : {"n", "r", "m"}) {
    const auto it = p.size.find(k);
    if (it != p.size.end()) a.insert(a.end(), {std::string("--") + k, std::to_string(it->second)});
  }
  return a;
}

// The default --t-op an application prints in its --help ("(default: X)" on the --t-op line).
std::string default_t_op(const fs::path& bin, const std::string& app) {
  FILE* p = ::popen((quote((bin / app).string()) + " --help 2>&1").c_str(), "r");
  if (!p) return "?";
  std::string line, found = "?";
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), p)) {
    line = buf.data();
    if (line.find("--t-op ") == std::string::npos) continue;
    const auto at = line.find("(default: ");
    if (at != std::string::npos) found = line.substr(at + 10, line.find(')', at) - at - 10);
  }
  ::pclose(p);
  return found;
}

std::string num(double x, int digits = 3) { return sweep::format_sig(x, digits); }

struct app_fit {
  double alpha = 0, beta = 0, x0 = 0;
  std::size_t n = 0;
  std::map<int, double> mean_log_target;  // per P: the mean of ln f* (what P alone asks)
};

// Everything fitted at one tl.
struct fit_result {
  double tl = 0;
  std::vector<entry> entries;
  std::map<std::string, app_fit> fits;
  std::size_t before = 0, after = 0;  // entries within the tolerance at the defaults / fitted
  double rms_after = 0;               // root mean square of ln(ours / paper), fitted
};

const std::vector<std::string>& apps() {
  static const std::vector<std::string> a{"mxm", "trfd", "ac"};
  return a;
}

// Whether a time is within the tolerance of the paper's (a relative `within`; the epsilon keeps
// an entry exactly at the bound inside).
bool within_tolerance(double ours, double paper, double within) {
  return std::abs(ours / paper - 1.0) <= within + 1e-12;
}

// Step 1, the defaults: seeds 1..N per entry, and the fixed part (no load, t_op ~ 0); each
// entry's median T, fixed part c and the factor f* that meets the paper's time.
void measure_defaults(const fs::path& bin, std::vector<entry>& es, double tl, int seeds, int jobs) {
  std::vector<std::vector<std::string>> runs;
  for (const auto& e : es) {
    for (int s = 1; s <= seeds; ++s) {
      auto a = base_args(bin, e.paper, tl);
      a.insert(a.end(), {"--seed", std::to_string(s)});
      runs.push_back(a);
    }
    auto a = base_args(bin, e.paper, tl);
    a.insert(a.end(), {"--ml", "0", "--t-op-factor", "1e-9"});
    runs.push_back(a);
  }
  std::cerr << "dlb_nodlb_fit: tl " << num(tl) << ": " << runs.size() << " runs at the defaults\n";
  const auto totals = run_all(runs, jobs);
  std::size_t k = 0;
  for (auto& e : es) {
    std::vector<double> v(totals.begin() + static_cast<long>(k),
                          totals.begin() + static_cast<long>(k) + seeds);
    e.median = report::median(v).value_or(0.0);
    e.fixed = totals[k + static_cast<std::size_t>(seeds)];
    k += static_cast<std::size_t>(seeds) + 1;
    if (!(e.paper.time_s > e.fixed) || !(e.median > e.fixed)) {
      throw std::runtime_error(e.paper.app + " P=" + std::to_string(e.paper.procs) + " " +
                               report::size_text(e.paper.size) +
                               ": the fixed part is not below the times; no factor fits");
    }
    e.target = (e.paper.time_s - e.fixed) / (e.median - e.fixed);
  }
}

// Step 2, the fit of one application: ln f* = alpha + beta ln(x / x0), least squares over its
// entries, and per P the mean of ln f*.
app_fit fit_app(const std::vector<entry>& es, const std::string& app) {
  app_fit f;
  for (const auto& e : es)
    if (e.paper.app == app) f.x0 = f.x0 == 0 ? e.data : std::min(f.x0, e.data);
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  std::map<int, std::pair<double, int>> per_p;
  for (const auto& e : es) {
    if (e.paper.app != app) continue;
    const double x = std::log(e.data / f.x0), y = std::log(e.target);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
    ++f.n;
    per_p[e.paper.procs].first += y;
    ++per_p[e.paper.procs].second;
  }
  for (const auto& [p, v] : per_p) f.mean_log_target[p] = v.first / v.second;
  const double n = static_cast<double>(f.n), den = n * sxx - sx * sx;
  f.beta = den > 0 ? (n * sxy - sx * sy) / den : 0.0;
  f.alpha = n > 0 ? (sy - f.beta * sx) / n : 0.0;
  return f;
}

// Step 3, the check: every entry at its fitted factor, the same seeds; the entries within the
// tolerance at the defaults and fitted, and the fitted residual.
void check_fit(const fs::path& bin, fit_result& out, int seeds, int jobs, double within) {
  auto& es = out.entries;
  std::vector<std::vector<std::string>> runs;
  for (const auto& e : es) {
    for (int s = 1; s <= seeds; ++s) {
      auto a = base_args(bin, e.paper, out.tl);
      a.insert(a.end(), {"--seed", std::to_string(s), "--t-op-factor", num(e.fitted, 6)});
      runs.push_back(a);
    }
  }
  std::cerr << "dlb_nodlb_fit: tl " << num(out.tl) << ": " << runs.size()
            << " runs at the fitted t_op\n";
  const auto totals = run_all(runs, jobs);
  double sq = 0;
  for (std::size_t i = 0; i < es.size(); ++i) {
    auto& e = es[i];
    e.checked =
        report::median(
            std::vector<double>(
                totals.begin() + static_cast<long>(i * static_cast<std::size_t>(seeds)),
                totals.begin() + static_cast<long>((i + 1) * static_cast<std::size_t>(seeds))))
            .value_or(0.0);
    out.before += within_tolerance(e.median, e.paper.time_s, within);
    out.after += within_tolerance(e.checked, e.paper.time_s, within);
    sq += std::pow(std::log(e.checked / e.paper.time_s), 2);
  }
  out.rms_after = std::sqrt(sq / static_cast<double>(es.size()));
}

// The whole fit at one tl: the defaults measured, the fit per application, the check.
fit_result fit_at(const fs::path& bin, const std::vector<report::paper_nodlb_row>& rows, double tl,
                  int seeds, int jobs, double within) {
  fit_result out;
  out.tl = tl;
  for (const auto& r : rows) out.entries.push_back({r, data_of(r)});
  measure_defaults(bin, out.entries, tl, seeds, jobs);
  for (const auto& app : apps()) out.fits[app] = fit_app(out.entries, app);
  for (auto& e : out.entries) {
    const auto& f = out.fits[e.paper.app];
    e.fitted = std::exp(f.alpha) * std::pow(e.data / f.x0, f.beta);
  }
  check_fit(bin, out, seeds, jobs, within);
  return out;
}

// What the command line asks for.
struct options {
  fs::path bin;
  int seeds = 10, jobs = 2;
  double within = 0.25;  // relative
  std::vector<report::paper_nodlb_row> rows;
  std::vector<double> tls;
};

// The command line, checked: a bad option is a usage error (exit 2) naming it.
options read_options(const sweep::cli_args& args) {
  options o;
  o.bin = args.required("bin-dir");
  for (const char* app : {"mxm", "trfd", "ac"}) {
    if (!fs::exists(o.bin / app)) args.usage_error("--bin-dir " + o.bin.string() + ": no " + app);
  }
  const fs::path paper_dir = args.value("paper-dir").value_or("experiments/paper");
  o.seeds = args.positive_int("seeds", 10);
  o.jobs = args.positive_int("jobs", 2);
  o.within = args.positive_double("fit-within", 25) / 100.0;
  try {
    o.rows = report::read_paper_nodlb(paper_dir);
  } catch (const std::exception& e) {
    args.usage_error("--paper-dir " + paper_dir.string() + ": " + e.what());
  }
  for (const auto& v : args.values("tl")) {
    const auto t = sweep::parse_double(v);
    if (!t || !(*t > 0)) args.usage_error("--tl must be a positive number of seconds, got " + v);
    o.tls.push_back(*t);
  }
  if (o.tls.empty()) o.tls.push_back(5);
  std::vector<std::pair<std::string, std::string>> outs;
  for (const char* out : {"out", "csv"}) {
    if (const auto v = args.value(out)) outs.emplace_back(std::string("--") + out, *v);
  }
  sweep::refuse_output_over_inputs(args, outs, {});
  return o;
}

// The best tl: the most entries within the tolerance, then the smallest residual (the first of
// equals).
std::size_t best_fit(const std::vector<fit_result>& results) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < results.size(); ++i) {
    const auto &r = results[i], &b = results[best];
    if (r.after > b.after || (r.after == b.after && r.rms_after < b.rms_after)) best = i;
  }
  return best;
}

// The report's head: provenance, and every tl's fit (the one detailed below marked).
void md_tls(std::ostringstream& md, const sweep::cli_args& args, const options& o,
            const std::vector<fit_result>& results, double tl) {
  md << "# t_op fitted to the no-DLB Tables 1.1-1.3\n\n"
     << "Generated by `" << args.command_line() << "`. NONE on the simulated backend, seeds 1-"
     << o.seeds << " (median), the other parameters at their defaults.\n\n"
     << report::md_header({{"tl (s)"},
                           {"within +-" + num(100 * o.within) + "%, defaults"},
                           {"within, fitted"},
                           {"rms ln(ours / paper), fitted"},
                           {"mxm alpha, beta"},
                           {"trfd alpha, beta"},
                           {"ac alpha, beta"}});
  for (const auto& r : results) {
    md << "| " << num(r.tl) << (r.tl == tl ? " (shown below)" : "") << " | " << r.before << " of "
       << r.entries.size() << " | " << r.after << " of " << r.entries.size() << " | "
       << num(r.rms_after);
    for (const auto& app : apps()) {
      md << " | " << num(r.fits.at(app).alpha) << ", " << num(r.fits.at(app).beta);
    }
    md << " |\n";
  }
}

// The fit per application at the detailed tl: alpha, beta, t_op at x0, and what P alone asks.
void md_fits(std::ostringstream& md, const fs::path& bin, const fit_result& best) {
  md << "\nBelow: tl = " << num(best.tl)
     << " s (the most entries within, then the smallest residual).\n\n"
     << "Fit per application: t_op(x) = t_op_default e^alpha (x / x0)^beta, x the problem's "
        "data in doubles (MXM n r + r m + n m; TRFD (n(n+1)/2)^2; AC 3 n^2), x0 the smallest "
        "entry's; least squares on ln f*, f* = (paper - c) / (ours - c) the factor on t_op "
        "that meets the paper's time, c the entry's fixed part (ml 0, t_op ~ 0).\n\n"
     << report::md_header({{"app"},
                           {"t_op default"},
                           {"alpha"},
                           {"beta"},
                           {"t_op at x0"},
                           {"entries"},
                           {"P=16 over P=4 (geometric mean of f*)"}});
  for (const auto& app : apps()) {
    const auto& f = best.fits.at(app);
    const std::string def = default_t_op(bin, app);
    const auto d = sweep::parse_double(def);
    const auto& m = f.mean_log_target;
    md << "| " << app << " | " << def << " | " << num(f.alpha) << " | " << num(f.beta) << " | "
       << (d ? num(*d * std::exp(f.alpha)) : std::string("-")) << " | " << f.n << " | "
       << (m.count(4) && m.count(16) ? num(std::exp(m.at(16) - m.at(4))) : std::string("-"))
       << " |\n";
  }
}

// Every entry at the detailed tl: the paper's time, the fixed part, ours at the defaults and
// fitted (each against the paper), and what the tables cannot identify.
void md_entries(std::ostringstream& md, const fit_result& best, double within) {
  const auto& es = best.entries;
  auto mark = [within](double ours, double paper) {
    return within_tolerance(ours, paper, within) ? "" : " (out)";
  };
  md << "\n**Within +-" << num(100 * within) << "% of the paper: " << best.before << " of "
     << es.size() << " entries at the defaults, " << best.after << " of " << es.size()
     << " with the fitted t_op.**\n\n"
     << report::md_header({{"table"},
                           {"P"},
                           {"size"},
                           {"paper (s)"},
                           {"fixed c (s)"},
                           {"ours, defaults (s)"},
                           {"/ paper"},
                           {"f*"},
                           {"fitted f"},
                           {"ours, fitted (s)"},
                           {"/ paper"}});
  for (const auto& e : es) {
    md << "| " << e.paper.table << " | " << e.paper.procs << " | "
       << report::size_text(e.paper.size) << " | " << num(e.paper.time_s, 4) << " | "
       << num(e.fixed) << " | " << num(e.median, 4) << " | " << num(e.median / e.paper.time_s)
       << mark(e.median, e.paper.time_s) << " | " << num(e.target) << " | " << num(e.fitted)
       << " | " << num(e.checked, 4) << " | " << num(e.checked / e.paper.time_s)
       << mark(e.checked, e.paper.time_s) << " |\n";
  }
  md << "\nWhat the tables cannot identify: the load's level ml apart from t_op (a NONE run "
        "scales with t_op times the mean stretch (ml/2 + 1)); the message costs apart from the "
        "fixed part c; tl only through the slowest-of-P excess (compare the tl rows above). "
        "P = 4 and P = 16 entries of the same size share x (TRFD, AC): what P alone asks of "
        "the factor (the last column of the fit's table) t_op cannot take up, and it stays in "
        "the residuals.\n";
}

// The CSV (--csv): every entry at the detailed tl, six significant digits.
std::string entries_csv(const std::vector<entry>& es) {
  std::string csv = sweep::csv_line({"app", "P", "size", "data", "paper_s", "fixed_s", "defaults_s",
                                     "target_factor", "fitted_factor", "fitted_s"});
  for (const auto& e : es) {
    csv += sweep::csv_line({e.paper.app, std::to_string(e.paper.procs),
                            report::size_text(e.paper.size), num(e.data, 6), num(e.paper.time_s, 6),
                            num(e.fixed, 6), num(e.median, 6), num(e.target, 6), num(e.fitted, 6),
                            num(e.checked, 6)});
  }
  return csv;
}

}  // namespace

int main(int argc, char** argv) {
  sweep::cli_args args(argc, argv, "dlb_nodlb_fit", kUsage,
                       {"bin-dir", "paper-dir", "seeds", "tl", "jobs", "out", "csv", "fit-within"},
                       {});
  try {
    const options o = read_options(args);
    std::vector<fit_result> results;
    for (double tl : o.tls) results.push_back(fit_at(o.bin, o.rows, tl, o.seeds, o.jobs, o.within));
    const fit_result& best = results[best_fit(results)];
    std::ostringstream md;
    md_tls(md, args, o, results, best.tl);
    md_fits(md, o.bin, best);
    md_entries(md, best, o.within);
    std::cout << md.str();
    if (const auto out = args.value("out")) sweep::write_atomically(*out, md.str());
    if (const auto out = args.value("csv"))
      sweep::write_atomically(*out, entries_csv(best.entries));
    return 0;
  } catch (const std::exception& e) {
    return args.failed(e);
  }
}
