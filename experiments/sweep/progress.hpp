// Progress lines of a sweep on stderr: "run i of N, elapsed H:MM:SS, ETA H:MM:SS: what".
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace dlb::sweep {

// "H:MM:SS" (hours not padded, never negative; rounds to the nearest second).
std::string format_hms(double seconds);

// Estimated seconds left: the mean wall time of the runs finished so far in this invocation,
// times the runs not yet finished, divided by the parallel jobs. nullopt before any run ends.
std::optional<double> estimate_remaining(double finished_wall_sum, std::size_t finished,
                                         std::size_t not_finished, int jobs);

// "run 3 of 40, elapsed 0:01:05, ETA 0:12:30: mxm P=4 ..." (ETA "?" when unknown).
std::string progress_line(std::size_t index, std::size_t total, double elapsed_s,
                          std::optional<double> eta_s, std::string_view what);

}  // namespace dlb::sweep
