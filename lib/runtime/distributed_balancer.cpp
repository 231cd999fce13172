// distributed_balancer.cpp: the balancer of the distributed strategies (GDDLB, LDDLB), replicated
// on every member of a group. Each active member has multicast its profile to the others
// (slave_sync.cpp); each waits for the others' profiles and computes the same decision from the
// same profiles, in member order, so no decision is sent.
#include <string>
#include <vector>

#include "dlb/dlb.hpp"
#include "dlb/runtime/protocol.hpp"

namespace dlb {

protocol::decision context::decide_in_group(const protocol::member_profile& mine,
                                            const std::string& where) {
  std::vector<protocol::member_profile> profiles;
  for (std::size_t p = 0; p < members_.size(); ++p) {
    if (!active_[p]) continue;
    if (members_[p] == me_) {
      profiles.push_back(mine);
      continue;
    }
    const int from = static_cast<int>(members_[p]) + 1;
    auto m = net_.wait(protocol::in_sync(tag::profile, current_sync(), from),
                       "the profile of " + net_.describe(from) + " (" + where + ")");
    reader r = m.body();
    profiles.push_back(protocol::decode_profile(r).profile);
  }
  // Every member spends the balancer's time on the decision (delta), as the master would.
  auto& clk = net_.clock();
  clk.wait_until(clk.now() + rt_.params().delta);
  return decide(profiles);
}

}  // namespace dlb
