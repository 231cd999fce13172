// refusals.hpp (internal): the option combinations a run cannot have (refusals.cpp), checked by
// read_params (option_table.cpp) once every option is read.
#pragma once

#include "dlb/runtime/options.hpp"
#include "dlb/runtime/params.hpp"

namespace dlb::detail {

// usage_error naming the option, what it needs and the page of docs/design/ that tells why;
// `strategy` names the run's policy ("--strategy ADAPTIVE", or a typed policy's name).
void refuse_combinations(const options& o, const run_params& p, const std::string& strategy);

}  // namespace dlb::detail
