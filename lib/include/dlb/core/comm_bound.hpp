// The communication-aware bound (beyond the paper): the oracle bound (oracle.hpp) plus what
// every schedule of the program must put on the network, at its cheapest order. The program is
// the one the paper's compiler generates (Figure 1.4): the master sends every slave a scatter
// message before that slave computes anything, and every slave sends the master a gather message
// after its last iteration. Whatever the policy (the paper's strategies, the self-scheduling
// baselines, the customized choices), a run of that program cannot end before this bound.
//
// Costs in seconds, from the network's description (the caller turns bytes into seconds):
//   scatter_send  the master's CPU per scatter message (o_s and its share of the bytes), for the
//                 smallest message that lets a slave start: the whole input arrays plus one
//                 iteration's slices;
//   scatter_wire  the same message's time on the serial resource it must hold: the shared
//                 medium (ethernet1996) or the master's own port (switched);
//   scatter_after from leaving the wire to computing: the rest of the latency and the receiver's
//                 CPU;
//   gather_last   the smallest gather message (one iteration's output slices), end to end: the
//                 last slave to finish sends it after its last iteration;
//   medium_total  every byte the program must put on a shared medium (the scatter as sent: whole
//                 inputs to every slave, every distributed slice once; every output slice once;
//                 a header per message), in seconds of the medium; 0 when the medium is not
//                 shared.
//
// The bound, from the loop's start t0:
//   a_k = t0 + max(k s + w, s + k w) + after   the k-th scatter message's earliest arrival
//         (k = 1..P; the master's CPU and the wire are two serial stages: s = scatter_send,
//         w = scatter_wire);
//   L   = min over the assignments sigma of slots to slaves of sum_i C_i(a_sigma(i)), C_i(t) the
//         work slave i could have done from t0 to t under the load (load.hpp): the capacity the
//         scatter costs at best (exact by the Hungarian method up to 256 slaves; above, the
//         cheaper lower bound sum_k min_i C_i(a_k));
//   T_c = the oracle's makespan for work W + L (every slave computing from t0, then the
//         capacity L removed): once every slave has its data (T >= a_P), sum_i (C_i(T) -
//         C_i(a_sigma(i))) >= W is what finishing the work by T needs;
//   end = max(oracle(W), a_P + gather_last, T_c + gather_last, t0 + medium_total).
// T_c is used only when the loop's work cannot be done before the last scatter message arrives
// ((P - 1) max_i C_i(a_P) < W): otherwise the work could in principle finish before a_P and the
// bound keeps the other terms. Every term is a time no schedule of the program can beat, so the
// maximum is one too.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "dlb/core/load.hpp"

namespace dlb::core {

struct comm_costs {
  double scatter_send = 0.0;
  double scatter_wire = 0.0;
  double scatter_after = 0.0;
  double gather_last = 0.0;
  double medium_total = 0.0;
};

struct comm_bound_result {
  double end = 0.0;           // the bound: the loop cannot end earlier
  double oracle_end = 0.0;    // the oracle's makespan alone (no communication)
  double last_arrival = 0.0;  // a_P
  double lost_capacity = 0.0; // L, base seconds of work
  double compute_end = 0.0;   // T_c (0 when not applicable)
  bool exact_assignment = false;  // L by the Hungarian method (P <= 256)
};

// Throws std::invalid_argument for no slaves, a speed <= 0, negative work or costs, or a bad
// load (as oracle_makespan does).
comm_bound_result comm_bound(const load_function& load, std::span<const double> speeds, double t0,
                             double work, const comm_costs& costs);

// The minimum of sum_i cost[i][sigma(i)] over the permutations sigma of an n x n matrix (the
// Hungarian method, O(n^3)). Throws std::invalid_argument for a matrix that is not square.
double min_assignment(const std::vector<std::vector<double>>& cost);

}  // namespace dlb::core
