// Files of the experiment tools, read and written so that no result is lost or corrupted: every
// tool reads its inputs and writes its outputs through these (experiments/README.md, "What the
// tools refuse").
//
//  - Inputs are read whole by read_input, which refuses what cannot be a text input before
//    reading it: not a regular file (/dev/zero, a FIFO, a directory), larger than a limit, or
//    holding a NUL byte (a binary file). Each input read is remembered by its identity (device
//    and inode).
//  - An output is never one of the inputs: refuse_output_over_inputs compares an output path
//    with the inputs by identity (so a symlink, a hard link or a ./ spelling is the same file)
//    and exits 2 naming both; write_atomically refuses again any output that is an input read so
//    far in this process (a net under every tool).
//  - An output is written to a temporary file in its folder, synced, and renamed into place: a
//    reader sees the old file or the new one, never a part.
//  - An output replaces only a regular file: an existing device, FIFO, socket or directory (or a
//    symlink to one) is refused naming it, and one process never writes one file twice (two
//    outputs naming one file), except a results file its sweep widens.
//  - One writer per results folder: folder_lock holds an advisory lock (flock) on a lock file
//    in the folder, holding the writer's pid.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sweep/csv_table.hpp"

namespace dlb::sweep {

class cli_args;

// A file that cannot be an input (not a regular file, too large, binary), an output that is an
// input, or a folder another writer holds. A csv_error: the tools report it as bad input (exit
// 2).
class input_error : public csv_error {
 public:
  using csv_error::csv_error;
};

// Largest config, design or profile (text typed by a person).
inline constexpr std::uintmax_t kConfigLimit = 4u << 20;
// Largest results table, summary, paper table or trace file.
inline constexpr std::uintmax_t kTableLimit = 1u << 30;

// The whole file, refused (input_error naming it) when it is not a regular file, is larger than
// `limit` bytes, or (unless `binary_ok`) holds a NUL byte. Remembers the file as an input.
std::string read_input(const std::filesystem::path& path, std::uintmax_t limit = kTableLimit,
                       bool binary_ok = false);

// Do two paths name the same existing file (same device and inode, symlinks followed)? False
// when either does not exist.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

// Do two output paths name one file, existing or not: the same path once made absolute and
// normalized (symlinks of what exists followed: "E.csv", "./E.csv", "d/../E.csv"), or the same
// existing file (a hard link)?
bool same_output(const std::filesystem::path& a, const std::filesystem::path& b);

// Why `path` cannot be an output ("a device, not a regular file: refusing to replace it ..."),
// or empty when it may be: it does not exist (nor does a symlink's target), or it is a regular
// file. A device, a FIFO, a socket or a directory (or a symlink to one) is never replaced: run
// as root, a rename over /dev/null would replace the machine's /dev/null.
std::string unreplaceable_output(const std::filesystem::path& path);

// The outputs and the inputs with the option that named each ({"--results", path}). An output
// that exists and is not a regular file (unreplaceable_output) is refused first: "TOOL: --out
// /dev/full is a device, not a regular file: ...", exit 2; so is "-" (no output option means
// standard output). If an
// output is one of the inputs, prints "TOOL: --out OUT is the same file as --results IN: ..."
// and exits 2 (args.usage_error); so too if two outputs name one file (same_output: "--out E.csv
// and --markdown ./E.csv name one file"), before anything is written.
void refuse_output_over_inputs(const cli_args& args,
                               const std::vector<std::pair<std::string, std::string>>& outputs,
                               const std::vector<std::pair<std::string, std::string>>& inputs);

// Replaces a file's content atomically: a temporary file in the same folder (unique to this
// process), synced, renamed over `path` (over a symlink's target when `path` is one). Refuses
// (input_error) a `path` that exists and is not a regular file; and, unless `rewriting_own_file`
// (a results file that dlb_sweep read and now widens: the same content and more, never another
// tool's output over it), a `path` that is an input read by read_input in this process or a
// file this process has already written (two outputs naming one file).
void write_atomically(const std::filesystem::path& path, std::string_view text,
                      bool rewriting_own_file = false);

// A temporary file for the output `path`, in its folder and unique to this process, for a writer
// that is not write_atomically (gnuplot): ".NAME.tmp.PID.N". Refuses (input_error) a `path` that
// is not a regular file, before anything is drawn.
std::filesystem::path temporary_output(const std::filesystem::path& path);
// Renames a finished temporary file into place over `path` (write_atomically's last step, with
// the same refusal of an input: the temporary file is then removed). Throws on failure.
void commit_output(const std::filesystem::path& tmp, const std::filesystem::path& path,
                   bool rewriting_own_file = false);

// An exclusive advisory lock on `folder`/.dlb_sweep.lock (created if missing, never removed:
// removing a lock file races with the next locker). The file holds the holder's pid. Closed on
// exec: the runs a sweep starts do not hold it; a process forked without exec does.
class folder_lock {
 public:
  // Takes the lock, or throws input_error naming the folder and the pid written by the holder
  // (exit 2), or std::runtime_error when the folder cannot hold a lock file (an I/O error, exit 1).
  // When the recorded holder is no longer alive (a killed sweep whose runs are being ended),
  // waits up to `wait_for_dead_holder_s` for the lock to be released first.
  explicit folder_lock(const std::filesystem::path& folder, double wait_for_dead_holder_s = 30.0);
  ~folder_lock();
  folder_lock(const folder_lock&) = delete;
  folder_lock& operator=(const folder_lock&) = delete;

  int fd() const { return fd_; }
  const std::filesystem::path& path() const { return path_; }
  // The pid of a holder that died holding the lock (kill -9: the file still held its pid, and
  // no process of it held the lock any more), or 0. The destructor empties the file, so a sweep
  // that ended leaves no pid.
  pid_t taken_over_from() const { return taken_over_from_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  pid_t taken_over_from_ = 0;
};

}  // namespace dlb::sweep
