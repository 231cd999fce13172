// dlb_ablation: the whole paper under several variants of the runtime, side by side (the table of
// `make cost-ablation`). Each variant is a directory holding a sweep's summary.csv (and its
// results.csv, for the revision); every number comes from the report's own evaluation: the claims
// (claims.hpp, both readings) and Table 1.4 (report.hpp's compare_table14), never from the text
// of a report.
//
//   dlb_ablation --variant NAME=DIR [--options NAME=TEXT] ... [--paper-dir DIR] [--title TEXT]
//                [--command CMD] --out FILE.md
#include <iostream>
#include <map>
#include <sstream>

#include "report/claims.hpp"
#include "report/markdown.hpp"
#include "report/paper.hpp"
#include "report/report.hpp"
#include "report/summary.hpp"
#include "sweep/cli.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/safe_files.hpp"
#include "sweep/text.hpp"

namespace fs = std::filesystem;
using namespace dlb;
using namespace dlb::report;

namespace {

const char* kUsage =
    "usage: dlb_ablation --variant NAME=DIR [--variant ...] [--options NAME=TEXT ...]\n"
    "                    [--paper-dir DIR] [--title TEXT] [--command CMD] --out FILE.md\n"
    "Sets the claims (strict and tendency readings) and Table 1.4's tallies of several sweeps\n"
    "side by side. DIR holds the variant's summary.csv (dlb_summary) and results.csv; --options\n"
    "names what the variant changed (shown in the table). Bad input exits 2.\n";

struct variant {
  std::string name;
  fs::path dir;
  std::string options;
  std::vector<claim_result> claims;
  table14_comparison table14;
  std::string revision = "unknown";
};

// NAME=VALUE, split at the first '='; a usage error if there is none or either side is empty.
std::pair<std::string, std::string> name_value(const sweep::cli_args& args, const std::string& opt,
                                               const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    args.usage_error("--" + opt + " takes NAME=VALUE, got '" + text + "'");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::string holds_list(const std::vector<claim_result>& claims, bool tendency) {
  std::string ids;
  int n = 0;
  for (const auto& c : claims) {
    if ((tendency ? c.tendency_or_strict() : c.outcome) != verdict::holds) continue;
    ++n;
    ids += (ids.empty() ? "" : " ") + c.id;
  }
  return std::to_string(n) + ": " + (ids.empty() ? "-" : ids);
}

std::string tally_text(const prediction_tally& t) {
  return std::to_string(t.right) + " of " + std::to_string(t.rows);
}

// One claim's cell: the strict verdict, the tendency verdict (= where there is none), the tally.
std::string claim_cell(const claim_result& c) {
  const std::string strict = c.outcome == verdict::holds ? "**holds**" : "no";
  const std::string tendency = !c.tendency ? "=" : *c.tendency == verdict::holds ? "holds" : "no";
  return strict + " (tendency " + tendency + "): " + c.tally;
}

std::string render(const std::vector<variant>& vs, const std::string& title,
                   const std::string& command) {
  std::ostringstream md;
  md << "# " << title << "\n\n"
     << "The whole paper under each variant, from each variant's summary.csv; produced by `"
     << command << "` (revision " << vs.front().revision
     << "). Claims: the strict reading (the pattern in every configuration) and the tendency "
        "reading (most configurations or the mean, where the paper's sentence allows it).\n\n"
     << report::md_header({{"variant"},
                           {"options"},
                           {"claims that hold (strict)"},
                           {"claims that hold (tendency)"},
                           {"our best = Table 1.4"},
                           {"model predicts our best (estimated load)"},
                           {"our model = Table 1.4's predicted"}});
  for (const auto& v : vs) {
    const auto& t = v.table14;
    md << "| " << v.name << " | `" << (v.options.empty() ? "defaults" : v.options) << "` | "
       << holds_list(v.claims, false) << " | " << holds_list(v.claims, true) << " | "
       << t.same_actual << " of " << t.measured << " | " << tally_text(t.as_run) << " ("
       << tally_text(t.estimated) << ") | " << t.model_matches << " of " << t.model_rows << " |\n";
  }
  md << "\nEach claim per variant: its strict verdict, its tendency verdict (=: the sentence "
        "allows no looser reading) and the share of configurations where the paper's pattern "
        "holds.\n\n";
  std::vector<report::md_column> head{{"claim"}};
  for (const auto& v : vs) head.push_back({v.name});
  md << report::md_header(head);
  for (std::size_t k = 0; k < vs.front().claims.size(); ++k) {
    md << "| " << vs.front().claims[k].id << " |";
    for (const auto& v : vs)
      md << " " << (k < v.claims.size() ? claim_cell(v.claims[k]) : "-") << " |";
    md << "\n";
  }
  return md.str();
}

}  // namespace

int main(int argc, char** argv) {
  const sweep::cli_args args(argc, argv, "dlb_ablation", kUsage,
                             {"variant", "options", "paper-dir", "title", "command", "out"}, {});
  const std::string out = args.required("out");
  sweep::refuse_output_over_inputs(args, {{"--out", out}}, {});  // a regular file, before work
  const auto given = args.values("variant");
  if (given.empty()) args.usage_error("--variant is required");
  std::map<std::string, std::string> options;
  for (const auto& o : args.values("options")) options.insert(name_value(args, "options", o));
  std::vector<variant> vs;
  for (const auto& g : given) {
    auto [name, dir] = name_value(args, "variant", g);
    for (const auto& v : vs) {
      if (v.name == name) args.usage_error("--variant " + name + " given twice");
    }
    vs.push_back({name, dir, options.count(name) ? options.at(name) : "", {}, {}, "unknown"});
  }
  for (const auto& [name, _] : options) {
    bool known = false;
    for (const auto& v : vs) known = known || v.name == name;
    if (!known) args.usage_error("--options names " + name + ", which no --variant names");
  }
  try {
    const auto paper_best =
        read_paper_best(args.value("paper-dir").value_or(report::default_paper_dir));
    for (auto& v : vs) {
      const auto rows = load_summary(sweep::read_csv_table(v.dir / "summary.csv"));
      const auto configs = group_configs(rows);
      v.claims = evaluate_claims(rows);
      v.table14 = compare_table14(configs, paper_best);
      if (fs::exists(v.dir / "results.csv")) {
        v.revision =
            sweep::read_csv_table(v.dir / "results.csv").meta("revision").value_or(v.revision);
      }
    }
    sweep::write_atomically(out, render(vs, args.value("title").value_or("Ablation"),
                                        args.value("command").value_or(args.command_line())));
    std::cerr << "dlb_ablation: wrote " << out << "\n";
    return 0;
  } catch (const std::exception& e) {
    return args.failed(e);
  }
}
