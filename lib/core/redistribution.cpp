// New distribution (eq. 1.3.3), movement plan, and the move / no-move decision.
#include "dlb/core/redistribution.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>

namespace dlb::core {
namespace {

double usable(double speed) { return std::isfinite(speed) && speed > 0.0 ? speed : 0.0; }

void check_same_size(std::size_t a, std::size_t b, const char* what) {
  if (a != b) throw std::invalid_argument(std::string(what) + ": size mismatch");
}

}  // namespace

std::vector<std::int64_t> proportional_counts(const std::vector<double>& speeds,
                                              std::int64_t total) {
  if (speeds.empty()) throw std::invalid_argument("proportional_counts: no slaves");
  if (total < 0) throw std::invalid_argument("proportional_counts: negative total");
  const std::size_t n = speeds.size();
  double sum = 0.0;
  for (const double s : speeds) sum += usable(s);
  if (sum <= 0.0) return equal_block_counts(total, n);

  std::vector<std::int64_t> counts(n, 0);
  std::vector<double> fraction(n, 0.0);
  std::vector<std::size_t> positive;
  std::int64_t assigned = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double u = usable(speeds[i]);
    if (u == 0.0) continue;
    positive.push_back(i);
    const double quota = u / sum * static_cast<double>(total);
    const double whole = std::floor(quota);
    counts[i] = std::clamp(static_cast<std::int64_t>(whole), std::int64_t{0}, total);
    fraction[i] = quota - whole;
    assigned += counts[i];
  }
  // Largest fractional part first; the index breaks ties so every replica of a distributed
  // balancer, given the same speeds, produces the same counts.
  std::sort(positive.begin(), positive.end(), [&](std::size_t a, std::size_t b) {
    return fraction[a] > fraction[b] || (fraction[a] == fraction[b] && a < b);
  });
  // Exactly, the leftover is in [0, #positive); the loops only guard against floating-point
  // quotas that land a hair on the wrong side of an integer.
  for (std::size_t k = 0; assigned < total; k = (k + 1) % positive.size()) {
    ++counts[positive[k]];
    ++assigned;
  }
  for (std::size_t k = positive.size(); assigned > total;) {
    k = (k == 0 ? positive.size() : k) - 1;  // smallest fractional part first
    if (counts[positive[k]] > 0) {
      --counts[positive[k]];
      --assigned;
    }
  }
  return counts;
}

std::int64_t work_to_move(const std::vector<std::int64_t>& current,
                          const std::vector<std::int64_t>& target) {
  check_same_size(current.size(), target.size(), "work_to_move");
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < current.size(); ++i) sum += std::abs(current[i] - target[i]);
  return sum / 2;
}

double predicted_finish(const std::vector<std::int64_t>& counts,
                        const std::vector<double>& speeds) {
  check_same_size(counts.size(), speeds.size(), "predicted_finish");
  double finish = 0.0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] <= 0) continue;
    const double s = usable(speeds[i]);
    if (s == 0.0) return std::numeric_limits<double>::infinity();
    finish = std::max(finish, static_cast<double>(counts[i]) / s);
  }
  return finish;
}

movement_plan plan_counts(const std::vector<std::int64_t>& current,
                          const std::vector<std::int64_t>& target) {
  check_same_size(current.size(), target.size(), "plan_counts");
  std::int64_t current_sum = 0;
  std::int64_t target_sum = 0;
  for (std::size_t i = 0; i < current.size(); ++i) {
    if (current[i] < 0 || target[i] < 0) throw std::invalid_argument("plan_counts: negative count");
    current_sum += current[i];
    target_sum += target[i];
  }
  if (current_sum != target_sum) throw std::invalid_argument("plan_counts: totals differ");

  movement_plan plan;
  const std::size_t n = current.size();
  std::size_t s = 0;  // next candidate sender
  std::size_t r = 0;  // next candidate receiver
  std::int64_t surplus = 0;
  std::int64_t deficit = 0;
  while (true) {
    while (surplus == 0 && s < n) {
      surplus = std::max<std::int64_t>(current[s] - target[s], 0);
      if (surplus == 0) ++s;
    }
    while (deficit == 0 && r < n) {
      deficit = std::max<std::int64_t>(target[r] - current[r], 0);
      if (deficit == 0) ++r;
    }
    // Equal totals make surplus and deficit run out together.
    if (surplus == 0 || deficit == 0) break;
    const std::int64_t moved = std::min(surplus, deficit);
    plan.transfers.push_back({s, r, moved, {}});
    plan.alpha += moved;
    surplus -= moved;
    deficit -= moved;
    if (surplus == 0) ++s;
    if (deficit == 0) ++r;
  }
  plan.beta = plan.transfers.size();
  return plan;
}

