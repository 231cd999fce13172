// Reading inputs, writing outputs and locking a results folder, for every experiment tool.
#include "sweep/safe_files.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>

#include "sweep/cli.hpp"
#include "sweep/text.hpp"

namespace dlb::sweep {
namespace {

namespace fs = std::filesystem;

struct identity {
  dev_t dev;
  ino_t ino;
  std::string path;
};

// Every input read_input has read in this process, and every output written (not counting a
// file rewritten by its own tool).
std::mutex inputs_mutex;
std::vector<identity>& inputs_read() {
  static std::vector<identity> v;
  return v;
}
std::vector<identity>& outputs_written() {
  static std::vector<identity> v;
  return v;
}

std::string errno_text() { return std::strerror(errno); }

std::string size_text(std::uintmax_t bytes) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

void write_all(int fd, std::string_view text, const fs::path& path) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("cannot write " + path.string() + ": " + errno_text());
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

bool pid_alive(pid_t pid) { return pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM); }

}  // namespace

std::string read_input(const fs::path& path, std::uintmax_t limit, bool binary_ok) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw csv_error("cannot read " + path.string() + ": " + errno_text());
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const std::string why = errno_text();
    ::close(fd);
    throw csv_error("cannot read " + path.string() + ": " + why);
  }
  // Checked on the open file, not the name: what is read is what was checked.
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw input_error(path.string() + ": not a regular file (a device, pipe or directory cannot " +
                      "be an input)");
  }
  if (static_cast<std::uintmax_t>(st.st_size) > limit) {
    ::close(fd);
    throw input_error(path.string() + ": " + std::to_string(st.st_size) +
                      " bytes, over the limit of " + size_text(limit) + " for this input");
  }
  std::string text;
  text.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  // A file that grows while read is read up to the limit, then refused.
  for (;;) {
    if (got == text.size()) text.resize(text.size() + 65536);
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = errno_text();
      ::close(fd);
      throw csv_error("cannot read " + path.string() + ": " + why);
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
    if (got > limit) {
      ::close(fd);
      throw input_error(path.string() + ": over the limit of " + size_text(limit) +
                        " for this input");
    }
  }
  ::close(fd);
  text.resize(got);
  if (!binary_ok) {
    if (const auto nul = text.find('\0'); nul != std::string::npos) {
      const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(nul), '\n');
      throw input_error(path.string() + ":" + std::to_string(line) +
                        ": a NUL byte (a binary file, not a text input)");
    }
  }
  const std::lock_guard<std::mutex> hold(inputs_mutex);
  inputs_read().push_back({st.st_dev, st.st_ino, path.string()});
  return text;
}

bool same_file(const fs::path& a, const fs::path& b) {
  struct stat sa {
  }, sb{};
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool same_output(const fs::path& a, const fs::path& b) {
  std::error_code ea, eb;
  const fs::path na = fs::weakly_canonical(fs::absolute(a, ea), ea);
  const fs::path nb = fs::weakly_canonical(fs::absolute(b, eb), eb);
  if (!ea && !eb && na == nb) return true;
  return same_file(a, b);
}

std::string unreplaceable_output(const fs::path& path) {
  struct stat st {};
  // A dangling symlink or a missing file is created; anything else must be a regular file.
  if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return {};
  const char* kind = S_ISDIR(st.st_mode)                          ? "a directory"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                     : S_ISFIFO(st.st_mode)                       ? "a named pipe (FIFO)"
                     : S_ISSOCK(st.st_mode)                       ? "a socket"
                                                                  : "not a regular file";
  std::error_code ec;
  const std::string via = fs::is_symlink(path, ec) ? " (through a symlink)" : "";
  return std::string(kind) + via + ", not a regular file: refusing to replace it (name a " +
         "regular file or a new one)";
}

void refuse_output_over_inputs(const cli_args& args,
                               const std::vector<std::pair<std::string, std::string>>& outputs,
                               const std::vector<std::pair<std::string, std::string>>& inputs) {
  for (const auto& [option, out] : outputs) {
    // No tool writes to standard output through an output option: "-" would be a file so named.
    if (out == "-")
      args.usage_error(option + " -: this option names a file, not standard output (name a " +
                       "file; ./- for a file named '-')");
    if (const std::string why = unreplaceable_output(out); !why.empty())
      args.usage_error(option + " " + out + " is " + why);
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      if (same_output(outputs[i].second, outputs[j].second)) {
        args.usage_error(outputs[i].first + " " + outputs[i].second + " and " + outputs[j].first +
                         " " + outputs[j].second +
                         " name one file: refusing to write two outputs over each other (name "
                         "two files)");
      }
    }
  }
  for (const auto& [out_option, out] : outputs) {
    for (const auto& [in_option, in] : inputs) {
      if (same_file(out, in)) {
        args.usage_error(out_option + " " + out + " is the same file as " + in_option + " " + in +
                         ": refusing to write over an input (name another output file)");
      }
    }
  }
}

