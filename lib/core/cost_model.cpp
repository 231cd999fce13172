// The cost model: recurrences (1.3.1)-(1.3.4) stepped per synchronization, costs per group, and
// the strategy decision.
#include "dlb/core/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "dlb/core/groups.hpp"

namespace dlb::core {
namespace {

// Relative slack on "has done at least this much work": work reconstructed as speed * time
// comes back a few ulps off, which must not turn an exactly finished iteration into one more.
constexpr double kWorkSlack = 1e-9;

// Base seconds of work of iterations and of prefixes of a slave's list, for a uniform loop (T per
// iteration) or a non-uniform one (prefix sums of T_k).
class work_model {
 public:
  explicit work_model(const program_profile& program) : per_iteration_(program.time_per_iteration) {
    if (!program.iteration_times.empty()) {
      prefix_.reserve(program.iteration_times.size() + 1);
      prefix_.push_back(0.0);
      for (const double t : program.iteration_times) prefix_.push_back(prefix_.back() + t);
    }
  }

  bool uniform() const { return prefix_.empty(); }

  // The cost of each iteration, for a decision in work (decide_balance); empty for a uniform
  // loop, whose decision is the count rule.
  iteration_cost cost() const {
    if (uniform()) return {};
    return [this](std::int64_t k) { return at(k + 1) - at(k); };
  }

  double of(const iteration_range& r) const {
    const std::int64_t n = length(r);
    if (n == 0) return 0.0;
    if (uniform()) return static_cast<double>(n) * per_iteration_;
    return at(r.end) - at(r.begin);
  }

  double of(const range_list& ranges) const {
    double w = 0.0;
    for (const auto& r : ranges) w += of(r);
    return w;
  }

  double of_front(const range_list& ranges, std::int64_t n) const {
    return of(split_front(ranges, n).front);
  }

  // Eq. 1.3.2's aleph: the fewest iterations from the front whose work reaches `work`.
  std::int64_t covering(const range_list& ranges, double work) const {
    const double target = work * (1.0 - kWorkSlack);
    if (!(target > 0.0)) return 0;
    std::int64_t n = 0;
    double acc = 0.0;
    for (const auto& r : ranges) {
      const std::int64_t len = length(r);
      if (len == 0) continue;
      const double w = of(r);
      if (acc + w >= target) {
        if (uniform()) {
          return n +
                 std::clamp<std::int64_t>(
                     static_cast<std::int64_t>(std::ceil((target - acc) / per_iteration_)), 1, len);
        }
        // Smallest m in [1, len] with prefix(begin + m) - prefix(begin) >= target - acc.
        const double need = at(r.begin) + (target - acc);
        const auto first = prefix_.begin() + r.begin + 1;
        const auto last = prefix_.begin() + r.end + 1;
        const auto it = std::lower_bound(first, last, need);
        return n + std::min<std::int64_t>(it - first + 1, len);
      }
      acc += w;
      n += len;
    }
    return n;
  }

 private:
  double at(std::int64_t k) const { return prefix_[static_cast<std::size_t>(k)]; }

  double per_iteration_;
  std::vector<double> prefix_;  // prefix_[k] = T_0 + ... + T_{k-1}; empty for a uniform loop
};

void check_sigma(const std::vector<double>& sigma, std::size_t n, std::size_t first) {
  if (sigma.size() != n) throw std::invalid_argument("remaining: size mismatch");
  if (first >= n) throw std::invalid_argument("remaining: first slave out of range");
  if (!(sigma[first] > 0.0)) throw std::invalid_argument("remaining: sigma_f must be > 0");
}

std::vector<std::int64_t> remaining_with(const work_model& work,
                                         const std::vector<range_list>& assigned,
                                         const std::vector<double>& sigma, std::size_t first) {
  check_sigma(sigma, assigned.size(), first);
  const double work_f = work.of(assigned[first]);
  std::vector<std::int64_t> gamma(assigned.size(), 0);
  for (std::size_t i = 0; i < assigned.size(); ++i) {
    const std::int64_t held = iteration_count(assigned[i]);
    if (i == first) continue;
    const double done_work = sigma[i] > 0.0 ? sigma[i] / sigma[first] * work_f : 0.0;
    gamma[i] = held - std::min(held, work.covering(assigned[i], done_work));
  }
  return gamma;
}

void validate(const model_input& in) {
  const auto& prog = in.program;
  const std::size_t p = in.machine.base_speeds.size();
  if (p == 0) throw std::invalid_argument("predict: no slaves");
  for (const double s : in.machine.base_speeds) {
    if (!(s > 0.0) || !std::isfinite(s)) throw std::invalid_argument("predict: speed must be > 0");
  }
  if (prog.iterations < 0) throw std::invalid_argument("predict: negative iteration count");
  if (prog.iteration_times.empty()) {
    if (!(prog.time_per_iteration > 0.0)) throw std::invalid_argument("predict: T must be > 0");
  } else {
    if (static_cast<std::int64_t>(prog.iteration_times.size()) != prog.iterations) {
      throw std::invalid_argument("predict: one iteration time per iteration");
    }
    for (const double t : prog.iteration_times) {
      if (!(t >= 0.0)) throw std::invalid_argument("predict: negative iteration time");
    }
  }
  if (!in.start.empty() && in.start.size() != p) {
    throw std::invalid_argument("predict: start must hold one list per slave");
  }
  if (!prog.iteration_times.empty()) {  // the prefix sums must cover every iteration held
    for (const auto& ranges : in.start) {
      for (const auto& r : ranges) {
        if (length(r) > 0 && (r.begin < 0 || r.end > prog.iterations)) {
          throw std::invalid_argument("predict: start holds an iteration outside [0, I)");
        }
      }
    }
  }
}

// One group stepped through its synchronizations.
struct group_run {
  std::vector<range_list> held;  // per member, in work order
  double resume = 0.0;           // computation (re)starts
  bool finished = false;
  sync_record pending;  // the next synchronization, up to the balancer's service
  balance_decision decision;
  double arrival = 0.0;  // profiles are in: boundary + xi
  group_prediction out;
};

class simulation {
 public:
  simulation(scheme s, const model_input& in) : strategy_(s), in_(in), work_(in.program) {}

