// arrays.hpp (internal): the data of DLB_arrays in messages. An iteration owns one slice (row or
// column) of each distributed array, or two under bitonic scheduling (its own and its partner
// S-1-i); these functions pack and unpack the slices of a set of iterations, in iteration order.
// The messages around them are protocol.hpp's.
#pragma once

#include <vector>

#include "dlb/core/distribution.hpp"
#include "dlb/dlb.hpp"
#include "dlb/runtime/wire.hpp"

namespace dlb::detail {

// Which arrays a message carries.
using array_filter = bool (*)(const DLB_array&);
// WORK: the distributed input arrays, which move with their iterations (the paper's data D).
bool moved_array(const DLB_array& a);
// GATHER: the output arrays.
bool output_array(const DLB_array& a);

// The slices of the selected arrays that the iterations `ranges` touch, array by array.
void pack_arrays(writer& w, const std::vector<DLB_array*>& arrays, const core::range_list& ranges,
                 array_filter selected);
void unpack_arrays(reader& r, const std::vector<DLB_array*>& arrays, const core::range_list& ranges,
                   array_filter selected);

// SCATTER: every input array, a WHOLE one entire and a distributed one by the slices of `ranges`.
void pack_inputs(writer& w, const std::vector<DLB_array*>& arrays, const core::range_list& ranges);
void unpack_inputs(reader& r, const std::vector<DLB_array*>& arrays,
                   const core::range_list& ranges);

}  // namespace dlb::detail
