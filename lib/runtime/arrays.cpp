// arrays.cpp: scattering, moving and gathering the slices of DLB_arrays (arrays.hpp), and the
// arrays' sizes (dlb.hpp: element_size, bytes_per_iteration).
#include "arrays.hpp"

#include <cstddef>
#include <cstdint>

#include "dlb/core/bitonic.hpp"

namespace dlb {

namespace detail {

namespace {

// Address of element (r, c) of an array.
std::byte* element(const DLB_array& a, std::int64_t r, std::int64_t c) {
  const std::int64_t index = a.layout == storage::row_major ? r * a.cols + c : c * a.rows + r;
  return static_cast<std::byte*>(a.data) + index * static_cast<std::int64_t>(element_size(a.type));
}

// Slice s of an array: row s (along rows) or column s (along columns).
void pack_slice(writer& w, const DLB_array& a, std::int64_t s) {
  const auto es = element_size(a.type);
  const bool contiguous = (a.axis == along::rows) == (a.layout == storage::row_major);
  if (contiguous) {
    w.put_raw(a.axis == along::rows ? element(a, s, 0) : element(a, 0, s),
              es * static_cast<std::size_t>(a.slice_length()));
    return;
  }
  for (std::int64_t j = 0; j < a.slice_length(); ++j) {
    w.put_raw(a.axis == along::rows ? element(a, s, j) : element(a, j, s), es);
  }
}

void unpack_slice(reader& r, const DLB_array& a, std::int64_t s) {
  const auto es = element_size(a.type);
  const bool contiguous = (a.axis == along::rows) == (a.layout == storage::row_major);
  if (contiguous) {
    r.get_raw(a.axis == along::rows ? element(a, s, 0) : element(a, 0, s),
              es * static_cast<std::size_t>(a.slice_length()));
    return;
  }
  for (std::int64_t j = 0; j < a.slice_length(); ++j) {
    r.get_raw(a.axis == along::rows ? element(a, s, j) : element(a, j, s), es);
  }
}

// Slices [s, s + n) of an array whose slices lie one after the other in memory (a row-major
// array along rows, a column-major one along columns): one block, copied at once.
bool slices_contiguous(const DLB_array& a) {
  return (a.axis == along::rows) == (a.layout == storage::row_major) &&
         a.map != iteration_map::bitonic;
}
std::byte* slices_at(const DLB_array& a, std::int64_t s) {
  return a.axis == along::rows ? element(a, s, 0) : element(a, 0, s);
}
std::size_t slices_bytes(const DLB_array& a, std::int64_t n) {
  return element_size(a.type) * static_cast<std::size_t>(a.slice_length() * n);
}

template <class F>
void for_each_slice(const DLB_array& a, const core::range_list& ranges, F f) {
  const std::int64_t n = a.slice_count();
  for (const auto& rg : ranges) {
    for (std::int64_t i = rg.begin; i < rg.end; ++i) {
      f(i);
      if (a.map != iteration_map::bitonic) continue;
      const std::int64_t mirror = core::bitonic_mirror(i, n);
      if (mirror != i) f(mirror);
    }
  }
}

// The slices of the iterations in `ranges`, in the order for_each_slice gives them: a range
// of contiguous slices as one block (the same bytes, one copy).
void pack_ranges(writer& w, const DLB_array& a, const core::range_list& ranges) {
  if (!slices_contiguous(a)) {
    for_each_slice(a, ranges, [&](std::int64_t s) { pack_slice(w, a, s); });
    return;
  }
  for (const auto& rg : ranges)
    if (rg.end > rg.begin) w.put_raw(slices_at(a, rg.begin), slices_bytes(a, rg.end - rg.begin));
}

void unpack_ranges(reader& r, const DLB_array& a, const core::range_list& ranges) {
  if (!slices_contiguous(a)) {
    for_each_slice(a, ranges, [&](std::int64_t s) { unpack_slice(r, a, s); });
    return;
  }
  for (const auto& rg : ranges)
    if (rg.end > rg.begin) r.get_raw(slices_at(a, rg.begin), slices_bytes(a, rg.end - rg.begin));
}

std::size_t whole_bytes(const DLB_array& a) {
  return static_cast<std::size_t>(a.rows * a.cols) * element_size(a.type);
}

}  // namespace

bool moved_array(const DLB_array& a) { return a.moves(); }
bool output_array(const DLB_array& a) { return a.output; }

void pack_arrays(writer& w, const std::vector<DLB_array*>& arrays, const core::range_list& ranges,
                 array_filter selected) {
  for (const DLB_array* a : arrays) {
    if (!selected(*a)) continue;
    pack_ranges(w, *a, ranges);
  }
}

void unpack_arrays(reader& r, const std::vector<DLB_array*>& arrays, const core::range_list& ranges,
                   array_filter selected) {
  for (const DLB_array* a : arrays) {
    if (!selected(*a)) continue;
    unpack_ranges(r, *a, ranges);
  }
}

void pack_inputs(writer& w, const std::vector<DLB_array*>& arrays, const core::range_list& ranges) {
  for (const DLB_array* a : arrays) {
    if (!a->input) continue;
    if (a->distribution == data_distribution::whole) {
      w.put_raw(a->data, whole_bytes(*a));
    } else {
      pack_ranges(w, *a, ranges);
    }
  }
}

void unpack_inputs(reader& r, const std::vector<DLB_array*>& arrays,
                   const core::range_list& ranges) {
  for (const DLB_array* a : arrays) {
    if (!a->input) continue;
    if (a->distribution == data_distribution::whole) {
      r.get_raw(a->data, whole_bytes(*a));
    } else {
      unpack_ranges(r, *a, ranges);
    }
  }
}

}  // namespace detail

std::size_t bytes_per_iteration(const std::vector<DLB_array*>& arrays, std::int64_t iterations) {
  std::size_t total = 0;
  for (const DLB_array* a : arrays) {
    if (!a->moves()) continue;
    // A bitonic iteration carries two slices (one for the middle of an odd count).
    const double slices =
        a->map == iteration_map::bitonic && iterations > 0
            ? static_cast<double>(a->slice_count()) / static_cast<double>(iterations)
            : 1.0;
    total += static_cast<std::size_t>(slices * static_cast<double>(a->slice_length()) *
                                      static_cast<double>(element_size(a->type)));
  }
  return total;
}

}  // namespace dlb
