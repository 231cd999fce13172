// Small text helpers shared by the experiment tools: trimming, splitting, strict number parsing
// and a canonical number format (so "1.0" and "1" name the same run parameter).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlb::sweep {

std::string_view trim(std::string_view s);
// Splits on runs of blanks (spaces, tabs); no empty pieces.
std::vector<std::string> split_blanks(std::string_view s);
// The `key=value` words of a line, in order; a word that is not key=value (no '=', or nothing
// before it) is skipped. "size=n=400" gives ("size", "n=400").
std::vector<std::pair<std::string, std::string>> key_values(std::string_view words);
// Splits on one separator character, trimming each piece; keeps empty pieces.
std::vector<std::string> split_on(std::string_view s, char sep);

// ASCII upper and lower case ("mxm" <-> "MXM").
std::string upper(std::string s);
std::string lower(std::string s);

// Whole-string parses; nullopt on anything else (sign, trailing text, overflow, NaN).
std::optional<std::int64_t> parse_int(std::string_view s);
std::optional<std::uint64_t> parse_uint(std::string_view s);
std::optional<double> parse_double(std::string_view s);

// Shortest text that reads back as the same double ("20", "0.5", "1e-06").
std::string format_number(double x);
// Fixed significant digits for tables ("%.*g").
std::string format_sig(double x, int digits = 4);
// Fixed decimals ("%.*f": 3 -> "0.250").
std::string format_fixed(double x, int decimals = 3);

// A command line as one shell-readable string (single-quotes words that need it).
std::string shell_join(const std::vector<std::string>& argv);

}  // namespace dlb::sweep
