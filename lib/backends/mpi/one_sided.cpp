// one_sided.cpp: the one-sided path of an index-only self-scheduled loop (one_sided.hpp).
#include "one_sided.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <memory>
#include <stdexcept>

#include "dlb/core/chunks.hpp"
#include "dlb/runtime/errors.hpp"
#include "session_comm.hpp"

namespace dlb::mpi_detail {

namespace {

using core::chunk_rule;

bool constant_size(chunk_rule r) {
  return r == chunk_rule::ss || r == chunk_rule::css || r == chunk_rule::fsc ||
         r == chunk_rule::mfsc;
}

std::string mpi_error_text(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(rc, text, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(rc);
  return std::string(text, static_cast<std::size_t>(length));
}

}  // namespace

chunk_table::chunk_table(const core::policy& policy, std::int64_t iterations, std::size_t workers) {
  core::chunk_params cp(policy.rule(), iterations, workers, policy.chunk());
  core::chunk_dispenser d(cp);
  const auto add = [this](std::int64_t start, std::int64_t size, std::int64_t count) {
    if (!runs_.empty() && runs_.back().size == size) {
      runs_.back().count += count;
    } else {
      runs_.push_back({chunks_, count, start, size});
    }
    chunks_ += count;
  };
  if (iterations == 0) return;
  if (constant_size(cp.rule)) {  // every chunk the first's, but the last: closed form
    const std::int64_t c = d.next(0);
    add(0, c, iterations / c);
    if (iterations % c) add(iterations / c * c, iterations % c, 1);
    return;
  }
  std::int64_t start = 0;
  for (std::size_t k = 0; d.remaining() > 0; ++k) {
    const std::int64_t c = d.next(k % workers);
    add(start, c, 1);
    start += c;
  }
}

std::pair<std::int64_t, std::int64_t> chunk_table::chunk(std::int64_t k) const {
  auto it = std::upper_bound(runs_.begin(), runs_.end(), k,
                             [](std::int64_t v, const run& r) { return v < r.first; });
  const run& r = *(it - 1);
  const std::int64_t begin = r.start + (k - r.first) * r.size;
  return {begin, begin + r.size};
}

std::vector<std::int64_t> chunk_table::sizes() const {
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(chunks_));
  for (const run& r : runs_) out.insert(out.end(), static_cast<std::size_t>(r.count), r.size);
  return out;
}

bool one_sided_rule(const core::policy& policy) {
  if (!policy.is_self_scheduled()) return false;
  switch (policy.rule()) {
    case chunk_rule::ss:
    case chunk_rule::css:
    case chunk_rule::gss:
    case chunk_rule::tss:
    case chunk_rule::fac2:
    case chunk_rule::mfsc:
      return true;
    default:  // FSC's h and sigma come from the master's model of the costs (which the ranks do
              // not compare),
      return false;  // WF's speeds, AWF's and AF's measurements: the master's
  }
}

std::string one_sided_refusal(const core::policy& policy, bool has_arrays, bool emulated_clock) {
  const std::string name = core::to_string(policy);
  if (has_arrays) return "the loop moves arrays (the one-sided path runs index-only loops)";
  if (emulated_clock) return "the session's clock is emulated";
  if (!one_sided_rule(policy))
    return "policy " + name +
           " is not a self-scheduling rule whose chunks follow from the request count alone "
           "(SS, CSS:k, GSS, TSS, FAC2, MFSC)";
  return "";
}

bool on_one_node(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int size = 0, node_size = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_size(node, &node_size);
  MPI_Comm_free(&node);
  int all = 0, mine = node_size == size ? 1 : 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
  return all == 1;
}

bool choose_one_sided(path_state& state, MPI_Comm comm, const core::policy& policy, bool has_arrays,
                      std::string& say) {
  using mpi::loop_path;
  if (state.path == loop_path::two_sided) return false;
  const std::string refusal = one_sided_refusal(policy, has_arrays, state.emulated);
  if (!refusal.empty()) {
    if (state.path == loop_path::one_sided)
      throw usage_error("dlb::mpi::session_params::path is one_sided, but " + refusal);
    return false;  // the two-sided path is this loop's own
  }
  if (state.path == loop_path::automatic && !state.two_sided_why.empty()) return false;
  if (!state.one_node) state.one_node = on_one_node(comm);
  if (state.path == loop_path::automatic && !*state.one_node) {
    state.two_sided_why =
        "the ranks are not all on one node, where a window progresses without its owner calling "
        "MPI (Open MPI's osc pt2pt and ucx wait for rank 0)";
    if (!state.said) say = state.two_sided_why;
    state.said = true;
    return false;
  }
  return true;
}

namespace {

// The loop's window: a counter of requests on rank 0 (a duplicate of the session's communicator
// whose errors return, so that a failure is a value on every rank).
struct counter_window {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Win win = MPI_WIN_NULL;
  std::int64_t* counter = nullptr;
  std::string error;  // this rank's failure to make it
  ~counter_window() {
    if (win != MPI_WIN_NULL) MPI_Win_free(&win);
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};

// Collective: the window on every rank, or `error` set on every rank.
void open_window(counter_window& w, MPI_Comm session_comm, bool shared) {
  MPI_Comm_dup(session_comm, &w.comm);
  MPI_Comm_set_errhandler(w.comm, MPI_ERRORS_RETURN);
  int rank = 0;
  MPI_Comm_rank(w.comm, &rank);
  const MPI_Aint bytes = rank == 0 ? sizeof(std::int64_t) : 0;
  void* base = nullptr;
  const int rc =
      shared ? MPI_Win_allocate_shared(bytes, sizeof(std::int64_t), MPI_INFO_NULL, w.comm, &base,
                                       &w.win)
             : MPI_Win_allocate(bytes, sizeof(std::int64_t), MPI_INFO_NULL, w.comm, &base, &w.win);
  if (rc != MPI_SUCCESS) {
    w.win = MPI_WIN_NULL;
    w.error = (shared ? "MPI_Win_allocate_shared: " : "MPI_Win_allocate: ") + mpi_error_text(rc);
  } else {
    MPI_Win_set_errhandler(w.win, MPI_ERRORS_RETURN);
    w.counter = static_cast<std::int64_t*>(base);
    if (rank == 0) *w.counter = 0;
  }
  int ok = w.error.empty() ? 1 : 0, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, w.comm);
  if (all == 0 && w.error.empty()) w.error = "another rank could not make its window";
  if (all == 0 && w.win != MPI_WIN_NULL) MPI_Win_free(&w.win);
}

// What each rank tells the others at the loop's end.
struct rank_report {
  double failed = 0, iterations = 0, chunks = 0, start = 0, finish = 0;
};

// This rank's part: chunks taken until the counter passes the table, the body run on each.
rank_report take_chunks(const counter_window& w, const chunk_table& table,
                        const one_sided_loop& loop, std::exception_ptr& threw, bool& body) {
  rank_report me;
  const double t0 = MPI_Wtime();
  MPI_Win_lock_all(MPI_MODE_NOCHECK, w.win);
  const std::int64_t n = table.chunks();
  for (;;) {
    const std::int64_t one = 1;
    std::int64_t k = 0;
    if (MPI_Fetch_and_op(&one, &k, MPI_INT64_T, 0, 0, MPI_SUM, w.win) != MPI_SUCCESS ||
        MPI_Win_flush(0, w.win) != MPI_SUCCESS) {
      threw = std::make_exception_ptr(run_error("MPI_Fetch_and_op on the loop's counter failed"));
      break;
    }
    if (k >= n) break;
    const auto [begin, end] = table.chunk(k);
    try {
      loop.chunk(begin, end);
    } catch (...) {
      threw = std::current_exception();
      body = true;
      break;
    }
    me.iterations += static_cast<double>(end - begin);
    me.chunks += 1;
  }
  if (threw) {  // the others stop at their next request
    std::int64_t past = n + 1, old = 0;
    MPI_Fetch_and_op(&past, &old, MPI_INT64_T, 0, 0, MPI_SUM, w.win);
    MPI_Win_flush(0, w.win);
    me.failed = 1;
  }
  MPI_Win_unlock_all(w.win);
  me.start = 0;
  me.finish = MPI_Wtime() - t0;
  return me;
}

run_stats stats_of(const one_sided_loop& loop, const chunk_table& table,
                   const std::vector<rank_report>& all, std::size_t workers) {
  run_stats st;
  st.policy = loop.policy;
  st.procs = static_cast<int>(workers);
  st.iterations = loop.iterations;
  st.slaves.resize(workers);
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (r == 0 && !loop.rank0_computes) continue;
    // Slave P (the last) is rank 0's when the master computes; the others' ranks in order.
    slave_stats& s = st.slaves[r == 0 ? workers - 1 : r - 1];
    s.iterations_done = static_cast<std::int64_t>(all[r].iterations);
    s.start = all[r].start;
    s.finish = all[r].finish;
    s.busy = all[r].finish - all[r].start;
  }
  st.start_time = 0;
  st.end_time = all[0].finish;
  st.chunks = table.sizes();
  return st;
}

// What a failed rank says: its body's exception (or the library's error) in words.
std::string words_of(const std::exception_ptr& threw, bool body) {
  const std::string prefix = body ? "its loop body threw: " : "";
  try {
    std::rethrow_exception(threw);
  } catch (const std::exception& e) {
    return prefix + e.what();
  } catch (...) {
    return body ? "its loop body threw an exception that is not a std::exception"
                : "an exception that is not a std::exception";
  }
}

// Collective, after a rank failed: every rank's failure in words ("" where it did not fail),
// gathered within the timeout; returns the first failed rank's, named as the two-sided path names
// it (slave P is rank 0's when the master computes).
std::string failures_said(const counter_window& w, const one_sided_loop& loop,
                          const std::exception_ptr& threw, bool body) {
  constexpr int width = 512;
  int size = 0;
  MPI_Comm_size(w.comm, &size);
  auto mine = std::make_shared<std::vector<char>>(width, '\0');
  if (threw) {
    const std::string s = words_of(threw, body);
    std::copy_n(s.data(), std::min<std::size_t>(s.size(), width - 1), mine->data());
  }
  auto all = std::make_shared<std::vector<char>>(static_cast<std::size_t>(width) * size, '\0');
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Iallgather(mine->data(), width, MPI_CHAR, all->data(), width, MPI_CHAR, w.comm, &req);
  wait_or_throw(req, deadline_after(loop.timeout_s), loop.timeout_s,
                "the ranks did not all say how the one-sided loop failed",
                std::make_shared<std::pair<decltype(all), decltype(mine)>>(all, mine));
  for (int r = 0; r < size; ++r) {
    const char* s = all->data() + static_cast<std::ptrdiff_t>(r) * width;
    if (*s == '\0') continue;
    const int slave = r == 0 ? size : r;
    return "slave " + std::to_string(slave) + " (MPI rank " + std::to_string(r) + ") failed: " + s;
  }
  return "a rank failed in the one-sided loop";
}

}  // namespace

