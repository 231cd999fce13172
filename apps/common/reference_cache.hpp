// reference_cache.hpp: verification against a sequential reference whose fingerprint a study
// may keep between runs (the sensitivity study runs every (application, size, seed)
// under dozens of parameter points, and recomputing the same reference each time was a fifth to
// a half of a run's CPU time).
//
// With the environment variable DLB_REFERENCE_CACHE=DIR, the first run of a key (application,
// size, seed, array) computes the reference, checks its result against it as always, and keeps
// the reference's fingerprint (a 128-bit hash of the bits of the elements the check compares)
// in DIR/KEY.ref. A later run whose result has exactly that fingerprint holds the reference bit
// for bit, so it passes without recomputing it; any other result is checked against a freshly
// computed reference with the usual tolerance, as without the cache. Without the variable
// nothing changes. Clear DIR when the kernels or the input generators change.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "apps/verify.hpp"

namespace apps::common {

struct fingerprint {
  std::uint64_t a = 0, b = 0;
  std::size_t count = 0;
  bool operator==(const fingerprint&) const = default;
};
// The fingerprint of a sequence of doubles (order and bits matter; -0.0 and 0.0 differ).
fingerprint fingerprint_of(const std::vector<double>& values);

struct cached_verification {
  verification v;
  bool enabled = false;     // a cache directory was given
  bool from_cache = false;  // passed on the reference's cached fingerprint
  // The RESULT key `reference`: "" without a cache, else "cached" or "computed".
  std::string source() const { return !enabled ? "" : from_cache ? "cached" : "computed"; }
};

// `key`: file-name safe, unique per (application, size, seed, array). `checked` extracts the
// elements the check compares (e.g. TRFD's lower triangle), of the result or of the reference;
// `reference` computes the reference; `check` compares a result with it. `cache_dir` empty: no
// cache (reference computed and checked, as always).
cached_verification verify_cached(
    const std::string& cache_dir, const std::string& key, const std::vector<double>& result,
    const std::function<std::vector<double>(const std::vector<double>&)>& checked,
    const std::function<std::vector<double>()>& reference,
    const std::function<verification(const std::vector<double>& reference)>& check);

// DLB_REFERENCE_CACHE, or "".
std::string reference_cache_dir();

}  // namespace apps::common
