// policy_runner.cpp: a policy's runner by its kind (policy_runner.hpp).
#include "policy_runner.hpp"

#include "loop_session.hpp"

namespace dlb::detail {

std::vector<core::range_list> policy_runner::first_shares(master_session& m) {
  return m.initial_distribution();
}

std::unique_ptr<policy_runner> make_runner(const core::policy& p, master_session& m) {
  return std::visit([&m](const auto& kind) { return make_runner(kind, m); }, p.value);
}

}  // namespace dlb::detail
