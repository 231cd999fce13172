// dlb.cpp: the DLB calls and the four strategies' protocols.
//
// One synchronization of group g (all slaves for the global strategies), epoch e:
//  1. The first slave to run out of work sends INTERRUPT(e) to the other active members.
//  2. Each member, at its next iteration boundary, sends its PROFILE (iterations done and time
//     since the last synchronization, its remaining ranges) to the balancer: the master for the
//     centralized strategies, every other active member for the distributed ones.
//  3. The balancer (master, or each member with the same inputs) computes the same decision
//     with dlb::core::decide_balance; centralized: the master multicasts it as DECISION(e).
//  4. Senders ship WORK(e) (ranges and their array slices) to receivers, who wait for it.
//  5. Members left without work become inactive; a decision not to move closes balancing in
//     the group (its members finish what they hold), as the paper's threshold rule intends:
//     "the system is almost balanced, or only a small portion of the work remains".
// Messages carry (loop, group, epoch), so late or early messages never mix syncs or loops.
#include "dlb/dlb.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <sstream>

#include "dlb/core/bitonic.hpp"
#include "dlb/core/groups.hpp"

namespace dlb {

namespace {

struct header {
  int loop = 0;
  int group = 0;
  int epoch = 0;
};

header peek(const delivered& d, bool with_epoch) {
  reader r(d.payload);
  header h;
  h.loop = r.get<int>();
  if (with_epoch) {
    h.group = r.get<int>();
    h.epoch = r.get<int>();
  }
  return h;
}

messenger::match in_sync(tag t, int loop, int group, int epoch, int from = -1) {
  return [=](const delivered& d) {
    if (d.kind != t || (from >= 0 && d.from != from)) return false;
    header h = peek(d, true);
    return h.loop == loop && h.group == group && h.epoch == epoch;
  };
}

messenger::match in_loop(tag t, int loop) {
  return [=](const delivered& d) { return d.kind == t && peek(d, false).loop == loop; };
}

// Address of element (r, c) of an array.
std::byte* element(const DLB_array& a, std::int64_t r, std::int64_t c) {
  const std::int64_t index = a.layout == storage::row_major ? r * a.cols + c : c * a.rows + r;
  return static_cast<std::byte*>(a.data) + index * static_cast<std::int64_t>(element_size(a.type));
}

// Slice s of an array: row s (along rows) or column s (along columns).
void pack_slice(writer& w, const DLB_array& a, std::int64_t s) {
  const auto es = element_size(a.type);
  const bool contiguous = (a.axis == along::rows) == (a.layout == storage::row_major);
  if (contiguous) {
    w.put_raw(a.axis == along::rows ? element(a, s, 0) : element(a, 0, s),
              es * static_cast<std::size_t>(a.slice_length()));
    return;
  }
  for (std::int64_t j = 0; j < a.slice_length(); ++j) {
    w.put_raw(a.axis == along::rows ? element(a, s, j) : element(a, j, s), es);
  }
}

void unpack_slice(reader& r, const DLB_array& a, std::int64_t s) {
  const auto es = element_size(a.type);
  const bool contiguous = (a.axis == along::rows) == (a.layout == storage::row_major);
  if (contiguous) {
    r.get_raw(a.axis == along::rows ? element(a, s, 0) : element(a, 0, s),
              es * static_cast<std::size_t>(a.slice_length()));
    return;
  }
  for (std::int64_t j = 0; j < a.slice_length(); ++j) {
    r.get_raw(a.axis == along::rows ? element(a, s, j) : element(a, j, s), es);
  }
}

template <class F>
void for_each_slice(const DLB_array& a, const core::range_list& ranges, F f) {
  const std::int64_t n = a.slice_count();
  for (const auto& rg : ranges) {
    for (std::int64_t i = rg.begin; i < rg.end; ++i) {
      f(i);
      if (a.map == iteration_map::bitonic && n - 1 - i != i) f(n - 1 - i);
    }
  }
}

void pack_arrays(writer& w, const std::vector<DLB_array*>& arrays, const core::range_list& ranges,
                 bool (*selected)(const DLB_array&)) {
  for (const DLB_array* a : arrays) {
    if (!selected(*a)) continue;
    for_each_slice(*a, ranges, [&](std::int64_t s) { pack_slice(w, *a, s); });
  }
}

void unpack_arrays(reader& r, const std::vector<DLB_array*>& arrays, const core::range_list& ranges,
                   bool (*selected)(const DLB_array&)) {
  for (const DLB_array* a : arrays) {
    if (!selected(*a)) continue;
    for_each_slice(*a, ranges, [&](std::int64_t s) { unpack_slice(r, *a, s); });
  }
}

bool moved_array(const DLB_array& a) { return a.moves(); }
bool output_array(const DLB_array& a) { return a.output; }

// Appends [i, i+1) to a list, merging with its last range.
void append_iteration(core::range_list& list, std::int64_t i) {
  if (!list.empty() && list.back().end == i) {
    ++list.back().end;
  } else {
    list.push_back({i, i + 1});
  }
}

core::range_list nonempty(const core::range_list& l) {
  core::range_list out;
  for (const auto& r : l) {
    if (r.end > r.begin) out.push_back(r);
  }
  return out;
}

void put_stats(writer& w, const slave_stats& s) {
  w.put(s.iterations_done).put(s.iterations_sent).put(s.iterations_received).put(s.bytes_sent);
  w.put(s.syncs)
      .put(s.redistributions)
      .put(s.busy)
      .put(s.sync)
      .put(s.idle)
      .put(s.start)
      .put(s.finish);
  w.put(s.lag).put(s.group).put(s.first_speed);
}

slave_stats get_stats(reader& r) {
  slave_stats s;
  s.iterations_done = r.get<std::int64_t>();
  s.iterations_sent = r.get<std::int64_t>();
  s.iterations_received = r.get<std::int64_t>();
  s.bytes_sent = r.get<std::uint64_t>();
  s.syncs = r.get<std::int64_t>();
  s.redistributions = r.get<std::int64_t>();
  s.busy = r.get<double>();
  s.sync = r.get<double>();
  s.idle = r.get<double>();
  s.start = r.get<double>();
  s.finish = r.get<double>();
  s.lag = r.get<double>();
  s.group = r.get<int>();
  s.first_speed = r.get<double>();
  return s;
}

}  // namespace

std::size_t element_size(element_type t) {
  switch (t) {
    case element_type::f64:
    case element_type::i64:
      return 8;
    case element_type::f32:
    case element_type::i32:
      return 4;
  }
  return 8;
}

std::size_t bytes_per_iteration(const std::vector<DLB_array*>& arrays, std::int64_t iterations) {
  std::size_t total = 0;
  for (const DLB_array* a : arrays) {
    if (!a->moves()) continue;
    // A bitonic iteration carries two slices (one for the middle of an odd count).
    const double slices =
        a->map == iteration_map::bitonic && iterations > 0
            ? static_cast<double>(a->slice_count()) / static_cast<double>(iterations)
            : 1.0;
    total += static_cast<std::size_t>(slices * static_cast<double>(a->slice_length()) *
                                      static_cast<double>(element_size(a->type)));
  }
  return total;
}

std::string run_stats::summary() const {
  std::ostringstream os;
  os << to_string(strategy) << " P=" << procs << " K=" << group_size << ": total " << total_time()
     << " s, " << syncs << " synchronizations, " << redistributions << " redistributions, "
     << iterations_moved << " iterations and " << bytes_moved << " bytes moved, lag " << lag
     << " s";
  return os.str();
}

context::context(runtime& rt)
    : rt_(rt), net_(rt.net()), strategy_(rt.params().strategy), protocol_(rt.params().strategy) {}

void DLB_init(context& DLB, int P, int K, const loop_spec& loop,
              std::initializer_list<DLB_array*> arrays) {
  DLB_init(DLB, DLB.rt_.params().strategy, P, K, loop, std::vector<DLB_array*>(arrays));
}

void DLB_init(context& DLB, core::strategy s, int P, int K, const loop_spec& loop,
              std::vector<DLB_array*> arrays) {
  if (P != DLB.rt_.slaves()) {
    throw usage_error("DLB_init: P = " + std::to_string(P) + " but the run has " +
                      std::to_string(DLB.rt_.slaves()) + " slaves");
  }
  if (K < 1 || K > P)
    throw usage_error("DLB_init: K must be in 1.." + std::to_string(P) + ", got " +
                      std::to_string(K));
  if (loop.iterations < 0 || !loop.work)
    throw usage_error("DLB_init: the loop needs iterations >= 0 and a work function");
  for (const DLB_array* a : arrays) {
    if (!a || !a->data || a->rows < 0 || a->cols < 0)
      throw usage_error("DLB_init: array without data or with negative size");
    if (a->distribution == data_distribution::whole && !a->output) continue;
    const std::int64_t need = a->map == iteration_map::bitonic
                                  ? core::bitonic_iterations(a->slice_count())
                                  : a->slice_count();
    if (need != loop.iterations) {
      throw usage_error("DLB_init: array " + a->name + " has " + std::to_string(a->slice_count()) +
                        " slices for a loop of " + std::to_string(loop.iterations) + " iterations");
    }
  }
  // The arrays' distribution is the iterations' (the paper: arrays are "initially partitioned
  // equally based on the data distribution specification"): a CYCLIC array makes the loop cyclic.
  loop_spec resolved = loop;
  bool block = false, cyclic = false;
  for (const DLB_array* a : arrays) {
    block = block || a->distribution == data_distribution::block;
    cyclic = cyclic || a->distribution == data_distribution::cyclic;
  }
  if (block && cyclic) throw usage_error("DLB_init: BLOCK and CYCLIC arrays in one loop");
  if (cyclic) resolved.initial = data_distribution::cyclic;
  DLB.loop_id_ = DLB.rt_.next_loop_id();
  DLB.strategy_ = s;
  // Customized mode runs the first synchronization as a global centralized one: the master
  // sees every profile, runs the model and commits (section 1.3.3).
  DLB.protocol_ = s == core::strategy::automatic ? core::strategy::gcdlb : s;
  DLB.local_group_size_ = K;
  DLB.procs_ = P;
  DLB.group_size_ = core::is_local(DLB.protocol_) ? K : P;
  DLB.loop_ = resolved;
  DLB.arrays_ = std::move(arrays);
  const auto& prm = DLB.rt_.params();
  DLB.balance_.threshold_iterations =
      prm.threshold >= 0 ? prm.threshold : std::max<std::int64_t>(1, loop.iterations / 100);
  DLB.balance_.min_improvement = prm.min_improvement;
  if (!DLB.master()) {
    DLB.me_ = static_cast<std::size_t>(DLB.rt_.rank() - 1);
    const auto P_ = static_cast<std::size_t>(P), K_ = static_cast<std::size_t>(DLB.group_size_);
    DLB.group_ = static_cast<int>(core::group_of(DLB.me_, P_, K_));
    DLB.members_ = core::group_members(static_cast<std::size_t>(DLB.group_), P_, K_);
    DLB.st_.group = DLB.group_;
  }
  DLB.closed_ = s == core::strategy::none;
  DLB.initialized_ = true;
}

namespace {
std::vector<core::range_list> initial_distribution(const loop_spec& loop, int P) {
  if (loop.initial == data_distribution::cyclic) {
    std::vector<core::range_list> d(static_cast<std::size_t>(P));
    for (std::int64_t i = 0; i < loop.iterations; ++i)
      d[static_cast<std::size_t>(i % P)].push_back({i, i + 1});
    return d;
  }
  return core::equal_blocks(loop.iterations, static_cast<std::size_t>(P)).slaves;
}
}  // namespace

void DLB_scatter_data(context& DLB) {
  if (!DLB.initialized_) throw usage_error("DLB_scatter_data before DLB_init");
  auto& net = DLB.net_;
  const auto initial = initial_distribution(DLB.loop_, DLB.procs_);
  if (DLB.master()) {
    DLB.stats_ = run_stats{};
    DLB.stats_.strategy = DLB.strategy_;
    DLB.stats_.procs = DLB.procs_;
    DLB.stats_.group_size = DLB.group_size_;
    DLB.stats_.iterations = DLB.loop_.iterations;
    DLB.stats_.start_time = net.clock().now();
    for (int r = 1; r <= DLB.procs_; ++r) {
      const auto& ranges = initial[static_cast<std::size_t>(r - 1)];
      writer w;
      w.put(DLB.loop_id_).put_ranges(ranges);
      for (const DLB_array* a : DLB.arrays_) {
        if (!a->input) continue;
        if (a->distribution == data_distribution::whole) {
          w.put_raw(a->data, static_cast<std::size_t>(a->rows * a->cols) * element_size(a->type));
        } else {
          for_each_slice(*a, ranges, [&](std::int64_t s) { pack_slice(w, *a, s); });
        }
      }
      net.send(r, tag::scatter, w.data());
    }
    return;
  }
  auto d = net.wait(in_loop(tag::scatter, DLB.loop_id_),
                    "the scatter of loop " + std::to_string(DLB.loop_id_) + " from the master");
  reader r = d.body();
  r.get<int>();
  DLB.remaining_ = r.get_ranges();
  for (const DLB_array* a : DLB.arrays_) {
    if (!a->input) continue;
    if (a->distribution == data_distribution::whole) {
      r.get_raw(a->data, static_cast<std::size_t>(a->rows * a->cols) * element_size(a->type));
    } else {
      for_each_slice(*a, DLB.remaining_, [&](std::int64_t s) { unpack_slice(r, *a, s); });
    }
  }
  // Who starts with work: every member's initial share is known to all (the same formula).
  DLB.active_.assign(DLB.members_.size(), false);
  for (std::size_t p = 0; p < DLB.members_.size(); ++p) {
    DLB.active_[p] = core::iteration_count(initial[DLB.members_[p]]) > 0;
  }
  DLB.more_work_ = core::iteration_count(DLB.remaining_) > 0;
  DLB.st_.start = net.clock().now();
  DLB.sync_start_ = DLB.st_.start;
}

std::size_t context::position_of(std::size_t slave) const {
  for (std::size_t p = 0; p < members_.size(); ++p) {
    if (members_[p] == slave) return p;
  }
  throw run_error("slave " + std::to_string(slave + 1) + " is not in group " +
                  std::to_string(group_));
}

bool context::others_active() const {
  for (std::size_t p = 0; p < members_.size(); ++p) {
    if (active_[p] && members_[p] != me_) return true;
  }
  return false;
}

std::vector<int> context::active_other_ranks() const {
  std::vector<int> r;
  for (std::size_t p = 0; p < members_.size(); ++p) {
    if (active_[p] && members_[p] != me_) r.push_back(static_cast<int>(members_[p]) + 1);
  }
  return r;
}

bool context::poll_interrupt() {
  // Stale interrupts (of syncs this slave has completed) are dropped; the current one starts a
  // sync.
  for (;;) {
    auto d = net_.poll([this](const delivered& m) {
      if (m.kind != tag::interrupt) return false;
      header h = peek(m, true);
      return h.loop == loop_id_ && h.group == group_ && h.epoch <= epoch_;
    });
    if (!d) return false;
    if (peek(*d, true).epoch == epoch_) {
      net_.note_late(d->late);
      return true;
    }
  }
}

bool DLB_slave_sync(context& DLB) {
  if (DLB.remaining_.empty() || DLB.remaining_.front().begin >= DLB.remaining_.front().end) {
    throw run_error("DLB_slave_sync called with no iteration in progress");
  }
  auto& cur = DLB.remaining_.front();
  const std::int64_t i = cur.begin++;
  append_iteration(DLB.done_, i);
  ++DLB.done_since_sync_;
  ++DLB.st_.iterations_done;
  auto& clk = DLB.net_.clock();
  const double t0 = clk.now();
  clk.compute(DLB.loop_.work(i));
  DLB.st_.busy += clk.now() - t0;
  if (!DLB.closed_ && !DLB.interrupt_ && DLB.poll_interrupt()) {
    DLB.interrupt_ = true;
    DLB.sync_pending_ = true;
  }
  return DLB.interrupt_;
}

void context::send_interrupts() {
  writer w;
  w.put(loop_id_).put(group_).put(epoch_);
  net_.multicast(active_other_ranks(), tag::interrupt, w.data());
}

void DLB_send_interrupt(context& DLB) {
  auto& rem = DLB.remaining_;
  while (!rem.empty() && rem.front().begin >= rem.front().end) rem.erase(rem.begin());
  if (!rem.empty()) return;  // the next local range; nothing to ask for
  if (DLB.closed_ || !DLB.others_active()) {
    DLB.more_work_ = false;
    return;
  }
  // Someone else may have run out first and asked already: join that sync.
  if (!DLB.sync_pending_ && !DLB.poll_interrupt()) DLB.send_interrupts();
  DLB.sync_pending_ = true;
}

void DLB_profile_send_move_work(context& DLB) {
  if (!DLB.sync_pending_) return;
  DLB.run_sync();
  DLB.sync_pending_ = false;
  DLB.interrupt_ = false;
}

context::decision context::decide(const std::vector<member_profile>& profiles) const {
  std::vector<core::range_list> remaining;
  std::vector<double> speeds;
  for (const auto& p : profiles) {
    remaining.push_back(p.remaining);
    speeds.push_back(p.speed);
  }
  auto bd = core::decide_balance(remaining, speeds, balance_);
  decision d;
  d.reason = bd.reason;
  d.counts_after =
      bd.reason == core::balance_reason::moved ? bd.proposed : core::iteration_counts(remaining);
  for (auto t : bd.plan.transfers) {
    t.from = profiles[t.from].slave;
    t.to = profiles[t.to].slave;
    d.transfers.push_back(std::move(t));
  }
  return d;
}

void context::adopt(core::strategy c, int group, const std::vector<bool>& active_before) {
  // Every slave was in the one global group of the first synchronization; it now joins its
  // group of the chosen strategy, keeping who was active.
  std::vector<bool> was_active(static_cast<std::size_t>(procs_), false);
  for (std::size_t p = 0; p < members_.size(); ++p) was_active[members_[p]] = active_before[p];
  protocol_ = c;
  group_size_ = core::is_local(c) ? local_group_size_ : procs_;
  group_ = group;
  members_ = core::group_members(static_cast<std::size_t>(group), static_cast<std::size_t>(procs_),
                                 static_cast<std::size_t>(group_size_));
  active_.assign(members_.size(), false);
  for (std::size_t p = 0; p < members_.size(); ++p) active_[p] = was_active[members_[p]];
  st_.group = group;
}

bytes context::encode(const decision& d, int group, int epoch, int chosen, int new_group) const {
  writer w;
  w.put(loop_id_)
      .put(group)
      .put(epoch)
      .put(chosen)
      .put(new_group)
      .put(static_cast<int>(d.reason))
      .put_vector(d.counts_after);
  w.put<std::uint64_t>(d.transfers.size());
  for (const auto& t : d.transfers)
    w.put<std::uint64_t>(t.from).put<std::uint64_t>(t.to).put(t.count).put_ranges(t.ranges);
  return w.take();
}

context::decision context::decode_decision(reader& r) const {
  decision d;
  d.reason = static_cast<core::balance_reason>(r.get<int>());
  d.counts_after = r.get_vector<std::int64_t>();
  auto n = r.get<std::uint64_t>();
  for (std::uint64_t k = 0; k < n; ++k) {
    core::transfer t;
    t.from = r.get<std::uint64_t>();
    t.to = r.get<std::uint64_t>();
    t.count = r.get<std::int64_t>();
    t.ranges = r.get_ranges();
    d.transfers.push_back(std::move(t));
  }
  return d;
}

void context::run_sync() {
  auto& clk = net_.clock();
  const double t_enter = clk.now();
  const std::string where = "loop " + std::to_string(loop_id_) + ", group " +
                            std::to_string(group_) + ", synchronization " + std::to_string(epoch_);
  member_profile mine;
  mine.slave = me_;
  mine.done = done_since_sync_;
  mine.elapsed = t_enter - sync_start_;
  mine.speed = (done_since_sync_ > 0 && mine.elapsed > 0)
                   ? static_cast<double>(done_since_sync_) / mine.elapsed
                   : last_speed_;
  last_speed_ = mine.speed;
  if (st_.syncs == 0) st_.first_speed = mine.speed;
  mine.remaining = nonempty(remaining_);

  writer w;
  w.put(loop_id_)
      .put(group_)
      .put(epoch_)
      .put<std::uint64_t>(mine.slave)
      .put(mine.done)
      .put(mine.elapsed)
      .put(mine.speed);
  w.put_ranges(mine.remaining);

  decision d;
  if (core::is_centralized(protocol_)) {
    net_.send(0, tag::profile, w.data());
    auto m = net_.wait(in_sync(tag::decision, loop_id_, group_, epoch_, 0),
                       "the master's decision (" + where + ")");
    reader r = m.body();
    r.get<int>();
    r.get<int>();
    r.get<int>();
    const int chosen = r.get<int>();
    const int new_group = r.get<int>();
    d = decode_decision(r);
    if (chosen >= 0) adopt(static_cast<core::strategy>(chosen), new_group, active_);
  } else {
    net_.multicast(active_other_ranks(), tag::profile, w.data());
    std::vector<member_profile> profiles;
    for (std::size_t p = 0; p < members_.size(); ++p) {
      if (!active_[p]) continue;
      if (members_[p] == me_) {
        profiles.push_back(mine);
        continue;
      }
      const int from = static_cast<int>(members_[p]) + 1;
      auto m = net_.wait(in_sync(tag::profile, loop_id_, group_, epoch_, from),
                         "the profile of " + net_.describe(from) + " (" + where + ")");
      reader r = m.body();
      r.get<int>();
      r.get<int>();
      r.get<int>();
      member_profile mp;
      mp.slave = static_cast<std::size_t>(r.get<std::uint64_t>());
      mp.done = r.get<std::int64_t>();
      mp.elapsed = r.get<double>();
      mp.speed = r.get<double>();
      mp.remaining = r.get_ranges();
      profiles.push_back(std::move(mp));
    }
    // Every member computes the same decision from the same profiles.
    clk.wait_until(clk.now() + rt_.params().delta);
    d = decide(profiles);
  }
  apply(d);
  ++st_.syncs;
  if (d.reason == core::balance_reason::moved) ++st_.redistributions;
  ++epoch_;
  done_since_sync_ = 0;
  sync_start_ = clk.now();
  st_.sync += sync_start_ - t_enter;
}

void context::apply(const decision& d) {
  // Senders: ship the end of their remaining work. The current range keeps its begin (the
  // application's loop variable is inside it); only its end may move.
  std::int64_t n = 0;
  core::range_list given;
  for (const auto& t : d.transfers) {
    if (t.from != me_) continue;
    n += t.count;
    given.insert(given.end(), t.ranges.begin(), t.ranges.end());
  }
  core::range_list taken;
  while (n > 0) {
    auto& last = remaining_.back();
    const std::int64_t len = last.end - last.begin;
    if (len <= n && remaining_.size() > 1) {
      taken.push_back(last);
      n -= len;
      remaining_.pop_back();
    } else {
      if (len < n)
        throw run_error("decision asks " + net_.describe(static_cast<int>(me_) + 1) +
                        " for more work than it holds");
      taken.push_back({last.end - n, last.end});
      last.end -= n;
      n = 0;
    }
  }
  if (core::normalized(taken) != core::normalized(given)) {
    throw run_error("decision and remaining work of " + net_.describe(static_cast<int>(me_) + 1) +
                    " disagree");
  }
  for (const auto& t : d.transfers) {
    if (t.from != me_) continue;
    writer w;
    w.put(loop_id_).put(group_).put(epoch_).put_ranges(t.ranges);
    const std::size_t before = w.size();
    pack_arrays(w, arrays_, t.ranges, moved_array);
    st_.bytes_sent += w.size() - before;
    st_.iterations_sent += t.count;
    net_.send(static_cast<int>(t.to) + 1, tag::work, w.data());
  }
  // Receivers: wait for each transfer addressed to them.
  for (const auto& t : d.transfers) {
    if (t.to != me_) continue;
    const int from = static_cast<int>(t.from) + 1;
    auto m = net_.wait(in_sync(tag::work, loop_id_, group_, epoch_, from),
                       "work from " + net_.describe(from));
    reader r = m.body();
    r.get<int>();
    r.get<int>();
    r.get<int>();
    auto ranges = r.get_ranges();
    unpack_arrays(r, arrays_, ranges, moved_array);
    st_.iterations_received += core::iteration_count(ranges);
    if (remaining_.empty()) remaining_.push_back({0, 0});  // keep element 0 as the current range
    remaining_.insert(remaining_.end(), ranges.begin(), ranges.end());
  }
  // Who is still active, as every member sees it.
  std::size_t k = 0;
  for (std::size_t p = 0; p < members_.size(); ++p) {
    if (!active_[p]) continue;
    if (k < d.counts_after.size() && d.counts_after[k] == 0) active_[p] = false;
    ++k;
  }
  if (d.reason != core::balance_reason::moved) closed_ = true;
  more_work_ = core::iteration_count(remaining_) > 0;
  if (!more_work_) remaining_.clear();
}

strategy_prediction context::predict(const std::vector<double>& iterations_per_second) const {
  core::model_input in;
  in.network = rt_.model_network();
  const std::int64_t I = loop_.iterations;
  std::vector<double> w(static_cast<std::size_t>(I));
  double sum = 0.0;
  bool uniform = true;
  for (std::int64_t i = 0; i < I; ++i) {
    w[static_cast<std::size_t>(i)] = loop_.work(i);
    sum += w[static_cast<std::size_t>(i)];
    uniform = uniform && std::abs(w[static_cast<std::size_t>(i)] - w[0]) <= 1e-12 * std::abs(w[0]);
  }
  const double mean = I > 0 ? sum / static_cast<double>(I) : 0.0;
  in.program.iterations = I;
  in.program.time_per_iteration = mean;
  if (!uniform) in.program.iteration_times = std::move(w);
  in.program.bytes_per_iteration = static_cast<double>(bytes_per_iteration(arrays_, I));
  in.program.distribution_cost = rt_.params().delta;
  in.program.balance = balance_;
  // The observed effective speeds, in base seconds of work per second, stand for the load
  // function seen so far (the paper plugs "the load function seen so far" into the model).
  for (double v : iterations_per_second)
    in.machine.base_speeds.push_back(std::max(v * mean, 1e-12));
  in.machine.load.max_load = 0;
  in.group_size = static_cast<std::size_t>(local_group_size_);
  strategy_prediction out;
  if (I == 0 || !(mean > 0)) return out;
  const core::strategy_choice c = core::choose_strategy(in);
  out.valid = true;
  out.best = c.best;
  for (std::size_t k = 0; k < 4; ++k) out.total_time[k] = c.predictions[k].total_time;
  return out;
}

void DLB_master_sync(context& DLB) {
  auto& net = DLB.net_;
  const auto P = static_cast<std::size_t>(DLB.procs_);
  std::size_t K = static_cast<std::size_t>(DLB.group_size_);
  bool central = core::is_centralized(DLB.protocol_);
  bool choosing = DLB.strategy_ == core::strategy::automatic;
  std::vector<context::group_state> groups(core::group_count(P, K));
  const auto initial = initial_distribution(DLB.loop_, DLB.procs_);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (auto s : core::group_members(g, P, K))
      groups[g].active.push_back(core::iteration_count(initial[s]) > 0);
  }
  DLB.gathered_.clear();
  const int loop = DLB.loop_id_;
  auto wanted = [loop, &central](const delivered& d) {
    if (d.kind == tag::gather) return peek(d, false).loop == loop;
    return central && d.kind == tag::profile && peek(d, false).loop == loop;
  };
  while (DLB.gathered_.size() < P) {
    auto d = net.wait(wanted, "profiles or results of loop " + std::to_string(loop) + " (" +
                                  std::to_string(DLB.gathered_.size()) + " of " +
                                  std::to_string(P) + " slaves done)");
    if (d.kind == tag::gather) {
      DLB.gathered_.push_back(std::move(d));
      continue;
    }
    // A profile for the centralized balancer; groups are served in the order their profiles
    // complete, one decision at a time (the paper's LCDLB delay factor).
    reader r = d.body();
    r.get<int>();
    const int g = r.get<int>();
    const int e = r.get<int>();
    context::member_profile mp;
    mp.slave = static_cast<std::size_t>(r.get<std::uint64_t>());
    mp.done = r.get<std::int64_t>();
    mp.elapsed = r.get<double>();
    mp.speed = r.get<double>();
    mp.remaining = r.get_ranges();
    if (g < 0 || static_cast<std::size_t>(g) >= groups.size())
      throw run_error("profile for an unknown group");
    auto& gs = groups[static_cast<std::size_t>(g)];
    if (e != gs.epoch)
      throw run_error("profile of " + net.describe(d.from) + " for synchronization " +
                      std::to_string(e) + " of group " + std::to_string(g) + ", expected " +
                      std::to_string(gs.epoch));
    const auto members = core::group_members(static_cast<std::size_t>(g), P, K);
    std::size_t pos = 0;
    while (pos < members.size() && members[pos] != mp.slave) ++pos;
    gs.profiles[pos] = std::move(mp);
    const auto needed =
        static_cast<std::size_t>(std::count(gs.active.begin(), gs.active.end(), true));
    if (gs.profiles.size() < needed) continue;
    net.clock().wait_until(net.clock().now() + DLB.rt_.params().delta);
    if (choosing) {
      // Customized mode's first synchronization: every slave's profile is here. Run the model
      // on the speeds seen so far, commit to the cheapest strategy, and answer each slave with
      // the decision of its group under that strategy.
      choosing = false;
      std::vector<double> speeds(P, 0.0);
      for (const auto& [p, prof] : gs.profiles) speeds[prof.slave] = prof.speed;
      DLB.stats_.prediction = DLB.predict(speeds);
      const core::strategy c =
          DLB.stats_.prediction.valid ? DLB.stats_.prediction.best : core::strategy::gddlb;
      DLB.stats_.chosen = c;
      if (!DLB.rt_.params().quiet) {
        std::cerr << DLB.rt_.app_name() << ": AUTO at t = " << net.clock().now() << " s predicts";
        for (std::size_t k = 0; k < 4; ++k) {
          std::cerr << " " << to_string(core::balancing_strategies[k]) << " "
                    << DLB.stats_.prediction.total_time[k] << " s";
        }
        std::cerr << "; commits to " << to_string(c) << "\n";
      }
      K = core::is_local(c) ? static_cast<std::size_t>(DLB.local_group_size_) : P;
      std::vector<context::group_state> next(core::group_count(P, K));
      for (std::size_t ng = 0; ng < next.size(); ++ng) {
        std::vector<context::member_profile> profiles;
        std::vector<int> ranks;
        const auto nm = core::group_members(ng, P, K);
        next[ng].active.assign(nm.size(), false);
        next[ng].epoch = 1;
        std::vector<std::size_t> positions;
        for (std::size_t q = 0; q < nm.size(); ++q) {
          for (const auto& [p, prof] : gs.profiles) {
            if (prof.slave != nm[q]) continue;
            profiles.push_back(prof);
            ranks.push_back(static_cast<int>(prof.slave) + 1);
            positions.push_back(q);
          }
        }
        if (profiles.empty()) continue;
        auto dec = DLB.decide(profiles);
        net.multicast(ranks, tag::decision,
                      DLB.encode(dec, g, e, static_cast<int>(c), static_cast<int>(ng)));
        for (std::size_t k = 0; k < positions.size(); ++k)
          next[ng].active[positions[k]] = dec.counts_after[k] > 0;
      }
      groups = std::move(next);
      central = core::is_centralized(c);
      continue;
    }
    std::vector<context::member_profile> profiles;
    std::vector<int> ranks;
    for (auto& [p, prof] : gs.profiles) {
      ranks.push_back(static_cast<int>(prof.slave) + 1);
      profiles.push_back(prof);
    }
    auto dec = DLB.decide(profiles);
    net.multicast(ranks, tag::decision, DLB.encode(dec, g, e));
    std::size_t k = 0;
    for (auto& [p, prof] : gs.profiles) {
      if (dec.counts_after[k++] == 0) gs.active[p] = false;
    }
    gs.profiles.clear();
    ++gs.epoch;
  }
}