  prediction run() {
    const std::size_t p = in_.machine.base_speeds.size();
    const std::size_t k = is_local(strategy_) ? in_.group_size : p;
    if (k == 0) throw std::invalid_argument("predict: group size 0");
    const std::vector<range_list> start =
        in_.start.empty() ? equal_blocks(in_.program.iterations, p).slaves : in_.start;

    const bool given = is_local(strategy_) && !in_.groups.empty();
    std::vector<group_run> groups(given ? in_.groups.size() : group_count(p, k));
    for (std::size_t g = 0; g < groups.size(); ++g) {
      groups[g].out.members = given ? in_.groups[g] : group_members(g, p, k);
      for (const std::size_t m : groups[g].out.members)
        if (m >= p) throw std::invalid_argument("predict: a group names no slave");
      for (const std::size_t m : groups[g].out.members) groups[g].held.push_back(start[m]);
      groups[g].resume = in_.start_time;
      prepare(groups[g]);
    }
    // Groups interact only through the central balancer's queue, so serving synchronizations
    // in order of arrival is all the coupling there is.
    double balancer_free = -std::numeric_limits<double>::infinity();
    while (true) {
      group_run* next = nullptr;
      for (auto& g : groups) {
        if (!g.finished && (next == nullptr || g.arrival < next->arrival)) next = &g;
      }
      if (next == nullptr) break;
      serve(*next, balancer_free);
    }

    prediction result;
    result.scheme = strategy_;
    double finish = in_.start_time;
    for (auto& g : groups) {
      finish = std::max(finish, g.out.finish);
      result.cost = std::max(result.cost, g.out.cost);
      result.groups.push_back(std::move(g.out));
    }
    result.total_time = finish - in_.start_time;
    return result;
  }

 private:
  double speed_of(std::size_t slave) const { return in_.machine.base_speeds[slave]; }

  // The speeds the runtime's balancer sees: work per second (sigma, in base seconds of work per
  // second), or under the earlier rule (balance_unit::iterations) on a loop whose iterations cost
  // different amounts, what each member measured in iterations per second since the group
  // resumed.
  std::vector<double> balancer_speeds(const std::vector<std::int64_t>& assigned,
                                      const std::vector<std::int64_t>& gamma,
                                      const std::vector<double>& sigma, double resume,
                                      double first_done) const {
    if (in_.program.balance.unit == balance_unit::work || work_.uniform() || !(first_done > resume))
      return sigma;
    std::vector<double> rates;
    for (std::size_t i = 0; i < assigned.size(); ++i)
      rates.push_back(static_cast<double>(assigned[i] - gamma[i]) / (first_done - resume));
    return rates;
  }

  // Steps the group to its next synchronization: who runs out first, what everybody has left,
  // and what the balancer will decide.
  // When the group's members would finish what they hold: the first to finish, how many hold
  // work, and the first and last finish.
  struct finish_order {
    std::size_t first = 0, active = 0;
    double first_done = std::numeric_limits<double>::infinity(), last_done = 0.0;
  };
  finish_order order_of(const group_run& g, const std::vector<std::int64_t>& assigned) {
    const auto& members = g.out.members;
    finish_order o;
    o.first = members.size();
    o.last_done = g.resume;
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (assigned[i] == 0) continue;
      ++o.active;
      const double t = finish_time(in_.machine.load, members[i], speed_of(members[i]), g.resume,
                                   work_.of(g.held[i]));
      o.last_done = std::max(o.last_done, t);
      if (t < o.first_done) {
        o.first_done = t;
        o.first = i;
      }
    }
    return o;
  }

