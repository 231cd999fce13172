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

double predicted_finish_work(const std::vector<double>& work, const std::vector<double>& speeds) {
  check_same_size(work.size(), speeds.size(), "predicted_finish_work");
  double finish = 0.0;
  for (std::size_t i = 0; i < work.size(); ++i) {
    if (!(work[i] > 0.0)) continue;
    const double s = usable(speeds[i]);
    if (s == 0.0) return std::numeric_limits<double>::infinity();
    finish = std::max(finish, work[i] / s);
  }
  return finish;
}

double work_of(const range_list& ranges, const iteration_cost& cost) {
  if (!cost) return static_cast<double>(iteration_count(ranges));
  double w = 0.0;
  for (const auto& r : ranges)
    for (std::int64_t k = r.begin; k < r.end; ++k) w += cost(k);
  return w;
}

bool same_cost(const std::vector<range_list>& remaining, const iteration_cost& cost) {
  if (!cost) return true;
  std::optional<double> first;
  for (const auto& ranges : remaining)
    for (const auto& r : ranges)
      for (std::int64_t k = r.begin; k < r.end; ++k) {
        const double c = cost(k);
        if (!first) first = c;
        if (std::abs(c - *first) > 1e-12 * std::abs(*first)) return false;
      }
  return true;
}

std::vector<std::int64_t> proportional_work_counts(std::int64_t iterations,
                                                   const std::vector<double>& weights,
                                                   const iteration_cost& cost) {
  if (weights.empty()) throw std::invalid_argument("proportional_work_counts: no weights");
  if (iterations < 0) throw std::invalid_argument("proportional_work_counts: negative iterations");
  double sum = 0.0;
  for (const double w : weights) {
    if (!(w > 0.0) || !std::isfinite(w))
      throw std::invalid_argument("proportional_work_counts: weights must be finite and > 0");
    sum += w;
  }
  if (same_cost({{{0, iterations}}}, cost)) {
    // Equal weights: the paper's equal blocks, which proportional_counts gives too, without its
    // sort (every task of a run computes the start: O(P) each, not O(P log P)).
    if (std::all_of(weights.begin(), weights.end(), [&](double w) { return w == weights[0]; }))
      return equal_block_counts(iterations, weights.size());
    return proportional_counts(weights, iterations);
  }
  std::vector<double> prefix(static_cast<std::size_t>(iterations) + 1, 0.0);
  for (std::int64_t k = 0; k < iterations; ++k)
    prefix[static_cast<std::size_t>(k) + 1] = prefix[static_cast<std::size_t>(k)] + cost(k);
  const double total = prefix.back();
  std::vector<std::int64_t> counts;
  std::int64_t begin = 0;
  double before = 0.0;  // the weights of the blocks so far
  for (std::size_t i = 0; i < weights.size(); ++i) {
    before += weights[i];
    std::int64_t end = iterations;
    if (i + 1 < weights.size()) {
      const double goal = total * before / sum;
      // The first boundary at or past the goal, or the one before it if that is nearer.
      const auto at = std::lower_bound(prefix.begin() + begin, prefix.end(), goal);
      end = std::min<std::int64_t>(at - prefix.begin(), iterations);
      if (end > begin && goal - prefix[static_cast<std::size_t>(end) - 1] <=
                             prefix[static_cast<std::size_t>(end)] - goal)
        --end;
    }
    counts.push_back(end - begin);
    begin = end;
  }
  return counts;
}

