#include "report/uneven.hpp"

#include <stdexcept>

#include "sweep/text.hpp"

namespace dlb::report::uneven {

namespace {

// The value of `--flag VALUE` among the words of `args`; empty if absent.
std::string flag_value(const std::string& args, const std::string& flag) {
  const auto words = sweep::split_blanks(args);
  for (std::size_t i = 0; i + 1 < words.size(); ++i)
    if (words[i] == flag) return words[i + 1];
  return {};
}

std::string key(const std::string& shape, const std::string& start, const std::string& unit,
                int ml, const std::string& seed, const std::string& policy) {
  return shape + '\x1f' + start + '\x1f' + unit + '\x1f' + std::to_string(ml) + '\x1f' + seed +
         '\x1f' + policy;
}

void remember(std::vector<std::string>& list, const std::string& v) {
  for (const auto& x : list)
    if (x == v) return;
  list.push_back(v);
}

}  // namespace

std::vector<run> verified_runs(const sweep::csv_table& t) {
  require_columns(t, {"strategy", "seed", "ml", "extra_args", "status", "verified", "total_s",
                      "syncs"});
  std::vector<run> out;
  for (const auto& v : rows_of(t)) {
    if (!v.verified()) continue;
    const std::string args(v.text("extra_args"));
    run r;
    r.shape = flag_value(args, "--shape");
    r.start = flag_value(args, "--distribution");
    r.unit = flag_value(args, "--balance-by");
    if (r.shape.empty() || r.start.empty() || r.unit.empty()) {
      throw std::runtime_error("a run's extra arguments '" + args +
                               "' lack --shape, --distribution or --balance-by");
    }
    r.ml = static_cast<int>(v.value("ml"));
    r.seed = v.seed();
    r.policy = v.policy();
    r.time = v.value("total_s");
    r.syncs = v.value("syncs");
    if (const auto p = v.number("predicted_run_s"); p && *p > 0) r.predicted = *p;
    out.push_back(std::move(r));
  }
  return out;
}

cells::cells(const std::vector<run>& runs) {
  for (const auto& r : runs) {
    by_key_[key(r.shape, r.start, r.unit, r.ml, r.seed, r.policy)] = r;
    remember(shapes_, r.shape);
    remember(seeds_, r.seed);
    remember(policies_, r.policy);
  }
}

const run* cells::find(const std::string& shape, const std::string& start,
                       const std::string& unit, int ml, const std::string& seed,
                       const std::string& policy) const {
  const auto it = by_key_.find(key(shape, start, unit, ml, seed, policy));
  return it == by_key_.end() ? nullptr : &it->second;
}

by_seed cells::times(const std::string& shape, const std::string& start, const std::string& unit,
                     int ml, const std::string& policy) const {
  by_seed out;
  for (const auto& seed : seeds_)
    if (const run* r = find(shape, start, unit, ml, seed, policy)) out[seed] = r->time;
  return out;
}

unit_row compare_units(const cells& c, const std::string& shape, const std::string& policy) {
  std::vector<double> syncs_w, syncs_i, pred_w, pred_i;
  for (const auto& seed : c.seeds()) {
    if (const run* r = c.find(shape, "block", "work", 0, seed, policy)) syncs_w.push_back(r->syncs);
    if (const run* r = c.find(shape, "block", "iterations", 0, seed, policy))
      syncs_i.push_back(r->syncs);
    const run* w = c.find(shape, "block", "work", 5, seed, policy);
    const run* i = c.find(shape, "block", "iterations", 5, seed, policy);
    if (w && w->predicted && w->time > 0) pred_w.push_back(*w->predicted / w->time);
    if (i && i->predicted && i->time > 0) pred_i.push_back(*i->predicted / i->time);
  }
  unit_row row;
  row.syncs_work = median(syncs_w);
  row.syncs_iterations = median(syncs_i);
  row.time_work_over_iterations = describe(
      paired_ratios(c.times(shape, "block", "work", 5, policy),
                    c.times(shape, "block", "iterations", 5, policy)));
  row.predicted_over_measured_work = describe(pred_w);
  row.predicted_over_measured_iterations = describe(pred_i);
  return row;
}

std::optional<spread> over_none(const cells& c, const std::string& shape, int ml,
                                const std::string& start, const std::string& unit,
                                const std::string& policy, const std::string& base_start) {
  return describe(paired_ratios(c.times(shape, start, unit, ml, policy),
                                c.times(shape, base_start, unit, ml, "NONE")));
}

}  // namespace dlb::report::uneven
