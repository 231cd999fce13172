// error.cpp: PVM error names and the exception type.
#include "pvm/error.hpp"

#include <array>
#include <utility>

extern "C" {
extern char* pvm_errlist[];  // libpvm3's own messages, indexed by -code
extern int pvm_nerr;
}

namespace pvm {

std::string_view code_name(int code) noexcept {
  if (code <= 0 && -code < pvm_nerr && pvm_errlist[-code] != nullptr) return pvm_errlist[-code];
  return "unknown PVM error";
}

std::string_view code_symbol(int code) noexcept {
  static constexpr std::array<std::pair<int, std::string_view>, 35> symbols{{
      {0, "PvmOk"},           {-2, "PvmBadParam"},      {-3, "PvmMismatch"},
      {-4, "PvmOverflow"},    {-5, "PvmNoData"},        {-6, "PvmNoHost"},
      {-7, "PvmNoFile"},      {-8, "PvmDenied"},        {-10, "PvmNoMem"},
      {-12, "PvmBadMsg"},     {-14, "PvmSysErr"},       {-15, "PvmNoBuf"},
      {-16, "PvmNoSuchBuf"},  {-17, "PvmNullGroup"},    {-18, "PvmDupGroup"},
      {-19, "PvmNoGroup"},    {-20, "PvmNotInGroup"},   {-21, "PvmNoInst"},
      {-22, "PvmHostFail"},   {-23, "PvmNoParent"},     {-24, "PvmNotImpl"},
      {-25, "PvmDSysErr"},    {-26, "PvmBadVersion"},   {-27, "PvmOutOfRes"},
      {-28, "PvmDupHost"},    {-29, "PvmCantStart"},    {-30, "PvmAlready"},
      {-31, "PvmNoTask"},     {-32, "PvmNotFound"},     {-33, "PvmExists"},
      {-34, "PvmHostrNMstr"}, {-35, "PvmParentNotSet"}, {-36, "PvmIPLoopback"},
      {-1, "PvmUnknown"},     {-9, "PvmUnknown"},
  }};
  for (const auto& [c, s] : symbols) {
    if (c == code) return s;
  }
  return "PvmUnknown";
}

namespace {
std::string describe(const std::string& routine, int code, const std::string& detail) {
  std::string s = routine + ": " + std::string(code_name(code)) + " (" +
                  std::string(code_symbol(code)) + ", " + std::to_string(code) + ")";
  if (!detail.empty()) s += ": " + detail;
  return s;
}
}  // namespace

error::error(std::string routine, int code, const std::string& detail)
    : std::runtime_error(describe(routine, code, detail)),
      routine_(std::move(routine)),
      code_(code) {}

}  // namespace pvm
