// policy_runner.hpp (internal): the master's side of one loop's policy as the object that runs
// it, made at DLB_init from the core::policy value itself (make_runner) and gone with the loop.
// One kind of runner per kind of policy:
//   no balancing     the results are collected, nothing else (central_balancer.cpp);
//   a balancing row  the central balancer serves the row's protocol (central_balancer.cpp);
//   customized       AUTO, ADAPTIVE and AUTO-ALL: holds the policies it may choose among and its
//                    chooser, and owns the choosing, the committing and the re-selecting
//                    (customized_runner.cpp);
//   self-scheduling  owns the chunk rule: the first chunks at the scatter, one chunk per request
//                    (self_scheduling.cpp).
// A slave runs the policy DLB_init gave it until a commitment names the next one
// (protocol::commitment): it needs no runner.
#pragma once

#include <memory>
#include <vector>

#include "dlb/core/distribution.hpp"
#include "dlb/core/policy.hpp"

namespace dlb::detail {

class master_session;

class policy_runner {
 public:
  virtual ~policy_runner() = default;
  // DLB_scatter_data: each slave's first share; the loop's initial distribution unless the
  // policy hands out chunks.
  virtual std::vector<core::range_list> first_shares(master_session& m);
  // DLB_master_sync: until every slave has handed in its results.
  virtual void run(master_session& m) = 0;
};

// The runner of each kind (central_balancer.cpp, customized_runner.cpp, self_scheduling.cpp).
std::unique_ptr<policy_runner> make_runner(const core::no_balancing& p, master_session& m);
std::unique_ptr<policy_runner> make_runner(const core::balancing& p, master_session& m);
std::unique_ptr<policy_runner> make_runner(const core::customized& p, master_session& m);
std::unique_ptr<policy_runner> make_runner(const core::self_scheduled& p, master_session& m);
// The runner of policy p: its kind's.
std::unique_ptr<policy_runner> make_runner(const core::policy& p, master_session& m);

}  // namespace dlb::detail
