// A small command-line option parser shared by the experiment tools: `--name value`,
// `--name=value` and flags; `-h`/`--help` prints the usage and exits 0; a usage error prints
// "TOOL: message" and the usage on stderr and exits 2.
#pragma once

#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace dlb::sweep {

class cli_args {
 public:
  // `value_options` take a value (may repeat: see values()); `flag_options` do not.
  cli_args(int argc, char** argv, std::string tool, std::string usage,
           const std::vector<std::string>& value_options,
           const std::vector<std::string>& flag_options);

  std::optional<std::string> value(const std::string& name) const;  // the last one given
  std::vector<std::string> values(const std::string& name) const;   // every one, in order
  std::string required(const std::string& name) const;              // usage error if absent
  bool flag(const std::string& name) const;
  // A positive integer option; usage error if malformed.
  int positive_int(const std::string& name, int fallback) const;
  // A positive number option; usage error if malformed.
  double positive_double(const std::string& name, double fallback) const;
  // The whole command line, shell-quoted (for provenance headers).
  const std::string& command_line() const { return command_line_; }

  [[noreturn]] void usage_error(const std::string& message) const;
  // Prints "TOOL: what" and returns the exit status of a tool stopped by `e` (experiments/
  // README.md, "Exit statuses"): 2 for bad input (a csv_error or config_error: an input missing,
  // unreadable or malformed, an output over an input, a folder in use; std::invalid_argument: a
  // value out of range), 1 for the rest (an output that cannot be written: an I/O error).
  int failed(const std::exception& e) const;

 private:
  std::string tool_;
  std::string usage_;
  std::vector<std::pair<std::string, std::string>> values_;
  std::vector<std::string> flags_;
  std::string command_line_;
};

}  // namespace dlb::sweep
