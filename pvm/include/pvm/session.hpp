// pvm/session.hpp: a task's membership of the virtual machine (pvm_mytid ... pvm_exit) and
// everything a task does through it: send, multicast, receive (blocking, bounded, non-blocking),
// probe, spawn, task-exit notification, signals.
//
// Create one session in main() and pass it down; it is not a hidden singleton. Expected
// outcomes are values: a receive that finds nothing returns an empty optional, a spawn that
// starts only some tasks returns what started and what failed. Failures throw pvm::error.
#pragma once

#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include "pvm/buffer.hpp"
#include "pvm/error.hpp"
#include "pvm/types.hpp"

namespace pvm {

struct session_options {
  route routing = route::via_pvmd;
  // Message fragment size in bytes (PvmFragSize); 0 keeps PVM's default (about 4 KiB).
  int fragment_size = 0;
  encoding default_encoding = encoding::xdr;
  // PVM drops a message to a task that does not exist without a word. With this on, the first
  // send to each task asks the pvmd whether it exists (pvm_pstat, one round trip) and raises
  // PvmNoTask if not; later sends to it cost nothing extra. Tasks that exit after first contact
  // are reported by notify_exit, which is how the DLB runtime watches its slaves.
  bool verify_recipients = true;
};

// Keeps malloc from returning message-sized memory to the kernel between messages (mallopt
// M_MMAP_THRESHOLD and M_TRIM_THRESHOLD at 64 MiB). With glibc's defaults, freeing a 1 MiB send
// buffer and a 1 MiB message together trims the heap, and the next message page-faults its
// fragments back in: a 1 MiB ping-pong took 2.1x as long (pvm/README.md). It changes the whole
// process's allocator, so the library never calls it: a program's main opts in (the
// applications and the ping-pong benchmark do), before anything else allocates much.
void tune_malloc_for_messages();

struct spawn_failure {
  int index = 0;  // which of the requested copies
  int code = 0;   // PVM's error code for it
  std::string reason;
};

struct spawn_result {
  std::vector<tid> started;
  std::vector<spawn_failure> failed;
  bool complete() const noexcept { return failed.empty(); }
  // "3 of 4 started; copy 3: No such file (PvmNoFile, -7)".
  std::string summary() const;
};

struct spawn_options {
  // A host name or architecture to spawn on; empty lets PVM choose.
  std::string where;
  bool where_is_arch = false;
  // Pass a bare file name ("mxm") to PVM as it is, so that each host's pvmd looks for it in
  // its ep= path (hostfile), instead of making it absolute against this directory.
  bool search_ep = false;
};

// One host of the virtual machine (pvm_config).
struct host_info {
  std::string name;
  int dtid = 0;  // the host's pvmd
  std::string arch;
  int speed = 0;
};

class session {
 public:
  session() : session(session_options{}) {}
  explicit session(const session_options& opts);
  ~session();
  session(const session&) = delete;
  session& operator=(const session&) = delete;
  session(session&&) = delete;
  session& operator=(session&&) = delete;

  tid self() const noexcept { return self_; }
  std::optional<tid> parent() const noexcept { return parent_; }
  encoding default_encoding() const noexcept { return opts_.default_encoding; }

  void set_route(route r);
  void set_fragment_size(int bytes);

  send_buffer buffer() const { return send_buffer(opts_.default_encoding); }
  send_buffer buffer(encoding enc) const { return send_buffer(enc); }

  void send(tid to, tag t, const send_buffer& buf);
  void multicast(std::span<const tid> to, tag t, const send_buffer& buf);
  // Sends a received message on unchanged (its encoding and contents), e.g. for a relay.
  void forward(tid to, tag t, const message& m);

  // nullopt matches any sender / any tag.
  message recv(std::optional<tid> from = std::nullopt, std::optional<tag> t = std::nullopt);
  std::optional<message> recv_for(std::chrono::microseconds bound,
                                  std::optional<tid> from = std::nullopt,
                                  std::optional<tag> t = std::nullopt);
  std::optional<message> try_recv(std::optional<tid> from = std::nullopt,
                                  std::optional<tag> t = std::nullopt);
  // Looks at a pending message without consuming it.
  std::optional<message_info> probe(std::optional<tid> from = std::nullopt,
                                    std::optional<tag> t = std::nullopt);

  // Starts `count` copies of the executable at `path` (made absolute against the current
  // directory) with `args`. Tasks that PVM could not start are reported in `failed`.
  spawn_result spawn(const std::string& path, const std::vector<std::string>& args, int count,
                     const spawn_options& where = {});
  // When any of `tasks` exits (or is already gone), a message with tag `t` holding the
  // exited task's id (read it with exited_task()) arrives.
  void notify_exit(std::span<const tid> tasks, tag t);
  // Reads the exited task's id and forgets that the task was verified alive.
  tid exited_task(message& m);

  void kill(tid t);
  void signal(tid t, int signum);

  // The hosts of the virtual machine, the master pvmd's first; and the host a task runs on.
  std::vector<host_info> hosts() const;
  std::string host_of(tid t) const;

 private:
  message receive_result(int bufid, const char* routine);
  void verify(tid to, const char* routine);

  session_options opts_;
  tid self_;
  std::optional<tid> parent_;
  std::unordered_set<tid> alive_;  // tasks verified to exist (verify_recipients)
};

}  // namespace pvm
