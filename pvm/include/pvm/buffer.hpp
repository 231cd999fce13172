// pvm/buffer.hpp: typed packing into send buffers and unpacking from received messages.
//
// Packable types are listed once, in the traits table in buffer.cpp (one line per type);
// a type without a line and without ADL pack/unpack functions is a compile error, never a
// silent fallback. 64-bit integers are sent as two 32-bit words because pvm_pklong truncates
// them to 32 bits under XDR (see docs/pvm-notes.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "pvm/error.hpp"
#include "pvm/types.hpp"

namespace pvm {

class send_buffer;
class message;

namespace detail {

// Declared for every supported scalar in buffer.cpp; the primary template has no members, so
// `scalar<T>` is false for anything else.
template <class T>
struct scalar_traits {};

#define PVM_DECLARE_SCALAR(T)                                                            \
  template <>                                                                            \
  struct scalar_traits<T> {                                                              \
    static void pack(send_buffer& b, const T* p, std::size_t n);                         \
    /* T is a type: */ static void unpack(message& m, T* p, std::size_t n); /* NOLINT */ \
  };
PVM_DECLARE_SCALAR(char)
PVM_DECLARE_SCALAR(signed char)
PVM_DECLARE_SCALAR(unsigned char)
PVM_DECLARE_SCALAR(short)
PVM_DECLARE_SCALAR(unsigned short)
PVM_DECLARE_SCALAR(int)
PVM_DECLARE_SCALAR(unsigned int)
PVM_DECLARE_SCALAR(long)
PVM_DECLARE_SCALAR(unsigned long)
PVM_DECLARE_SCALAR(long long)
PVM_DECLARE_SCALAR(unsigned long long)
PVM_DECLARE_SCALAR(float)
PVM_DECLARE_SCALAR(double)
PVM_DECLARE_SCALAR(bool)
#undef PVM_DECLARE_SCALAR

template <class T>
concept scalar = requires(send_buffer& b, const T* p) {
  scalar_traits<T>::pack(b, p, 1);
};

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

template <class T>
struct is_span : std::false_type {};
template <class T, std::size_t E>
struct is_span<std::span<T, E>> : std::true_type {};

template <class T>
concept adl_packable = requires(send_buffer& b, const T& v) {
  pack(b, v);
};
template <class T>
concept adl_unpackable = requires(message& m, T& v) {
  unpack(m, v);
};

template <class>
inline constexpr bool always_false = false;

// Called from outside the classes, whose member functions named pack/unpack would otherwise
// hide the user's free functions from argument-dependent lookup.
template <class T>
void adl_pack(send_buffer& b, const T& v) {
  pack(b, v);
}
template <class T>
void adl_unpack(message& m, T& v) {
  unpack(m, v);
}

}  // namespace detail

// A PVM send buffer (pvm_mkbuf). Move-only; freed on destruction. Packing makes the buffer
// PVM's active send buffer first, so several buffers may be filled in any order.
class send_buffer {
 public:
  explicit send_buffer(encoding enc = encoding::xdr);
  ~send_buffer();
  send_buffer(send_buffer&& other) noexcept;
  send_buffer& operator=(send_buffer&& other) noexcept;
  send_buffer(const send_buffer&) = delete;
  send_buffer& operator=(const send_buffer&) = delete;

  int id() const noexcept { return id_; }
  encoding enc() const noexcept { return enc_; }
  // Makes this PVM's active send buffer (used by send and by the scalar traits).
  void activate() const;

  template <class... Ts>
  send_buffer& pack(const Ts&... values) {
    (pack_one(values), ...);
    return *this;
  }
  template <class T>
  send_buffer& operator<<(const T& value) {
    pack_one(value);
    return *this;
  }