movement_plan plan_movement(const std::vector<range_list>& remaining,
                            const std::vector<std::int64_t>& target) {
  movement_plan plan = plan_counts(iteration_counts(remaining), target);
  // Transfers of one sender are consecutive; cut its give-away block front to back among them.
  std::size_t k = 0;
  while (k < plan.transfers.size()) {
    const std::size_t sender = plan.transfers[k].from;
    std::size_t last = k;
    std::int64_t given = 0;
    while (last < plan.transfers.size() && plan.transfers[last].from == sender) {
      given += plan.transfers[last].count;
      ++last;
    }
    range_list to_give = split_back(remaining[sender], given).back;
    for (; k < last; ++k) {
      range_split piece = split_front(to_give, plan.transfers[k].count);
      plan.transfers[k].ranges = std::move(piece.front);
      to_give = std::move(piece.back);
    }
  }
  return plan;
}

std::vector<range_list> apply_plan(std::vector<range_list> remaining, const movement_plan& plan) {
  std::vector<std::int64_t> given(remaining.size(), 0);
  for (const auto& t : plan.transfers) {
    if (t.from >= remaining.size() || t.to >= remaining.size()) {
      throw std::invalid_argument("apply_plan: slave out of range");
    }
    if (iteration_count(t.ranges) != t.count) {
      throw std::invalid_argument("apply_plan: transfer ranges do not match its count");
    }
    given[t.from] += t.count;
  }
  for (std::size_t i = 0; i < remaining.size(); ++i) {
    if (given[i] == 0) continue;
    if (given[i] > iteration_count(remaining[i])) {
      throw std::invalid_argument("apply_plan: sender gives more than it holds");
    }
    remaining[i] = split_back(remaining[i], given[i]).front;
  }
  for (const auto& t : plan.transfers) {
    remaining[t.to].insert(remaining[t.to].end(), t.ranges.begin(), t.ranges.end());
  }
  return remaining;
}

std::string_view to_string(balance_reason reason) {
  switch (reason) {
    case balance_reason::moved:
      return "moved";
    case balance_reason::below_threshold:
      return "below threshold";
    case balance_reason::not_profitable:
      return "not profitable";
    case balance_reason::nothing_left:
      return "nothing left";
  }
  return "unknown";
}

std::string_view to_string(after_no_move rule) {
  return rule == after_no_move::idle ? "idle" : "stop";
}

std::optional<after_no_move> parse_after_no_move(std::string_view s) {
  if (s == "idle") return after_no_move::idle;
  if (s == "stop") return after_no_move::stop;
  return std::nullopt;
}

balance_decision decide_balance(const std::vector<std::int64_t>& remaining,
                                const std::vector<double>& speeds, const balance_params& params) {
  check_same_size(remaining.size(), speeds.size(), "decide_balance");
  balance_decision d;
  const std::int64_t gamma = std::accumulate(remaining.begin(), remaining.end(), std::int64_t{0});
  if (gamma == 0 || remaining.empty()) {
    d.reason = balance_reason::nothing_left;
    d.proposed = remaining;
    return d;
  }
  d.proposed = proportional_counts(speeds, gamma);
  d.alpha = work_to_move(remaining, d.proposed);
  d.finish_before = predicted_finish(remaining, speeds);
  d.finish_after = predicted_finish(d.proposed, speeds);
  if (d.alpha == 0 || d.alpha < params.threshold_iterations) {
    d.reason = balance_reason::below_threshold;
    return d;
  }
  bool profitable = false;
  if (std::isinf(d.finish_before)) {
    profitable = !std::isinf(d.finish_after);
  } else {
    // Finish times are quotients, so a move worth exactly 10% may come out a few ulps short;
    // the relative slack keeps the paper's boundary on the moving side.
    const double gain = d.finish_before - d.finish_after;
    profitable = gain >= (params.min_improvement - 1e-12) * d.finish_before;
  }
  if (!profitable) {
    d.reason = balance_reason::not_profitable;
    return d;
  }
  d.reason = balance_reason::moved;
  d.plan = plan_counts(remaining, d.proposed);
  return d;
}

balance_decision decide_balance(const std::vector<range_list>& remaining,
                                const std::vector<double>& speeds, const balance_params& params) {
  balance_decision d = decide_balance(iteration_counts(remaining), speeds, params);
  if (d.reason == balance_reason::moved) d.plan = plan_movement(remaining, d.proposed);
  return d;
}

int transfers_to(const std::vector<transfer>& transfers, std::size_t receiver) {
  return static_cast<int>(
      std::count_if(transfers.begin(), transfers.end(),
                    [receiver](const transfer& t) { return t.to == receiver; }));
}

}  // namespace dlb::core
