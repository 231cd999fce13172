// Rendering one gnuplot script to PNG (pngcairo) and SVG through gnuplot-iostream.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace dlb::sweep {
class cli_args;
}

namespace dlb::plots {

// A gnuplot string literal: double-quoted with backslashes and quotes escaped, backquotes (which
// gnuplot would run as a shell command) turned into plain quotes.
std::string gp_quote(std::string_view s);
// Escapes enhanced-text specials (_ ^ { } @ &) so labels print as written.
std::string gp_plain(std::string_view s);

struct figure {
  std::string name;  // file name without extension
  int width = 800;   // pixels (SVG: same size in its units)
  int height = 480;
  std::string script;  // everything after `set terminal` / `set output`
};

// Parses "png,svg" (or "png", "svg"); throws std::invalid_argument on anything else.
std::vector<std::string> parse_formats(std::string_view list);
// The --formats option of a plot program (default png,svg); a bad value is a usage error.
std::vector<std::string> formats_option(const sweep::cli_args& args);

// Writes out_dir/NAME.png and/or NAME.svg with one gnuplot process, and returns their paths.
// Throws std::runtime_error if gnuplot did not produce a non-empty file (gnuplot's own error
// messages appear on stderr).
std::vector<std::filesystem::path> render(const figure& fig, const std::filesystem::path& out_dir,
                                          const std::vector<std::string>& formats);

}  // namespace dlb::plots
