// Facts about where and how results were produced, for the '#' header of results files.
#pragma once

#include <string>
#include <vector>

namespace dlb::sweep {

// `git describe --always --dirty --tags` of the source tree, or "unknown".
std::string source_revision();
// Compiler and build type of this build ("g++ 12.2.0, RelWithDebInfo").
std::string compiler_description();
// "3.4.6-5 (dpkg pvm); PVM_VER 3.4.6 (/usr/include/pvm3.h)", or what of it is available.
std::string pvm_version();
// Host name, OS release, architecture, cores, CPU model.
std::string host_description();
// Current UTC time, ISO 8601 ("2024-05-01T12:00:00Z").
std::string utc_now();
// Runs a shell command and returns its stdout without the trailing newline ("" on failure).
std::string command_output(const std::string& command);

}  // namespace dlb::sweep
