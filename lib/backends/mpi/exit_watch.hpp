// exit_watch.hpp (internal): how the tasks of an MPI run learn that another has exited.
//
// Open MPI 4.1 (Debian 12) has no ULFM: MPI itself never reports a lost rank to the others. So
// the master and each slave keep one plain TCP connection, on which nothing is ever sent after
// the slave's rank: when a process ends, however it ends (SIGKILL, a crash, a lost host whose
// kernel resets the connection), its kernel closes its end and the other side reads end-of-file.
// That is the exit notice PVM's pvm_notify gives, independent of MPI: the master watches every
// slave, each slave the master (runtime.cpp).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace dlb::mpi_detail {

class exit_watch {
 public:
  exit_watch() = default;
  ~exit_watch();
  exit_watch(const exit_watch&) = delete;
  exit_watch& operator=(const exit_watch&) = delete;

  // The master: listens on an ephemeral TCP port of every address; returns "addr,addr,...:port"
  // for the slaves.
  std::string listen();
  // The master: accepts the `slaves` connections (each names its rank), within `bound`.
  void accept_slaves(int slaves, std::chrono::milliseconds bound);
  // A slave: connects to the master at one of the addresses of `where` and names its rank.
  void connect(const std::string& where, int rank, std::chrono::milliseconds bound);

  // The master: the address each slave's connection came from ("10.77.0.12"), by rank (index 0:
  // the address the master's own host is reached at, the first of listen()'s).
  std::vector<std::string> peer_addresses() const { return addresses_; }

  // A rank whose connection has closed since the last call (each reported once), or nothing.
  std::optional<int> exited();
  // Stops watching (the end of a run: every task leaves on its own).
  void close_all() noexcept;

 private:
  int listener_ = -1;
  std::vector<std::pair<int, int>> peers_;  // (rank, fd); fd -1 once reported
  std::vector<std::string> addresses_;
};

}  // namespace dlb::mpi_detail
