// SHA-256 (FIPS 180-4) of a text, as lowercase hex: the checksum an expected-values file carries
// of itself (experiments/report/expected.hpp), the same as `sha256sum` prints, so a reader can
// check a file with standard tools.
#pragma once

#include <string>
#include <string_view>

namespace dlb::sweep {

// The SHA-256 digest of `data`, 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace dlb::sweep
