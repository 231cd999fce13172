// mpi_port.hpp (internal): one MPI rank's side of a run, shared by the tasks that live on it.
//
// A rank holds one task of the run, or, on rank 0 of a run whose master computes
// (--master-rank computes: every rank a worker), two: the master (task 0) and the last slave
// (task P), the master's part on a thread of the library and the slave on the program's own
// thread. The port carries their messages:
//
//  - between the two tasks of rank 0: an in-memory queue, no MPI;
//  - to another rank: MPI_Isend on the run's communicator, the tag saying which of rank 0's two
//    tasks sends or receives (wire_tag), so that the tasks' own tags stay the runtime's;
//  - from another rank: MPI_Iprobe and MPI_Recv, sorted into each task's inbox.
//
// MPI itself is never called from the master's thread, only from the program's (what
// MPI_THREAD_FUNNELED allows, and MPI_Init's MPI_THREAD_SINGLE in practice, since no other
// thread ever calls MPI). That thread, the carrier, brings the master its messages whenever its
// own slave looks for messages: between its iterations (paced, about every 200 us at most:
// poll_pacing.hpp) and while it waits. It then hands off: it waits (bounded) until the master
// has answered and is waiting again, and sends the answers before its slave goes on. So a
// request is answered between rank 0's iterations, as a hand-written master that computes
// answers. (A progress thread calling MPI itself, under MPI_THREAD_SERIALIZED, was measured
// slower on an oversubscribed node: docs/library.md, "Every rank a worker".)
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "dlb/runtime/seam.hpp"
#include "exit_watch.hpp"

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
  // May this thread call MPI? Every thread but the master's on rank 0 when it computes.
  bool carries() const { return !shared_ || std::this_thread::get_id() != master_thread_; }
  int rank() const { return rank_; }

  void send(int from, int to, int tag, const std::shared_ptr<const bytes>& body);
  // The next message for task `me` of this rank, if any has arrived (checking MPI first when
  // this thread may call it).
  std::optional<envelope> take(int me);
  bool waiting(int me);
  // Pause up to `d` for a message to `me` (or, on the thread carrying MPI, for the master's
  // thread to have something to send).
  void pause(int me, std::chrono::microseconds d);
  // A rank whose exit watch connection closed (exit_watch::exited), under the port's lock.
  std::optional<int> exited();
  // Carry MPI for the master's thread until `done()` (the program's thread, once its own task
  // has nothing left to do).
  template <class Done>
  void serve_until(Done done) {
    while (!done()) {
      take(-1);
      pause(-1, std::chrono::microseconds(200));
    }
  }
  // The master's thread starts (called on it) and ends (its end wakes every task waiting in
  // pause).
  void master_started();
  void master_ended();
  // The end of a successful run (mpi_transport::settle).
  bool settle(std::chrono::milliseconds bound);

 private:
  struct pending;
  struct outgoing {
    int rank;
    int tag;
    std::shared_ptr<const bytes> body;
  };
  void hand_off(std::unique_lock<std::mutex>& hold);
  int slot_of(int task) const;
  struct incoming {
    int source;
    int tag;
    bytes payload;
  };
  // The lock held, on a thread that may call MPI: the master's sends out; the next message of
  // any rank, if one has come; everything that has come, sorted into the inboxes.
  void flush_outbox();
  std::optional<incoming> receive_any();
  void pump();
  void progress();
  void isend(int rank, int tag, const std::shared_ptr<const bytes>& body);
  MPI_Comm comm_;
  int rank_;
  rank_layout layout_;
  exit_watch& exits_;
  std::atomic<std::thread::id> master_thread_{};  // the master's, while one runs beside slave P
  bool shared_ = false;                           // two tasks on this rank
  bool master_idle_ = false;                      // the master's thread waits for a message (pause)
  bool master_gone_ = true;                       // no master's thread runs
  std::mutex lock_;
  std::condition_variable arrived_;
  std::vector<int> tasks_;                   // this rank's, by slot
  std::vector<std::deque<envelope>> inbox_;  // by slot
  std::vector<outgoing> outbox_;             // sends of a thread that may not call MPI
  std::vector<std::unique_ptr<pending>> sends_;
};

}  // namespace dlb::mpi_detail
