// mpi_port.hpp (internal): one MPI rank's side of a run, shared by the tasks that live on it.
//
// A rank holds one task of the run, or, on rank 0 of a run whose master computes
// (--master-rank computes: every rank a worker), two: the master (task 0) and the last slave
// (task P). Both run on the program's thread: the slave on its stack, the master's part as a
// fiber (fiber.hpp) that the slave's polls resume, so no second thread ever runs. The port
// carries their messages:
//
//  - between the two tasks of rank 0: an in-memory queue, no MPI;
//  - to another rank: MPI_Isend on the run's communicator, the tag saying which of rank 0's two
//    tasks sends or receives (wire_tag), so that the tasks' own tags stay the runtime's;
//  - from another rank: MPI_Iprobe and MPI_Recv, sorted into each task's inbox.
//
// Whenever rank 0's slave looks for messages (between its iterations, paced: poll_pacing.hpp,
// and while it waits) the port brings in what MPI has, and if the master has something to answer
// (or its pause is over) resumes it; the master answers, and hands the thread back when it would
// wait (pause). So a request is answered between rank 0's iterations, as by a hand-written master
// that computes, and the master's answers to rank 0's own slave cost two stack switches, no
// system's scheduling. (A master on a thread of its own was measured slower: docs/library.md,
// "Every rank a worker".) MPI is called from the program's thread only.
#pragma once

#include <mpi.h>

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "dlb/core/poll_pacing.hpp"
#include "dlb/runtime/seam.hpp"
#include "exit_watch.hpp"
#include "fiber.hpp"

namespace dlb::mpi_detail {

// Who runs where: P slaves over the communicator's ranks.
struct rank_layout {
  int ranks = 2;                 // the communicator's
  bool master_computes = false;  // rank 0 holds the master and slave P
  // The run's slaves: one per rank but the master's (dedicated), or one per rank.
  int slaves() const { return master_computes ? ranks : ranks - 1; }
  // The MPI rank a task runs on.
  int rank_of(int task) const { return master_computes && task == ranks ? 0 : task; }
  // The tasks an MPI rank holds, master first.
  std::vector<int> tasks_on(int rank) const {
    if (rank == 0 && master_computes) return {0, ranks};
    return {rank};
  }
};

// A message's MPI tag: the runtime's tag and whether its sender and its receiver are rank 0's
// second task (slave P under master_computes), so that a rank holding two tasks tells them
// apart. And back.
int wire_tag(int tag, bool from_second, bool to_second);
struct wire_parts {
  int tag = 0;
  bool from_second = false;
  bool to_second = false;
};
wire_parts parse_wire_tag(int wire);

class mpi_port {
 public:
  mpi_port(MPI_Comm comm, int rank, rank_layout layout, exit_watch& watch);
  // A failed run's sends still pending get a bounded moment to complete (its abort message
  // first of all), then are handed to MPI to complete on their own; their payloads are kept.
  ~mpi_port();
  mpi_port(const mpi_port&) = delete;
  mpi_port& operator=(const mpi_port&) = delete;

  const rank_layout& layout() const { return layout_; }
  int rank() const { return rank_; }
  // Rank 0 when the master computes: the fiber running the master's part (null: none, or no
  // longer). The port resumes it while it has not finished.
  void attach_master(fiber* master) { master_ = master; }
  // Is the caller the master's fiber? Its waits hand the thread back (pause) instead of polling.
  bool hands_back() const { return master_ != nullptr && master_->inside(); }

  void send(int from, int to, int tag, const std::shared_ptr<const bytes>& body);
  // The next message for task `me` of this rank, if any has arrived (checking MPI first).
  std::optional<envelope> take(int me);
  bool waiting(int me);
  // Pause up to `d` (the master's fiber: until a message comes or `d` is over, the thread back
  // to the slave meanwhile).
  void pause(int me, std::chrono::microseconds d);
  std::optional<int> exited() { return exits_.exited(); }
  // Has a message of the runtime's tag `tag` come for a task of this rank (checking MPI first)?
  // It stays, for the runtime to take.
  bool holds(int tag);
  // Carry MPI for the master until its fiber has finished (the program's thread, once its own
  // task has nothing left to do).
  void serve_master();
  // The end of a successful run (mpi_transport::settle).
  bool settle(std::chrono::milliseconds bound);
  // Rank 0 when the master computes: the link between its two tasks (seam.hpp, chunk_link),
  // whose serve_others brings in what MPI has and runs the master only if a message has come for
  // it. Null on the other ranks.
  chunk_link* link() { return layout_.master_computes && rank_ == 0 ? &link_ : nullptr; }

 private:
  struct pending;
  int slot_of(int task) const;
  struct incoming {
    int source;
    int tag;
    bytes payload;
  };
  // The next message of any rank, if one has come; everything that has come, sorted into the
  // inboxes (one message at most on a rank of one task, as it asks).
  std::optional<incoming> receive_any();
  void pump();
  void progress();
  // The master's fiber, if it has a message or its pause is over (never from inside it).
  void run_master_if_due();
  std::optional<envelope> pop(int slot);
  MPI_Comm comm_;
  int rank_;
  rank_layout layout_;
  exit_watch& exits_;
  fiber* master_ = nullptr;
  std::chrono::steady_clock::time_point master_due_{};  // the end of the master's pause
  std::vector<int> tasks_;                              // this rank's, by slot
  std::vector<std::deque<envelope>> inbox_;             // by slot
  std::vector<std::unique_ptr<pending>> sends_;
  chunk_link link_;
};

}  // namespace dlb::mpi_detail
