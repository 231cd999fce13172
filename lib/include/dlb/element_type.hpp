// element_type.hpp: the element types of the arrays the runtime scatters, moves and gathers,
// listed once (DLB_ELEMENT_TYPES). Everything that depends on the list expands it: the enum
// element_type, element_type_of<T>(), is_element_type<T> (dlb::array<T>'s check) and
// element_size (the bytes the wire carries per element).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

// X(name, C++ type), for each element type, in the enum's order.
#define DLB_ELEMENT_TYPES(X) \
  X(f64, double)             \
  X(f32, float)              \
  X(i32, std::int32_t)       \
  X(i64, std::int64_t)

namespace dlb {

enum class element_type {
#define DLB_ELEMENT_TYPE_ENUMERATOR(name, type) name,
  DLB_ELEMENT_TYPES(DLB_ELEMENT_TYPE_ENUMERATOR)
#undef DLB_ELEMENT_TYPE_ENUMERATOR
};

// Whether T is one of the element types.
template <class T>
inline constexpr bool is_element_type = false;
#define DLB_ELEMENT_TYPE_IS(name, type) \
  template <>                           \
  inline constexpr bool is_element_type<type> = true;
DLB_ELEMENT_TYPES(DLB_ELEMENT_TYPE_IS)
#undef DLB_ELEMENT_TYPE_IS

// The element_type of T (T must be one of them).
template <class T>
constexpr element_type element_type_of() {
  static_assert(is_element_type<T>,
                "dlb: the element type must be one of DLB_ELEMENT_TYPES (dlb/element_type.hpp)");
#define DLB_ELEMENT_TYPE_OF(name, type) \
  if constexpr (std::is_same_v<T, type>) return element_type::name;
  DLB_ELEMENT_TYPES(DLB_ELEMENT_TYPE_OF)
#undef DLB_ELEMENT_TYPE_OF
  return element_type::f64;
}

// Bytes per element.
constexpr std::size_t element_size(element_type t) {
  switch (t) {
#define DLB_ELEMENT_TYPE_SIZE(name, type) \
  case element_type::name:                \
    return sizeof(type);
    DLB_ELEMENT_TYPES(DLB_ELEMENT_TYPE_SIZE)
#undef DLB_ELEMENT_TYPE_SIZE
  }
  return 0;
}

}  // namespace dlb
