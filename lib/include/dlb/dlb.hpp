// dlb.hpp: the paper's DLB library calls (section 1.4, Figure 1.4) and a modern entry point.
//
// The loop of Figure 1.4 compiles as printed, modulo C++ syntax:
//
//   dlb::context DLB(rt);
//   DLB_init(DLB, P, K, loop, {&DLB_arrayZ, &DLB_arrayX, &DLB_arrayY});
//   DLB_scatter_data(DLB);
//   if (DLB.master()) DLB_master_sync(DLB);
//   else
//     while (DLB.more_work()) {
//       for (i = DLB.start(); i < DLB.end() && DLB.more_work(); i++) {
//         body(i);
//         if (DLB_slave_sync(DLB) && DLB.interrupt()) DLB_profile_send_move_work(DLB);
//       }
//       if (DLB.more_work()) DLB_send_interrupt(DLB);
//       DLB_profile_send_move_work(DLB);
//     }
//   DLB_gather_data(DLB);
//
// or, without writing it out: dlb::parallel_for(rt, loop, arrays, body).
//
// The strategies share the pure core (dlb::core: the decision, the plan, the groups) and differ
// only in who receives the profiles and who computes and sends the plan (docs/design/protocol.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dlb/core/distribution.hpp"
#include "dlb/core/policy.hpp"
#include "dlb/element_type.hpp"
#include "dlb/runtime/runtime.hpp"
#include "dlb/stats.hpp"

namespace dlb {

// BLOCK and CYCLIC arrays are split by iterations along one dimension; WHOLE arrays are
// replicated on every slave.
enum class data_distribution { block, cyclic, whole };
enum class along { rows, columns };
enum class storage { row_major, column_major };
// Which slices (rows or columns) an iteration touches: its own (identity), or its own and its
// bitonic partner S-1-i (a triangular loop made uniform by bitonic scheduling).
enum class iteration_map { identity, bitonic };

// The paper's DLB_array: what the runtime needs to scatter, move and gather one shared array.
// The data lives in the caller's full-size array (global indices, as in the paper's generated
// code); each task fills only the slices it owns.
struct DLB_array {
  std::string name;
  void* data = nullptr;
  element_type type = element_type::f64;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  storage layout = storage::row_major;
  data_distribution distribution = data_distribution::block;
  along axis = along::rows;
  iteration_map map = iteration_map::identity;
  // Scattered from the master at the start; a distributed input array moves with its iterations
  // (its slices are the data D of the paper's model).
  bool input = true;
  // Gathered to the master at the end, the slices of the iterations each slave executed.
  bool output = false;

  template <class T>
  static DLB_array of(std::string name, T* data, std::int64_t rows, std::int64_t cols,
                      data_distribution dist, along axis = along::rows) {
    DLB_array a;
    a.name = std::move(name);
    a.data = data;
    a.type = element_type_of<T>();
    a.rows = rows;
    a.cols = cols;
    a.distribution = dist;
    a.axis = axis;
    return a;
  }
  std::int64_t slice_count() const { return axis == along::rows ? rows : cols; }
  std::int64_t slice_length() const { return axis == along::rows ? cols : rows; }
  bool moves() const { return input && distribution != data_distribution::whole; }
};

// The loop: iterations [0, I) and, optionally, the work of each iteration in base seconds
// (seconds on the unloaded base workstation).
//  - With a work function, it is the iteration's cost: the emulated clock and the simulated
//    backend charge work(i) for iteration i (stretched by the load), and the cost model and the
//    oracle read it. The master calls it too (for every iteration, for the model). Under
//    --balance-by work (the default) it is also the balancer's unit: speeds are work per second,
//    moves are sized in work and the block start is blocks of equal work, so every task calls it
//    for the iterations it decides about (docs/design/protocol.md, "Work, not iterations"); it must be
//    cheap and give the same value on every task.
//  - Without one (work empty), the body reports its own cost to the clock with
//    runtime::compute(base_seconds) (under the native clock, real time is the cost and the body
//    reports nothing); the runtime counts what the clock advanced during each iteration as its
//    busy time, the cost model treats the iterations as equal (speeds in iterations per second,
//    no modelled load), and there is no oracle bound (0).
struct loop_spec {
  std::int64_t iterations = 0;
  std::function<double(std::int64_t)> work;
  // Initial distribution of the iterations: BLOCK (equal blocks, the paper's chi_i(0) = I/P) or
  // CYCLIC (iteration i on slave i mod P).
  data_distribution initial = data_distribution::block;
};

// Bytes moved per iteration (the paper's D, summed over the moved arrays).
std::size_t bytes_per_iteration(const std::vector<DLB_array*>& arrays, std::int64_t iterations);

class context;
namespace detail {
// A loop's state while it runs (lib/runtime/loop_session.hpp): the runtime's, not the
// application's.
class slave_session;
class master_session;
struct context_access;
}  // namespace detail
void DLB_init(context& DLB, int P, int K, const loop_spec& loop,
              std::initializer_list<DLB_array*> arrays);
void DLB_init(context& DLB, const core::policy& p, int P, int K, const loop_spec& loop,
              std::vector<DLB_array*> arrays);
void DLB_scatter_data(context& DLB);
void DLB_master_sync(context& DLB);
bool DLB_slave_sync(context& DLB);
void DLB_send_interrupt(context& DLB);
void DLB_profile_send_move_work(context& DLB);
void DLB_gather_data(context& DLB);

// The paper's DLB structure. The strategy defaults to the run's. A loop's state lives in a
// session made by DLB_init and gone at DLB_gather_data (the master's balancer, the slave's
// synchronizations, self-scheduling, recovery: the runtime's own, out of sight); the context
// keeps only the loop's outcome after it, and DLB_init may start the next loop on it.
class context {
 public:
  explicit context(runtime& rt);
  ~context();
  context(const context&) = delete;
  context& operator=(const context&) = delete;

  bool master() const;
  // Slave, during a loop (false outside one).
  bool more_work() const;
  // The range of iterations being worked through: [start(), end()).
  std::int64_t start() const;
  std::int64_t end() const;
  bool interrupt() const;
  // Master, after DLB_gather_data.
  const run_stats& stats() const;
  // Slave: the iterations it executed (after DLB_gather_data: in the loop just gathered).
  const core::range_list& done() const;

 private:
  friend struct detail::context_access;
  runtime& rt_;
  std::unique_ptr<detail::slave_session> slave_;
  std::unique_ptr<detail::master_session> master_;
  run_stats stats_;        // master: the last gathered loop's
  core::range_list done_;  // slave: the last gathered loop's executed iterations
};

// One array handed to parallel_for: the paper's DLB_array, or a typed dlb::array<T>
// (dlb/array.hpp) by its description. Both convert implicitly, so `{&X, &Y}` takes either kind.
class array_ref {
 public:
  array_ref(DLB_array* a) : a_(a) {}  // NOLINT(google-explicit-constructor): {&X, &Y}
  template <class A, class = decltype(std::declval<A&>().description())>
  array_ref(A* a) : a_(&a->description()) {}  // NOLINT(google-explicit-constructor)
  DLB_array* get() const { return a_; }

 private:
  DLB_array* a_;
};

// Figure 1.4 as one call: runs `body(i)` for every iteration on the slaves under the run's
// strategy, with data scattered, moved and gathered; returns the statistics on the master
// (empty on slaves).
run_stats parallel_for(runtime& rt, const loop_spec& loop, const std::vector<array_ref>& arrays,
                       const std::function<void(std::int64_t)>& body);

}  // namespace dlb
