// protocol.cpp: the byte format of the DLB calls' messages (protocol.hpp).
#include "dlb/runtime/protocol.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <variant>

namespace dlb::protocol {

namespace {

// A DECISION's commitment is one int whatever it says (so that every simulated time is the same
// whatever the master commits to): 4 x the policy's code, + 2 if ADAPTIVE is in force, + 1 if it
// lists its group's members; -1: none. The code: 0 no balancing; 1 + k the k-th balancing row;
// 16 + m customized mode m (its candidates are not carried: a commitment names a policy to run,
// never one that chooses); 32 x chunk + rule a chunk rule (CSS's chunk below 2^24).
constexpr int kRowCode = 1;
constexpr int kModeCode = 16;
constexpr int kRuleCode = 32;
static_assert(core::kBalancingStrategies < kModeCode - kRowCode);

int code_of(const core::policy& p) {
  struct visitor {
    int operator()(const core::no_balancing&) const { return 0; }
    int operator()(const core::balancing& b) const {
      return kRowCode + static_cast<int>(core::index_of(b.row));
    }
    int operator()(const core::customized& c) const { return kModeCode + static_cast<int>(c.mode); }
    int operator()(const core::self_scheduled& s) const {
      if (s.chunk < 1 || s.chunk >= (std::int64_t{1} << 24))
        throw wire_error("a commitment to CSS:" + std::to_string(s.chunk) +
                         ": chunk out of the wire's range");
      return kRuleCode * static_cast<int>(s.chunk) + static_cast<int>(s.rule);
    }
  };
  return std::visit(visitor{}, p.value);
}

core::policy policy_of_code(int code) {
  if (code == 0) return core::no_balancing{};
  if (code >= kRuleCode)
    return core::self_scheduled{static_cast<core::chunk_rule>(code % kRuleCode), code / kRuleCode};
  if (code >= kModeCode && code <= kModeCode + static_cast<int>(core::customized_mode::auto_all))
    return core::customized{static_cast<core::customized_mode>(code - kModeCode)};
  if (code >= kRowCode && code - kRowCode < static_cast<int>(core::kBalancingStrategies))
    return core::balancing{core::balancing_rows[static_cast<std::size_t>(code - kRowCode)].s};
  throw wire_error("a commitment with an unknown policy code " + std::to_string(code));
}

void put_header(writer& w, const sync_header& h) { w.put(h.loop).put(h.group).put(h.epoch); }

sync_header get_header(reader& r) {
  sync_header h;
  h.loop = r.get<int>();
  h.group = r.get<int>();
  h.epoch = r.get<int>();
  return h;
}

// The rest of the message: the array data that ends it.
std::span<const std::byte> rest(reader& r) { return r.view(r.left()); }

void put_stats(writer& w, const slave_stats& s) {
  w.put(s.iterations_done).put(s.iterations_sent).put(s.iterations_received).put(s.bytes_sent);
  w.put(s.syncs)
      .put(s.redistributions)
      .put(s.busy)
      .put(s.sync)
      .put(s.idle)
      .put(s.start)
      .put(s.finish);
  w.put(s.lag).put(s.group).put(s.first_speed).put(s.work_done);
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
  s.work_done = r.get<double>();
  return s;
}

}  // namespace

int peek_loop(const bytes& body) {
  reader r(body);
  return r.get<int>();
}

sync_header peek_sync(const bytes& body) {
  reader r(body);
  return get_header(r);
}

int peek_loop(const delivered& d) { return peek_loop(d.payload); }

sync_header peek_sync(const delivered& d) { return peek_sync(d.payload); }

messenger::match in_loop(tag t, int loop) {
  return {t, [=](const delivered& d) { return peek_loop(d) == loop; }};
}

messenger::match in_sync(tag t, const sync_header& h, int from) {
  return {t, [=](const delivered& d) { return (from < 0 || d.from == from) && peek_sync(d) == h; }};
}

bytes encode(const scatter_msg& m) {
  writer w;
  w.put(m.loop).put(m.epoch).put_ranges(m.ranges);
  if (m.carries_commitment) w.put(m.commit ? code_of(*m.commit) : -1);
  w.put_raw(m.slices.data(), m.slices.size());
  return w.take();
}

scatter_msg decode_scatter(reader& r, bool carries_commitment) {
  scatter_msg m;
  m.loop = r.get<int>();
  m.epoch = r.get<std::int64_t>();
  m.ranges = r.get_ranges();
  m.carries_commitment = carries_commitment;
  if (carries_commitment) {
    const int code = r.get<int>();
    if (code >= 0) m.commit = policy_of_code(code);
  }
  m.slices = rest(r);
  return m;
}

bytes encode(const interrupt_msg& m) {
  writer w;
  put_header(w, m.sync);
  return w.take();
}

bytes encode(const profile_msg& m) {
  writer w;
  put_header(w, m.sync);
  const member_profile& p = m.profile;
  w.put<std::uint64_t>(p.slave).put(p.done).put(p.elapsed).put(p.speed).put_ranges(p.remaining);
  return w.take();
}

profile_msg decode_profile(reader& r) {
  profile_msg m;
  m.sync = get_header(r);
  member_profile& p = m.profile;
  p.slave = static_cast<std::size_t>(r.get<std::uint64_t>());
  p.done = r.get<std::int64_t>();
  p.elapsed = r.get<double>();
  p.speed = r.get<double>();
  p.remaining = r.get_ranges();
  return m;
}

bytes encode(const decision_msg& m) {
  writer w;
  put_header(w, m.sync);
  const bool listed = m.commit && m.commit->members;
  w.put(m.commit ? 4 * code_of(m.commit->next) + (m.commit->adaptive ? 2 : 0) + (listed ? 1 : 0)
                 : -1)
      .put(m.commit ? m.commit->group : 0);
  if (listed) {
    std::vector<std::uint64_t> members(m.commit->members->begin(), m.commit->members->end());
    w.put_vector(members);
  }
  const decision& d = m.body;
  w.put(static_cast<int>(d.reason)).put_vector(d.counts_after);
  w.put<std::uint64_t>(d.transfers.size());
  for (const auto& t : d.transfers)
    w.put<std::uint64_t>(t.from).put<std::uint64_t>(t.to).put(t.count).put_ranges(t.ranges);
  return w.take();
}

decision_msg decode_decision(reader& r) {
  decision_msg m;
  m.sync = get_header(r);
  const int chosen = r.get<int>();
  const int group = r.get<int>();
  if (chosen >= 0) {
    commitment c;
    c.next = policy_of_code(chosen / 4);
    c.adaptive = chosen % 4 >= 2;
    c.group = group;
    if (chosen % 2 == 1) {
      const auto members = r.get_vector<std::uint64_t>();
      c.members = std::vector<std::size_t>(members.begin(), members.end());
    }
    m.commit = std::move(c);
  }
  decision& d = m.body;
  d.reason = static_cast<core::balance_reason>(r.get<int>());
  d.counts_after = r.get_vector<std::int64_t>();
  const auto n = r.get<std::uint64_t>();
  for (std::uint64_t k = 0; k < n; ++k) {
    core::transfer t;
    t.from = r.get<std::uint64_t>();
    t.to = r.get<std::uint64_t>();
    t.count = r.get<std::int64_t>();
    t.ranges = r.get_ranges();
    d.transfers.push_back(std::move(t));
  }
  return m;
}

bytes encode(const work_msg& m) {
  writer w;
  put_header(w, m.sync);
  w.put(m.receiver_gets).put_ranges(m.ranges).put_raw(m.slices.data(), m.slices.size());
  return w.take();
}

work_msg decode_work(reader& r) {
  work_msg m;
  m.sync = get_header(r);
  m.receiver_gets = r.get<int>();
  m.ranges = r.get_ranges();
  m.slices = rest(r);
  return m;
}

bytes encode(const instruction_msg& m) {
  writer w;
  put_header(w, m.sync);
  const core::transfer& t = m.transfer;
  w.put<std::uint64_t>(t.from).put<std::uint64_t>(t.to).put(t.count).put_ranges(t.ranges);
  w.put(m.receiver_gets);
  return w.take();
}

instruction_msg decode_instruction(reader& r) {
  instruction_msg m;
  m.sync = get_header(r);
  core::transfer& t = m.transfer;
  t.from = r.get<std::uint64_t>();
  t.to = r.get<std::uint64_t>();
  t.count = r.get<std::int64_t>();
  t.ranges = r.get_ranges();
  m.receiver_gets = r.get<int>();
  return m;
}

bytes encode(const notice_msg& m) {
  writer w;
  put_header(w, m.sync);
  w.put(m.work_due_total);
  return w.take();
}

notice_msg decode_notice(reader& r) {
  notice_msg m;
  m.sync = get_header(r);
  m.work_due_total = r.get<std::int64_t>();
  return m;
}

bytes encode(const request_msg& m) {
  writer w;
  put_header(w, m.sync);
  w.put(m.done).put(m.speed);
  return w.take();
}

request_msg decode_request(reader& r) {
  request_msg m;
  m.sync = get_header(r);
  m.done = r.get<std::int64_t>();
  m.speed = r.get<double>();
  return m;
}

bytes encode(const chunk_msg& m) {
  writer w;
  put_header(w, m.sync);
  w.put(m.index).put_ranges(m.ranges).put_raw(m.slices.data(), m.slices.size());
  return w.take();
}

chunk_msg decode_chunk(reader& r) {
  chunk_msg m;
  m.sync = get_header(r);
  m.index = r.get<std::int64_t>();
  m.ranges = r.get_ranges();
  m.slices = rest(r);
  return m;
}

bytes encode(const gather_msg& m) {
  writer w;
  w.put(m.loop).put_ranges(m.done);
  put_stats(w, m.stats);
  w.put_raw(m.slices.data(), m.slices.size());
  return w.take();
}

gather_msg decode_gather(reader& r) {
  gather_msg m;
  m.loop = r.get<int>();
  m.done = r.get_ranges();
  m.stats = get_stats(r);
  m.slices = rest(r);
  return m;
}

bytes encode(const lost_msg& m) {
  writer w;
  w.put(m.loop).put<std::uint64_t>(m.slave).put(m.time);
  return w.take();
}

lost_msg decode_lost(reader& r) {
  lost_msg m;
  m.loop = r.get<int>();
  m.slave = static_cast<std::size_t>(r.get<std::uint64_t>());
  m.time = r.get<double>();
  return m;
}

bytes encode(const recover_msg& m) {
  writer w;
  w.put(m.loop).put_ranges(m.ranges).put_raw(m.slices.data(), m.slices.size());
  return w.take();
}

recover_msg decode_recover(reader& r) {
  recover_msg m;
  m.loop = r.get<int>();
  m.ranges = r.get_ranges();
  m.slices = rest(r);
  return m;
}

}  // namespace dlb::protocol
