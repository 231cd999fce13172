// network_profile.cpp: reading and writing network profile files.
#include "dlb/runtime/network_profile.hpp"

#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>

namespace dlb {

core::network_profile parse_network_profile(const std::string& text, const std::string& source) {
  std::map<std::string, std::string> kv;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    auto eq = line.find('=');
    if (eq == std::string::npos)
      throw std::runtime_error(source + ":" + std::to_string(number) + ": expected 'key = value'");
    auto trim = [](std::string s) {
      s.erase(0, s.find_first_not_of(" \t"));
      s.erase(s.find_last_not_of(" \t\r") + 1);
      return s;
    };
    kv[trim(line.substr(0, eq))] = trim(line.substr(eq + 1));
  }
  auto need = [&](const std::string& k) -> const std::string& {
    auto it = kv.find(k);
    if (it == kv.end()) throw std::runtime_error(source + ": missing '" + k + "'");
    return it->second;
  };
  auto number_of = [&](const std::string& k) {
    try {
      return std::stod(need(k));
    } catch (const std::invalid_argument&) {
      throw std::runtime_error(source + ": '" + k + "' is not a number");
    }
  };
  auto poly = [&](const std::string& k) {
    core::polynomial p;
    std::istringstream vs(need(k));
    double c;
    while (vs >> c) p.coefficients.push_back(c);
    if (!vs.eof() || p.coefficients.empty())
      throw std::runtime_error(source + ": '" + k + "' needs coefficients");
    return p;
  };
  core::network_profile p;
  p.latency = number_of("latency_s");
  p.bandwidth = number_of("bandwidth_Bps");
  if (!(p.latency >= 0) || !(p.bandwidth > 0))
    throw std::runtime_error(source + ": latency or bandwidth out of range");
  p.one_to_all = poly("one_to_all");
  p.all_to_one = poly("all_to_one");
  p.all_to_all = poly("all_to_all");
  return p;
}

core::network_profile read_network_profile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read network profile '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_network_profile(ss.str(), path);
}

void write_network_profile(std::ostream& os, const core::network_profile& p) {
  os << std::setprecision(10);
  os << "latency_s = " << p.latency << "\n";
  os << "bandwidth_Bps = " << p.bandwidth << "\n";
  auto poly = [&](const char* name, const core::polynomial& q) {
    os << name << " =";
    for (double c : q.coefficients) os << " " << c;
    os << "\n";
  };
  poly("one_to_all", p.one_to_all);
  poly("all_to_one", p.all_to_one);
  poly("all_to_all", p.all_to_all);
}

}  // namespace dlb
