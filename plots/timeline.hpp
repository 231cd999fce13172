// timeline.hpp: a run's time line from the files its tasks write under --trace-dir (read and
// validated here, drawn by dlb_plot_timeline):
//
//   states.<rank>.csv    start,end,state,loop,iterations   each slave's compute, sync and idle
//                                                          intervals (lib: state_trace.hpp);
//   load.<rank>.csv      time_start,time_end,load,loop     each slave's external load level;
//   messages.<rank>.csv  time,from,to,type,bytes,loop,group,epoch   every message a task sent.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "figure.hpp"

namespace dlb::plots {

// A trace file that is missing, unreadable or malformed; what() names the file (and the line).
class trace_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct traced_interval {
  double start = 0, end = 0;
  std::string state;  // compute, sync, idle
  int loop = 0;
  std::int64_t iterations = 0;
};

struct traced_load {
  double start = 0, end = 0;
  int load = 0;
};

struct traced_send {
  double time = 0;
  int from = 0, to = 0;
  std::string type;
  std::uint64_t bytes = 0;
};

struct run_trace {
  int tasks = 0;  // ranks 0..tasks-1 (the master and the slaves)
  std::map<int, std::vector<traced_interval>> states;  // by rank
  std::map<int, std::vector<traced_load>> load;        // by rank
  std::vector<traced_send> messages;
  // Per slave rank: the seconds in each state.
  std::map<int, std::map<std::string, double>> totals() const;
};

// Each file's rows; throws trace_error "FILE:LINE: what" on a bad header, field count or value.
std::vector<traced_interval> read_states(const std::filesystem::path& file);
std::vector<traced_load> read_load(const std::filesystem::path& file);
std::vector<traced_send> read_messages(const std::filesystem::path& file);
// Every trace file in dir; throws trace_error if dir is missing or holds no states file.
run_trace read_run_trace(const std::filesystem::path& dir);

// Whether a message type carries the loop's data (scatter, work, gather, chunk, recover).
bool carries_data(const std::string& type);

// The figure: one lane per task (the master on top), compute / sync / idle bars, the external
// load as a shaded band under each slave's bars, messages as arrows from sender to receiver at
// their send time (data-carrying ones coloured, with a circle sized by their bytes).
figure timeline_figure(const run_trace& t, const std::string& name, const std::string& title);

}  // namespace dlb::plots
