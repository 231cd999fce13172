// mpi_job.hpp (internal): one DLB run on the ranks of an MPI communicator, the one path under
// both front ends: the public dlb::mpi::session (dlb/mpi.hpp: inside a user's MPI program, on
// the user's communicator) and run_app's --backend mpi (mpi_launcher.cpp: the job's
// MPI_COMM_WORLD, MPI owned by run_app).
//
// Every rank of the communicator constructs one (SPMD): rank 0 is the master, ranks 1..P the
// slaves; or, when the master computes (--master-rank computes, run_params::master_computes),
// every rank a worker: ranks 1..P-1 slaves 1..P-1 and rank 0 both the master and slave P
// (mpi_port.hpp), the master's part a fiber on the program's thread (run_colocated). The run's messages
// go over a duplicate of the communicator (MPI_Comm_idup, session_comm.hpp: made once every rank
// has agreed on the session's parameters, agreement.hpp), so that the program's own messages and
// collectives on it never meet the library's. Every collective here is non-blocking and waited
// for within the run's --timeout: a rank that fails or never comes is a run_error on the others. What the ranks share is set up here and broadcast on
// that duplicate: the exit watch's address (exit_watch.hpp), the emulated medium's shared segment
// (the emulated clock: every rank on one host) and time 0 of the run. Each rank then has its MPI
// transport, its clock and a runtime over them.
//
// The end: settle() after the runtime's finish() (every send complete, a barrier), then the
// duplicate is freed. Nothing here ends the job or calls MPI_Abort: a failure is an exception,
// and what to do with it is the front end's.
#pragma once

#include <mpi.h>

#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "exit_watch.hpp"
#include "mpi_transport.hpp"
#include "runtime/launchers.hpp"

namespace dlb::mpi_detail {

class job {
 public:
  // Throws usage_error (the same on every rank: the same options and communicator) when the
  // options do not fit the communicator, run_error when the set-up fails.
  job(MPI_Comm comm, const detail::launch_spec& spec, options opts, run_params params);
  ~job();
  job(const job&) = delete;
  job& operator=(const job&) = delete;

  // This rank's runtime: the master's on rank 0, a slave's on the others.
  dlb::runtime& rt() { return *rt_; }
  // Rank 0 when the master computes: slave P's runtime, on the program's thread (null otherwise).
  dlb::runtime* worker() { return worker_rt_.get(); }
  int rank() const { return rank_; }
  // The session's own communicator (a duplicate of the program's), and the run's --timeout.
  MPI_Comm comm() const { return comm_; }
  double timeout_s() const { return timeout_s_; }
  // Has another rank told this one that the run failed (its abort message has come, or a rank's
  // process exited)? The runtime's next wait then throws the run_error naming it.
  bool failed_elsewhere();
  // Rank 0 when the master computes: the calling thread runs `worker`, resuming `master` (a
  // fiber: fiber.hpp) whenever its polls find the master something to do, and then serves the
  // master until it is done. Each returns what it threw (null if nothing).
  struct outcome {
    std::exception_ptr master, worker;
  };
  outcome run_colocated(const std::function<void(dlb::runtime&)>& master,
                        const std::function<void(dlb::runtime&)>& worker);
  // After the runtime's finish(): every rank's sends complete and the ranks meet; throws
  // run_error when that takes over the bound.
  void settle();
  // A slave whose run failed: a bounded moment for its abort message to reach the master.
  void linger();

 private:
  // The run's duplicate of the program's communicator, freed last once the run has settled
  // (kept, never freed, after a failed run: mpi_job.cpp).
  struct own_comm {
    MPI_Comm comm = MPI_COMM_NULL;
    bool settled = false;
    own_comm() = default;
    own_comm(const own_comm&) = delete;
    own_comm& operator=(const own_comm&) = delete;
    ~own_comm();
  };
  // This rank's tasks (one, or the master and slave P), each with its transport, clock and
  // runtime, over the rank's port.
  void make_tasks(const detail::launch_spec& spec, options opts, run_params params,
                  const std::vector<std::string>& hosts, std::shared_ptr<shared_medium> medium,
                  std::int64_t epoch_ns);
  own_comm dup_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  double timeout_s_ = 0;
  exit_watch watch_;
  std::unique_ptr<mpi_port> port_;
  std::unique_ptr<mpi_transport> transport_, worker_transport_;
  std::unique_ptr<dlb::clock> clock_, worker_clock_;
  std::unique_ptr<dlb::runtime> rt_, worker_rt_;
};

// P is the communicator's ranks less one (or all of them when the master computes); --procs,
// when given, must say the same (throws usage_error otherwise, the same on every rank).
// `hosts`: where each rank runs.
void fit_to_job(const detail::launch_spec& spec, options& opts, run_params& params,
                const std::vector<std::string>& hosts);

// libsimgrid defines the MPI functions too (SMPI): throws run_error when MPI_Init binds there.
void check_mpi_binding();

}  // namespace dlb::mpi_detail
