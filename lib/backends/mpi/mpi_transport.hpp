// mpi_transport.hpp (internal): the seam's transport over MPI for one task of the run, on its
// rank's port (mpi_port.hpp: the run's own communicator, a duplicate of the user's, mpi_job.hpp;
// the library's messages never meet the program's). A rank holds one task, or, when the master
// computes, rank 0 holds the master and slave P, each with its transport over the one port.
//
//  - send: MPI_Isend of the payload's own copy, kept until MPI completes it; never blocks, so two
//    tasks sending each other large messages at once cannot deadlock. Between rank 0's two tasks,
//    a queue in memory.
//  - multicast: one send per destination of one shared copy (what the sender pays: one call
//    and, below MPI's eager limit, one copy per destination; the emulated clock charges the
//    modelled cost either way).
//  - receive: polled until the bound: without pause for 200 us, then yielding the processor,
//    then with sleeps of at most 200 us between polls, so that a waiting task sleeps, as a PVM
//    task waiting in select does, which an oversubscribed machine needs (core::next_wait_step).
//  - exits: the exit watch (exit_watch.hpp) turns a closed connection into a kTaskExitTag
//    envelope; a SIGTERM from mpirun (another rank of the job died) ends the wait with an error.
//  - kill: MPI cannot end one rank; the launcher ends the whole job with MPI_Abort after a
//    failed run (mpi_launcher.cpp).
#pragma once

#include <mpi.h>

#include <chrono>
#include <memory>
#include <vector>

#include "dlb/core/poll_pacing.hpp"
#include "dlb/runtime/seam.hpp"
#include "mpi_port.hpp"

namespace dlb::mpi_detail {

class mpi_transport final : public transport {
 public:
  // Task `task` of the run on `port`; `hosts[t]`: where task t runs (named in errors when the
  // job spans several hosts).
  mpi_transport(mpi_port& port, int task, std::vector<std::string> hosts);
  int rank() const override { return task_; }
  int size() const override { return static_cast<int>(hosts_.size()); }
  void send(int to, int tag, const bytes& payload, std::size_t charged_bytes) override;
  void multicast(std::span<const int> to, int tag, const bytes& payload) override;
  std::optional<envelope> receive(std::chrono::microseconds bound) override;
  bool probe() override;
  chunk_link* link() override { return port_.link(); }
  std::string describe(int rank) const override;
  void watch(std::span<const int> ranks) override;
  void kill(int rank) noexcept override;
  void await_exit(std::span<const int> ranks) override;

 private:
  std::optional<envelope> take_exit();
  mpi_port& port_;
  int task_;
  // The rank's first task (a slave on its own rank, or the master) hears of exits; slave P on
  // the master's rank needs none (the master's exit is its own).
  bool hears_exits_;
  std::vector<std::string> hosts_;
  bool several_hosts_ = false;
  std::vector<bool> watched_;
  core::wait_pacing pacing_;  // receive's spin, yield and sleep (core/poll_pacing.hpp)
  std::chrono::steady_clock::time_point last_exit_check_{};  // receive: the peers' exits
  // Exits seen, told at `due` (kExitGrace later): that rank's last messages come first.
  struct held_exit {
    envelope exit;
    std::chrono::steady_clock::time_point due;
  };
  static constexpr std::chrono::milliseconds kExitGrace{100};
  std::vector<held_exit> held_exits_;
};

// Set by the SIGTERM handler the launcher installs (mpirun ends a job so).
bool terminated();
void install_term_handler();

}  // namespace dlb::mpi_detail
