// chooser.hpp (internal): customized mode's choice as one interface. At the master's own
// synchronization the profiles go in and the policy to commit to comes out; each chooser records
// its predictions in the run's statistics and tells what it predicts and picks (not under
// --quiet). Customized mode's runner holds the chooser of the mode in force and does what the
// commitment says (customized_runner.cpp); which chooser serves which mode is make_chooser's
// table:
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
#include <vector>

#include "dlb/core/distribution.hpp"
#include "dlb/core/policy.hpp"
#include "dlb/core/strategy.hpp"
#include "dlb/runtime/protocol.hpp"

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

class chooser {
 public:
  virtual ~chooser() = default;
  // The policy to commit to.
  virtual core::policy choose(const choice_input& in) = 0;
};

// The chooser of a customized mode (AUTO, AUTO-ALL among its candidates, ADAPTIVE).
std::unique_ptr<chooser> make_chooser(master_session& m, const core::customized& mode);

}  // namespace dlb::detail