  void prepare(group_run& g) {
    const auto& members = g.out.members;
    const std::size_t n = members.size();
    const std::vector<std::int64_t> assigned = iteration_counts(g.held);
    const finish_order o = order_of(g, assigned);
    const std::size_t first = o.first, active = o.active;
    const double first_done = o.first_done, last_done = o.last_done;
    if (active <= 1) {
      // No work in the group, or one active member: nobody to synchronize with (the runtime's
      // last active member finishes what it holds without interrupting anyone).
      g.finished = true;
      g.out.finish = last_done;
      return;
    }

    std::vector<double> sigma(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      if (assigned[i] > 0) {
        sigma[i] = mean_effective_speed(in_.machine.load, members[i], speed_of(members[i]),
                                        g.resume, first_done);
      }
    }
    const std::vector<std::int64_t> gamma = work_.uniform()
                                                ? remaining_uniform(assigned, sigma, first)
                                                : remaining_with(work_, g.held, sigma, first);

    double boundary = first_done;
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t done = assigned[i] - gamma[i];
      if (done > 0 && i != first) {
        boundary =
            std::max(boundary, finish_time(in_.machine.load, members[i], speed_of(members[i]),
                                           g.resume, work_.of_front(g.held[i], done)));
      }
      g.held[i] = split_front(g.held[i], done).back;
    }
    record_pending(g, assigned, gamma, sigma, first_done, boundary, active);
  }

  // The synchronization's record (its costs) and the balancer's decision on what the members
  // hold at it: gamma remaining of `assigned`, at effective speeds sigma.
  void record_pending(group_run& g, const std::vector<std::int64_t>& assigned,
                      const std::vector<std::int64_t>& gamma, const std::vector<double>& sigma,
                      double first_done, double boundary, std::size_t active) {
    sync_record& rec = g.pending;
    rec = sync_record{};
    rec.first_done = first_done;
    rec.boundary = boundary;
    for (const std::int64_t left : gamma) rec.remaining += left;
    // Only the active members take part (interrupts and profiles go to them alone).
    rec.xi = synchronization_cost(is_centralized(strategy_), in_.network, active);
    rec.delta = in_.program.distribution_cost;
    if (rec.remaining == 0) {
      g.decision = balance_decision{};
    } else {
      g.decision =
          decide_balance(g.held, balancer_speeds(assigned, gamma, sigma, g.resume, first_done),
                         in_.program.balance, work_.cost());
    }
    rec.reason = g.decision.reason;
    if (rec.reason == balance_reason::moved) {
      rec.alpha = g.decision.plan.alpha;
      rec.beta = g.decision.plan.beta;
      rec.kappa =
          data_movement_cost(in_.network, rec.alpha, rec.beta, in_.program.bytes_per_iteration);
      rec.psi = instruction_cost(strategy_, in_.network, rec.beta);
    }
    g.arrival = boundary + rec.xi;
  }

  // The balancer's part of a synchronization; centralized balancers serve one group at a time.
  void serve(group_run& g, double& balancer_free) {
    sync_record rec = g.pending;
    if (is_centralized(strategy_)) {
      const double start = std::max(g.arrival, balancer_free);
      rec.delay = start - g.arrival;
      balancer_free = start + rec.delta + rec.psi;
      rec.resume = balancer_free + rec.kappa;
    } else {
      rec.resume = g.arrival + rec.delta + rec.kappa;
    }
    group_prediction& out = g.out;
    out.synchronizations += 1;
    out.cost += rec.xi + rec.delta + rec.kappa + rec.psi + rec.delay;
    if (rec.reason == balance_reason::moved) {
      out.redistributions += 1;
      out.iterations_moved += rec.alpha;
      out.messages += rec.beta;
      g.held = apply_plan(std::move(g.held), g.decision.plan);
    }
    out.syncs.push_back(rec);
    g.resume = rec.resume;
    if (rec.reason == balance_reason::nothing_left) {  // (1.3.4): Gamma(eta) = 0
      g.finished = true;
      out.finish = rec.resume;
    } else if (rec.reason != balance_reason::moved &&
               in_.program.balance.no_move == after_no_move::stop) {
      // Under the stop rule a decision not to move ends balancing in the group, as in the
      // runtime: each member finishes what it holds. (Under the idle rule the members left
      // without work go idle, and the next to run out synchronizes again: prepare() below
      // skips the members that hold nothing.)
      g.finished = true;
      out.finish = rec.resume;
      for (std::size_t i = 0; i < g.held.size(); ++i) {
        if (iteration_count(g.held[i]) == 0) continue;
        const std::size_t m = g.out.members[i];
        out.finish = std::max(out.finish, finish_time(in_.machine.load, m, speed_of(m), rec.resume,
                                                      work_.of(g.held[i])));
      }
    } else {
      prepare(g);
    }
  }

