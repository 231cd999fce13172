// recovery.hpp: what the master reassigns when a slave is lost, as pure
// functions of values. The master knows what was handed in (each slave's results carry their
// iteration ranges); what the loop has that nobody handed in, once every surviving slave has
// handed in all it held, is exactly what must be computed again, whatever the lost slave held,
// was sending or was receiving when it died.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "dlb/core/distribution.hpp"

namespace dlb::core {

// The iterations of [0, iterations) in none of `handed_in` (normalized: sorted, merged).
// Iterations outside [0, iterations) in handed_in are ignored.
range_list missing_iterations(std::int64_t iterations, const std::vector<range_list>& handed_in);

// True iff some iteration is in two of `handed_in` (or twice in one).
bool handed_in_twice(const std::vector<range_list>& handed_in);

// `missing` split into consecutive pieces (in its order), one per weight, sized in proportion
// to the weights (largest remainder; ties to the lower index). A non-positive or non-finite
// weight counts as 0; if every weight is 0, they are taken as equal. Throws
// std::invalid_argument for no weights.
std::vector<range_list> share_out(const range_list& missing, const std::vector<double>& weights);
// The same with pieces sized by work instead of count: `work(i)` is iteration i's cost; each
// iteration goes to the piece whose share of the total work its middle falls in (so a piece's
// work is within one iteration of its share). Empty `work`: by count, as above.
std::vector<range_list> share_out(const range_list& missing, const std::vector<double>& weights,
                                  const std::function<double(std::int64_t)>& work);

}  // namespace dlb::core
