// AUTO-ALL's candidates, pick and ADAPTIVE's prediction (auto_all.hpp).
#include "dlb/core/auto_all.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace dlb::core {

std::string_view default_candidates() {
  // The paper's four, ADAPTIVE and every chunk rule (CSS with chunks of 16).
  static const std::string names = [] {
    std::string out;
    for (const balancing_row& r : balancing_rows) out += std::string(r.name) + " ";
    out += "ADAPTIVE";
    for (const chunk_rule_row& r : chunk_rules)
      out += " " + std::string(r.name) + (r.rule == chunk_rule::css ? ":16" : "");
    return out;
  }();
  return names;
}

std::vector<policy> parse_candidates(std::string_view text) {
  std::vector<policy> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == ',')) ++i;
    std::size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != ',') ++j;
    if (j == i) break;
    const std::string_view word = text.substr(i, j - i);
    i = j;
    policy p;
    try {
      p = parse_policy(word);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("candidate '" + std::string(word) + "': " + e.what());
    }
    if (!may_be_candidate(p))
      throw std::invalid_argument("candidate '" + std::string(word) + "' is no candidate (known: " +
                                  std::string(default_candidates()) + ", CSS:k)");
    if (std::find(out.begin(), out.end(), p) != out.end())
      throw std::invalid_argument("candidate '" + std::string(word) + "' given twice");
    out.push_back(p);
  }
  if (out.empty())
    throw std::invalid_argument("no candidate given (e.g. \"" + std::string(default_candidates()) +
                                "\")");
  return out;
}

std::size_t fastest(const std::vector<candidate_time>& times) {
  if (times.empty()) throw std::invalid_argument("fastest: no candidate");
  for (const auto& t : times)
    if (!std::isfinite(t.time) || t.time < 0)
      throw std::invalid_argument("fastest: a prediction must be finite and >= 0, got " +
                                  std::to_string(t.time));
  double least = times[0].time;
  for (const auto& t : times) least = std::min(least, t.time);
  for (std::size_t k = 0; k < times.size(); ++k)
    if (times[k].time - least <= 1e-12 * std::max(least, 1e-300)) return k;
  return 0;  // not reached
}

double predict_adaptive(const prediction& best, const network_profile& net, std::size_t slaves,
                        double delta) {
  std::size_t eta = 0;
  for (const auto& g : best.groups) eta = std::max(eta, g.synchronizations);
  return best.total_time +
         static_cast<double>(eta) * (synchronization_cost(true, net, slaves) + delta);
}

double first_run_out(const model_input& in) {
  const auto& speeds = in.machine.base_speeds;
  if (in.start.size() != speeds.size())
    throw std::invalid_argument("first_run_out: start and speeds of different sizes");
  double first = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    if (!(speeds[i] > 0)) throw std::invalid_argument("first_run_out: a speed <= 0");
    double work = 0.0;
    for (const auto& r : in.start[i]) {
      if (in.program.iteration_times.empty()) {
        work += static_cast<double>(length(r)) * in.program.time_per_iteration;
      } else {
        for (std::int64_t k = r.begin; k < r.end; ++k)
          work += in.program.iteration_times[static_cast<std::size_t>(k)];
      }
    }
    if (work <= 0) continue;
    first = std::min(first, finish_time(in.machine.load, i, speeds[i], in.start_time, work));
  }
  return first;
}

scatter_choice choose_before_scatter(const std::vector<candidate_time>& blocks,
                                     const std::vector<candidate_time>& chunks) {
  std::vector<candidate_time> all = blocks;
  all.insert(all.end(), chunks.begin(), chunks.end());
  const std::size_t k = fastest(all);  // validates; a tie goes to the first: the blocks
  scatter_choice out;
  out.pick = all[k].candidate;
  out.from_start = k >= blocks.size();
  for (const auto& t : all) {
    const auto it = std::find_if(out.times.begin(), out.times.end(), [&t](const candidate_time& o) {
      return o.candidate == t.candidate;
    });
    if (it == out.times.end())
      out.times.push_back(t);
    else
      it->time = std::min(it->time, t.time);
  }
  return out;
}

std::vector<range_list> remaining_at(const model_input& in, double t) {
  const auto& speeds = in.machine.base_speeds;
  if (in.start.size() != speeds.size())
    throw std::invalid_argument("remaining_at: start and speeds of different sizes");
  std::vector<range_list> out(speeds.size());
  const bool uniform = in.program.iteration_times.empty();
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    if (!(speeds[i] > 0)) throw std::invalid_argument("remaining_at: a speed <= 0");
    double done =
        t > in.start_time ? work_done(in.machine.load, i, speeds[i], in.start_time, t) : 0.0;
    for (const auto& r : in.start[i]) {
      std::int64_t k = r.begin;
      for (; k < r.end; ++k) {
        const double w = uniform ? in.program.time_per_iteration
                                 : in.program.iteration_times[static_cast<std::size_t>(k)];
        if (w > done) break;
        done -= w;
      }
      if (k < r.end) out[i].push_back({k, r.end});
      if (k < r.end) done = 0.0;  // the slave is inside this range: nothing later is done
    }
  }
  return out;
}

std::string format_candidate_times(const std::vector<candidate_time>& times) {
  std::string out;
  for (const auto& t : times) {
    char v[48];
    std::snprintf(v, sizeof v, "%.6g", t.time);
    out += (out.empty() ? "" : "/") + to_string(t.candidate) + ":" + v;
  }
  return out.empty() ? "-" : out;
}

}  // namespace dlb::core
