// The messages of a run, read back from the files its tasks write under --trace-dir
// (messages.<rank>.csv, one line per message sent: time, from, to, type, bytes, loop, group,
// epoch). One reader for every test that checks who talked to whom.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace testing_support {

struct traced_message {
  double time = 0.0;
  int from = -1, to = -1;
  std::string type;
  long bytes = 0;
  int loop = -1, group = -1, epoch = -1;
};

// The messages of one trace file, in the order they were sent.
inline std::vector<traced_message> read_trace_file(const std::filesystem::path& file) {
  std::vector<traced_message> out;
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::vector<std::string> c;
    for (std::string cell; std::getline(ss, cell, ',');) c.push_back(cell);
    if (c.size() < 8) {
      ADD_FAILURE() << file << ": a line of " << c.size() << " fields: " << line;
      continue;
    }
    out.push_back({std::stod(c[0]), std::stoi(c[1]), std::stoi(c[2]), c[3], std::stol(c[4]),
                   std::stoi(c[5]), std::stoi(c[6]), std::stoi(c[7])});
  }
  return out;
}

// Every message of ranks 0..procs (the master and every slave must have written a file).
inline std::vector<traced_message> read_trace(const std::string& dir, int procs) {
  std::vector<traced_message> all;
  for (int r = 0; r <= procs; ++r) {
    const std::filesystem::path file = dir + "/messages." + std::to_string(r) + ".csv";
    EXPECT_TRUE(std::filesystem::exists(file)) << "no trace of rank " << r;
    for (auto& m : read_trace_file(file)) {
      EXPECT_EQ(m.from, r) << file;
      all.push_back(std::move(m));
    }
  }
  return all;
}

// Every message of whatever messages.<rank>.csv files `dir` holds (a killed task may have written
// none; the slaves' states and load files beside them are not messages).
inline std::vector<traced_message> read_trace(const std::filesystem::path& dir) {
  std::vector<traced_message> all;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    if (f.path().filename().string().rfind("messages.", 0) != 0) continue;
    auto part = read_trace_file(f.path());
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

}  // namespace testing_support
