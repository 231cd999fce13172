// slave_state.cpp: a slave's state's methods that are more than a line (slave_state.hpp).
#include "slave_state.hpp"

#include <algorithm>

#include "dlb/core/profile.hpp"

namespace dlb::detail {

core::range_list slave_work::take_from_end(std::int64_t n) {
  const core::iteration_range cur = current();
  core::range_split split = core::split_back(remaining_, n);
  if (split.front.empty() || split.front.front().begin != cur.begin)
    split.front.insert(split.front.begin(), {cur.begin, cur.begin});
  remaining_ = std::move(split.front);
  return std::move(split.back);
}

void slave_work::receive(const core::range_list& ranges) {
  if (remaining_.empty()) remaining_.push_back({0, 0});  // keep element 0 as the current range
  remaining_.insert(remaining_.end(), ranges.begin(), ranges.end());
}

double sync_window::measure(double now) {
  last_speed_ = core::speed({done_, now - start_, 0, work_}, last_speed_);
  return last_speed_;
}

void poll_pacer::polled(double now) {
  if (!paced_) return;
  count_ =
      core::next_poll_count(count_, static_cast<std::int64_t>((now - last_poll_) * 1e9), pacing_);
  countdown_ = count_;
  last_poll_ = now;
}

slave_state::slave_state(std::size_t me, int group, std::vector<std::size_t> members)
    : me_(me), group_(group), members_(std::move(members)) {
  st_.group = group;
}

void slave_state::start_activity(const std::vector<bool>& active) {
  active_.assign(members_.size(), false);
  for (std::size_t p = 0; p < members_.size(); ++p) active_[p] = active[members_[p]];
  known_active_.assign(active.size(), false);
  for (std::size_t p = 0; p < members_.size(); ++p) known_active_[members_[p]] = active_[p];
}

void slave_state::join(int group, std::vector<std::size_t> members,
                       const std::vector<bool>& was_active) {
  group_ = group;
  members_ = std::move(members);
  active_.assign(members_.size(), false);
  for (std::size_t p = 0; p < members_.size(); ++p) active_[p] = was_active[members_[p]];
  st_.group = group;
}

void slave_state::update_active(const std::vector<std::int64_t>& counts_after) {
  std::size_t k = 0;
  for (std::size_t p = 0; p < members_.size(); ++p) {
    if (!active_[p]) continue;
    if (k < counts_after.size() && counts_after[k] == 0) active_[p] = false;
    ++k;
  }
  for (std::size_t p = 0; p < members_.size() && members_[p] < known_active_.size(); ++p)
    known_active_[members_[p]] = active_[p];
}

bool slave_state::others_active() const {
  for (std::size_t p = 0; p < members_.size(); ++p) {
    if (active_[p] && members_[p] != me_) return true;
  }
  return false;
}

std::vector<int> slave_state::active_other_ranks() const {
  std::vector<int> r;
  for (std::size_t p = 0; p < members_.size(); ++p) {
    if (active_[p] && members_[p] != me_) r.push_back(static_cast<int>(members_[p]) + 1);
  }
  return r;
}

std::vector<int> slave_state::other_member_ranks() const {
  std::vector<int> r;
  for (std::size_t m : members_)
    if (m != me_) r.push_back(static_cast<int>(m) + 1);
  return r;
}

slave_stats slave_state::stats_at(double now, double lag) const {
  slave_stats s = st_;
  s.sync += (now - call_from_) - (st_.busy - call_busy_) - (st_.idle - call_idle_);
  s.finish = now;
  s.lag = lag;
  if (!moved_epochs_.empty())
    s.redistributions =
        std::max<std::int64_t>(s.redistributions, static_cast<std::int64_t>(moved_epochs_.size()));
  return s;
}

void slave_state::start_loop(double now, bool paced) {
  st_.start = now;
  window_.restart(now);
  body_from_ = now;
  pacer_.start(paced, now);
}

void slave_state::finish_loop(double now) {
  st_.finish = now;
  st_.busy += st_.finish - body_from_;
}

const slave_stats& slave_state::final_stats(double lag) {
  if (!moved_epochs_.empty())
    st_.redistributions = std::max<std::int64_t>(st_.redistributions,
                                                 static_cast<std::int64_t>(moved_epochs_.size()));
  st_.lag = lag;
  return st_;
}

double slave_state::measure_speed(double now) {
  const double speed = window_.measure(now);
  if (st_.syncs == 0) st_.first_speed = speed;
  return speed;
}

void slave_state::count_sent(std::uint64_t bytes, std::int64_t iterations, int epoch) {
  st_.bytes_sent += bytes;
  st_.iterations_sent += iterations;
  if (epoch >= 0) moved_epochs_.insert(epoch);
}

void slave_state::receive(const core::range_list& ranges, int epoch, std::int64_t due) {
  st_.iterations_received += core::iteration_count(ranges);
  ++works_received_;
  ++work_got_[epoch];
  work_due_[epoch] = static_cast<int>(due);
  moved_epochs_.insert(epoch);
  work_.receive(ranges);
}

bool slave_state::work_arrived(int epoch) {
  return work_got_[epoch] > 0 && work_got_[epoch] >= work_due_[epoch];
}

void slave_state::begin_call(double now) {
  call_from_ = now;
  st_.busy += call_from_ - body_from_;
  call_busy_ = st_.busy;
  call_idle_ = st_.idle;
}

void slave_state::end_call(double now) {
  body_from_ = now;
  const double own = (body_from_ - call_from_) - (st_.busy - call_busy_) - (st_.idle - call_idle_);
  // Rounding leaves a call that only computed at a few ulps either side of 0; anything larger
  // below 0 is an accounting error, kept so that the statistics' checks see it.
  st_.sync += (own < 0 && own > -1e-9) ? 0.0 : own;
}

}  // namespace dlb::detail
