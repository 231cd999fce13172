// state_trace.cpp: a slave's computation, synchronization and idle intervals, and its external
// load, under --trace-dir (state_trace.hpp).
#include "dlb/runtime/state_trace.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>

#include "dlb/runtime/options.hpp"

namespace dlb {

const char* name_of(slave_activity a) {
  switch (a) {
    case slave_activity::compute:
      return "compute";
    case slave_activity::sync:
      return "sync";
    case slave_activity::idle:
      return "idle";
  }
  return "other";
}

state_trace::state_trace(const std::string& dir, int rank)
    : states_path_(dir + "/states." + std::to_string(rank) + ".csv") {
  states_.open(states_path_);
  if (!states_) throw usage_error("option --trace-dir: cannot write '" + states_path_ + "'");
  const std::string load_path = dir + "/load." + std::to_string(rank) + ".csv";
  load_.open(load_path);
  if (!load_) throw usage_error("option --trace-dir: cannot write '" + load_path + "'");
  states_ << "start,end,state,loop,iterations\n" << std::setprecision(17);
  load_ << "time_start,time_end,load,loop\n" << std::setprecision(17);
}

state_trace::~state_trace() { flush(); }

void state_trace::flush() {
  if (!pending_) return;
  states_ << start_ << "," << end_ << "," << name_of(what_) << "," << loop_ << "," << iterations_
          << "\n";
  states_.flush();
  pending_ = false;
}

void state_trace::record(double start, double end, slave_activity what, int loop,
                         std::int64_t done) {
  if (loop != counted_loop_) {
    counted_loop_ = loop;
    counted_ = 0;
  }
  std::int64_t n = 0;
  if (what == slave_activity::compute) {
    n = done - counted_;
    counted_ = done;
  }
  if (!(end > start) && n == 0) return;  // nothing to show
  if (pending_ && what == what_ && loop == loop_ && start == end_) {
    end_ = std::max(end_, end);
    iterations_ += n;
    return;
  }
  flush();
  pending_ = true;
  start_ = start;
  end_ = std::max(start, end);
  what_ = what;
  loop_ = loop;
  iterations_ = n;
}

void state_trace::in_call(double start, double end, slave_activity what, int loop,
                          std::int64_t done) {
  record(call_mark_, start, slave_activity::sync, loop, done);
  record(start, end, what, loop, done);
  call_mark_ = end;
}

void state_trace::end_call(double end, int loop, std::int64_t done) {
  record(call_mark_, end, slave_activity::sync, loop, done);
  call_mark_ = end;
}

void state_trace::load(const core::load_function& f, std::size_t slave, double start, double finish,
                       int loop) {
  double t = start;
  while (t < finish) {
    double next = finish;
    if (std::isfinite(f.persistence) && f.persistence > 0) {
      const std::int64_t k = core::load_block(t, f.persistence);
      double end = core::block_end(k, f.persistence);
      if (!(end > t)) end = core::block_end(k + 1, f.persistence);  // t rounded onto a block's end
      next = std::min(finish, end);
    }
    load_ << t << "," << next << "," << core::load_at(f, slave, t) << "," << loop << "\n";
    t = next;
  }
  load_.flush();
}

}  // namespace dlb
