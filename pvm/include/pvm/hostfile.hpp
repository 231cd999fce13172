// pvm/hostfile.hpp: PVM's own hostfile format (pvmd3(1PVM), "HOST FILE FORMAT"), read and
// checked before anything is started, so that a bad line is reported with its file, line and
// host instead of a pvmd that quietly starts fewer hosts.
//
//   # comment
//   * dx=/path/to/pvmd ep=/path/to/bin     defaults for the lines below
//   alpha                                   a host, started with the virtual machine
//   beta  ep=$HOME/bin lo=guest             a host with its own options
//   & gamma                                 options stored, host added later (pvm_addhosts)
//
// Options: lo= dx= ep= wd= sp= bx= ip= so=. Refused, with the reason: so=pw and so=ms (they need
// someone at the pvmd's terminal), id= (it would put a host in another virtual machine than the
// run's private one), '$' (overloading a host: not built into Debian's pvmd), numeric addresses
// (rsh/ssh and pvmd need names), and a host named twice.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pvm {

struct hostfile_entry {
  int line = 0;  // 1-based line in the file
  std::string name;
  bool deferred = false;  // '&': options only, not started with the virtual machine
  // The host's effective options: the last '*' line's defaults overridden by its own.
  std::map<std::string, std::string> options;
};

struct hostfile {
  std::string source;  // the file's path (or a label), for messages
  std::vector<hostfile_entry> hosts;
  // The same hosts, every one deferred ('&'): a pvmd started with this knows every host's
  // options but starts none, so that they can be added one by one and each failure reported.
  std::string deferred_text() const;
  const hostfile_entry* find(std::string_view name) const;
};

// A bad hostfile, or a host of it that could not be added. what(): "hostfile FILE, line N,
// host H: reason" (line and host when known).
class hostfile_error : public std::runtime_error {
 public:
  hostfile_error(std::string source, int line, std::string host, std::string reason);
  const std::string& source() const noexcept { return source_; }
  int line() const noexcept { return line_; }
  const std::string& host() const noexcept { return host_; }
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string source_;
  int line_;
  std::string host_;
  std::string reason_;
};

hostfile parse_hostfile(std::string_view text, std::string source);
// Reads and parses the file; an unreadable file is a hostfile_error too.
hostfile read_hostfile(const std::string& path);

}  // namespace pvm
