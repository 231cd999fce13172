// Command-line parsing for the experiment tools.
#include "sweep/cli.hpp"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <iostream>

#include "sweep/config.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/text.hpp"

namespace dlb::sweep {

cli_args::cli_args(int argc, char** argv, std::string tool, std::string usage,
                   const std::vector<std::string>& value_options,
                   const std::vector<std::string>& flag_options)
    : tool_(std::move(tool)), usage_(std::move(usage)) {
  // Every tool: a file-size limit (ulimit -f) makes a write fail with EFBIG, reported naming the
  // file (an I/O error, exit 1), instead of SIGXFSZ ending the tool without a word. The runs
  // dlb_sweep starts get the default back (child.cpp).
  std::signal(SIGXFSZ, SIG_IGN);
  std::vector<std::string> all(argv, argv + argc);
  command_line_ = shell_join(all);
  auto known = [](const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::cout << usage_;
      std::exit(0);
    }
    if (a.rfind("--", 0) != 0) usage_error("unexpected argument '" + a + "'");
    std::string name = a.substr(2);
    std::optional<std::string> inline_value;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (known(flag_options, name)) {
      if (inline_value) usage_error("--" + name + " takes no value");
      flags_.push_back(name);
    } else if (known(value_options, name)) {
      if (inline_value) {
        values_.emplace_back(name, *inline_value);
      } else {
        if (i + 1 >= argc) usage_error("--" + name + " needs a value");
        values_.emplace_back(name, argv[++i]);
      }
    } else {
      usage_error("unknown option '" + a + "'");
    }
  }
}

std::optional<std::string> cli_args::value(const std::string& name) const {
  std::optional<std::string> v;
  for (const auto& [k, x] : values_) {
    if (k == name) v = x;
  }
  return v;
}

std::vector<std::string> cli_args::values(const std::string& name) const {
  std::vector<std::string> v;
  for (const auto& [k, x] : values_) {
    if (k == name) v.push_back(x);
  }
  return v;
}

std::string cli_args::required(const std::string& name) const {
  auto v = value(name);
  if (!v) usage_error("--" + name + " is required");
  if (v->empty()) usage_error("--" + name + " needs a value, got an empty one");
  return *v;
}

bool cli_args::flag(const std::string& name) const {
  return std::find(flags_.begin(), flags_.end(), name) != flags_.end();
}

int cli_args::positive_int(const std::string& name, int fallback) const {
  const auto v = value(name);
  if (!v) return fallback;
  const auto n = parse_int(*v);
  if (!n || *n < 1 || *n > 1000000)
    usage_error("--" + name + " needs a positive integer, got '" + *v + "'");
  return static_cast<int>(*n);
}

double cli_args::positive_double(const std::string& name, double fallback) const {
  const auto v = value(name);
  if (!v) return fallback;
  const auto x = parse_double(*v);
  if (!x || !(*x > 0)) usage_error("--" + name + " needs a positive number, got '" + *v + "'");
  return *x;
}

int cli_args::failed(const std::exception& e) const {
  std::cerr << tool_ << ": " << e.what() << "\n";
  const bool bad_input = dynamic_cast<const csv_error*>(&e) != nullptr ||
                         dynamic_cast<const config_error*>(&e) != nullptr ||
                         dynamic_cast<const std::invalid_argument*>(&e) != nullptr;
  return bad_input ? 2 : 1;
}

void cli_args::usage_error(const std::string& message) const {
  std::cerr << tool_ << ": " << message << "\n" << usage_;
  std::exit(2);
}

}  // namespace dlb::sweep
