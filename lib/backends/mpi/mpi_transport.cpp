// mpi_transport.cpp: the seam's transport over MPI (mpi_transport.hpp).
#include "mpi_transport.hpp"

#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <time.h>

#include <algorithm>
#include <csignal>

#include "dlb/runtime/messenger.hpp"

namespace dlb::mpi_detail {

namespace {
volatile std::sig_atomic_t g_terminated = 0;
extern "C" void on_term(int) { g_terminated = 1; }

}  // namespace

bool terminated() { return g_terminated != 0; }

void install_term_handler() {
  struct sigaction sa {};
  sa.sa_handler = on_term;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
}

mpi_transport::mpi_transport(mpi_port& port, int task, std::vector<std::string> hosts)
    : port_(port),
      task_(task),
      hears_exits_(port.layout().tasks_on(port.rank()).front() == task),
      hosts_(std::move(hosts)),
      watched_(hosts_.size(), false) {
  for (const auto& h : hosts_) several_hosts_ = several_hosts_ || h != hosts_.front();
}

void mpi_transport::send(int to, int tag, const bytes& payload, std::size_t) {
  port_.send(task_, to, tag, std::make_shared<const bytes>(payload));
}

void mpi_transport::multicast(std::span<const int> to, int tag, const bytes& payload) {
  const auto body = std::make_shared<const bytes>(payload);
  for (int r : to) port_.send(task_, r, tag, body);
}

std::optional<envelope> mpi_transport::take_exit() {
  if (!hears_exits_) return std::nullopt;
  while (auto r = port_.exited()) {
    if (*r < 0 || static_cast<std::size_t>(*r) >= watched_.size() ||
        !watched_[static_cast<std::size_t>(*r)])
      continue;
    envelope e;
    e.from = *r;
    e.tag = kTaskExitTag;
    return e;
  }
  return std::nullopt;
}

std::optional<envelope> mpi_transport::receive(std::chrono::microseconds bound) {
  // A reply on its way costs no sleep: polls without pause for the first 200 us, then polls and
  // yields the processor (an oversubscribed host runs the other ranks meanwhile) until 2 ms,
  // and only then sleeps between polls, 10 us doubling to at most 200 us
  // (core::next_wait_step).
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + bound;
  std::chrono::microseconds slept(0);
  for (;;) {
    if (auto e = port_.take(task_)) return e;
    // Exits are rare and each peer's check is a system call: looked for at most every 100 us.
    const auto now = std::chrono::steady_clock::now();
    if (now - last_exit_check_ >= std::chrono::microseconds(100)) {
      last_exit_check_ = now;
      if (auto e = take_exit()) held_exits_.push_back({std::move(*e), now + kExitGrace});
    }
    // An exit is told once what the rank sent before it (its abort, saying why) has had its
    // moment to arrive: its connection can close a millisecond before MPI shows its last message.
    if (!held_exits_.empty() && now >= held_exits_.front().due) {
      envelope e = std::move(held_exits_.front().exit);
      held_exits_.erase(held_exits_.begin());
      return e;
    }
    if (terminated())
      throw run_error(describe(task_) +
                      " was ended by mpirun (SIGTERM): another rank of the job ended first; "
                      "mpirun's message names it");
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - now);
    if (left.count() <= 0) return std::nullopt;
    if (port_.hands_back()) {
      // The master's fiber on a rank whose master computes: the thread back to rank 0's slave,
      // whose polls resume it when a message comes (mpi_port.hpp), or after at most a
      // millisecond so that it sees exits and its own deadlines.
      port_.pause(task_, std::min(left, std::chrono::microseconds(1000)));
      continue;
    }
    const core::wait_step step = core::next_wait_step(
        std::chrono::duration_cast<std::chrono::microseconds>(now - start), slept, pacing_);
    if (step.what == core::wait_step::kind::yield) {
      sched_yield();
    } else if (step.what == core::wait_step::kind::sleep) {
      slept = step.sleep;
      port_.pause(task_, std::min(step.sleep, left));
    }
  }
}

bool mpi_transport::probe() { return port_.waiting(task_); }

std::string mpi_transport::describe(int rank) const {
  std::string s = rank == 0 ? "the master" : "slave " + std::to_string(rank);
  if (rank < 0 || rank >= size()) return s;
  s += " (MPI rank " + std::to_string(port_.layout().rank_of(rank));
  if (several_hosts_) s += " on " + hosts_[static_cast<std::size_t>(rank)];
  return s + ")";
}

void mpi_transport::watch(std::span<const int> ranks) {
  for (int r : ranks) watched_.at(static_cast<std::size_t>(r)) = true;
}

void mpi_transport::kill(int) noexcept {
  // MPI cannot end a single rank: after a failed run the launcher ends the job (MPI_Abort).
}

void mpi_transport::await_exit(std::span<const int>) {
  // The ranks leave together in settle() and MPI_Finalize, bounded there.
}

}  // namespace dlb::mpi_detail
