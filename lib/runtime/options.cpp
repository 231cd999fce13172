// options.cpp: parsing and typed access with errors that name the option.
#include "dlb/runtime/options.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <sstream>

namespace dlb {

namespace {
// "--name" (or "--name=value"): an option, never the value of the one before it. A negative
// number ("-1", "-3.5") is a value.
bool looks_like_option(const std::string& a) {
  return a.size() > 2 && a.compare(0, 2, "--") == 0 &&
         std::isalpha(static_cast<unsigned char>(a[2])) != 0;
}
}  // namespace

options options::parse(const std::vector<option_spec>& specs,
                       const std::vector<std::string>& args) {
  options o;
  o.specs_ = specs;
  for (const auto& s : specs) o.values_[s.name] = s.value;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) throw usage_error("unexpected argument '" + a + "'");
    std::string name = a.substr(2), value;
    bool has_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    const option_spec* spec = nullptr;
    for (const auto& s : specs) {
      if (s.name == name) spec = &s;
    }
    if (!spec) throw usage_error("unknown option '--" + name + "' (see --help)");
    if (spec->flag) {
      if (has_value) throw usage_error("option --" + name + " takes no value");
      value.assign(1, '1');  // (not = "1": GCC 12 warns falsely of overlapping memcpy)
    } else if (!has_value) {
      if (i + 1 >= args.size()) throw usage_error("option --" + name + " needs a value");
      if (looks_like_option(args[i + 1])) {
        throw usage_error("option --" + name + " needs a value, got the option '" + args[i + 1] +
                          "'");
      }
      value = args[++i];
    }
    if (!spec->values.empty() &&
        std::find(spec->values.begin(), spec->values.end(), value) == spec->values.end()) {
      throw usage_error("option --" + name + " must be " + list_values(spec->values) + ", got '" +
                        value + "'");
    }
    o.values_[name] = value;
    o.given_[name] = true;
  }
  return o;
}

std::string list_values(const std::vector<std::string>& values) {
  std::string list;
  for (std::size_t i = 0; i < values.size(); ++i)
    list += (i == 0 ? "" : i + 1 == values.size() ? " or " : ", ") + values[i];
  return list;
}

const std::string& options::str(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw usage_error("internal: no option --" + name);
  return it->second;
}

bool options::given(const std::string& name) const { return given_.count(name) > 0; }

std::int64_t options::integer(const std::string& name, std::int64_t min, std::int64_t max) const {
  const std::string& v = str(name);
  std::int64_t x = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || p != v.data() + v.size()) {
    throw usage_error("option --" + name + " needs an integer, got '" + v + "'");
  }
  if (x < min || x > max) {
    throw usage_error("option --" + name + " must be in " + std::to_string(min) + ".." +
                      std::to_string(max) + ", got " + v);
  }
  return x;
}

std::optional<double> parse_number(const std::string& text) {
  try {
    std::size_t used = 0;
    const double x = std::stod(text, &used);
    if (used != text.size()) return std::nullopt;
    return x;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

double options::real(const std::string& name, double min, double max) const {
  const std::string& v = str(name);
  const auto parsed = parse_number(v);
  if (!parsed) throw usage_error("option --" + name + " needs a number, got '" + v + "'");
  const double x = *parsed;
  if (!std::isfinite(x) && !(std::isinf(x) && x > 0 && std::isinf(max))) {
    throw usage_error("option --" + name + " needs a finite number, got '" + v + "'");
  }
  if (x < min || x > max) {
    std::ostringstream os;
    os << "option --" << name << " must be in [" << min << ", " << max << "], got " << v;
    throw usage_error(os.str());
  }
  return x;
}

std::string options::help_text() const {
  std::ostringstream os;
  for (const auto& s : specs_) {
    std::string left = "  --" + s.name + (s.flag ? "" : " VALUE");
    os << left;
    if (left.size() < 26)
      os << std::string(26 - left.size(), ' ');
    else
      os << "  ";
    os << s.help;
    if (!s.flag && !s.value.empty()) os << " (default: " << s.value << ")";
    os << "\n";
  }
  return os.str();
}

}  // namespace dlb
