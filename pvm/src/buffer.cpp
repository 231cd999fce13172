// buffer.cpp: the traits table mapping each packable C++ scalar to its libpvm3 routine.
#include "pvm/buffer.hpp"

#include <pvm3.h>

#include <climits>
#include <utility>

namespace pvm {
namespace {

int pvm_encoding(encoding e) {
  switch (e) {
    case encoding::xdr:
      return PvmDataDefault;
    case encoding::raw:
      return PvmDataRaw;
  }
  return PvmDataDefault;
}

int checked_count(std::size_t n, const char* routine) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw error(routine, PvmOverflow, "count exceeds INT_MAX");
  return static_cast<int>(n);
}

// pk/upk routine for a C type: one call per array, stride 1.
template <class C, class T>
void pack_as(send_buffer& b, const T* p, std::size_t n, int (*pk)(C*, int, int), const char* name) {
  static_assert(sizeof(C) == sizeof(T));
  b.activate();
  check(pk(const_cast<C*>(reinterpret_cast<const C*>(p)), checked_count(n, name), 1), name);
}
template <class C, class T>
void unpack_as(message& m, T* p, std::size_t n, int (*upk)(C*, int, int), const char* name) {
  static_assert(sizeof(C) == sizeof(T));
  m.activate();
  check(upk(reinterpret_cast<C*>(p), checked_count(n, name), 1), name);
}

// 64-bit integers travel as (high, low) 32-bit words: pvm_pklong truncates under XDR.
template <class T>
void pack_wide(send_buffer& b, const T* p, std::size_t n) {
  std::vector<unsigned int> words(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    auto u = static_cast<std::uint64_t>(p[i]);
    words[2 * i] = static_cast<unsigned int>(u >> 32);
    words[2 * i + 1] = static_cast<unsigned int>(u & 0xffffffffu);
  }
  pack_as<unsigned int>(b, words.data(), words.size(), pvm_pkuint, "pvm_pkuint");
}
template <class T>
void unpack_wide(message& m, T* p, std::size_t n) {
  std::vector<unsigned int> words(2 * n);
  unpack_as<unsigned int>(m, words.data(), words.size(), pvm_upkuint, "pvm_upkuint");
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t u = (static_cast<std::uint64_t>(words[2 * i]) << 32) | words[2 * i + 1];
    p[i] = static_cast<T>(u);
  }
}

}  // namespace

namespace detail {

// The traits table: one line per packable scalar.
#define PVM_SCALAR(T, C, PK, UPK)                                                            \
  void scalar_traits<T>::pack(send_buffer& b, const T* p, std::size_t n) {                   \
    pack_as<C>(b, p, n, PK, #PK);                                                            \
  }                                                                                          \
  void scalar_traits<T>::unpack(message& m, T* p, std::size_t n) { /* NOLINT: T is a type */ \
    unpack_as<C>(m, p, n, UPK, #UPK);                                                        \
  }
#define PVM_WIDE(T)                                                                              \
  void scalar_traits<T>::pack(send_buffer& b, const T* p, std::size_t n) { pack_wide(b, p, n); } \
  void scalar_traits<T>::unpack(message& m, T* p, std::size_t n) { /* NOLINT: T is a type */     \
    unpack_wide(m, p, n);                                                                        \
  }

PVM_SCALAR(char, char, pvm_pkbyte, pvm_upkbyte)
PVM_SCALAR(signed char, char, pvm_pkbyte, pvm_upkbyte)
PVM_SCALAR(unsigned char, char, pvm_pkbyte, pvm_upkbyte)
PVM_SCALAR(bool, char, pvm_pkbyte, pvm_upkbyte)
PVM_SCALAR(short, short, pvm_pkshort, pvm_upkshort)
PVM_SCALAR(unsigned short, unsigned short, pvm_pkushort, pvm_upkushort)
PVM_SCALAR(int, int, pvm_pkint, pvm_upkint)
PVM_SCALAR(unsigned int, unsigned int, pvm_pkuint, pvm_upkuint)
PVM_SCALAR(float, float, pvm_pkfloat, pvm_upkfloat)
PVM_SCALAR(double, double, pvm_pkdouble, pvm_upkdouble)
PVM_WIDE(long)
PVM_WIDE(unsigned long)
PVM_WIDE(long long)
PVM_WIDE(unsigned long long)
#undef PVM_SCALAR
#undef PVM_WIDE

}  // namespace detail

send_buffer::send_buffer(encoding enc)
    : id_(check(pvm_mkbuf(pvm_encoding(enc)), "pvm_mkbuf")), enc_(enc) {}

send_buffer::~send_buffer() {
  if (id_ > 0) pvm_freebuf(id_);  // destructors never throw; a failure here leaks one buffer
}

send_buffer::send_buffer(send_buffer&& other) noexcept
    : id_(std::exchange(other.id_, 0)), enc_(other.enc_) {}

send_buffer& send_buffer::operator=(send_buffer&& other) noexcept {
  if (this != &other) {
    if (id_ > 0) pvm_freebuf(id_);
    id_ = std::exchange(other.id_, 0);
    enc_ = other.enc_;
  }
  return *this;
}

void send_buffer::activate() const {
  if (id_ <= 0) throw error("pvm_setsbuf", PvmNoBuf, "send buffer was moved from");
  check(pvm_setsbuf(id_), "pvm_setsbuf");
}

message::~message() {
  if (id_ > 0) pvm_freebuf(id_);
}

message::message(message&& other) noexcept : id_(std::exchange(other.id_, 0)), info_(other.info_) {}

message& message::operator=(message&& other) noexcept {
  if (this != &other) {
    if (id_ > 0) pvm_freebuf(id_);
    id_ = std::exchange(other.id_, 0);
    info_ = other.info_;
  }
  return *this;
}

void message::activate() const {
  if (id_ <= 0) throw error("pvm_setrbuf", PvmNoBuf, "message was moved from");
  check(pvm_setrbuf(id_), "pvm_setrbuf");
}

std::size_t message::unpack_count() {
  std::uint64_t n = 0;
  unpack_one(n);
  // Every element takes at least one byte, so a larger count means a corrupt or mismatched
  // message; refuse it rather than allocate without bound.
  if (n > static_cast<std::uint64_t>(info_.bytes)) {
    throw error("unpack", PvmBadMsg,
                "element count " + std::to_string(n) + " exceeds message size");
  }
  return static_cast<std::size_t>(n);
}

}  // namespace pvm
