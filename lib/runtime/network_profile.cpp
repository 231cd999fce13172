// network_profile.cpp: reading and writing network profile files, and finding the reference
// profiles installed with the library.
#include "dlb/runtime/network_profile.hpp"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
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

namespace {

// An object of the library: dladdr tells which loaded file (libdlb.so, or the program itself when
// it was linked with the static archives) holds it.
const char kLocationAnchor = 0;

std::filesystem::path running_executable() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe;
}

// The file holding the library's code; empty if it cannot be told.
std::filesystem::path library_file() {
  Dl_info info{};
  link_map* map = nullptr;
  if (::dladdr1(&kLocationAnchor, &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) == 0 ||
      map == nullptr || map->l_name == nullptr)
    return {};
  // The main program's link map has no name: the library is linked into the executable.
  if (map->l_name[0] == '\0') return running_executable();
  std::error_code ec;
  auto file = std::filesystem::canonical(map->l_name, ec);
  return ec ? std::filesystem::path() : file;
}

std::string network_dir_beside(const std::filesystem::path& file) {
  return (file.parent_path().parent_path() / "share" / "dlb" / "network").lexically_normal();
}

}  // namespace

std::vector<std::string> network_profile_dirs() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("DLB_NETWORK_DIR"); env != nullptr && *env != '\0')
    dirs.emplace_back(env);
  for (const auto& file : {library_file(), running_executable()}) {
    if (file.empty()) continue;
    auto dir = network_dir_beside(file);
    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
  }
  return dirs;
}

std::string find_network_profile(const std::string& name) {
  const std::string file = name + ".profile";
  const auto dirs = network_profile_dirs();
  for (const auto& dir : dirs) {
    std::error_code ec;
    const auto path = std::filesystem::path(dir) / file;
    if (std::filesystem::is_regular_file(path, ec)) return path.string();
  }
  std::string looked;
  const char* env = std::getenv("DLB_NETWORK_DIR");
  if (env == nullptr || *env == '\0') looked = "$DLB_NETWORK_DIR (not set), ";
  for (std::size_t i = 0; i < dirs.size(); ++i) looked += (i ? ", " : "") + dirs[i];
  throw std::runtime_error("no network profile '" + file + "' for the cost model: looked in " +
                           looked +
                           "; give a profile with --network-profile FILE or its directory with "
                           "DLB_NETWORK_DIR");
}

}  // namespace dlb