one_sided_outcome run_one_sided(const one_sided_loop& loop) {
  int size = 0, rank = 0;
  MPI_Comm_size(loop.comm, &size);
  MPI_Comm_rank(loop.comm, &rank);
  const auto workers = static_cast<std::size_t>(loop.rank0_computes ? size : size - 1);
  const chunk_table table(loop.policy, loop.iterations, workers);
  counter_window w;
  open_window(w, loop.comm, loop.shared);
  if (!w.error.empty()) return {true, w.error, std::nullopt};
  std::exception_ptr threw;
  bool body = false;  // threw: the body's exception, not the library's
  rank_report me;
  if (rank != 0 || loop.rank0_computes) me = take_chunks(w, table, loop, threw, body);
  auto all = std::make_shared<std::vector<rank_report>>(static_cast<std::size_t>(size));
  auto mine = std::make_shared<rank_report>(me);
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Iallgather(mine.get(), 5, MPI_DOUBLE, all->data(), 5, MPI_DOUBLE, w.comm, &req);
  try {
    wait_or_throw(req, deadline_after(loop.timeout_s), loop.timeout_s,
                  "the ranks did not all come to the one-sided loop's end",
                  std::make_shared<std::pair<decltype(all), decltype(mine)>>(all, mine));
  } catch (...) {  // a rank is missing: its collectives would never end, so the window stays
    w.win = MPI_WIN_NULL;
    w.comm = MPI_COMM_NULL;
    throw;
  }
  for (int r = 0; r < size; ++r)
    if ((*all)[static_cast<std::size_t>(r)].failed != 0) {
      // Every rank knows a rank failed: all of them take the failures' words, so that each names
      // the rank and what it said, as on the two-sided path.
      const std::string said = failures_said(w, loop, threw, body);
      if (threw) std::rethrow_exception(threw);
      throw run_error(said);
    }
  one_sided_outcome out;
  if (rank == 0) out.stats = stats_of(loop, table, *all, workers);
  return out;
}

}  // namespace dlb::mpi_detail
