// chooser.cpp: the choosers of AUTO, AUTO-ALL and ADAPTIVE (chooser.hpp).
#include "chooser.hpp"

#include <algorithm>
#include <sstream>
#include <string>

#include "dlb/core/adaptive.hpp"
#include "loop_session.hpp"

namespace dlb::detail {

namespace {

class auto_chooser final : public chooser {
 public:
  explicit auto_chooser(choice_models& m) : m_(m) {}
  core::policy choose(const choice_input& in) override {
    auto& stats = m_.stats();
    stats.prediction = m_.predict(in.speeds);
    const core::scheme c = stats.prediction.valid ? stats.prediction.best : core::scheme::gddlb;
    stats.chosen = core::balancing{c};
    if (!m_.quiet()) {
      std::ostringstream os;
      // t from the loop's start, whatever the clock's origin.
      os << "AUTO at t = " << m_.now() - stats.start_time << " s predicts";
      for (std::size_t k = 0; k < core::kBalancingStrategies; ++k) {
        os << " " << to_string(core::balancing_strategies[k]) << " "
           << stats.prediction.total_time[k] << " s";
      }
      os << "; commits to " << to_string(c);
      m_.notice(os.str());
    }
    return core::balancing{c};
  }

 private:
  choice_models& m_;
};

class auto_all_chooser final : public chooser {
 public:
  auto_all_chooser(choice_models& m, core::customized mode) : m_(m), mode_(std::move(mode)) {}
  core::policy choose(const choice_input& in) override {
    const core::policy* forced = mode_.forced.empty() ? nullptr : &mode_.forced.front();
    const auto pick = m_.choose_policy(mode_.candidates, forced, in);
    if (!m_.quiet()) {
      std::ostringstream os;
      os << "AUTO-ALL at t = " << in.now - m_.stats().start_time << " s predicts";
      for (const auto& t : pick.times)
        os << " " << core::to_string(t.candidate) << " " << t.time << " s";
      os << "; commits to " << core::to_string(pick.policy) << (forced ? " (--auto-force)" : "");
      m_.notice(os.str());
    }
    return pick.policy;
  }

 private:
  choice_models& m_;
  core::customized mode_;  // AUTO-ALL's: its candidates and forced commitment
};

class adaptive_chooser final : public chooser {
 public:
  explicit adaptive_chooser(choice_models& m) : m_(m) {}
  core::policy choose(const choice_input& in) override {
    auto& stats = m_.stats();
    const auto times = m_.predict_remaining(in);
    const core::scheme pick =
        times ? core::reselect(*times, in_force_) : in_force_.value_or(core::scheme::gddlb);
    if (stats.choices.empty()) {
      stats.chosen = core::balancing{pick};
      stats.prediction = m_.predict(in.speeds);  // the whole loop's, as AUTO's
    }
    stats.choices.push_back({in.now - stats.start_time, pick,
                             times.value_or(std::array<double, core::kBalancingStrategies>{})});
    announce(in.now, times, pick);
    in_force_ = pick;
    return core::balancing{pick};
  }

 private:
  // The notice that ADAPTIVE commits or switches (not under --quiet, nor when it stays).
  void announce(double now,
                const std::optional<std::array<double, core::kBalancingStrategies>>& times,
                core::scheme pick) const {
    if (m_.quiet() || (in_force_ && *in_force_ == pick)) return;
    std::ostringstream os;
    os << "ADAPTIVE at t = " << now - m_.stats().start_time << " s predicts to the end";
    for (std::size_t k = 0; k < core::kBalancingStrategies; ++k)
      os << " " << to_string(core::balancing_strategies[k]) << " " << (times ? (*times)[k] : 0.0)
         << " s";
    os << "; "
       << (in_force_ ? "switches from " + std::string(to_string(*in_force_)) + " to "
                     : std::string("commits to "))
       << to_string(pick);
    m_.notice(os.str());
  }

  choice_models& m_;
  std::optional<core::scheme> in_force_;  // the strategy committed at the last re-selection
};

}  // namespace

std::unique_ptr<chooser> make_chooser(choice_models& m, const core::customized& mode) {
  switch (mode.mode) {
    case core::customized_mode::auto_all:
      return std::make_unique<auto_all_chooser>(m, mode);
    case core::customized_mode::adaptive:
      return std::make_unique<adaptive_chooser>(m);
    default:
      return std::make_unique<auto_chooser>(m);
  }
}

strategy_prediction session_models::predict(const std::vector<double>& speeds) const {
  return m_.predict(speeds);
}

std::optional<std::array<double, core::kBalancingStrategies>> session_models::predict_remaining(
    const choice_input& in) const {
  return m_.predict_remaining(in.starts, in.now, in.speeds, in.window);
}

auto_all_pick session_models::choose_policy(std::span<const core::policy> candidates,
                                            const core::policy* forced, const choice_input& in) {
  return m_.choose_policy(candidates, forced, in.profiles, in.speeds, in.now);
}

run_stats& session_models::stats() { return m_.master_.predictions(); }
double session_models::now() const { return m_.net_.clock().now(); }
bool session_models::quiet() const { return m_.rt_.params().quiet; }
void session_models::notice(const std::string& line) {
  m_.rt_.report(report_kind::notice, m_.rt_.app_name() + ": " + line);
}

}  // namespace dlb::detail