std::vector<double> proportional_work(const std::vector<double>& speeds, double total) {
  if (speeds.empty()) throw std::invalid_argument("proportional_work: no slaves");
  if (!(total >= 0.0)) throw std::invalid_argument("proportional_work: negative total");
  double sum = 0.0;
  for (const double s : speeds) sum += usable(s);
  std::vector<double> target(speeds.size(), total / static_cast<double>(speeds.size()));
  if (sum > 0.0)
    for (std::size_t i = 0; i < speeds.size(); ++i) target[i] = usable(speeds[i]) / sum * total;
  return target;
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

namespace {

// Appends iteration k to a list in work order, merging with its last range.
void append_iteration(range_list& list, std::int64_t k) {
  if (!list.empty() && list.back().end == k) {
    ++list.back().end;
  } else {
    list.push_back({k, k + 1});
  }
}

// An iteration on its way from a sender to a receiver, with its cost.
struct given_iteration {
  std::size_t from = 0;
  std::int64_t k = 0;
  double cost = 0.0;
};

// How many iterations, taken in order from `costs`, bring their sum nearest `amount` (an
// iteration is taken while it brings the sum closer; ties stay below).
std::size_t nearest_count(const std::vector<double>& costs, double amount) {
  double taken = 0.0;
  std::size_t n = 0;
  while (n < costs.size() && taken + costs[n] / 2.0 < amount) taken += costs[n++];
  return n;
}

}  // namespace

movement_plan plan_work(const std::vector<range_list>& remaining, const std::vector<double>& target,
                        const iteration_cost& cost) {
  check_same_size(remaining.size(), target.size(), "plan_work");
  const std::size_t n = remaining.size();
  std::vector<double> work(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) work[i] = work_of(remaining[i], cost);
  const auto cost_of = [&cost](std::int64_t k) { return cost ? cost(k) : 1.0; };

  // The senders' give-aways, from the end of each sender's list, in sender order.
  std::vector<given_iteration> pool;
  for (std::size_t i = 0; i < n; ++i) {
    const double surplus = work[i] - target[i];
    if (!(surplus > 0.0)) continue;
    std::vector<double> from_back;  // costs from the last iteration held backwards
    for (auto r = remaining[i].rbegin(); r != remaining[i].rend(); ++r)
      for (std::int64_t k = r->end - 1; k >= r->begin; --k) from_back.push_back(cost_of(k));
    const auto give = static_cast<std::int64_t>(nearest_count(from_back, surplus));
    for (const auto& r : split_back(remaining[i], give).back)
      for (std::int64_t k = r.begin; k < r.end; ++k) pool.push_back({i, k, cost_of(k)});
  }
  std::vector<std::size_t> receivers;
  for (std::size_t j = 0; j < n; ++j)
    if (target[j] - work[j] > 0.0) receivers.push_back(j);

  movement_plan plan;
  if (receivers.empty()) return plan;
  std::size_t next = 0;  // the first iteration of the pool not yet taken
  for (std::size_t r = 0; r < receivers.size() && next < pool.size(); ++r) {
    const std::size_t j = receivers[r];
    std::size_t take = pool.size() - next;  // the last receiver takes the rest
    if (r + 1 < receivers.size()) {
      std::vector<double> costs;
      for (std::size_t q = next; q < pool.size(); ++q) costs.push_back(pool[q].cost);
      take = nearest_count(costs, target[j] - work[j]);
    }
    for (std::size_t q = next; q < next + take; ++q) {
      if (plan.transfers.empty() || plan.transfers.back().from != pool[q].from ||
          plan.transfers.back().to != j)
        plan.transfers.push_back({pool[q].from, j, 0, {}});
      ++plan.transfers.back().count;
      append_iteration(plan.transfers.back().ranges, pool[q].k);
    }
    next += take;
  }
  // The last receiver took the rest, so every sender gives its whole tail (apply_plan takes it
  // from the end). Without a receiver (a surplus of rounding error) nothing moves.
  for (const auto& t : plan.transfers) plan.alpha += t.count;
  plan.beta = plan.transfers.size();
  return plan;
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

namespace {

// The threshold and profitability tests on a decision whose alpha and finish times are set.
balance_reason judge(const balance_decision& d, const balance_params& params) {
  if (d.alpha == 0 || d.alpha < params.threshold_iterations) return balance_reason::below_threshold;
  bool profitable = false;
  if (std::isinf(d.finish_before)) {
    profitable = !std::isinf(d.finish_after);
  } else {
    // Finish times are quotients, so a move worth exactly 10% may come out a few ulps short;
    // the relative slack keeps the paper's boundary on the moving side.
    const double gain = d.finish_before - d.finish_after;
    profitable = gain >= (params.min_improvement - 1e-12) * d.finish_before;
  }
  return profitable ? balance_reason::moved : balance_reason::not_profitable;
}

balance_decision decide_in_work(const std::vector<range_list>& remaining,
                                const std::vector<double>& speeds, const balance_params& params,
                                const iteration_cost& cost) {
  balance_decision d;
  std::vector<double> work;
  for (const auto& r : remaining) work.push_back(work_of(r, cost));
  const double total = std::accumulate(work.begin(), work.end(), 0.0);
  movement_plan plan = plan_work(remaining, proportional_work(speeds, total), cost);
  const std::vector<range_list> after = apply_plan(remaining, plan);
  std::vector<double> work_after;
  for (const auto& r : after) work_after.push_back(work_of(r, cost));
  d.proposed = iteration_counts(after);
  d.alpha = plan.alpha;
  d.finish_before = predicted_finish_work(work, speeds);
  d.finish_after = predicted_finish_work(work_after, speeds);
  d.reason = judge(d, params);
  if (d.reason == balance_reason::moved) d.plan = std::move(plan);
  return d;
}

}  // namespace

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
  d.reason = judge(d, params);
  if (d.reason == balance_reason::moved) d.plan = plan_counts(remaining, d.proposed);
  return d;
}

balance_decision decide_balance(const std::vector<range_list>& remaining,
                                const std::vector<double>& speeds, const balance_params& params,
                                const iteration_cost& cost) {
  check_same_size(remaining.size(), speeds.size(), "decide_balance");
  if (params.unit == balance_unit::work && total_iterations(remaining) > 0 &&
      !same_cost(remaining, cost))
    return decide_in_work(remaining, speeds, params, cost);
  balance_decision d = decide_balance(iteration_counts(remaining), speeds, params);
  if (d.reason == balance_reason::moved) d.plan = plan_movement(remaining, d.proposed);
  return d;
}

std::string_view to_string(balance_unit unit) {
  return unit == balance_unit::work ? "work" : "iterations";
}

std::optional<balance_unit> parse_balance_unit(std::string_view s) {
  if (s == "work") return balance_unit::work;
  if (s == "iterations") return balance_unit::iterations;
  return std::nullopt;
}

int transfers_to(const std::vector<transfer>& transfers, std::size_t receiver) {
  return static_cast<int>(
      std::count_if(transfers.begin(), transfers.end(),
                    [receiver](const transfer& t) { return t.to == receiver; }));
}

}  // namespace dlb::core
