// The paper's numbers as transcribed in experiments/paper/*.csv (Tables 1.1-1.4; the sources
// are in experiments/paper/README.md), and matching them with our configurations.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace dlb::report {

// Where the tools look for the paper's CSVs unless told (--paper-dir): experiments/paper of the
// source tree they were built from.
inline constexpr const char* default_paper_dir = DLB_PAPER_DIR;

using size_params = std::map<std::string, std::int64_t>;

// A row of Tables 1.1-1.3: total time without DLB.
struct paper_nodlb_row {
  std::string app;  // mxm, trfd, ac
  int procs = 0;
  size_params size;  // the paper's size parameters (n; n, r, m for MXM)
  double time_s = 0;
  std::string table;  // "Table 1.1"
};

// A row of Table 1.4: actual vs predicted best.
struct paper_best_row {
  std::string app;  // mxm, trfd, ac
  int procs = 0;
  size_params size;
  std::string size_text;  // as printed, e.g. "n=400 r=400"
  std::string loop;       // "", "L1", "L2"
  std::string actual_best;
  std::string predicted_best;
  std::string diff_s;
  std::string diff_pct;
};

// Reads table1_1_mxm_nodlb.csv, table1_2_trfd_nodlb.csv, table1_3_ac_nodlb.csv. Throws
// sweep::csv_error naming a missing or malformed file.
std::vector<paper_nodlb_row> read_paper_nodlb(const std::filesystem::path& dir);
// Reads table1_4_best.csv (MXM rows get m=400, which the table leaves implicit).
std::vector<paper_best_row> read_paper_best(const std::filesystem::path& dir);

// Does our size label (e.g. "n=400 r=400 m=400") have every parameter of the paper's size?
bool size_matches(const size_params& paper, std::string_view our_label);
std::string size_text(const size_params& s,
                      const std::vector<std::string>& order = {"n", "r", "m"});

}  // namespace dlb::report
