// central_balancer.hpp (internal): the master's balancer (central_balancer.cpp), which serves
// the synchronizations whose profiles come to the master, one group at a time as their profiles
// complete, and collects the results. The runners of no balancing and of a balancing row run it
// alone; customized mode's runner runs it with itself as the mode in force, which the balancer
// asks at the master's own synchronization (the commitment) and hands ADAPTIVE's re-selection
// profiles (customized_runner.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "dlb/runtime/protocol.hpp"
#include "dlb/runtime/strategy_table.hpp"
#include "loop_session.hpp"

namespace dlb::detail {

class customized_runner;

// One group's synchronizations as the master serves them.
struct group_state {
  int epoch = 0;                                             // synchronizations completed
  std::vector<bool> active;                                  // per member position
  std::map<std::size_t, protocol::member_profile> profiles;  // this epoch's, by position
  // Profiles of later synchronizations that came first (members that go on computing after
  // their profile may run out and ask again before this one is served), by epoch.
  std::map<int, std::map<std::size_t, protocol::member_profile>> later;
};

class central_balancer {
 public:
  // custom: the customized mode in force (null under no balancing and a balancing row).
  central_balancer(master_session& dlb, customized_runner* custom);
  // Until every slave has handed in its results (kept for DLB_gather_data).
  void run();

  // What customized mode works with (customized_runner.cpp).
  master_session& session() { return dlb_; }
  // The master's own first synchronization committed to the balancing row: each member that
  // took part is told its group's decision under it.
  void commit_to_row(const group_state& gs, const protocol::sync_header& h, core::scheme row);
  // A commitment's groups from now on (their state and members) and the protocol in force.
  void take_up(std::vector<group_state> groups, std::vector<std::vector<std::size_t>> members,
               const sync_protocol& proto);
  // A slave's results are in: the synchronizations of its group no longer wait for it.
  void release(std::size_t slave);
  // The rest of the loop is another runner's (customized mode's hand-over to a chunk rule's):
  // run() returns once the message at hand is served.
  void stop() { stopped_ = true; }
  // When the current synchronization's last profile came in.
  double complete_at() const { return complete_at_; }

 private:
  // --on-loss recover: the same, and a lost slave's unfinished iterations computed by the
  // survivors (docs/design/recovery.md, "When a workstation is lost").
  void run_recovering();
  bool wanted(const delivered& d) const;
  void take_profile(const delivered& d);
  // One group's decision, sent to the members whose profiles it decided on.
  void serve(group_state& gs, const protocol::sync_header& h);
  // The paper's centralized protocol (context::central_async): instructions to the senders
  // only, a notice to each requester that gets nothing (it goes idle).
  void serve_senders_only(group_state& gs, int g, const protocol::sync_header& h);
  // Serves the group's synchronization if every active member's profile is in.
  void serve_if_complete(group_state& gs, const protocol::sync_header& h);
  bool async() const { return dlb_.proto().told == decision_audience::tell_senders; }
  // Customized mode that chooses once (AUTO, AUTO-ALL): the committed strategy's own
  // synchronizations are not the balancer's count.
  bool chooses_once() const;
  // The master's own first synchronization, every slave's profile in (customized mode, or
  // --first-sync master-*): customized mode's pick, or the run's row.
  void commit(const group_state& gs, const protocol::sync_header& h);
  // --first-sync master-global: one decision over every profile (in slave order), and each
  // slave's count after it.
  protocol::decision decide_globally(const group_state& gs,
                                     std::map<std::size_t, std::int64_t>& counts_after);
  // A strategy whose later synchronizations the master counts itself (it tells the senders
  // only) counts the master's first one too, in each group it decided for.
  void count_first_sync(std::size_t group, const std::vector<std::size_t>& members,
                        const protocol::decision& dec);

  master_session& dlb_;
  customized_runner* custom_;
  messenger& net_;
  std::size_t procs_;
  // Transfers decided for each slave so far in this loop, the master's first synchronization's
  // included (a notice tells it how many WORK messages it awaits in all, and a slave counts
  // every WORK it received in the loop).
  std::vector<std::int64_t> transfers_to_;
  bool stopped_ = false;  // stop()
  double complete_at_ = 0.0;  // when the synchronization's last profile came in
  // The master's own first synchronization, which ends in a commitment, is still to be served
  // (ADAPTIVE's re-selections are customized mode's).
  bool choosing_;
  // The protocol in force, the groups and their size are the session's (dlb_.proto(),
  // groups(), group_size()), changed only at a commitment (take_up: loop_session::enter).
  std::vector<group_state> groups_;
};

}  // namespace dlb::detail
