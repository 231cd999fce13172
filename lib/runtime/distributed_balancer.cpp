// distributed_balancer.cpp: the balancer of the distributed strategies (GDDLB, LDDLB), replicated
// on every member of a group. Each active member has multicast its profile to the others
// (slave_sync.cpp); each waits for the others' profiles and computes the same decision from the
// same profiles, in member order, so no decision is sent.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dlb/dlb.hpp"
#include "dlb/runtime/protocol.hpp"
#include "loop_session.hpp"

namespace dlb {

protocol::decision detail::slave_session::decide_in_group(const protocol::member_profile& mine,
                                                          const std::string& where) {
  // The others' profiles are taken in the order they arrive (whoever sent them), then put in
  // member order, so every member decides on the same list.
  std::vector<std::optional<protocol::member_profile>> by_position(slave_.members().size());
  // Each member's position, looked up by slave: a search of the members per profile made a
  // synchronization O(K^3) over the group (K = 2048: 8.6e9 steps).
  std::vector<std::pair<std::size_t, std::size_t>> position;  // (slave, position), by slave
  position.reserve(slave_.members().size());
  for (std::size_t p = 0; p < slave_.members().size(); ++p)
    position.emplace_back(slave_.members()[p], p);
  std::sort(position.begin(), position.end());
  const auto position_of = [&position, n = slave_.members().size()](std::size_t slave) {
    const auto it = std::lower_bound(position.begin(), position.end(),
                                     std::pair<std::size_t, std::size_t>{slave, 0});
    return it != position.end() && it->first == slave ? it->second : n;
  };
  std::size_t awaited = 0;
  for (std::size_t p = 0; p < slave_.members().size(); ++p) {
    if (!slave_.active()[p]) continue;
    if (slave_.members()[p] == slave_.me()) {
      by_position[p] = mine;
    } else {
      ++awaited;
    }
  }
  const auto match = protocol::in_sync(tag::profile, current_sync());
  const std::string what = "the profiles of the group's other active members (" + where + ")";
  for (std::size_t got = 0; got < awaited; ++got) {
    auto m = recovery_.wait(*this, match, what);
    reader r = m.body();
    protocol::member_profile prof = protocol::decode_profile(r).profile;
    // Members are K-block groups or, under --groups power, any set of slaves.
    const std::size_t p = position_of(prof.slave);
    if (p >= slave_.members().size() || !slave_.active()[p] || by_position[p])
      throw run_error("unexpected profile from " + net_.describe(m.from) + " (" + where + ")");
    by_position[p] = std::move(prof);
  }
  std::vector<protocol::member_profile> profiles;
  for (auto& p : by_position)
    if (p) profiles.push_back(std::move(*p));
  // Every member spends the balancer's time on the decision (delta), as the master would.
  net_.busy(rt_.params().delta);
  return decide(profiles);
}

}  // namespace dlb
