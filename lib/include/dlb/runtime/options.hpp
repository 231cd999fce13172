// options.hpp: command-line options of DLB programs. The master parses and validates them; the
// slaves receive the same name=value pairs in the configuration message and read them with
// the same getters, so master and slaves can never disagree about a parameter.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace dlb {

// A bad command line: the message names the option; programs exit 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct option_spec {
  std::string name;   // without the leading --
  std::string value;  // default ("" = must be given, for required options)
  std::string help;
  // A choice option's values, the one place they are listed: parse() refuses any other, naming
  // them ("must be a, b or c"). Empty: any value (the reader checks it).
  std::vector<std::string> values = {};
  bool flag = false;  // takes no value ("1" when present)
};

// "a", "a or b", "a, b or c": a choice's values as messages list them.
std::string list_values(const std::vector<std::string>& values);

// The whole of `text` as a number (std::stod's syntax), or nothing: the one number parser of the
// options, --speeds and network description files.
std::optional<double> parse_number(const std::string& text);

class options {
 public:
  options() = default;
  options(std::vector<option_spec> specs, std::map<std::string, std::string> values)
      : specs_(std::move(specs)), values_(std::move(values)) {}

  // Parses --name value / --name=value; unknown options and missing values are usage errors.
  static options parse(const std::vector<option_spec>& specs, const std::vector<std::string>& args);

  const std::string& str(const std::string& name) const;
  std::int64_t integer(const std::string& name, std::int64_t min, std::int64_t max) const;
  double real(const std::string& name, double min, double max) const;
  bool flag(const std::string& name) const { return str(name) == "1"; }
  bool given(const std::string& name) const;
  const std::map<std::string, std::string>& values() const { return values_; }
  const std::vector<option_spec>& specs() const { return specs_; }
  void set(const std::string& name, const std::string& value) { values_[name] = value; }

  // "  --name VALUE   help (default: x)" lines.
  std::string help_text() const;

 private:
  std::vector<option_spec> specs_;
  std::map<std::string, std::string> values_;
  std::map<std::string, bool> given_;
};

}  // namespace dlb
