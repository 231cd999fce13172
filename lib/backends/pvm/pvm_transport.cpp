// pvm_transport.cpp: the seam's transport over PVM.
#include "backends/pvm/pvm_transport.hpp"

#include <pvm3.h>

#include <sstream>

namespace dlb {

pvm_transport::pvm_transport(pvm::session& s, std::vector<pvm::tid> tids, int my_rank)
    : s_(s), tids_(std::move(tids)), rank_(my_rank) {}

namespace {
std::span<const unsigned char> as_uchar(const bytes& b) {
  return {reinterpret_cast<const unsigned char*>(b.data()), b.size()};
}
}  // namespace

// A message to a task that has exited is dropped, as PVM itself drops one to a task that
// exits after first contact (the session's first-contact check raises PvmNoTask instead): the
// runtime learns of the exit from the task-exit notice (watch), which is what it acts on, the
// same under every backend (the simulator drops such messages too). A task whose host has been
// deleted from the virtual machine is gone the same way: the first-contact check then raises
// PvmHostFail (seen when a slave first wrote to a group member on a host just deleted).
namespace {
bool task_gone(const pvm::error& e) { return e.code() == PvmNoTask || e.code() == PvmHostFail; }
}  // namespace

void pvm_transport::send(int to, int tag, const bytes& payload, std::size_t) {
  auto b = s_.buffer(pvm::encoding::raw);
  b.pack(static_cast<std::uint64_t>(payload.size()), as_uchar(payload));
  try {
    s_.send(tids_.at(static_cast<std::size_t>(to)), pvm::tag{tag}, b);
  } catch (const pvm::error& e) {
    if (!task_gone(e)) throw;
  }
}

void pvm_transport::multicast(std::span<const int> to, int tag, const bytes& payload) {
  std::vector<pvm::tid> dest;
  for (int r : to) dest.push_back(tids_.at(static_cast<std::size_t>(r)));
  auto b = s_.buffer(pvm::encoding::raw);
  b.pack(static_cast<std::uint64_t>(payload.size()), as_uchar(payload));
  try {
    s_.multicast(dest, pvm::tag{tag}, b);
  } catch (const pvm::error& e) {
    if (!task_gone(e)) throw;
    // One of them has exited (nothing was sent): to each of the others alone.
    for (int r : to) send(r, tag, payload, payload.size());
  }
}

int pvm_transport::rank_of(pvm::tid t) const {
  for (std::size_t i = 0; i < tids_.size(); ++i) {
    if (tids_[i] == t) return static_cast<int>(i);
  }
  return -1;
}

std::optional<envelope> pvm_transport::receive(std::chrono::microseconds bound) {
  auto m = bound.count() > 0 ? s_.recv_for(bound) : s_.try_recv();
  if (!m) return std::nullopt;
  envelope e;
  e.tag = m->tag().value;
  if (e.tag == kTaskExitTag) {
    e.from = rank_of(s_.exited_task(*m));
    return e;
  }
  e.from = rank_of(m->sender());
  auto n = m->get<std::uint64_t>();
  if (n > static_cast<std::uint64_t>(m->bytes())) throw wire_error("PVM message with a bad length");
  e.payload.resize(static_cast<std::size_t>(n));
  std::span<unsigned char> into(reinterpret_cast<unsigned char*>(e.payload.data()),
                                e.payload.size());
  m->unpack(into);
  return e;
}

bool pvm_transport::probe() { return s_.probe().has_value(); }

std::string pvm_transport::describe(int rank) const {
  std::ostringstream os;
  if (rank == 0) {
    os << "the master";
  } else {
    os << "slave " << rank;
  }
  if (rank >= 0 && static_cast<std::size_t>(rank) < tids_.size()) {
    const pvm::tid t = tids_[static_cast<std::size_t>(rank)];
    os << " (PVM task " << t;
    // On a virtual machine of several hosts, name the host (a lost workstation, a slow one).
    try {
      if (s_.hosts().size() > 1) os << " on " << s_.host_of(t);
    } catch (const pvm::error&) {
    }
    os << ")";
  }
  return os.str();
}

void pvm_transport::watch(std::span<const int> ranks) {
  std::vector<pvm::tid> t;
  for (int r : ranks) t.push_back(tids_.at(static_cast<std::size_t>(r)));
  s_.notify_exit(t, pvm::tag{kTaskExitTag});
}

void pvm_transport::kill(int rank) noexcept {
  try {
    s_.kill(tids_.at(static_cast<std::size_t>(rank)));
  } catch (const std::exception&) {
  }
}

void pvm_transport::await_exit(std::span<const int> ranks) {
  // Bounded: a task that does not exit within 5 s is killed with the virtual machine anyway.
  std::size_t gone = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (gone < ranks.size() && std::chrono::steady_clock::now() < deadline) {
    auto e = receive(std::chrono::milliseconds(50));
    if (e && e->tag == kTaskExitTag) ++gone;
  }
}

}  // namespace dlb
