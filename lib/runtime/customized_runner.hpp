// customized_runner.hpp (internal): customized mode's runner (customized_runner.cpp), a policy
// made of policies. It holds the policies it may choose among (AUTO: the balancing rows;
// AUTO-ALL: its candidates; ADAPTIVE: the rows again at every re-selection) and the chooser of
// its mode (chooser.hpp), and owns what follows a choice: the commitment at the master's own
// first synchronization (a row: the balancer's commitment; ADAPTIVE: its first re-selection; a
// chunk rule: the hand-over to the self scheduler), and ADAPTIVE's re-selections
// (docs/design/policies.md, "ADAPTIVE"): global synchronizations at epochs 2s whose commitments
// name the row that runs the group's next synchronization, at 2s + 1.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "central_balancer.hpp"
#include "chooser.hpp"
#include "policy_runner.hpp"

namespace dlb::detail {

class customized_runner final : public policy_runner {
 public:
  customized_runner(core::customized p, master_session& m);
  // AUTO-ALL: the choice before the scatter; a chunk rule's first chunks if it commits to one.
  std::vector<core::range_list> first_shares(master_session& m) override;
  void run(master_session& m) override;

  // What the balancer asks of the mode in force.
  // ADAPTIVE is in force (the run's, or AUTO-ALL's pick): every profile comes to the master.
  bool adaptive() const { return m_.adaptive(); }
  // AUTO and AUTO-ALL choose once: the committed strategy's synchronizations are not counted
  // as the balancer's.
  bool chooses_once() const { return policy_.mode != core::customized_mode::adaptive; }
  // A re-selection's profile (epoch 2s under ADAPTIVE) is the runner's.
  bool takes(const protocol::profile_msg& m) const { return adaptive() && m.sync.epoch % 2 == 0; }
  void take_reselection_profile(central_balancer& b, protocol::profile_msg m);
  // A slave's results are in, or it went idle: it takes part in no more re-selections.
  void gathered(central_balancer& b, std::size_t slave);
  void went_idle(std::size_t slave);
  // The master's own first synchronization: the row to commit to (the balancer commits), or
  // nothing when the pick was taken up here (a chunk rule, ADAPTIVE).
  std::optional<core::scheme> choose(central_balancer& b, const group_state& gs,
                                     const protocol::sync_header& h);
  // After the balancer's commitment to a row.
  void committed(central_balancer& b);

 private:
  // One strategy's decision at a re-selection: its groups, who in each took part, and each
  // group's decision (none where no member took part).
  struct under_strategy {
    std::vector<std::vector<std::size_t>> groups;
    std::vector<std::vector<std::size_t>> took_part;  // per group, in member order
    std::vector<std::optional<protocol::decision>> decisions;
  };
  using plans = std::array<under_strategy, core::kBalancingStrategies>;
  using starts = std::array<std::vector<core::range_list>, core::kBalancingStrategies>;

  void switch_to_self_scheduling(central_balancer& b, const group_state& gs,
                                 const protocol::sync_header& h, const core::policy& pick);
  void switch_to_adaptive(central_balancer& b, const group_state& gs,
                          const protocol::sync_header& h);
  // AUTO-ALL: the time its choice took, from the last profile to the commitment sent.
  void record_choice_time(central_balancer& b);
  // Every live slave's profile in: run the model on what remains and commit again.
  void reselect_if_complete(central_balancer& b);
  void reselect(central_balancer& b, const protocol::sync_header& h);
  // The re-selection's decision under each of the strategies' groups, and what each slave
  // would hold after it (the model's start).
  void plan_under_each(plans& p, starts& s) const;
  // Each group of the pick is sent its decision with the commitment; its next synchronizations
  // are at epoch 2s + 1 with the members that still hold work.
  void commit_reselection(central_balancer& b, under_strategy& plan, core::scheme pick,
                          const protocol::sync_header& h);

  core::customized policy_;
  master_session& m_;
  std::size_t procs_;
  session_models models_;  // what the choosers see of the session
  std::unique_ptr<chooser> chooser_;
  int stage_ = 0;            // ADAPTIVE: re-selections committed
  // The runner of the chunk rule it committed to (AUTO-ALL, before the scatter or at the first
  // synchronization), which runs the rest of the loop; null until then.
  std::unique_ptr<policy_runner> handed_to_;
  std::vector<bool> live_;   // per slave: may still send a profile (active, no results yet)
  std::map<std::size_t, protocol::member_profile> reselection_;  // this one's, by slave
};

}  // namespace dlb::detail
