// array.hpp: dlb::array<T>, the typed way to hand a shared array to the runtime.
//
// The paper's DLB_array (dlb.hpp) describes an array by a void pointer and fields set one by one,
// as its compiler generated them (Figure 1.4); it stays, for fidelity. dlb::array<T> is the same
// description made by one constructor that deduces the element type from the data, checks the
// extents against the data and the distribution at construction (dlb::usage_error naming the
// array), and gives typed access to elements and to the slices (rows or columns) iterations own:
//
//   std::vector<double> x(n * m), y(n);
//   dlb::array X("x", x, n, m, dlb::data_distribution::block);           // rows of x move
//   auto Y = dlb::array("y", y, n, 1, dlb::data_distribution::block).result();
//   dlb::parallel_for(rt, loop, {&X, &Y}, [&](std::int64_t i) { Y(i, 0) = sum(X.slice(i)); });
//
// Both kinds go to parallel_for and DLB_init alike: the runtime moves the description
// (description()), which is a DLB_array. The data stays the caller's, full size, in global
// indices; each task fills the slices of the iterations it runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "dlb/dlb.hpp"

namespace dlb {

// The elements of one slice (a row or a column) of an array: `size()` elements `stride` apart.
template <class T>
class slice_view {
 public:
  slice_view(T* first, std::int64_t size, std::int64_t stride)
      : first_(first), size_(size), stride_(stride) {}
  std::int64_t size() const { return size_; }
  T& operator[](std::int64_t k) const { return first_[k * stride_]; }

 private:
  T* first_;
  std::int64_t size_;
  std::int64_t stride_;
};

template <class T>
class array {
  static_assert(is_element_type<T>,
                "dlb::array<T>: T must be one of the element types the runtime packs "
                "(DLB_ELEMENT_TYPES, dlb/element_type.hpp)");

 public:
  // A rows x cols array (row-major) over `data`, which must hold exactly rows * cols elements.
  // A BLOCK or CYCLIC array is split by iterations along `axis` (iteration i owns slice i); a
  // WHOLE one is replicated. Scattered from the master by default (input); see result().
  array(std::string name, std::vector<T>& data, std::int64_t rows, std::int64_t cols,
        data_distribution dist, along axis = along::rows)
      : array(std::move(name), data.data(), static_cast<std::int64_t>(data.size()), rows, cols,
              dist, axis) {}
  // The same over `size` elements at `data`.
  array(std::string name, T* data, std::int64_t size, std::int64_t rows, std::int64_t cols,
        data_distribution dist, along axis = along::rows) {
    if (name.empty()) throw usage_error("dlb::array: an array needs a name");
    const std::string what = "dlb::array " + name + ": ";
    if (data == nullptr) throw usage_error(what + "no data");
    if (rows < 1 || cols < 1)
      throw usage_error(what + "extents must be positive, got " + std::to_string(rows) + " x " +
                        std::to_string(cols));
    if (size != rows * cols)
      throw usage_error(what + std::to_string(rows) + " x " + std::to_string(cols) + " needs " +
                        std::to_string(rows * cols) + " elements, the data has " +
                        std::to_string(size));
    desc_ = DLB_array::of(std::move(name), data, rows, cols, dist, axis);
  }

  // A result: gathered to the master at the end, not scattered (its initial contents on the
  // slaves do not matter).
  array& result() & {
    desc_.input = false;
    desc_.output = true;
    return *this;
  }
  array&& result() && { return std::move(result()); }
  // Scattered at the start and gathered at the end (an array updated in place).
  array& updated() & {
    desc_.input = true;
    desc_.output = true;
    return *this;
  }
  array&& updated() && { return std::move(updated()); }
  // Iteration i owns slice i and its bitonic partner S-1-i (a triangular loop made uniform by
  // bitonic scheduling, dlb/core/bitonic.hpp).
  array& bitonic() & {
    desc_.map = iteration_map::bitonic;
    return *this;
  }
  array&& bitonic() && { return std::move(bitonic()); }

  std::int64_t rows() const { return desc_.rows; }
  std::int64_t cols() const { return desc_.cols; }
  T& operator()(std::int64_t r, std::int64_t c) const { return data()[r * desc_.cols + c]; }
  // Slice s: row s of an array split along rows, column s of one split along columns.
  slice_view<T> slice(std::int64_t s) const {
    if (desc_.axis == along::rows) return {data() + s * desc_.cols, desc_.cols, 1};
    return {data() + s, desc_.rows, desc_.cols};
  }

  // What the runtime moves: the paper's description of this array.
  DLB_array& description() { return desc_; }
  const DLB_array& description() const { return desc_; }

 private:
  T* data() const { return static_cast<T*>(desc_.data); }
  DLB_array desc_;
};

template <class T>
array(std::string, std::vector<T>&, std::int64_t, std::int64_t, data_distribution,
      along = along::rows) -> array<T>;

}  // namespace dlb
