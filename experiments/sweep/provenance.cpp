// Provenance facts for results headers.
#include "sweep/provenance.hpp"

#include <sys/utsname.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>

#include "sweep/text.hpp"

#ifndef DLB_SOURCE_DIR
#define DLB_SOURCE_DIR "."
#endif
#ifndef DLB_BUILD_TYPE
#define DLB_BUILD_TYPE "unknown build type"
#endif

namespace dlb::sweep {

std::string command_output(const std::string& command) {
  FILE* p = ::popen(command.c_str(), "r");
  if (!p) return {};
  std::string out;
  char buf[512];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  if (::pclose(p) != 0) return {};
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string source_revision() {
  const std::string rev = command_output("git -C " + shell_join({DLB_SOURCE_DIR}) +
                                         " describe --always --dirty --tags 2>/dev/null");
  return rev.empty() ? "unknown" : rev;
}

std::string compiler_description() {
#if defined(__clang__)
  std::string c = "clang++ " __clang_version__;
#elif defined(__GNUC__)
  std::string c = "g++ " __VERSION__;
#else
  std::string c = "unknown compiler";
#endif
  return c + ", " DLB_BUILD_TYPE;
}

std::string pvm_version() {
  std::string out;
  const std::string deb = command_output("dpkg-query -W -f='${Version}' pvm 2>/dev/null");
  if (!deb.empty()) out = deb + " (dpkg pvm)";
  std::ifstream h("/usr/include/pvm3.h");
  std::string line;
  while (std::getline(h, line)) {
    const auto p = line.find("PVM_VER");
    if (line.rfind("#define", 0) != 0 || p == std::string::npos) continue;
    const auto q1 = line.find('"', p);
    const auto q2 = q1 == std::string::npos ? q1 : line.find('"', q1 + 1);
    if (q2 == std::string::npos) continue;
    if (!out.empty()) out += "; ";
    out += "PVM_VER " + line.substr(q1 + 1, q2 - q1 - 1) + " (/usr/include/pvm3.h)";
    break;
  }
  return out.empty() ? "unknown" : out;
}

std::string host_description() {
  utsname u{};
  std::string out = "unknown host";
  if (::uname(&u) == 0) {
    out = std::string(u.nodename) + ", " + u.sysname + " " + u.release + " " + u.machine;
  }
  out += ", " + std::to_string(std::thread::hardware_concurrency()) + " cores";
  std::ifstream cpu("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpu, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) out += ", " + std::string(trim(line.substr(colon + 1)));
      break;
    }
  }
  return out;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace dlb::sweep
