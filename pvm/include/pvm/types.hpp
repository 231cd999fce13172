// pvm/types.hpp: strong types for task ids and message tags, and the option enums.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <ostream>

namespace pvm {

// A PVM task id. Strong type: a tag or a count cannot be passed where a task is meant.
struct tid {
  int value = 0;
  constexpr auto operator<=>(const tid&) const = default;
};

// A message tag. Protocols define their tags in one enum class and convert with to_tag().
struct tag {
  int value = 0;
  constexpr auto operator<=>(const tag&) const = default;
};

template <class E>
constexpr tag to_tag(E e) {
  return tag{static_cast<int>(e)};
}

// How a message's data is encoded. xdr is portable across architectures (PVM's default);
// raw copies native bytes (same-architecture hosts only). PVM's PvmDataInPlace is not offered:
// libpvm 3.4.6 writes fragment headers into the bytes in front of in-place data, which crashed
// a message of 50 small packs and silently overwrites the caller's memory (pvm/README.md).
enum class encoding { xdr, raw };

// Task-to-task routing: through the pvmds (default) or direct TCP links between tasks.
enum class route { via_pvmd, direct };

inline std::ostream& operator<<(std::ostream& os, tid t) {
  return os << "t" << std::hex << t.value << std::dec;
}
inline std::ostream& operator<<(std::ostream& os, tag t) { return os << "tag " << t.value; }

}  // namespace pvm

template <>
struct std::hash<pvm::tid> {
  std::size_t operator()(pvm::tid t) const noexcept { return std::hash<int>{}(t.value); }
};
