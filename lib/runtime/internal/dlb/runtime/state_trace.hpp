// state_trace.hpp (internal): a slave's time line under --trace-dir, DIR/states.<rank>.csv:
// `start,end,state,loop,iterations`, one interval a line, with state
//
//   compute  the application's loop body (or the loop's work function): slave_stats::busy;
//   sync     a DLB call's own time (interrupts, profiles, decisions, instructions, moves):
//            slave_stats::sync;
//   idle     waiting with nothing to do (a requester's wait for the answer or for its work,
//            a handed-in slave's wait under --on-loss recover): slave_stats::idle;
//
// and iterations the iterations completed in a compute interval (0 otherwise). The intervals
// are recorded where those totals are accumulated (slave_sync.cpp, dlb.cpp), so that per loop
// they add up to the slave's busy, sync and idle (under --on-loss recover: those it handed in, to
// where it handed them in; its trace goes on to the loop's end). Adjacent intervals of the same
// state merge and empty ones are left out. And DIR/load.<rank>.csv:
// `time_start,time_end,load,loop`, the external load (core::load_at) of this slave's workstation
// over each loop, block by block.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

#include "dlb/core/load.hpp"

namespace dlb {

enum class slave_activity { compute, sync, idle };

const char* name_of(slave_activity a);

class state_trace {
 public:
  // Opens dir/states.<rank>.csv and dir/load.<rank>.csv; throws usage_error if it cannot.
  state_trace(const std::string& dir, int rank);
  ~state_trace();
  state_trace(const state_trace&) = delete;
  state_trace& operator=(const state_trace&) = delete;

  // [start, end] spent in `what` in loop `loop`; done: the slave's iterations completed in this
  // loop so far (a compute interval is credited with those since the previous one).
  void record(double start, double end, slave_activity what, int loop, std::int64_t done);
  // Within a DLB call begun at `call_from`: the call's own time before a compute or idle
  // interval is sync. Marks where the call stands (call_mark), records [call_mark, start] as
  // sync, then [start, end] as `what`.
  void begin_call(double call_from) { call_mark_ = call_from; }
  void in_call(double start, double end, slave_activity what, int loop, std::int64_t done);
  // The call ends at `end`: the rest of it is sync.
  void end_call(double end, int loop, std::int64_t done);
  // The external load of workstation `slave` over [start, finish] of loop `loop`.
  void load(const core::load_function& f, std::size_t slave, double start, double finish, int loop);

 private:
  void flush();
  std::ofstream states_, load_;
  std::string states_path_;
  bool pending_ = false;
  double start_ = 0.0, end_ = 0.0;
  slave_activity what_ = slave_activity::compute;
  int loop_ = 0;
  std::int64_t iterations_ = 0;
  int counted_loop_ = -1;
  std::int64_t counted_ = 0;  // iterations credited to compute intervals in counted_loop_
  double call_mark_ = 0.0;
};

}  // namespace dlb
