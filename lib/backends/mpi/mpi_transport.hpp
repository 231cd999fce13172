// mpi_transport.hpp (internal): the seam's transport over MPI, on the run's own communicator (a
// duplicate of the user's, mpi_job.hpp: the library's messages never meet the program's; rank r
// of the run is rank r there, 0 the master). Only lib/mpi sees MPI's headers.
//
//  - send: MPI_Isend of the payload's own copy, kept until MPI completes it; never blocks, so two
//    tasks sending each other large messages at once cannot deadlock.
//  - multicast: one MPI_Isend per destination of one shared copy (what the sender pays: one
//    call and, below MPI's eager limit, one copy per destination; the emulated clock charges the
//    modelled cost either way).
//  - receive: MPI_Iprobe polled until the bound: without pause for 50 us, then with sleeps of at
//    most 200 us between polls, so that a waiting task sleeps, as a PVM task waiting in select
//    does, which an oversubscribed machine needs.
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
#include "exit_watch.hpp"

namespace dlb::mpi_detail {

class mpi_transport final : public transport {
 public:
  // `hosts[r]`: where rank r runs (named in errors when the job spans several hosts).
  mpi_transport(MPI_Comm comm, int rank, std::vector<std::string> hosts, exit_watch& watch);
  ~mpi_transport() override;
  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(hosts_.size()); }
  void send(int to, int tag, const bytes& payload, std::size_t charged_bytes) override;
  void multicast(std::span<const int> to, int tag, const bytes& payload) override;
  std::optional<envelope> receive(std::chrono::microseconds bound) override;
  bool probe() override;
  std::string describe(int rank) const override;
  void watch(std::span<const int> ranks) override;
  void kill(int rank) noexcept override;
  void await_exit(std::span<const int> ranks) override;

  // The end of a successful run, on every rank: completes this rank's sends and meets the
  // others (MPI_Ibarrier) while discarding what still arrives; false if that takes over `bound`.
  bool settle(std::chrono::milliseconds bound);

 private:
  struct pending;
  void progress();
  void isend(int to, int tag, const std::shared_ptr<const bytes>& body);
  std::optional<envelope> take_message();
  std::optional<envelope> take_exit();
  MPI_Comm comm_;
  int rank_;
  std::vector<std::string> hosts_;
  bool several_hosts_ = false;
  exit_watch& exits_;
  std::vector<bool> watched_;
  std::vector<std::unique_ptr<pending>> sends_;
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
