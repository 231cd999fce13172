// strategy_table.cpp: the names of the protocol options' values (--first-sync, --broadcast).
#include "dlb/runtime/strategy_table.hpp"

namespace dlb {

std::string_view to_string(first_sync_owner f) {
  switch (f) {
    case first_sync_owner::strategy:
      return "strategy";
    case first_sync_owner::master_group:
      return "master-group";
    case first_sync_owner::master_global:
      return "master-global";
  }
  return "?";
}

std::optional<first_sync_owner> parse_first_sync(std::string_view s) {
  for (auto f : {first_sync_owner::strategy, first_sync_owner::master_group,
                 first_sync_owner::master_global})
    if (s == to_string(f)) return f;
  return std::nullopt;
}

std::string_view to_string(broadcast_kind b) {
  return b == broadcast_kind::mcast ? "mcast" : "unicast";
}

std::optional<broadcast_kind> parse_broadcast(std::string_view s) {
  for (auto b : {broadcast_kind::unicast, broadcast_kind::mcast})
    if (s == to_string(b)) return b;
  return std::nullopt;
}

}  // namespace dlb
