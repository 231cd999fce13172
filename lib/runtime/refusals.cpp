// refusals.cpp: the option combinations a run cannot have (refusals.hpp), moved from
// option_table.cpp as they were.
#include "refusals.hpp"

#include <string>

#include "backend_table.hpp"
#include "dlb/core/policy.hpp"
#include "dlb/runtime/errors.hpp"

namespace dlb::detail {

namespace {

// What a message says of a refused combination: the option, what it needs, where it is told
// (a section of a page of docs/design/).
struct told_in {
  const char* page;
  const char* section;
};
[[noreturn]] void refuse(const std::string& what, told_in where) {
  throw usage_error(what + " (docs/design/" + where.page + ", \"" + where.section + "\")");
}

}  // namespace

// The option combinations a run cannot have, derived from the backend's capability columns
// (backend_table.hpp), the policy's (core::capabilities_of: the policy, and under AUTO-ALL every
// policy it may commit to) and the protocol's.
void refuse_combinations(const options& o, const run_params& p, const std::string& strategy) {
  detail::refuse_for_backend(o, p);
  const auto caps = core::capabilities_of(p.policy, p.policy.candidates(), p.policy.forced());
  const bool auto_all = p.policy.is(core::customized_mode::auto_all);
  const told_in doc = auto_all ? told_in{"policies.md", "AUTO-ALL"}
                      : p.policy.is(core::customized_mode::adaptive)
                          ? told_in{"policies.md", "ADAPTIVE"}
                          : told_in{"recovery.md", "When a workstation is lost"};
  if (p.recover && !caps.survives_loss)
    refuse("option --on-loss recover does not work with " + strategy +
               (auto_all ? ", which may commit to a policy that does not survive a lost slave"
                         : ", which does not survive a lost slave"),
           doc);
  // A group that stops balancing sends no more profiles: a policy that waits for every one of
  // them would wait for ever.
  if (p.after_no_move == core::after_no_move::stop && caps.needs_every_profile)
    refuse("option --after-no-move stop does not work with " + strategy +
               (auto_all ? " when ADAPTIVE is a candidate (it waits for every slave's profile)"
                         : " (it waits for every slave's profile)"),
           doc);
  // The master's global first decision moves work across the strategy's groups; recovering a
  // lost slave's work after such moves is not handled.
  if (p.recover && p.first_sync == first_sync_owner::master_global)
    refuse("option --on-loss recover does not work with --first-sync master-global",
           {"protocol.md", "The first synchronization"});
}

}  // namespace dlb::detail
