// wire.hpp: the byte format of the runtime's messages. A writer appends fixed-width values in
// the host's byte order; a reader takes them back in the same order and throws on a short or
// malformed message. All tasks of a run share one architecture (emulated mode runs on one host;
// a native run on several hosts needs hosts of one PVM_ARCH).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "dlb/core/distribution.hpp"

namespace dlb {

using bytes = std::vector<std::byte>;

class wire_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class writer {
 public:
  // Room for a header's worth of fields up front (most messages are small), which also keeps
  // GCC 12 from a false -Wstringop-overflow on the first insert into an empty buffer.
  writer() { buf_.reserve(64); }
  template <class T>
  requires std::is_trivially_copyable_v<T> writer& put(const T& v) {
    put_raw(&v, sizeof(T));
    return *this;
  }
  writer& put_raw(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    buf_.insert(buf_.end(), b, b + n);
    return *this;
  }
  writer& put_string(const std::string& s) {
    put<std::uint64_t>(s.size());
    return put_raw(s.data(), s.size());
  }
  writer& put_ranges(const core::range_list& r) {
    put<std::uint64_t>(r.size());
    for (const auto& x : r) put(x.begin).put(x.end);
    return *this;
  }
  template <class T>
  writer& put_vector(const std::vector<T>& v) {
    put<std::uint64_t>(v.size());
    return put_raw(v.data(), v.size() * sizeof(T));
  }
  std::size_t size() const { return buf_.size(); }
  bytes take() { return std::move(buf_); }
  const bytes& data() const { return buf_; }

 private:
  bytes buf_;
};

class reader {
 public:
  explicit reader(std::span<const std::byte> data) : data_(data) {}
  template <class T>
  requires std::is_trivially_copyable_v<T> T get() {
    T v;
    get_raw(&v, sizeof(T));
    return v;
  }
  void get_raw(void* p, std::size_t n) {
    if (n > data_.size() - pos_)
      throw wire_error("message too short: wanted " + std::to_string(n) + " bytes at offset " +
                       std::to_string(pos_) + " of " + std::to_string(data_.size()));
    std::memcpy(p, data_.data() + pos_, n);
    pos_ += n;
  }
  std::span<const std::byte> view(std::size_t n) {
    if (n > data_.size() - pos_)
      throw wire_error("message too short for a block of " + std::to_string(n) + " bytes");
    auto s = data_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  std::string get_string() {
    auto n = count(1);
    std::string s(n, '\0');
    get_raw(s.data(), n);
    return s;
  }
  core::range_list get_ranges() {
    auto n = count(16);
    core::range_list r(n);
    for (auto& x : r) {
      x.begin = get<std::int64_t>();
      x.end = get<std::int64_t>();
    }
    return r;
  }
  template <class T>
  std::vector<T> get_vector() {
    auto n = count(sizeof(T));
    std::vector<T> v(n);
    get_raw(v.data(), n * sizeof(T));
    return v;
  }
  bool done() const { return pos_ == data_.size(); }
  std::size_t left() const { return data_.size() - pos_; }

 private:
  // A count larger than what is left cannot be right: refuse it before allocating.
  std::size_t count(std::size_t element_size) {
    auto n = get<std::uint64_t>();
    if (n > left() / element_size)
      throw wire_error("element count " + std::to_string(n) + " exceeds the message");
    return static_cast<std::size_t>(n);
  }
  std::span<const std::byte> data_;
  std::size_t pos_ = 0;
};

}  // namespace dlb