 private:
  template <class T>
  void pack_one(const T& v) {
    if constexpr (detail::scalar<T>) {
      detail::scalar_traits<T>::pack(*this, &v, 1);
    } else if constexpr (std::is_same_v<T, std::string>) {
      pack_count(v.size());
      detail::scalar_traits<char>::pack(*this, v.data(), v.size());
    } else if constexpr (detail::is_vector<T>::value) {
      pack_count(v.size());
      pack_elements(std::span<const typename T::value_type>(v.data(), v.size()));
    } else if constexpr (detail::is_span<T>::value) {
      // A span packs its elements only: the receiver supplies the length.
      pack_elements(std::span<const std::remove_const_t<typename T::element_type>>(v));
    } else if constexpr (detail::adl_packable<T>) {
      detail::adl_pack(*this, v);
    } else {
      static_assert(detail::always_false<T>,
                    "pvm: this type cannot be packed; give it a free function "
                    "pack(pvm::send_buffer&, const T&) found by ADL");
    }
  }

  template <class E>
  void pack_elements(std::span<const E> s) {
    if constexpr (detail::scalar<E>) {
      if (!s.empty()) detail::scalar_traits<E>::pack(*this, s.data(), s.size());
    } else {
      for (const E& e : s) pack_one(e);
    }
  }

  void pack_count(std::size_t n) { pack_one(static_cast<std::uint64_t>(n)); }

  int id_ = 0;
  encoding enc_ = encoding::xdr;
};

// What a message's envelope says: sender, tag and size in bytes.
struct message_info {
  tid sender;
  pvm::tag tag;
  int bytes = 0;
};

// A received message (owns its PVM receive buffer). Unpack in the order the sender packed.
class message {
 public:
  message(int buffer_id, message_info info) noexcept : id_(buffer_id), info_(info) {}
  ~message();
  message(message&& other) noexcept;
  message& operator=(message&& other) noexcept;
  message(const message&) = delete;
  message& operator=(const message&) = delete;

  const message_info& info() const noexcept { return info_; }
  tid sender() const noexcept { return info_.sender; }
  pvm::tag tag() const noexcept { return info_.tag; }
  int bytes() const noexcept { return info_.bytes; }
  int id() const noexcept { return id_; }
  // Makes this PVM's active receive buffer (used by the scalar traits).
  void activate() const;

  template <class... Ts>
  message& unpack(Ts&... values) {
    (unpack_one(values), ...);
    return *this;
  }
  template <class T>
  message& operator>>(T& value) {
    unpack_one(value);
    return *this;
  }
  template <class T>
  T get() {
    T value{};
    unpack_one(value);
    return value;
  }

 private:
  template <class T>
  void unpack_one(T& v) {
    if constexpr (detail::scalar<T>) {
      detail::scalar_traits<T>::unpack(*this, &v, 1);
    } else if constexpr (std::is_same_v<T, std::string>) {
      v.resize(unpack_count());
      if (!v.empty()) detail::scalar_traits<char>::unpack(*this, v.data(), v.size());
    } else if constexpr (detail::is_vector<T>::value) {
      v.resize(unpack_count());
      unpack_elements(std::span<typename T::value_type>(v.data(), v.size()));
    } else if constexpr (detail::is_span<T>::value) {
      static_assert(!std::is_const_v<typename T::element_type>,
                    "pvm: cannot unpack into a span of const");
      unpack_elements(std::span<typename T::element_type>(v));
    } else if constexpr (detail::adl_unpackable<T>) {
      detail::adl_unpack(*this, v);
    } else {
      static_assert(detail::always_false<T>,
                    "pvm: this type cannot be unpacked; give it a free function "
                    "unpack(pvm::message&, T&) found by ADL");
    }
  }

  template <class E>
  void unpack_elements(std::span<E> s) {
    if constexpr (detail::scalar<E>) {
      if (!s.empty()) detail::scalar_traits<E>::unpack(*this, s.data(), s.size());
    } else {
      for (E& e : s) unpack_one(e);
    }
  }

  std::size_t unpack_count();

  int id_ = 0;
  message_info info_;
};

}  // namespace pvm
