// The Markdown tables of every report, written once (experiments/README.md, "Where things are
// defined"): GitHub's pipe tables, "| a | b |" with the separator "|---|---:|" under the header
// ('---:' a right-aligned column, numbers; '---' a left-aligned one, text).
#pragma once

#include <string>
#include <vector>

namespace dlb::report {

struct md_column {
  std::string name;
  bool right = false;  // right-aligned (numbers)
};
// A right-aligned column.
inline md_column md_right(std::string name) { return {std::move(name), true}; }

// The header line and the separator line, each ending in '\n' (an empty name: "| |").
std::string md_header(const std::vector<md_column>& columns);
// One row: "| c1 | c2 |\n".
std::string md_row(const std::vector<std::string>& cells);

// dlb_report's tables: every column left-aligned, the rule "| --- |", each cell escaped.
std::string md_plain_header(const std::vector<std::string>& names);
std::string md_escaped_row(const std::vector<std::string>& cells);
// A cell's text with each '|' escaped ("\|"), so that it stays one cell.
std::string md_escape(const std::string& text);

}  // namespace dlb::report
