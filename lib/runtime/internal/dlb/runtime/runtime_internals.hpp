// runtime_internals.hpp (internal): what a runtime has under it, the messenger, the clock and
// the transport, for the library itself and the two tools of this tree that drive them directly
// (apps/synthetic's --deadlock-slave, dlb_netchar's measurements); not part of the public
// runtime class (dlb/runtime/runtime.hpp).
#pragma once

#include "dlb/runtime/clocks.hpp"
#include "dlb/runtime/messenger.hpp"
#include "dlb/runtime/runtime.hpp"
#include "dlb/runtime/seam.hpp"

namespace dlb::detail {

struct runtime_internals {
  static messenger& net(runtime& rt) { return *rt.messenger_; }
  static dlb::clock& clock(runtime& rt) { return rt.clock_; }
  static dlb::transport& transport(runtime& rt) { return rt.transport_; }
};

inline messenger& net(runtime& rt) { return runtime_internals::net(rt); }
inline dlb::clock& clock_of(runtime& rt) { return runtime_internals::clock(rt); }
inline dlb::transport& transport_of(runtime& rt) { return runtime_internals::transport(rt); }

}  // namespace dlb::detail
