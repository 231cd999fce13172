// pvm/error.hpp: the one exception type for PVM failures and the choke point every libpvm3
// return code goes through. PVM's negative return codes are its only error channel, so no call
// may ignore one.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace pvm {

// PVM's own name for an error code ("No such task" for PvmNoTask), or "unknown PVM error".
std::string_view code_name(int code) noexcept;
// The symbolic constant for an error code ("PvmNoTask"), or "PvmUnknown".
std::string_view code_symbol(int code) noexcept;

class error : public std::runtime_error {
 public:
  error(std::string routine, int code, const std::string& detail = {});

  const std::string& routine() const noexcept { return routine_; }
  int code() const noexcept { return code_; }
  std::string_view name() const noexcept { return code_name(code_); }

 private:
  std::string routine_;
  int code_;
};

// Throws pvm::error when rc is negative; returns rc otherwise.
inline int check(int rc, const char* routine) {
  if (rc < 0) throw error(routine, rc);
  return rc;
}

}  // namespace pvm