  scheme strategy_;
  const model_input& in_;
  work_model work_;
};

prediction equal_blocks_to_completion(const model_input& in) {
  const std::size_t p = in.machine.base_speeds.size();
  const std::vector<range_list> start =
      in.start.empty() ? equal_blocks(in.program.iterations, p).slaves : in.start;
  const work_model work(in.program);
  group_prediction all;
  all.finish = in.start_time;
  for (std::size_t i = 0; i < p; ++i) {
    all.members.push_back(i);
    all.finish = std::max(all.finish, finish_time(in.machine.load, i, in.machine.base_speeds[i],
                                                  in.start_time, work.of(start[i])));
  }
  prediction result;
  result.scheme = std::nullopt;
  result.total_time = all.finish - in.start_time;
  result.groups.push_back(std::move(all));
  return result;
}

}  // namespace

double evaluate(const polynomial& poly, double p) {
  double value = 0.0;
  for (auto c = poly.coefficients.rbegin(); c != poly.coefficients.rend(); ++c) {
    value = value * p + *c;
  }
  return value;
}

double synchronization_cost(bool centralized, const network_profile& net, std::size_t p) {
  const double x = static_cast<double>(p);
  return evaluate(net.one_to_all, x) +
         (centralized ? evaluate(net.all_to_one, x) : evaluate(net.all_to_all, x));
}

double synchronization_cost(scheme s, const network_profile& net, std::size_t slaves,
                            std::size_t group_size) {
  if (is_local(s) && group_size == 0) {
    throw std::invalid_argument("synchronization_cost: group size 0");
  }
  const std::size_t p = is_local(s) ? std::min(group_size, slaves) : slaves;
  return synchronization_cost(is_centralized(s), net, p);
}

double data_movement_cost(const network_profile& net, std::int64_t alpha, std::size_t beta,
                          double bytes_per_iteration) {
  return static_cast<double>(beta) * net.latency +
         static_cast<double>(alpha) * bytes_per_iteration / net.bandwidth;
}

double instruction_cost(scheme s, const network_profile& net, std::size_t beta) {
  return is_centralized(s) ? static_cast<double>(beta) * net.latency : 0.0;
}

std::vector<std::int64_t> remaining_uniform(const std::vector<std::int64_t>& assigned,
                                            const std::vector<double>& sigma, std::size_t first) {
  check_sigma(sigma, assigned.size(), first);
  const auto chi_f = static_cast<double>(assigned[first]);
  std::vector<std::int64_t> gamma(assigned.size(), 0);
  for (std::size_t i = 0; i < assigned.size(); ++i) {
    if (i == first) continue;
    const double done = sigma[i] > 0.0 ? chi_f * (sigma[i] / sigma[first]) : 0.0;
    const auto whole = static_cast<std::int64_t>(std::ceil(done * (1.0 - kWorkSlack)));
    gamma[i] = assigned[i] - std::clamp<std::int64_t>(whole, 0, assigned[i]);
  }
  return gamma;
}

std::vector<std::int64_t> remaining_nonuniform(const std::vector<range_list>& assigned,
                                               const std::vector<double>& sigma, std::size_t first,
                                               const std::vector<double>& iteration_times) {
  program_profile program;
  program.iterations = static_cast<std::int64_t>(iteration_times.size());
  program.iteration_times = iteration_times;
  for (const auto& ranges : assigned) {
    for (const auto& r : ranges) {
      if (length(r) > 0 && (r.begin < 0 || r.end > program.iterations)) {
        throw std::invalid_argument("remaining_nonuniform: iteration without a time");
      }
    }
  }
  return remaining_with(work_model(program), assigned, sigma, first);
}

prediction predict(scheme s, const model_input& in) {
  validate(in);
  return simulation(s, in).run();
}

prediction predict_without_balancing(const model_input& in) {
  validate(in);
  return equal_blocks_to_completion(in);
}

strategy_choice choose_strategy(const model_input& in) {
  strategy_choice choice;
  for (std::size_t k = 0; k < balancing_strategies.size(); ++k) {
    choice.predictions[k] = predict(balancing_strategies[k], in);
  }
  std::size_t best = 0;
  for (std::size_t k = 1; k < choice.predictions.size(); ++k) {
    if (choice.predictions[k].total_time < choice.predictions[best].total_time) best = k;
  }
  choice.best = balancing_strategies[best];
  return choice;
}

}  // namespace dlb::core