void DLB_gather_data(context& DLB) {
  auto& net = DLB.net_;
  if (!DLB.master()) {
    DLB.st_.finish = net.clock().now();
    DLB.st_.idle = std::max(0.0, DLB.st_.finish - DLB.st_.start - DLB.st_.busy - DLB.st_.sync);
    DLB.st_.lag = std::max(net.clock().lag(), net.late_delivery());
    writer w;
    w.put(DLB.loop_id_).put_ranges(DLB.done_);
    pack_arrays(w, DLB.arrays_, DLB.done_, output_array);
    put_stats(w, DLB.st_);
    net.send(0, tag::gather, w.data());
    return;
  }
  if (DLB.gathered_.size() != static_cast<std::size_t>(DLB.procs_)) {
    throw run_error("DLB_gather_data on the master before DLB_master_sync");
  }
  auto& st = DLB.stats_;
  st.slaves.assign(static_cast<std::size_t>(DLB.procs_), {});
  core::distribution executed;
  executed.iterations = DLB.loop_.iterations;
  executed.slaves.resize(static_cast<std::size_t>(DLB.procs_));
  for (auto& d : DLB.gathered_) {
    reader r = d.body();
    r.get<int>();
    auto done = r.get_ranges();
    unpack_arrays(r, DLB.arrays_, done, output_array);
    const auto s = static_cast<std::size_t>(d.from - 1);
    st.slaves[s] = get_stats(r);
    executed.slaves[s] = std::move(done);
  }
  if (!core::owns_each_once(executed)) {
    throw run_error("the slaves' executed iterations do not cover loop " +
                    std::to_string(DLB.loop_id_) + " exactly once");
  }
  // Synchronizations per group: every member takes part in each one while it is active, so
  // the most any member saw is the group's count.
  std::map<int, std::pair<std::int64_t, std::int64_t>> per_group;
  st.lag = net.clock().lag();
  for (const auto& s : st.slaves) {
    auto& g = per_group[s.group];
    g.first = std::max(g.first, s.syncs);
    g.second = std::max(g.second, s.redistributions);
    st.iterations_moved += s.iterations_sent;
    st.bytes_moved += s.bytes_sent;
    st.lag = std::max(st.lag, s.lag);
  }
  for (const auto& [g, c] : per_group) {
    st.syncs += c.first;
    st.redistributions += c.second;
  }
  st.end_time = net.clock().now();
  // The model's prediction from the speeds each slave saw up to its first synchronization
  // (a slave that never synchronized: its speed over its whole span). Customized runs keep the
  // prediction they committed on.
  if (DLB.strategy_ != core::strategy::none && DLB.strategy_ != core::strategy::automatic) {
    std::vector<double> speeds;
    for (const auto& s : st.slaves) {
      const double span = s.finish - s.start;
      speeds.push_back(s.first_speed >= 0
                           ? s.first_speed
                           : (span > 0 ? static_cast<double>(s.iterations_done) / span : 0.0));
    }
    st.prediction = DLB.predict(speeds);
  }
}

run_stats parallel_for(runtime& rt, const loop_spec& loop, std::vector<DLB_array*> arrays,
                       const std::function<void(std::int64_t)>& body) {
  context DLB(rt);
  DLB_init(DLB, rt.params().strategy, rt.slaves(), rt.params().group, loop, std::move(arrays));
  DLB_scatter_data(DLB);
  if (DLB.master()) {
    DLB_master_sync(DLB);
  } else {
    while (DLB.more_work()) {
      for (std::int64_t i = DLB.start(); i < DLB.end() && DLB.more_work(); i++) {
        body(i);
        if (DLB_slave_sync(DLB) && DLB.interrupt()) DLB_profile_send_move_work(DLB);
      }
      if (DLB.more_work()) DLB_send_interrupt(DLB);
      DLB_profile_send_move_work(DLB);
    }
  }
  DLB_gather_data(DLB);
  return DLB.master() ? DLB.stats() : run_stats{};
}

}  // namespace dlb
