// The Markdown tables of the reports (markdown.hpp).
#include "report/markdown.hpp"

namespace dlb::report {

std::string md_header(const std::vector<md_column>& columns) {
  std::string names = "|", rule = "|";
  for (const auto& c : columns) {
    names += c.name.empty() ? " |" : " " + c.name + " |";
    rule += c.right ? "---:|" : "---|";
  }
  return names + "\n" + rule + "\n";
}

std::string md_row(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const auto& c : cells) out += " " + c + " |";
  return out + "\n";
}

std::string md_plain_header(const std::vector<std::string>& names) {
  std::string out = "|", rule = "|";
  for (const auto& n : names) {
    out += " " + n + " |";
    rule += " --- |";
  }
  return out + "\n" + rule + "\n";
}

std::string md_escaped_row(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const auto& c : cells) out += " " + md_escape(c) + " |";
  return out + "\n";
}

std::string md_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace dlb::report
