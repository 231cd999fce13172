// task_buffer.hpp: dlb::task_buffer<T>, a full-size array of one task whose untouched pages cost
// nothing.
//
// The paper's generated code gives every task full-size arrays indexed globally (Figure 1.4); a
// task writes only the slices of the iterations it holds. A task_buffer is such an array: `size`
// zeros in a private anonymous mapping of its own, of which only the pages a task writes (or
// reads) become resident. Under --backend sim all P tasks live in one process, so a run costs
// what the tasks own (their slices, a page or two each at least) instead of P full copies; under
// PVM and MPI it is the same full-size array, indexed the same way. Huge pages are refused
// (MADV_NOHUGEPAGE), so that one touched slice costs a page, not 2 MiB. resident_bytes() says
// how many of its bytes are resident (mincore: the pages a task has touched), which is a
// deterministic function of what the task touched.
//
//   dlb::task_buffer<double> x(n * m);                     // zeros, nothing resident
//   dlb::array X("x", x.data(), x.size(), n, m, dlb::data_distribution::block);
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace dlb {

template <class T>
class task_buffer {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "dlb::task_buffer<T>: T must be a trivial element type (zero bytes are a value)");

 public:
  task_buffer() = default;
  // `size` zero elements; no page of them is resident until it is touched.
  explicit task_buffer(std::size_t size) : size_(size), bytes_(mapped_bytes(size)) {
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    (void)madvise(p, bytes_, MADV_NOHUGEPAGE);  // advice only: a kernel without THP refuses it
    data_ = static_cast<T*>(p);
  }
  task_buffer(const task_buffer&) = delete;
  task_buffer& operator=(const task_buffer&) = delete;
  task_buffer(task_buffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)),
        size_(std::exchange(o.size_, 0)),
        bytes_(std::exchange(o.bytes_, 0)) {}
  task_buffer& operator=(task_buffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  ~task_buffer() { release(); }

  T* data() const { return data_; }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) const { return data_[i]; }

  // Bytes of this buffer in resident pages (whole pages: the pages the task has touched).
  std::size_t resident_bytes() const {
    if (data_ == nullptr) return 0;
    const std::size_t page = page_size();
    std::vector<unsigned char> in(bytes_ / page);
    if (mincore(static_cast<void*>(data_), bytes_, in.data()) != 0) return 0;
    std::size_t pages = 0;
    for (unsigned char c : in) pages += (c & 1U);
    return pages * page;
  }

 private:
  static std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }
  static std::size_t mapped_bytes(std::size_t size) {
    const std::size_t page = page_size();
    const std::size_t b = size * sizeof(T);
    return b == 0 ? page : (b + page - 1) / page * page;
  }
  void release() {
    if (data_ != nullptr) munmap(static_cast<void*>(data_), bytes_);
    data_ = nullptr;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t bytes_ = 0;
};

}  // namespace dlb
