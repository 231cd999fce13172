// stats.cpp: the run's statistics as text (dlb/stats.hpp): ADAPTIVE's choices, AUTO-ALL's
// fields of a RESULT line, and the one-line summary.
#include "dlb/stats.hpp"

#include <cstdio>
#include <sstream>

namespace dlb {

std::string choice_sequence(const run_stats& st) {
  if (st.choices.empty()) return "-";
  std::string out;
  for (const auto& c : st.choices) {
    char at[32];
    std::snprintf(at, sizeof at, "@%.3f", c.time);
    out += (out.empty() ? "" : ",") + std::string(to_string(c.scheme)) + at;
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> auto_all_fields(const run_stats& st) {
  if (st.committed.empty()) return {};
  char wall[32], at[32], shift[32];
  std::snprintf(wall, sizeof wall, "%.6f", st.choice_wall_s);
  std::snprintf(at, sizeof at, "%.6f", st.choice_time_s);
  std::snprintf(shift, sizeof shift, "%.6f", st.first_phase_shift_s);
  return {{"committed", st.committed},
          {"candidates", core::format_candidate_times(st.candidates)},
          {"decided", st.decided_at_scatter ? "scatter" : "sync"},
          {"choice_wall_s", wall},
          {"choice_s", at},
          {"first_phase_shift_s", shift}};
}

std::string run_stats::summary() const {
  std::ostringstream os;
  os << core::to_string(policy) << " P=" << procs << " K=" << group_size << ": total "
     << total_time() << " s, " << syncs << " synchronizations, " << redistributions
     << " redistributions, " << iterations_moved << " iterations and " << bytes_moved
     << " bytes moved, lag " << lag << " s, oracle bound " << oracle_time << " s";
  for (const auto& l : lost) os << "; slave " << l.slave + 1 << " lost at t = " << l.time << " s";
  if (!lost.empty())
    os << "; " << recovered_iterations << " iterations recovered in " << recovery_time << " s";
  return os.str();
}

}  // namespace dlb