namespace {

// Where an output goes: a symlink's target, not the link (the link stays a link).
fs::path output_target(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_symlink(path, ec)) return path;
  // Read link by link, so that a link to a file not made yet (dangling) makes that file.
  fs::path target = path;
  for (int hops = 0; hops < 40 && fs::is_symlink(target, ec); ++hops) {
    const fs::path next = fs::read_symlink(target, ec);
    if (ec) break;
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  return fs::weakly_canonical(target, ec);
}

// Throws input_error if `target` exists and is not a regular file, is an input read by
// read_input in this process, or (unless `rewriting_own_file`) an output this process wrote
// already: two outputs naming one file, whatever spelling escaped the check of the options.
void refuse_if_input(const fs::path& path, const fs::path& target, bool rewriting_own_file) {
  if (const std::string why = unreplaceable_output(target); !why.empty())
    throw input_error("output " + path.string() + " is " + why);
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  std::error_code ec;
  const std::string resolved = fs::weakly_canonical(fs::absolute(target, ec), ec).string();
  const std::lock_guard<std::mutex> hold(inputs_mutex);
  if (rewriting_own_file) return;
  for (const auto& in : inputs_read()) {
    if (exists && in.dev == st.st_dev && in.ino == st.st_ino) {
      throw input_error("output " + path.string() + " is the same file as the input " + in.path +
                        ": refusing to write over an input");
    }
  }
  for (const auto& o : outputs_written()) {
    if ((exists && o.dev == st.st_dev && o.ino == st.st_ino) || o.path == resolved) {
      throw input_error("output " + path.string() + " is a file this run has written already: " +
                        "two outputs name one file (name two files)");
    }
  }
}

// Remembers `target`, just renamed into place, as an output of this process.
void remember_output(const fs::path& target) {
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0) return;
  std::error_code ec;
  const std::string resolved = fs::weakly_canonical(fs::absolute(target, ec), ec).string();
  const std::lock_guard<std::mutex> hold(inputs_mutex);
  outputs_written().push_back({st.st_dev, st.st_ino, resolved});
}

}  // namespace

fs::path temporary_output(const fs::path& path) {
  static std::atomic<unsigned> count{0};
  const fs::path target = output_target(path);
  // Only what is not a regular file is refused here, before anything is drawn; commit_output
  // checks the rest.
  refuse_if_input(path, target, true);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  return dir / ("." + target.filename().string() + ".tmp." + std::to_string(::getpid()) + "." +
                std::to_string(count++));
}

void commit_output(const fs::path& tmp, const fs::path& path, bool rewriting_own_file) {
  const fs::path target = output_target(path);
  try {
    refuse_if_input(path, target, rewriting_own_file);
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot rename " + tmp.string() + " to " + target.string() + ": " +
                             why);
  }
  if (!rewriting_own_file) remember_output(target);
}

void write_atomically(const fs::path& path, std::string_view text, bool rewriting_own_file) {
  const fs::path target = output_target(path);
  refuse_if_input(path, target, rewriting_own_file);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  const int fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
  if (fd < 0)
    throw std::runtime_error("cannot create a temporary file in " + dir.string() + ": " +
                             errno_text());
  const fs::path tmp = tmpl;
  try {
    // mkstemp makes 0600; an output gets what a plain create would give (0666 less the umask).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    if (::fchmod(fd, 0666 & ~mask) != 0)
      throw std::runtime_error("cannot set the mode of " + tmp.string() + ": " + errno_text());
    // Named by the output, not its temporary file (removed below).
    write_all(fd, text, path);
    if (::fsync(fd) != 0)
      throw std::runtime_error("cannot sync " + path.string() + ": " + errno_text());
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd);
  commit_output(tmp, path, rewriting_own_file);
}

folder_lock::folder_lock(const fs::path& folder, double wait_for_dead_holder_s)
    : path_(folder / ".dlb_sweep.lock") {
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  // An unwritable folder is an I/O error (exit 1), not bad input.
  if (fd_ < 0)
    throw std::runtime_error("cannot open the lock file " + path_.string() + ": " + errno_text());
  const auto holder = [this]() -> pid_t {
    char buf[32] = {};
    const ssize_t n = ::pread(fd_, buf, sizeof buf - 1, 0);
    std::string_view text(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
    if (const auto nl = text.find('\n'); nl != std::string_view::npos) text = text.substr(0, nl);
    const auto pid = parse_int(text);
    return pid ? static_cast<pid_t>(*pid) : 0;
  };
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_for_dead_holder_s);
  while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) {
      const std::string why = errno_text();
      ::close(fd_);
      throw std::runtime_error("cannot lock " + path_.string() + ": " + why);
    }
    const pid_t pid = holder();
    if (pid_alive(pid) || std::chrono::steady_clock::now() >= deadline) {
      ::close(fd_);
      const std::string who = pid > 0 ? "pid " + std::to_string(pid) : "another process";
      throw input_error(folder.string() + " is in use: " + who +
                        (pid_alive(pid) ? " (another dlb_sweep) is writing to it"
                                        : " (a killed dlb_sweep) still has runs ending") +
                        " (lock " + path_.string() + "); one sweep per results folder at a time");
    }
    // The holder is gone: what holds the lock is its guard ending its runs. Wait for it.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  // A pid left in the file is a holder that died without releasing it (kill -9): a sweep that
  // ends empties the file.
  if (const pid_t previous = holder();
      previous > 0 && previous != ::getpid() && !pid_alive(previous))
    taken_over_from_ = previous;
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
    const std::string why = errno_text();
    ::close(fd_);
    throw std::runtime_error("cannot write " + path_.string() + ": " + why);
  }
}

folder_lock::~folder_lock() {
  if (fd_ < 0) return;
  // Released in order: no pid is left for the next holder to report as a killed one.
  [[maybe_unused]] const int rc = ::ftruncate(fd_, 0);
  ::close(fd_);
}

}  // namespace dlb::sweep
