// hostfile.cpp: reading and checking PVM hostfiles (pvm/hostfile.hpp).
#include "pvm/hostfile.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace pvm {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool numeric_address(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isdigit(c) || c == '.' || c == ':';
  });
}

bool valid_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '-' || c == '.' || c == '_';
  });
}

// Checks one `key=value` word; returns the reason it is refused, or "".
std::string check_option(const std::string& key, const std::string& value) {
  static const char* known[] = {"lo", "dx", "ep", "wd", "sp", "bx", "ip", "so", "id"};
  if (std::find_if(std::begin(known), std::end(known), [&](const char* k) { return key == k; }) ==
      std::end(known))
    return "unknown option '" + key + "=' (PVM knows lo= dx= ep= wd= sp= bx= ip= so=)";
  if (value.empty()) return "option '" + key + "=' needs a value";
  if (key == "so")
    return "so=" + value +
           " needs someone at the pvmd's terminal (password or manual start); use rsh or ssh "
           "without a password (PVM_RSH)";
  if (key == "id")
    return "id= would put the host in another virtual machine than the run's own (PVM_VMID)";
  if (key == "sp") {
    char* end = nullptr;
    long v = std::strtol(value.c_str(), &end, 10);
    if (*end != '\0' || v < 1 || v > 1000000)
      return "sp= needs an integer 1..1000000, got '" + value + "'";
  }
  return {};
}

}  // namespace

hostfile_error::hostfile_error(std::string source, int line, std::string host, std::string reason)
    : std::runtime_error([&] {
        std::string m = "hostfile " + source;
        if (line > 0) m += ", line " + std::to_string(line);
        if (!host.empty()) m += ", host " + host;
        return m + ": " + reason;
      }()),
      source_(std::move(source)),
      line_(line),
      host_(std::move(host)),
      reason_(std::move(reason)) {}

const hostfile_entry* hostfile::find(std::string_view name) const {
  const std::string want = lower(std::string(name));
  for (const auto& h : hosts) {
    if (lower(h.name) == want) return &h;
  }
  return nullptr;
}

std::string hostfile::deferred_text() const {
  std::ostringstream os;
  os << "# generated from " << source << ": every host deferred, added one by one\n";
  for (const auto& h : hosts) {
    os << "& " << h.name;
    for (const auto& [k, v] : h.options) os << " " << k << "=" << v;
    os << "\n";
  }
  return os.str();
}

hostfile parse_hostfile(std::string_view text, std::string source) {
  hostfile hf;
  hf.source = std::move(source);
  std::map<std::string, std::string> defaults;
  std::istringstream in{std::string(text)};
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    std::istringstream words(raw);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    if (w.empty() || w[0][0] == '#') continue;
    auto fail = [&](const std::string& host, const std::string& why) {
      throw hostfile_error(hf.source, line, host, why);
    };
    bool deferred = false;
    std::size_t first = 0;
    if (w[0] == "&") {
      deferred = true;
      first = 1;
      if (w.size() < 2) fail("", "'&' without a host name");
    } else if (w[0][0] == '&') {
      deferred = true;
      w[0].erase(0, 1);
    }
    std::string name = w[first];
    if (name.find('=') != std::string::npos)
      fail("", "a line starts with a host name or '*', got option '" + name + "'");
    std::map<std::string, std::string> opts = defaults;
    for (std::size_t i = first + 1; i < w.size(); ++i) {
      const auto eq = w[i].find('=');
      if (eq == std::string::npos || eq == 0)
        fail(name == "*" ? "" : name, "expected option=value, got '" + w[i] + "'");
      const std::string key = w[i].substr(0, eq), value = w[i].substr(eq + 1);
      if (auto why = check_option(key, value); !why.empty()) fail(name == "*" ? "" : name, why);
      opts[key] = value;
    }
    if (name == "*") {
      if (deferred) fail("", "'&' before '*'");
      defaults = opts;
      continue;
    }
    if (name[0] == '$') fail(name, "'$' (overloading a host) is not supported by Debian's pvmd");
    if (numeric_address(name))
      fail(name, "a numeric address; PVM needs a host name (rsh/ssh and pvmd are given names)");
    if (!valid_name(name)) fail(name, "not a valid host name");
    if (const auto* dup = hf.find(name))
      fail(name, "named twice (first at line " + std::to_string(dup->line) + ")");
    hf.hosts.push_back({line, name, deferred, std::move(opts)});
  }
  return hf;
}

hostfile read_hostfile(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw hostfile_error(path, 0, "", std::string("cannot read it: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_hostfile(text.str(), path);
}

}  // namespace pvm
