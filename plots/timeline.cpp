// timeline.cpp: reading a run's --trace-dir files and drawing its time line (timeline.hpp).
#include "timeline.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>

#include "sweep/safe_files.hpp"
#include "sweep/text.hpp"

namespace fs = std::filesystem;

namespace dlb::plots {

namespace {

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string f;
  std::istringstream in(line);
  while (std::getline(in, f, ',')) out.push_back(f);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

// Calls row(fields, where) for every line after the header, which must be `header`.
void for_each_row(
    const fs::path& file, const std::string& header,
    const std::function<void(const std::vector<std::string>&, const std::string&)>& row) {
  // A trace is a regular text file of bounded size (sweep::read_input): /dev/zero or a binary
  // file is refused before it is read through.
  std::string text;
  try {
    text = sweep::read_input(file, sweep::kTableLimit);
  } catch (const std::exception& e) {
    throw trace_error(e.what());
  }
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != header)
    throw trace_error(file.string() + ":1: expected the header '" + header + "'");
  const std::size_t n = split_fields(header).size();
  for (int k = 2; std::getline(in, line); ++k) {
    if (line.empty()) continue;
    const std::string where = file.string() + ":" + std::to_string(k);
    const auto f = split_fields(line);
    if (f.size() != n)
      throw trace_error(where + ": " + std::to_string(f.size()) + " fields, expected " +
                        std::to_string(n));
    row(f, where);
  }
}

double number(const std::string& s, const std::string& where, const char* what) {
  const auto v = sweep::parse_double(s);
  if (!v || !std::isfinite(*v)) throw trace_error(where + ": bad " + what + " '" + s + "'");
  return *v;
}

std::int64_t integer(const std::string& s, const std::string& where, const char* what) {
  const auto v = sweep::parse_int(s);
  if (!v) throw trace_error(where + ": bad " + what + " '" + s + "'");
  return *v;
}

// The rank in a file name "<stem>.<rank>.csv", or -1.
int rank_of(const fs::path& p, const std::string& stem) {
  static const std::regex re(R"(([a-z]+)\.([0-9]+)\.csv)");
  std::smatch m;
  const std::string name = p.filename().string();
  if (!std::regex_match(name, m, re) || m[1] != stem) return -1;
  return std::stoi(m[2]);
}

}  // namespace

std::vector<traced_interval> read_states(const fs::path& file) {
  std::vector<traced_interval> out;
  for_each_row(file, "start,end,state,loop,iterations", [&](const auto& f, const auto& where) {
    traced_interval i{number(f[0], where, "start"), number(f[1], where, "end"), f[2],
                      static_cast<int>(integer(f[3], where, "loop")),
                      integer(f[4], where, "iterations")};
    if (i.end < i.start) throw trace_error(where + ": end before start");
    if (i.state != "compute" && i.state != "sync" && i.state != "idle")
      throw trace_error(where + ": unknown state '" + i.state + "' (compute, sync, idle)");
    if (i.iterations < 0) throw trace_error(where + ": negative iterations");
    out.push_back(std::move(i));
  });
  return out;
}

std::vector<traced_load> read_load(const fs::path& file) {
  std::vector<traced_load> out;
  for_each_row(file, "time_start,time_end,load,loop", [&](const auto& f, const auto& where) {
    traced_load l{number(f[0], where, "time_start"), number(f[1], where, "time_end"),
                  static_cast<int>(integer(f[2], where, "load"))};
    if (l.end < l.start || l.load < 0) throw trace_error(where + ": bad load segment");
    out.push_back(l);
  });
  return out;
}

std::vector<traced_send> read_messages(const fs::path& file) {
  std::vector<traced_send> out;
  for_each_row(
      file, "time,from,to,type,bytes,loop,group,epoch", [&](const auto& f, const auto& where) {
        const auto bytes = integer(f[4], where, "bytes");
        if (bytes < 0) throw trace_error(where + ": negative bytes");
        out.push_back({number(f[0], where, "time"), static_cast<int>(integer(f[1], where, "from")),
                       static_cast<int>(integer(f[2], where, "to")), f[3],
                       static_cast<std::uint64_t>(bytes)});
      });
  return out;
}

run_trace read_run_trace(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw trace_error(dir.string() + ": no such directory (the run's --trace-dir)");
  run_trace t;
  std::set<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) files.insert(e.path());
  for (const auto& p : files) {
    if (int r = rank_of(p, "states"); r >= 0) t.states[r] = read_states(p);
    if (int r = rank_of(p, "load"); r >= 0) t.load[r] = read_load(p);
    if (int r = rank_of(p, "messages"); r >= 0) {
      auto m = read_messages(p);
      t.messages.insert(t.messages.end(), m.begin(), m.end());
    }
  }
  if (t.states.empty())
    throw trace_error(dir.string() + ": no states.<rank>.csv (run with --trace-dir " +
                      dir.string() + ")");
  t.tasks = t.states.rbegin()->first + 1;
  for (const auto& m : t.messages) t.tasks = std::max({t.tasks, m.from + 1, m.to + 1});
  return t;
}

std::map<int, std::map<std::string, double>> run_trace::totals() const {
  std::map<int, std::map<std::string, double>> out;
  for (const auto& [rank, v] : states)
    for (const auto& i : v) out[rank][i.state] += i.end - i.start;
  return out;
}

bool carries_data(const std::string& type) {
  return type == "scatter" || type == "work" || type == "gather" || type == "chunk" ||
         type == "recover";
}

}  // namespace dlb::plots
