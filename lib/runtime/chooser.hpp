// chooser.hpp (internal): customized mode's choice as one interface. At the master's own
// synchronization the profiles go in and the policy to commit to comes out; each chooser records
// its predictions in the run's statistics and tells what it predicts and picks (not under
// --quiet). Customized mode's runner holds the chooser of the mode in force and does what the
// commitment says (customized_runner.cpp); which chooser serves which mode is make_chooser's
// table. A chooser sees its loop through choice_models (the models' predictions, the run's
// statistics, the notices), which the master's session provides (session_models) and a unit
// test can provide alone:
//
//   AUTO      the cost model's pick of the paper's four on the speeds seen so far (GDDLB if the
//             model cannot predict), once, at the first synchronization (section 1.3.3);
//   AUTO-ALL  every candidate policy predicted (auto_all.cpp), the fastest (or --auto-force's),
//             once; committing to ADAPTIVE hands the rest of the loop to ADAPTIVE's chooser;
//   ADAPTIVE  at every re-selection, the model from now to the loop's end under each strategy's
//             decision on the same profiles (core::reselect keeps the strategy in force on a tie).
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dlb/core/auto_all.hpp"
#include "dlb/core/distribution.hpp"
#include "dlb/core/policy.hpp"
#include "dlb/core/strategy.hpp"
#include "dlb/runtime/protocol.hpp"
#include "dlb/stats.hpp"

namespace dlb::detail {

class master_session;

// What a chooser sees at the master's own synchronization.
struct choice_input {
  std::vector<protocol::member_profile> profiles;  // in slave order
  std::vector<double> speeds;                      // per slave (0: no profile)
  double now = 0.0;
  // ADAPTIVE: every slave's work after this synchronization's decision under each balancing
  // strategy (the model's start), and the mean time the profiles cover.
  std::array<std::vector<core::range_list>, core::kBalancingStrategies> starts;
  double window = 0.0;
};

// AUTO-ALL's commitment (auto_all.cpp): the policy, and each candidate's predicted time.
struct auto_all_pick {
  core::policy policy;
  std::vector<core::candidate_time> times;
};

// What a chooser needs of its loop besides the profiles.
class choice_models {
 public:
  virtual ~choice_models() = default;
  // The model's prediction of the whole loop under the paper's four strategies, from the
  // slaves' speeds (AUTO; ADAPTIVE's first choice).
  virtual strategy_prediction predict(const std::vector<double>& speeds) const = 0;
  // ADAPTIVE: the model's time from in.now to the loop's end under each balancing strategy, from
  // in.starts (nothing if the model cannot run).
  virtual std::optional<std::array<double, core::kBalancingStrategies>> predict_remaining(
      const choice_input& in) const = 0;
  // AUTO-ALL: every candidate's predicted time and the pick (the fastest, or `forced`).
  virtual auto_all_pick choose_policy(std::span<const core::policy> candidates,
                                      const core::policy* forced, const choice_input& in) = 0;
  // The run's statistics, where a chooser records what it predicted and chose.
  virtual run_stats& stats() = 0;
  // The clock now (AUTO's notice gives its time from the loop's start).
  virtual double now() const = 0;
  // The run's notices: none under --quiet; otherwise `line` after the program's name.
  virtual bool quiet() const = 0;
  virtual void notice(const std::string& line) = 0;
};

// The master's session as a chooser sees it.
class session_models final : public choice_models {
 public:
  explicit session_models(master_session& m) : m_(m) {}
  strategy_prediction predict(const std::vector<double>& speeds) const override;
  std::optional<std::array<double, core::kBalancingStrategies>> predict_remaining(
      const choice_input& in) const override;
  auto_all_pick choose_policy(std::span<const core::policy> candidates, const core::policy* forced,
                              const choice_input& in) override;
  run_stats& stats() override;
  double now() const override;
  bool quiet() const override;
  void notice(const std::string& line) override;

 private:
  master_session& m_;
};

class chooser {
 public:
  virtual ~chooser() = default;
  // The policy to commit to.
  virtual core::policy choose(const choice_input& in) = 0;
};

// The chooser of a customized mode (AUTO, AUTO-ALL among its candidates, ADAPTIVE).
std::unique_ptr<chooser> make_chooser(choice_models& m, const core::customized& mode);

}  // namespace dlb::detail
